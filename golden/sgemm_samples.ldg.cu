// sgemm_samples.cu: the CUDA samples' matrixMul: template tile size, two induction variables
// in the for header (a += aStep, b += bStep), tiles declared inside the loop body.
// Usage: sgemm_samples [M N K] (multiples of 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

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

    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        __shared__ float As[2][BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[2][BLOCK_SIZE][BLOCK_SIZE];
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_a = aBegin;
        int pipefy_next_b = bBegin;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int a, int b) {
            if (pipefy_step)
                a += aStep, b += bStep;
            if (!(a <= aEnd))
                return false;
            pipefy_reg0 = A[a + wA * ty + tx];
            pipefy_reg1 = B[b + wB * ty + tx];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_a, pipefy_next_b))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
            bool pipefy_more = pipefy_fetch(true, a, b);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
#pragma unroll
            for (int k = 0; k < BLOCK_SIZE; ++k) {
                Csub += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
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
