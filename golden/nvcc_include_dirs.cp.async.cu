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
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

__global__ void sgemm_include_dirs(const gemm_t *A, const gemm_t *B, gemm_t *C, int M, int N, int K)
{
    __shared__ gemm_t As[2][GEMM_TILE][GEMM_TILE];
    __shared__ gemm_t Bs[2][GEMM_TILE][GEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * GEMM_TILE + ty, col = blockIdx.x * GEMM_TILE + tx;
    gemm_t acc = 0;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(gemm_t));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(gemm_t));
                k0 += GEMM_TILE;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += GEMM_TILE) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < GEMM_TILE; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
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
