// neg_helper_twice.cu: both tiles are filled by two calls of one __device__ helper. When only
// a single fill call was pipelined, the second call was a write pipefy must not leave in the
// compute without its barrier (it once did), and the loop was left alone. Calls in a row are
// fill helpers together now: --variant=cp.async calls an asynchronous copy of the helper twice;
// auto still leaves the loop (4-byte copies: cp.async lost on the H200, and registers would
// need the helper split).
// Usage: neg_helper_twice [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16
__device__ void load_one(float (*S)[TS], const float *G, int r, int c, int ld)
{
    S[threadIdx.y][threadIdx.x] = G[r * ld + c];
}

// pipefy: 'load_one' with its copies made asynchronous (cp.async), for the pipelined loop that calls it
__device__ void load_one_pipefy_async(float (*S)[TS], const float *G, int r, int c, int ld)
{
    __pipeline_memcpy_async(&S[threadIdx.y][threadIdx.x], &G[r * ld + c], sizeof(float));
}

__global__ void helper_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                load_one_pipefy_async(As[pipefy_dst], A, row, k0 + tx, K);
                load_one_pipefy_async(Bs[pipefy_dst], B, k0 + ty, col, N);
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TS) {
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
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_helper_twice", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_twice<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
