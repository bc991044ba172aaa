// neg_copy_loop_locals.cu: a copy loop whose body declares the column it loads from the K-loop's
// variable (`int c = k0 + tx;`). Staged in registers, the loop's body runs again for the stores,
// after the compute: pipefy once wrote such a rewrite with the stores reading a `k0` they did not
// have (its own validation rejected it), and in the second kernel, whose loop variable is
// declared before the loop, the current tile's `k0` (tile t+1's columns stored where tile t's
// parity says: a miscompile the CPU model shows, the checksum differs). The stores now declare
// the loop variables of the tile they store (pipefy_tile_k0, set by the fetch): both kernels
// take ldg x2, and the goldens run bit-identical to the originals.
// Both run, the second averaging its product with the first's (exact: (x + x) / 2 = x).
// Usage: neg_copy_loop_locals [M N K] (multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 96 | 256 256 256
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 32

__global__ void copy_loop_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[4] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int r = 0; r < 4; ++r) {
                    int c = k0 + tx;
                    __pipeline_memcpy_async(&As[pipefy_dst][ty + 8 * r][tx], &A[(row0 + ty + 8 * r) * K + c], sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 8 * r][tx], &B[(k0 + ty + 8 * r) * N + col], sizeof(float));
                }
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
            for (int r = 0; r < 4; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

// A's columns stored swapped pairwise on odd tiles, and read back the same way: the product is
// unchanged, so long as each tile is stored and read with its own parity
__global__ void copy_loop_locals_outer(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[4] = {};
    int k0;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int r = 0; r < 4; ++r) {
                    int c = tx ^ ((k0 / TILE) & 1);
                    __pipeline_memcpy_async(&As[pipefy_dst][ty + 8 * r][c], &A[(row0 + ty + 8 * r) * K + k0 + tx], sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 8 * r][tx], &B[(k0 + ty + 8 * r) * N + col], sizeof(float));
                }
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
        for (k0 = 0; k0 < K; k0 += TILE) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int r = 0; r < 4; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k ^ ((k0 / TILE) & 1)] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + ty + 8 * r) * N + col] = 0.5f * (C[(row0 + ty + 8 * r) * N + col] + acc[r]);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_copy_loop_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_loop_locals<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
        copy_loop_locals_outer<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
