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

const int TILE_WIDTH = 32;

__global__ void sgemm_tma_registers(float *g_C, const float *g_A, const float *g_B, const int width)
{
    __shared__ float s_A[TILE_WIDTH][TILE_WIDTH];
    __shared__ float s_B[TILE_WIDTH][TILE_WIDTH];
    int by = blockIdx.y, bx = blockIdx.x;
    int ty = threadIdx.y, tx = threadIdx.x;
    int gy = by * TILE_WIDTH + ty;
    int gx = bx * TILE_WIDTH + tx;
    float sum = 0.0F;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_m = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int m) {
            if (pipefy_step)
                ++m;
            if (!(m < width / TILE_WIDTH))
                return false;
            pipefy_reg0 = g_A[gy * width + (m * TILE_WIDTH + tx)];
            pipefy_reg1 = g_B[(m * TILE_WIDTH + ty) * width + gx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            s_A[ty][tx] = pipefy_reg0;
            s_B[ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_m))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int m = 0; m < width / TILE_WIDTH; ++m) {
            bool pipefy_more = pipefy_fetch(true, m);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE_WIDTH; ++k)
                sum += s_A[ty][k] * s_B[k][tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
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
