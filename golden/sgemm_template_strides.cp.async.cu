// sgemm_template_strides.cu: a block-tiled SGEMM template whose copy loops step by a stride
// computed through a chain of const locals of the template's parameters (`const uint
// total_results = BM * BN; const uint threads = total_results / (TM * TN); const uint stride_A =
// threads / BK;`, as public 2D block-tiling kernels write it): a trip count the instantiation
// fixes, so the copies are staged in registers sized by the same expressions (the build before
// followed constants only 8 operators deep and left the loop as written).
// Usage: sgemm_template_strides [M N K] (multiples of 64)
// gpu-runs: 64 64 0 | 64 64 8 | 64 64 24 | 128 128 64 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 24
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

typedef unsigned int uint;

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    blocktile_2d(const float *A, const float *B, float *C, int M, int N, int K)
{
    const uint total_results = BM * BN;
    const uint threads = total_results / (TM * TN);
    const uint inner_row_A = threadIdx.x / BK, inner_col_A = threadIdx.x % BK;
    const uint stride_A = threads / BK;
    const uint inner_row_B = threadIdx.x / BN, inner_col_B = threadIdx.x % BN;
    const uint stride_B = threads / BN;
    const uint thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
    __shared__ float As[2][BM * BK];
    __shared__ float Bs[2][BK * BN];
    float acc[TM * TN] = {0.0f};
    A += blockIdx.y * BM * K;
    B += blockIdx.x * BN;
    C += blockIdx.y * BM * N + blockIdx.x * BN;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        uint pipefy_next_k0 = 0;
        const float *pipefy_next_A = A;
        const float *pipefy_next_B = B;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            uint k0 = pipefy_next_k0;
            const float *A = pipefy_next_A;
            const float *B = pipefy_next_B;
            if (k0 < K) {
                for (uint off = 0; off < BM; off += stride_A)
                    __pipeline_memcpy_async(&As[pipefy_dst][(inner_row_A + off) * BK + inner_col_A], &A[(inner_row_A + off) * K + inner_col_A], sizeof(float));
                for (uint off = 0; off < BK; off += stride_B)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][(inner_row_B + off) * BN + inner_col_B], &B[(inner_row_B + off) * N + inner_col_B], sizeof(float));
                A += BK;
                B += BK * N;
                k0 += BK;
                pipefy_next_k0 = k0;
                pipefy_next_A = A;
                pipefy_next_B = B;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (uint k0 = 0; k0 < K; k0 += BK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            A += BK;
            B += BK * N;
            for (uint k = 0; k < BK; ++k)
                for (uint m = 0; m < TM; ++m)
                    for (uint n = 0; n < TN; ++n)
                        acc[m * TN + n] += As[pipefy_stage][(thread_row * TM + m) * BK + k] * Bs[pipefy_stage][k * BN + thread_col * TN + n];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (uint m = 0; m < TM; ++m)
        for (uint n = 0; n < TN; ++n)
            C[(thread_row * TM + m) * N + thread_col * TN + n] = acc[m * TN + n];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_template_strides", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_2d<64, 64, 8, 4, 4><<<dim3(N / 64, M / 64), 64 * 64 / 16>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
