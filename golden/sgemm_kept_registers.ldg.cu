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
    __shared__ __align__(16) float As[2][TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 R[4];
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        float4 pipefy_kept1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            pipefy_kept1 = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            R[0] = pipefy_kept0;
            R[1] = pipefy_kept1;
            As[pipefy_dst][ak][am] = R[0].x;
            As[pipefy_dst][ak + 1][am] = R[0].y;
            As[pipefy_dst][ak + 2][am] = R[0].z;
            As[pipefy_dst][ak + 3][am] = R[0].w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = R[1];
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k) {
                R[0] = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
                R[2] = make_float4(Bs[pipefy_stage][k][threadIdx.x * 2], Bs[pipefy_stage][k][threadIdx.x * 2 + 1], 0.0f, 0.0f);
                acc[0][0] += R[0].x * R[2].x;
                acc[0][1] += R[0].x * R[2].y;
                acc[1][0] += R[0].y * R[2].x;
                acc[1][1] += R[0].y * R[2].y;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

// a TILE x TILE block, one element of A and one of B a thread: the compute takes its own
// thread's elements from the registers, the others' from the tiles
__global__ void sgemm_kept_read(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float a = 0.0f, b = 0.0f, acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_kept0;
        float pipefy_kept1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = A[row * K + t * TILE + tx];
            pipefy_kept1 = B[(t * TILE + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            a = pipefy_kept0;
            b = pipefy_kept1;
            As[pipefy_dst][ty][tx] = a;
            Bs[pipefy_dst][ty][tx] = b;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k)
                acc += (k == tx ? a : As[pipefy_stage][ty][k]) * (k == ty ? b : Bs[pipefy_stage][k][tx]);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc + (a - a);
}

// the same, the loads through MEM2REG
__global__ void sgemm_kept_macro(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 R[4];
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        float4 pipefy_kept1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            MEM2REG(pipefy_kept0, &A[(row0 + am) * K + t * TILE + ak]);
            MEM2REG(pipefy_kept1, &B[(t * TILE + bk) * N + col0 + bn]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            R[0] = pipefy_kept0;
            R[1] = pipefy_kept1;
            As[pipefy_dst][ak][am] = R[0].x;
            As[pipefy_dst][ak + 1][am] = R[0].y;
            As[pipefy_dst][ak + 2][am] = R[0].z;
            As[pipefy_dst][ak + 3][am] = R[0].w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = R[1];
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k) {
                R[0] = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
                R[2] = make_float4(Bs[pipefy_stage][k][threadIdx.x * 2], Bs[pipefy_stage][k][threadIdx.x * 2 + 1], 0.0f, 0.0f);
                acc[0][0] += R[0].x * R[2].x;
                acc[0][1] += R[0].x * R[2].y;
                acc[1][0] += R[0].y * R[2].x;
                acc[1][1] += R[0].y * R[2].y;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
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
