// sgemm_tma_registers.cu: a 32x32-tile SGEMM (1024-thread blocks) written as a course writes it,
// one `width` for every dimension, whose tensor-copy kernel needs more registers than the kernel
// as written: 39 against 32 a thread with nvcc 13 for sm_90, which leaves one block of 1024
// threads an SM instead of two (jehyun's week6_1 matmul: tma x4 ran 0.93x its original at
// 1024^3 on the H100). auto on sm_90 keeps to register staging unless --ptxas measures the
// registers; with them, the tensor-copy kernel is held by __launch_bounds__(1024, 2) to the two
// blocks an SM the plan counted (31 registers, no spills).
// Usage: sgemm_tma_registers [M N K] (square: M = N = K, a multiple of 32).
// gpu-runs: 32 32 32 | 64 64 64 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 64
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

const int TILE_WIDTH = 32;

__global__ void sgemm_tma_registers(float *g_C, const float *g_A, const float *g_B, const int width)
{
    __shared__ float s_A[3][TILE_WIDTH][TILE_WIDTH];
    __shared__ float s_B[3][TILE_WIDTH][TILE_WIDTH];
    int by = blockIdx.y, bx = blockIdx.x;
    int ty = threadIdx.y, tx = threadIdx.x;
    int gy = by * TILE_WIDTH + ty;
    int gx = bx * TILE_WIDTH + tx;
    float sum = 0.0F;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_m = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int m = pipefy_next_m;
            if (m < width / TILE_WIDTH) {
                __pipeline_memcpy_async(&s_A[pipefy_dst][ty][tx], &g_A[gy * width + (m * TILE_WIDTH + tx)], sizeof(float));
                __pipeline_memcpy_async(&s_B[pipefy_dst][ty][tx], &g_B[(m * TILE_WIDTH + ty) * width + gx], sizeof(float));
                ++m;
                pipefy_next_m = m;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int m = 0; m < width / TILE_WIDTH; ++m) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TILE_WIDTH; ++k)
                sum += s_A[pipefy_stage][ty][k] * s_B[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    g_C[gy * width + gx] = sum;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    if (M != N || N != K) {
        fprintf(stderr, "sgemm_tma_registers: M, N and K must be equal\n");
        return 2;
    }
    return harness_gemm<float, float>("sgemm_tma_registers", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE_WIDTH, TILE_WIDTH), grid(N / TILE_WIDTH, M / TILE_WIDTH);
        sgemm_tma_registers<<<grid, block>>>(C, A, B, K);
    }, 1e-4, 1e-4);
}
