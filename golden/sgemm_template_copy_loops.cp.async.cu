// sgemm_template_copy_loops.cu: copy loops whose trip count a template's instantiation fixes
// (`for (int j = 0; j < (BM * BK) / kThreads; ++j)`, kThreads a constexpr of the parameters, as
// public block-tiled SGEMMs write them): staged in registers sized by the same expression, one a
// trip, in one text for every instantiation. The loops' bodies declare the element from the
// K-loop's variable (`gc = k0 + c`), so the stores declare the loop variables of the tile they
// store. Launched with two instantiations (64x64, 8 rows a thread; 32x32, 4 rows).
// Usage: sgemm_template_copy_loops [M N K]
// ptx-instances: 2
// gpu-runs: 64 64 0 | 64 64 8 | 64 64 24 | 100 90 50 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 100 90 50
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM * BN) / TM)
    blocktile(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C)
{
    constexpr int kThreads = (BM * BN) / TM;
    __shared__ float As[2][BM][BK];
    __shared__ float Bs[2][BK][BN];
    const int tid = threadIdx.x;
    const int threadCol = tid % BN, threadRow = tid / BN;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;
    float acc[TM] = {0.0f};
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
                for (int j = 0; j < (BM * BK) / kThreads; ++j) {
                    const int i = tid + j * kThreads;
                    const int r = i / BK, c = i % BK;
                    const int gr = blockRow + r, gc = k0 + c;
                    __pipeline_memcpy_async(&As[pipefy_dst][r][c], (gr < M && gc < K) ? &A[gr * K + gc] : A, sizeof(float), (gr < M && gc < K) ? 0 : sizeof(float));
                }
#pragma unroll
                for (int j = 0; j < (BK * BN) / kThreads; ++j) {
                    const int i = tid + j * kThreads;
                    const int r = i / BN, c = i % BN;
                    const int gr = k0 + r, gc = blockCol + c;
                    __pipeline_memcpy_async(&Bs[pipefy_dst][r][c], (gr < K && gc < N) ? &B[gr * N + gc] : B, sizeof(float), (gr < K && gc < N) ? 0 : sizeof(float));
                }
                k0 += BK;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += BK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                const float b = Bs[pipefy_stage][k][threadCol];
#pragma unroll
                for (int t = 0; t < TM; ++t)
                    acc[t] += As[pipefy_stage][threadRow * TM + t][k] * b;
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int t = 0; t < TM; ++t) {
        const int row = blockRow + threadRow * TM + t, col = blockCol + threadCol;
        if (row < M && col < N)
            C[row * N + col] = acc[t];
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("blocktile_64x64", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile<64, 64, 8, 8><<<dim3((N + 63) / 64, (M + 63) / 64), 64 * 64 / 8>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("blocktile_32x32", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile<32, 32, 8, 4><<<dim3((N + 31) / 32, (M + 31) / 32), 32 * 32 / 4>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
    return bad;
}
