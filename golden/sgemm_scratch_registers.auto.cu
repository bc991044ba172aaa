// sgemm_scratch_registers.cu: the copies go through float4 registers declared before the loop
// (`Av = *(const float4 *)&A[i]; ... As[..] = Av.x;`), and the compute uses the same registers
// again as scratch for what it reads from the tiles (`Av = make_float4(As[k][..], ..)`), as the
// "vectorized" SGEMMs of several tutorials do. The compute assigns them whole before it reads
// them, on every way through (each trip of its loop; both branches of an if in the second
// kernel), so the loaded value is only the copies': pipefy gives the load and the copies a
// register of their own (`pipefy_reg_Av`) and loads it a tile early.
// Usage: sgemm_scratch_registers [M N K] (multiples of TILE).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32

// a 16 x 16 block: each thread loads one float4 of A and one of B per tile and computes 2 x 2
__global__ void sgemm_scratch(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_reg_Av;
        float4 pipefy_reg_Bv;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_reg_Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            pipefy_reg_Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = pipefy_reg_Av.x;
            As[pipefy_dst][ak + 1][am] = pipefy_reg_Av.y;
            As[pipefy_dst][ak + 2][am] = pipefy_reg_Av.z;
            As[pipefy_dst][ak + 3][am] = pipefy_reg_Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = pipefy_reg_Bv;
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
                Av = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
                Bv = make_float4(Bs[pipefy_stage][k][threadIdx.x * 2], Bs[pipefy_stage][k][threadIdx.x * 2 + 1], 0.0f, 0.0f);
                acc[0][0] += Av.x * Bv.x;
                acc[0][1] += Av.x * Bv.y;
                acc[1][0] += Av.y * Bv.x;
                acc[1][1] += Av.y * Bv.y;
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

// the same, the scratch assigned in both branches of an if before it is read
__global__ void sgemm_scratch_branches(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_reg_Av;
        float4 pipefy_reg_Bv;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_reg_Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            pipefy_reg_Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = pipefy_reg_Av.x;
            As[pipefy_dst][ak + 1][am] = pipefy_reg_Av.y;
            As[pipefy_dst][ak + 2][am] = pipefy_reg_Av.z;
            As[pipefy_dst][ak + 3][am] = pipefy_reg_Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = pipefy_reg_Bv;
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
                if (k % 2 == 0)
                    Av = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
                else
                    Av = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 1.0f, 1.0f);
                Bv = *(const float4 *)&Bs[pipefy_stage][k][(threadIdx.x * 2) & ~3];
                float b0 = (threadIdx.x & 1) ? Bv.z : Bv.x, b1 = (threadIdx.x & 1) ? Bv.w : Bv.y;
                acc[0][0] += Av.x * b0;
                acc[0][1] += Av.x * b1;
                acc[1][0] += Av.y * b0;
                acc[1][1] += Av.y * b1;
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

// the same, A's register loaded twice (the first load dead): both loads take the shadow, the
// copies are renamed once (the build before renamed them once per load and crashed)
__global__ void sgemm_scratch_reloaded(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_reg_Av;
        float4 pipefy_reg_Bv;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_reg_Av = *(const float4 *)&A[(row0 + am) * K + t * TILE];
            pipefy_reg_Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            pipefy_reg_Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = pipefy_reg_Av.x;
            As[pipefy_dst][ak + 1][am] = pipefy_reg_Av.y;
            As[pipefy_dst][ak + 2][am] = pipefy_reg_Av.z;
            As[pipefy_dst][ak + 3][am] = pipefy_reg_Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = pipefy_reg_Bv;
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
                if (k % 2 == 0)
                    Av = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 0.0f, 0.0f);
                else
                    Av = make_float4(As[pipefy_stage][k][threadIdx.y * 2], As[pipefy_stage][k][threadIdx.y * 2 + 1], 1.0f, 1.0f);
                Bv = *(const float4 *)&Bs[pipefy_stage][k][(threadIdx.x * 2) & ~3];
                float b0 = (threadIdx.x & 1) ? Bv.z : Bv.x, b1 = (threadIdx.x & 1) ? Bv.w : Bv.y;
                acc[0][0] += Av.x * b0;
                acc[0][1] += Av.x * b1;
                acc[1][0] += Av.y * b0;
                acc[1][1] += Av.y * b1;
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
    int rc = harness_gemm<float, float>("sgemm_scratch", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_scratch<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_scratch_branches", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_scratch_branches<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_scratch_reloaded", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_scratch_reloaded<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
