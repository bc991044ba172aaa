// sgemm_nested_copy_loops.cu: each thread copies STRIDE x STRIDE elements of each tile in two
// nested loops (`for i` around `for j`). One staging register a trip of the outer loop would keep
// only the inner loop's last copy (pipefy once staged it so: every j stored the last j's value);
// the registers are now one a trip of each loop, `pipefy_reg0[pipefy_j][pipefy_k]` (register
// staging was refused in between, naming the inner loop); cp.async takes the copies too.
// Usage: sgemm_nested_copy_loops [M N K] (multiples of STEP)
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 48 32
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define STEP 16
#define STRIDE 2

// Each thread of a (STEP/STRIDE)^2 block copies STRIDE x STRIDE elements of each tile, in two
// nested loops (sizes multiples of STEP).
__global__ void nested_copy_loops(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float as[2][STEP][STEP];
    __shared__ float bs[2][STEP][STEP];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + blockIdx.y * STEP * K, *b = B + blockIdx.x * STEP;
    float sum[STRIDE][STRIDE] = {{0.0f}};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int i = 0; i < STRIDE; ++i) {
                    for (int j = 0; j < STRIDE; ++j) {
                        __pipeline_memcpy_async(&as[pipefy_dst][ty * STRIDE + i][tx * STRIDE + j], &a[(ty * STRIDE + i) * K + k0 + tx * STRIDE + j], sizeof(float));
                        __pipeline_memcpy_async(&bs[pipefy_dst][ty * STRIDE + i][tx * STRIDE + j], &b[(k0 + ty * STRIDE + i) * N + tx * STRIDE + j], sizeof(float));
                    }
                }
                k0 += STEP;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += STEP) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int i = 0; i < STRIDE; ++i)
                for (int j = 0; j < STRIDE; ++j)
                    for (int q = 0; q < STEP; ++q)
                        sum[i][j] += as[pipefy_stage][ty * STRIDE + i][q] * bs[pipefy_stage][q][tx * STRIDE + j];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int i = 0; i < STRIDE; ++i)
        for (int j = 0; j < STRIDE; ++j)
            C[(blockIdx.y * STEP + ty * STRIDE + i) * N + blockIdx.x * STEP + tx * STRIDE + j] = sum[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nested_copy_loops", M, N, K, [&](const float *A, const float *B, float *C) {
        nested_copy_loops<<<dim3(N / STEP, M / STEP), dim3(STEP / STRIDE, STEP / STRIDE)>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
}
