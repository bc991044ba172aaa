// sgemm_macro_tiles.cu: tiles named only inside macros' bodies (`#define AS(i, j) As[...]`), as
// CUDA's samples and public SGEMMs write them: no stage index can be written where the name is,
// so only one stage is legal, and register staging takes it (the tiles' references stay as
// written; the copies' sides are the macros' uses). Usage: sgemm_macro_tiles [M N K]
// (multiples of TS).
// gpu-runs: 64 64 0 | 64 64 16 | 64 64 32 | 64 64 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16
#define AS(i, j) As[(i) * TS + (j)]
#define BS(i, j) Bs[(i) * TS + (j)]
#define A_AT(r, c) A[(r) * K + (c)]
#define B_AT(r, c) B[(r) * N + (c)]

__global__ void sgemm_macro_tiles(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS * TS];
    __shared__ float Bs[TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a tile is named inside a macro's expansion, where no stage index can be written)
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
            pipefy_reg0 = A_AT(row, k0 + tx);
            pipefy_reg1 = B_AT(k0 + ty, col);
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            AS(ty, tx) = pipefy_reg0;
            BS(ty, tx) = pipefy_reg1;
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
                acc += AS(ty, k) * BS(k, tx);
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
    return harness_gemm<float, float>("sgemm_macro_tiles", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_macro_tiles<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
