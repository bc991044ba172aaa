// sgemm_extra_barriers.cu: K-loops with more barriers than the two a tile needs, as ECE408
// convolutions and generated code write them: a barrier between A's copies and B's (`As = ..;
// __syncthreads(); Bs = ..;`), which orders nothing (the copies after it write another tile and
// read none), and a barrier right after another one. The rewrite's own barriers keep the
// stages apart, and it leaves these out (three barriers a tile each, so that the SASS check
// reads one tile an iteration of the original). neg: a barrier between copies into one tile, or before
// a local of B's copies that reads A's tile, orders them (tests/cli/barriers-between-copies).
// pipefy-golden: tma bulk ws ws-cp.async
// pipefy-args: --arch=sm_90
// Usage: sgemm_extra_barriers [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 48 32 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void sgemm_barrier_between_copies(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < K / TS) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + t * TS + tx], sizeof(float));
                int brow = t * TS + ty;
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[brow * N + col], sizeof(float));
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
        for (int t = 0; t < K / TS; ++t) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}

__global__ void sgemm_barrier_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < K / TS) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + t * TS + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(t * TS + ty) * N + col], sizeof(float));
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
        for (int t = 0; t < K / TS; ++t) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_barrier_between_copies", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_barrier_between_copies<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_barrier_twice", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_barrier_twice<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
