// nvcc_alignas_shared.cu: tiles declared `__shared__ alignas(16) float As[..]`, which nvcc
// accepts and clang rejects ("an attribute list cannot appear here"): pipefy parses the file
// with each such pair swapped (same length, same offsets) and edits it as written. The copies
// are float4 vectors, which need the 16-byte alignment. Usage: nvcc_alignas_shared [M N K]
// (M, N multiples of 32, K of 16).
// gpu-runs: 32 32 0 | 32 32 16 | 64 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 64 32 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define BM 32
#define BK 16

__global__ void nvcc_alignas_shared(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    __shared__ alignas(16) float As[2][BM][BK];
    __shared__ alignas(alignof(float4)) float Bs[2][BK][BM];
    int t = threadIdx.x;            // 128 threads: one float4 of A's tile and one of B's each
    int ar = t / 4, ac = t % 4 * 4; // A: 32 rows of 4 float4
    int br = t / 8, bc = t % 8 * 4; // B: 16 rows of 8 float4
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    int r = t / 4, c = t % 4 * 8;   // each thread computes 8 outputs of one row
    float acc[8] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async((float4 *)&As[pipefy_dst][ar][ac], (const float4 *)&A[(row0 + ar) * K + k0 + ac], sizeof(float4));
                __pipeline_memcpy_async((float4 *)&Bs[pipefy_dst][br][bc], (const float4 *)&B[(k0 + br) * N + col0 + bc], sizeof(float4));
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
            for (int k = 0; k < BK; ++k)
                for (int j = 0; j < 8; ++j)
                    acc[j] += As[pipefy_stage][r][k] * Bs[pipefy_stage][k][c + j];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int j = 0; j < 8; ++j)
        C[(row0 + r) * N + col0 + c + j] = acc[j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nvcc_alignas_shared", M, N, K, [&](const float *A, const float *B, float *C) {
        nvcc_alignas_shared<<<dim3(N / BM, M / BM), 128>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
