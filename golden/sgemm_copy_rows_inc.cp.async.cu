// sgemm_copy_rows_inc.cu: copy loops over a thread's rows counted with `++r` and `r++`
// (a 32 x 32 tile, a block of 32 x 8 threads, four rows each, `constexpr` trip count), the
// first under `#pragma unroll`: the register variant stages one register per trip as for
// `r += S`, with S = 1 (the pragma stays, before the loop over the trips).
// Usage: sgemm_copy_rows_inc [M N K] (multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 32 32 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void copy_rows_inc(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
#pragma unroll
                for (int r = 0; r < ROWS; ++r)
                    __pipeline_memcpy_async(&As[pipefy_dst][ty + 8 * r][tx], &A[(row0 + ty + 8 * r) * K + k0 + tx], sizeof(float));
                for (int r = 0; r < ROWS; r++)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 8 * r][tx], &B[(k0 + ty + 8 * r) * N + col], sizeof(float));
                k0 += TILE;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TILE) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int r = 0; r < ROWS; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_copy_rows_inc", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_rows_inc<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
