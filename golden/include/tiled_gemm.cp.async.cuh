// tiled_gemm.cuh: a kernel in a header, the way libraries ship them. It and gemm_epilogue.cuh
// include each other behind #pragma once; given to pipefy as the input, the cycle must end
// where nvcc's does. nvcc_header_kernel.cu launches it.
#pragma once
#include "gemm_epilogue.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define HT 16

__global__ void sgemm_in_header(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][HT][HT];
    __shared__ float Bs[2][HT][HT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * HT + ty, col = blockIdx.x * HT + tx;
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
                k0 += HT;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += HT) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < HT; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    store_result(C, row * N + col, acc);
}
