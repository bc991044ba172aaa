// sgemm_reg_outside.cu: the loads go through registers declared before the loop (`float ra,
// rb;`) and are stored in the same iteration, B's transposed into a padded tile: a fetch into
// registers, not a prefetch, since nothing but the copies reads ra and rb. The loop counts
// tiles and computes a size_t offset k0 from it, which the loads need: it goes to the loader
// with them (found by the generator, seed 138: left behind, the rewrite named an undeclared
// k0 and validation refused it). Usage: sgemm_reg_outside [M N K] (M, N, K multiples of 16).
// gpu-runs: 32 48 0 | 32 48 16 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"

#define TS 16

__global__ void sgemm_reg_outside(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float BsT[2][TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        unsigned int pipefy_next_t = 0;
        // pipefy: staging registers
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, unsigned int t) {
            if (pipefy_step)
                ++t;
            if (!(t < (unsigned)K / TS))
                return false;
            size_t k0 = (size_t)t * TS;
            ra = A[row * (size_t)K + k0 + tx];
            rb = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = ra;
            BsT[pipefy_dst][tx][ty] = rb;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (unsigned t = 0; t < (unsigned)K / TS; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * BsT[pipefy_stage][tx][k];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_reg_outside", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_reg_outside<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
