// neg_copy_loop_start.cu: copy loops that start below 0 for some threads (`for (int i = tid -
// 256; i < 768; i += 256)`, the tile's element at i + 256) run one trip more than ceil(N / S),
// the trips staged registers and unrolled cp.async copies count. pipefy stages a copy loop only
// where it proves the start is never negative; these stay as written (a start from a local the
// kernel assigns again, `first -= 256`, proves nothing either). Built before that fact was
// checked, ldg and cp.async rewrites of both kernels skipped the last quarter of each tile.
// Usage: neg_copy_loop_start [M N K] (multiples of TILE)
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 32

// 256 threads; each computes four rows of one column of the 32 x 32 tile of C
__global__ void __launch_bounds__(256) shifted_start(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tid = threadIdx.x, col = tid % TILE, row = tid / TILE;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < K / TILE) {
                for (int i = tid - 256; i < TILE * TILE - 256; i += 256)
                    __pipeline_memcpy_async(&As[pipefy_dst][(i + 256) / TILE][(i + 256) % TILE], &A[(row0 + (i + 256) / TILE) * K + t * TILE + (i + 256) % TILE], sizeof(float));
                for (int i = tid - 256; i < TILE * TILE - 256; i += 256)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][(i + 256) / TILE][(i + 256) % TILE], &B[(t * TILE + (i + 256) / TILE) * N + col0 + (i + 256) % TILE], sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < K / TILE; ++t) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TILE; ++k)
                for (int r = 0; r < 4; ++r)
                    acc[r] += As[pipefy_stage][row + 8 * r][k] * Bs[pipefy_stage][k][col];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + row + 8 * r) * N + col0 + col] = acc[r];
}

// the same, strided by the block and starting from a local assigned after its declaration
__global__ void __launch_bounds__(256) reassigned_start(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tid = threadIdx.x, col = tid % TILE, row = tid / TILE;
    int first = threadIdx.x;
    first -= 256;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < K / TILE) {
                for (int i = first; i < TILE * TILE - 256; i += blockDim.x)
                    __pipeline_memcpy_async(&As[pipefy_dst][(i + 256) / TILE][(i + 256) % TILE], &A[(row0 + (i + 256) / TILE) * K + t * TILE + (i + 256) % TILE], sizeof(float));
                for (int i = first; i < TILE * TILE - 256; i += blockDim.x)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][(i + 256) / TILE][(i + 256) % TILE], &B[(t * TILE + (i + 256) / TILE) * N + col0 + (i + 256) % TILE], sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < K / TILE; ++t) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TILE; ++k)
                for (int r = 0; r < 4; ++r)
                    acc[r] += As[pipefy_stage][row + 8 * r][k] * Bs[pipefy_stage][k][col];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + row + 8 * r) * N + col0 + col] = acc[r];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("shifted_start", M, N, K, [&](const float *A, const float *B, float *C) {
        shifted_start<<<dim3(N / TILE, M / TILE), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("reassigned_start", M, N, K, [&](const float *A, const float *B, float *C) {
        reassigned_start<<<dim3(N / TILE, M / TILE), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
