// sgemm_copy_rows_macro.cu: copy loops over tile rows strided by BY, a macro the build may
// redefine (`#ifndef BY`); the nvcc tests build it with -DBY=4 while pipefy parses BY as 8.
// The register variant's trip count must be written as the bound and stride are written,
// never as the number pipefy evaluated (it once baked 2 trips where 4 were needed).
// Usage: sgemm_copy_rows_macro [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
// nvcc-args: -DBY=4
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16
#ifndef BY
#define BY 8
#endif

__global__ void copy_rows(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;
    float acc[TS / BY] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int r = ty; r < TS; r += BY)
                    __pipeline_memcpy_async(&As[pipefy_dst][r][tx], &A[(row0 + r) * K + k0 + tx], sizeof(float));
                for (int r = ty; r < TS; r += BY)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][r][tx], &B[(k0 + r) * N + col], sizeof(float));
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
            for (int i = 0; i < TS / BY; ++i)
                for (int k = 0; k < TS; ++k)
                    acc[i] += As[pipefy_stage][ty + i * BY][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int i = 0; i < TS / BY; ++i)
        C[(row0 + ty + i * BY) * N + col] = acc[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_copy_rows_macro", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_rows<<<dim3(N / TS, M / TS), dim3(TS, BY)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
