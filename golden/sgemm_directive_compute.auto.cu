// sgemm_directive_compute.cu: a tiled SGEMM whose compute chooses its multiply-add with the
// preprocessor, as code built for several element types does (`#if USE_FMA ... #else ... #endif`
// inside the compute's loop). The directives travel inside the compute's text; the code the
// parse skips names the tiles too, so pipefy keeps one stage (registers), where no tile is
// renamed. A directive between the copies would still leave the loop as written.
// Usage: sgemm_directive_compute [M N K] (M, N multiples of TS; any K).
// gpu-runs: 32 32 0 | 32 32 1 | 32 32 17 | 64 32 48 | 96 64 100 | 512 512 512
// gpu-sanitize: 64 32 17
#include "harness.cuh"

#define TS 16
#define USE_FMA 1

__global__ void sgemm_directive_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (the compute holds a preprocessor branch ('#if' at 26:1), whose code the parse skips may name the tiles where no stage index is written)
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
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
            Bs[ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k) {
#if USE_FMA
                acc = fmaf(As[ty][k], Bs[k][tx], acc);
#else
                acc += As[ty][k] * Bs[k][tx];
#endif
            }
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_directive_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TS, TS), grid(N / TS, M / TS);
        sgemm_directive_compute<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
