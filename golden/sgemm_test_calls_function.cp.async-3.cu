// sgemm_test_calls_function.cu: the K-loop's test calls a function of the program,
// `t < tiles_of(K)`, that computes from its argument alone; the loader asks it a tile early.
// Guarded copies, any K. Usage: sgemm_test_calls_function [M N K] (M, N multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 1 | 32 32 17 | 32 32 48 | 96 64 100 | 512 512 512
// gpu-sanitize: 32 32 17
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 16

__host__ __device__ inline int tiles_of(int k)
{
    return k / TILE + (k % TILE != 0 ? 1 : 0);
}

__global__ void sgemm_test_calls_function(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TILE][TILE];
    __shared__ float Bs[3][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < tiles_of(K)) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (t * TILE + tx < K) ? &A[row * K + t * TILE + tx] : A, sizeof(float), (t * TILE + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (t * TILE + ty < K) ? &B[(t * TILE + ty) * N + col] : B, sizeof(float), (t * TILE + ty < K) ? 0 : sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < tiles_of(K); ++t) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TILE; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
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
    return harness_gemm<float, float>("sgemm_test_calls_function", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_test_calls_function<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
