// sgemm_struct_params.cu: the global pointers and sizes in a struct passed by value, as many
// libraries pass a kernel's arguments; the copies read p.A[...] and p.B[...], guarded (a
// partial last tile), so cp.async's fallback address is the member p.A, not the struct.
// Usage: sgemm_struct_params [M N K].
// gpu-runs: 20 24 0 | 20 24 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

struct GemmArgs {
    const float *A, *B;
    float *C;
    int M, N, K;
};

__global__ void sgemm_struct_params(GemmArgs p)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < p.K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (row < p.M && k0 + tx < p.K) ? &p.A[row * p.K + k0 + tx] : p.A, sizeof(float), (row < p.M && k0 + tx < p.K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (k0 + ty < p.K && col < p.N) ? &p.B[(k0 + ty) * p.N + col] : p.B, sizeof(float), (k0 + ty < p.K && col < p.N) ? 0 : sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < p.K; k0 += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (row < p.M && col < p.N)
        p.C[row * p.N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_struct_params", M, N, K, [&](const float *A, const float *B, float *C) {
        GemmArgs p = {A, B, C, M, N, K};
        sgemm_struct_params<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(p);
    }, 1e-4, 1e-4);
}
