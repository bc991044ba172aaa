// nvcc_cache_hints.cu: tile copies through cache-hinted loads (__ldg, __ldcg) and stores with
// __stcs on float4, which nvcc overloads for every scalar and vector type and clang 19 does not
// declare at all. pipefy reads `__ldg(&A[i])` as the load of A[i]. Usage: nvcc_cache_hints
// [M N K] (M, N multiples of TS, K a multiple of TS).
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

// Clears C four floats at a time with streaming stores (the GEMM then accumulates into it).
__global__ void clear_streaming(float4 *C4, const float4 *zero4, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        __stcs(&C4[i], __ldcs(&zero4[0]));
}

__global__ void sgemm_cache_hints(const float *__restrict__ A, const float *__restrict__ B, float *C, int M,
                                  int N, int K)
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
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] += acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    float4 *zero4;
    CHECK(cudaMalloc(&zero4, sizeof(float4)));
    CHECK(cudaMemset(zero4, 0, sizeof(float4)));
    int rc = harness_gemm<float, float>("nvcc_cache_hints", M, N, K, [&](const float *A, const float *B, float *C) {
        int n4 = M * N / 4;
        clear_streaming<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<float4 *>(C), zero4, n4);
        dim3 block(TS, TS), grid(N / TS, M / TS);
        sgemm_cache_hints<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    CHECK(cudaFree(zero4));
    return rc;
}
