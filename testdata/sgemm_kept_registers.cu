// sgemm_kept_registers.cu: the copies go through registers the compute reads again after them,
// as HackGiter's CUDA-MULMATRIX kernels do (`CO[0] = *((float4 *)A); .. sa[..] = CO[0]; ..` and
// then `CO[0] = *(float4 *)&sa[..]` in the compute, CO an array of the kernel): the loaded value
// is not only the copies'. pipefy loads a register of its own a tile early (`pipefy_kept0`) and
// keeps the statement where the stash stores the copies, assigning the local from it
// (`R[0] = pipefy_kept0;`): the local takes the same values in the same order as written. The
// second kernel's compute reads the loaded value itself (`k == tx ? a : As[ty][k]`): a tile
// early, it would see the next tile's. The third loads through a macro whose whole expansion is
// the assignment, `MEM2REG(R[0], p)` for `R[0] = *(const float4 *)(p)`, as HackGiter's
// mulMatrixKernelX does: the fetch writes `MEM2REG(pipefy_kept0, p)`, the stash `R[0] =
// pipefy_kept0`.
// Usage: sgemm_kept_registers [M N K] (multiples of TILE).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32
#define MEM2REG(R, M) R = *((const float4 *)(M))

// a 16 x 16 block: each thread loads one float4 of A and one of B per tile into R[0] and R[1]
// and computes 2 x 2, reading the tiles through R as scratch
__global__ void sgemm_kept_array(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 R[4];
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    for (int t = 0; t < K / TILE; ++t) {
        R[0] = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
        R[1] = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
        As[ak][am] = R[0].x;
        As[ak + 1][am] = R[0].y;
        As[ak + 2][am] = R[0].z;
        As[ak + 3][am] = R[0].w;
        *(float4 *)&Bs[bk][bn] = R[1];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            R[0] = make_float4(As[k][threadIdx.y * 2], As[k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
            R[2] = make_float4(Bs[k][threadIdx.x * 2], Bs[k][threadIdx.x * 2 + 1], 0.0f, 0.0f);
            acc[0][0] += R[0].x * R[2].x;
            acc[0][1] += R[0].x * R[2].y;
            acc[1][0] += R[0].y * R[2].x;
            acc[1][1] += R[0].y * R[2].y;
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

// a TILE x TILE block, one element of A and one of B a thread: the compute takes its own
// thread's elements from the registers, the others' from the tiles
__global__ void sgemm_kept_read(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float a = 0.0f, b = 0.0f, acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        a = A[row * K + t * TILE + tx];
        b = B[(t * TILE + ty) * N + col];
        As[ty][tx] = a;
        Bs[ty][tx] = b;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += (k == tx ? a : As[ty][k]) * (k == ty ? b : Bs[k][tx]);
        __syncthreads();
    }
    C[row * N + col] = acc + (a - a);
}

// the same, the loads through MEM2REG
__global__ void sgemm_kept_macro(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 R[4];
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    for (int t = 0; t < K / TILE; ++t) {
        MEM2REG(R[0], &A[(row0 + am) * K + t * TILE + ak]);
        MEM2REG(R[1], &B[(t * TILE + bk) * N + col0 + bn]);
        As[ak][am] = R[0].x;
        As[ak + 1][am] = R[0].y;
        As[ak + 2][am] = R[0].z;
        As[ak + 3][am] = R[0].w;
        *(float4 *)&Bs[bk][bn] = R[1];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            R[0] = make_float4(As[k][threadIdx.y * 2], As[k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
            R[2] = make_float4(Bs[k][threadIdx.x * 2], Bs[k][threadIdx.x * 2 + 1], 0.0f, 0.0f);
            acc[0][0] += R[0].x * R[2].x;
            acc[0][1] += R[0].x * R[2].y;
            acc[1][0] += R[0].y * R[2].x;
            acc[1][1] += R[0].y * R[2].y;
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = harness_gemm<float, float>("sgemm_kept_array", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_kept_array<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_kept_read", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_kept_read<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_kept_macro", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_kept_macro<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
