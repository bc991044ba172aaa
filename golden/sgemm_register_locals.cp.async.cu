// sgemm_register_locals.cu: a course-style tiled SGEMM whose counters and indices are declared
// `register`, as older code wrote them (C++17 removed the keyword; nvcc still compiles it, with
// a warning). A K-loop whose tile count is not a multiple, guarded copies with a zero else.
// Usage: sgemm_register_locals [M N K] (M, N multiples of TILE; any K).
// gpu-runs: 64 64 0 | 64 64 1 | 64 64 17 | 64 64 48 | 128 96 100 | 512 512 512
// gpu-sanitize: 64 64 17
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 16

__global__ void sgemm_register_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    register int tx = threadIdx.x, ty = threadIdx.y;
    register int row = blockIdx.y * TILE + ty;
    register int col = blockIdx.x * TILE + tx;
    register float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_m = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int m = pipefy_next_m;
            if (m < (K + TILE - 1) / TILE) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (m * TILE + tx < K) ? &A[row * K + m * TILE + tx] : A, sizeof(float), (m * TILE + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (m * TILE + ty < K) ? &B[(m * TILE + ty) * N + col] : B, sizeof(float), (m * TILE + ty < K) ? 0 : sizeof(float));
                ++m;
                pipefy_next_m = m;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (register int m = 0; m < (K + TILE - 1) / TILE; ++m) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (register int k = 0; k < TILE; ++k)
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
    return harness_gemm<float, float>("sgemm_register_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_register_locals<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
