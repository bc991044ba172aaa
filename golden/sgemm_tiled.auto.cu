// sgemm_tiled.cu: the CUDA-samples shape: 2-D block of TILE x TILE threads, one output per
// thread, one float per thread per tile. Usage: sgemm_tiled [M N K] (multiples of TILE).
// pipefy-golden: tma bulk ws
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_reg0 = A[row * K + t * TILE + tx];
            pipefy_reg1 = B[(t * TILE + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
            Bs[ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k)
                acc += As[ty][k] * Bs[k][tx];
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
    return harness_gemm<float, float>("sgemm_tiled", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_tiled<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
