// tiled_gemm.cuh: a kernel in a header, the way libraries ship them. It and gemm_epilogue.cuh
// include each other behind #pragma once; given to pipefy as the input, the cycle must end
// where nvcc's does. nvcc_header_kernel.cu launches it.
#pragma once
#include "gemm_epilogue.cuh"

#define HT 16

__global__ void sgemm_in_header(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][HT][HT];
    __shared__ float Bs[2][HT][HT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * HT + ty, col = blockIdx.x * HT + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += HT;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[row * K + k0 + tx];
            pipefy_reg1 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += HT) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < HT; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    store_result(C, row * N + col, acc);
}
