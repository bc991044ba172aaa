// sgemm_other_array_view.cu: the compute reads a __shared__ array that is no tile of the loop
// (filled once before it) through a pointer it declares each tile (`const float *w = one;`):
// the rewrite stages the tiles and leaves that array, and the address kept in the pointer, as
// they were. The weights are ones, so the product is A*B.
// Usage: sgemm_other_array_view [M N K]
// gpu-runs: 16 16 0 | 16 16 5 | 17 33 31 | 64 64 64 | 100 70 45 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 17 33 31
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void weighted_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS], Bs[3][TS][TS];
    __shared__ float one[TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (ty == 0)
        one[tx] = 1.0f;
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
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (row < M && k0 + tx < K) ? &A[row * K + k0 + tx] : A, sizeof(float), (row < M && k0 + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (col < N && k0 + ty < K) ? &B[(k0 + ty) * N + col] : B, sizeof(float), (col < N && k0 + ty < K) ? 0 : sizeof(float));
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
            const float *w = one;
            for (int k = 0; k < TS; ++k)
                acc += w[k] * As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("weighted_view", M, N, K, [&](const float *A, const float *B, float *C) {
        weighted_view<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
