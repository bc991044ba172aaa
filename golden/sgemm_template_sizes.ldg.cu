// sgemm_template_sizes.cu: a kernel template whose shared memory its parameters size, launched
// with two instantiations: <16, 256> needs 3 KB and <16, 11500> 46 KB of the 48 KB of static
// shared memory. The rewrite is one text for both, so pipefy sizes the tiles for the largest
// launch (measure.c) and keeps to what fits there: one register stage, no second copy of the
// tiles (which compiled for the small one and failed ptxas for the large one). Usage:
// sgemm_template_sizes [M N K] (M, N, K multiples of 16).
// gpu-runs: 16 16 0 | 32 48 16 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
// ptx-instances: 2
#include "harness.cuh"

template <int TS, int SCRATCH>
__global__ void sgemm_template_sizes(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                     int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    __shared__ float scratch[SCRATCH]; // the epilogue's staging area
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second stage would not fit in static shared memory)
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
            pipefy_reg0 = A[row * K + k0 + tx];
            pipefy_reg1 = B[(k0 + ty) * N + col];
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
            for (int k = 0; k < TS; ++k)
                acc += As[ty][k] * Bs[k][tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    scratch[(tx * TS + ty) % SCRATCH] = acc;
    __syncthreads();
    C[row * N + col] = scratch[(tx * TS + ty) % SCRATCH];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    // both instantiations, the second overwriting the first's output with the same values
    return harness_gemm<float, float>("sgemm_template_sizes", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_template_sizes<16, 256><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
        sgemm_template_sizes<16, 11500><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
