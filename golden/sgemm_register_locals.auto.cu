// sgemm_register_locals.cu: a course-style tiled SGEMM whose counters and indices are declared
// `register`, as older code wrote them (C++17 removed the keyword; nvcc still compiles it, with
// a warning). A K-loop whose tile count is not a multiple, guarded copies with a zero else.
// Usage: sgemm_register_locals [M N K] (M, N multiples of TILE; any K).
// gpu-runs: 64 64 0 | 64 64 1 | 64 64 17 | 64 64 48 | 128 96 100 | 512 512 512
// gpu-sanitize: 64 64 17
#include "harness.cuh"

#define TILE 16

__global__ void sgemm_register_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    register int tx = threadIdx.x, ty = threadIdx.y;
    register int row = blockIdx.y * TILE + ty;
    register int col = blockIdx.x * TILE + tx;
    register float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
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
            if (!(m < (K + TILE - 1) / TILE))
                return false;
            pipefy_reg0 = (m * TILE + tx < K) ? A[row * K + m * TILE + tx] : 0.0f;
            pipefy_reg1 = (m * TILE + ty < K) ? B[(m * TILE + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_m))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (register int m = 0; m < (K + TILE - 1) / TILE; ++m) {
            bool pipefy_more = pipefy_fetch(true, m);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (register int k = 0; k < TILE; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
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
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_register_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_register_locals<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
