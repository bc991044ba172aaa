// nvcc_include_dirs.cu: a header found only in the project's include/ folder (pipefy looks
// beside the file, in its parents up to the repository root, and in include/, src/ and common/
// next to each) and macros defined on the command line. Usage: nvcc_include_dirs [M N K]
// (multiples of 16).
// pipefy-args: -DUSE_FP32 -DWARPSIZE=32
// nvcc-args: -DUSE_FP32 -DWARPSIZE=32
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include "harness.cuh"
#include "gemm_config.h"

__global__ void sgemm_include_dirs(const gemm_t *A, const gemm_t *B, gemm_t *C, int M, int N, int K)
{
    __shared__ gemm_t As[2][GEMM_TILE][GEMM_TILE];
    __shared__ gemm_t Bs[2][GEMM_TILE][GEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * GEMM_TILE + ty, col = blockIdx.x * GEMM_TILE + tx;
    gemm_t acc = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        gemm_t pipefy_reg0;
        gemm_t pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += GEMM_TILE;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[row * K + k0 + tx];
            pipefy_reg1 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += GEMM_TILE) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < GEMM_TILE; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nvcc_include_dirs", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(GEMM_TILE, GEMM_TILE), grid(N / GEMM_TILE, M / GEMM_TILE);
        sgemm_include_dirs<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
