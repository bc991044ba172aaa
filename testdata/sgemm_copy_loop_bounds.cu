// sgemm_copy_loop_bounds.cu: copy loops whose trip count is fixed but not written as `i < N`
// with a constant N and S. blocktile_1d (a template, two instantiations) strides by locals that
// are not const but hold one value (`int a_stride = thread_num / BK;`) and tests
// `off + b_stride <= BK` on an unsigned counter; rows_le tests `r <= TILE - 1` and
// `r + 1 <= ROWS`, stepping by a local set once. The register variant sizes its staging
// registers by each loop's trips, the locals replaced by their values (an array's size must be a
// constant expression). halves tests `i / 2 < ...`, which runs twice the trips `i < ...` would:
// register staging leaves it as written (it once sized the registers for half of them).
// nested copies a 2 x 2 block of each tile per thread through two loops, the inner one the outer
// one's whole body, braced or not: registers [outer trip][inner trip]. Usage: sgemm_copy_loop_bounds [M N K] (multiples of 64, K of 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
#include "harness.cuh"

template <int BM, int BN, int BK, int TM>
__global__ void blocktile_1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    int thread_num = BM * BN / TM;  // the block size, though not declared const
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int tid = threadIdx.x;
    int tx = tid % BN, ty = tid / BN * TM;
    int a_row = tid / BK, a_col = tid % BK, a_stride = thread_num / BK;
    int b_row = tid / BN, b_col = tid % BN, b_stride = thread_num / BN;
    const float *Ab = A + blockIdx.y * BM * K;
    const float *Bb = B + blockIdx.x * BN;
    float acc[TM] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = 0; i < BM; i += a_stride)
            As[(a_row + i) * BK + a_col] = Ab[(a_row + i) * K + k0 + a_col];
        for (unsigned off = 0; off + b_stride <= BK; off += b_stride)
            Bs[(b_row + off) * BN + b_col] = Bb[(k0 + b_row + off) * N + b_col];
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float b = Bs[k * BN + tx];
            for (int m = 0; m < TM; ++m)
                acc[m] += As[(ty + m) * BK + k] * b;
        }
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        C[(blockIdx.y * BM + ty + m) * N + blockIdx.x * BN + tx] = acc[m];
}

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void rows_le(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int stride = 8;  // blockDim.y
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int r = ty; r <= TILE - 1; r += stride)
            As[r][tx] = A[(row0 + r) * K + k0 + tx];
        for (int r = 0; r + 1 <= ROWS; ++r)
            Bs[ty + 8 * r][tx] = B[(k0 + ty + 8 * r) * N + col];
        __syncthreads();
        for (int r = 0; r < ROWS; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[ty + 8 * r][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

__global__ void halves(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE * TILE];
    __shared__ float Bs[TILE * TILE];
    int tid = threadIdx.x, tx = tid % TILE, ty = tid / TILE;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[ROWS] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int i = tid; i / 2 < TILE * TILE / 2; i += 256)  // 4 trips of 256 threads
            As[i] = A[(row0 + i / TILE) * K + k0 + i % TILE];
        for (int i = tid; i < TILE * TILE; i += 256)
            Bs[i] = B[(k0 + i / TILE) * N + col0 + i % TILE];
        __syncthreads();
        for (int r = 0; r < ROWS; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[(ty + 8 * r) * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col0 + tx] = acc[r];
}

__global__ void nested(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;  // 16 x 16
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                As[ty * 2 + i][tx * 2 + j] = A[(row0 + ty * 2 + i) * K + k0 + tx * 2 + j];
        for (int i = 0; i < 2; ++i) {
#pragma unroll
            for (int j = 0; j < 2; j++) {
                Bs[ty * 2 + i][tx * 2 + j] = B[(k0 + ty * 2 + i) * N + col0 + tx * 2 + j];
            }
        }
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    acc[i][j] += As[ty * 2 + i][k] * Bs[k][tx * 2 + j];
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + ty * 2 + i) * N + col0 + tx * 2 + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    // 256 threads: 4 trips of each copy loop
    bad |= harness_gemm<float, float>("blocktile_1d<64,64,16,16>", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_1d<64, 64, 16, 16><<<dim3(N / 64, M / 64), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    // 512 threads: one trip each
    bad |= harness_gemm<float, float>("blocktile_1d<64,64,8,8>", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_1d<64, 64, 8, 8><<<dim3(N / 64, M / 64), 512>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("rows_le", M, N, K, [&](const float *A, const float *B, float *C) {
        rows_le<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("halves", M, N, K, [&](const float *A, const float *B, float *C) {
        halves<<<dim3(N / TILE, M / TILE), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("nested", M, N, K, [&](const float *A, const float *B, float *C) {
        nested<<<dim3(N / TILE, M / TILE), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
