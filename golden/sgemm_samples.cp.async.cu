// sgemm_samples.cu: the CUDA samples' matrixMul: template tile size, two induction variables
// in the for header (a += aStep, b += bStep), tiles declared inside the loop body.
// Usage: sgemm_samples [M N K] (multiples of 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const float *A, const float *B, int wA, int wB)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;
    float Csub = 0;

    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        __shared__ float As[2][BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[2][BLOCK_SIZE][BLOCK_SIZE];
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_a = aBegin;
        int pipefy_next_b = bBegin;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int a = pipefy_next_a;
            int b = pipefy_next_b;
            if (a <= aEnd) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[a + wA * ty + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[b + wB * ty + tx], sizeof(float));
                a += aStep, b += bStep;
                pipefy_next_a = a;
                pipefy_next_b = b;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
#pragma unroll
            for (int k = 0; k < BLOCK_SIZE; ++k) {
                Csub += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }

    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_samples", M, N, K, [&](const float *A, const float *B, float *C) {
        MatrixMulCUDA<32><<<dim3(N / 32, M / 32), dim3(32, 32)>>>(C, A, B, K, N);
    }, 1e-4, 1e-4);
}
