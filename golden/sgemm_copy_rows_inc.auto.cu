// sgemm_copy_rows_inc.cu: copy loops over a thread's rows counted with `++r` and `r++`
// (a 32 x 32 tile, a block of 32 x 8 threads, four rows each, `constexpr` trip count), the
// first under `#pragma unroll`: the register variant stages one register per trip as for
// `r += S`, with S = 1 (the pragma stays, before the loop over the trips).
// Usage: sgemm_copy_rows_inc [M N K] (multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 32 32 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 96
#include "harness.cuh"

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void copy_rows_inc(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[(ROWS)];
        float pipefy_reg1[(ROWS)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TILE;
            if (!(k0 < K))
                return false;
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < (ROWS); ++pipefy_j) {
                int r = 0 + pipefy_j * 1;
                if (!(r < ROWS))
                    break;
                pipefy_reg0[pipefy_j] = A[(row0 + ty + 8 * r) * K + k0 + tx];
            }
            for (int pipefy_j = 0; pipefy_j < (ROWS); ++pipefy_j) {
                int r = 0 + pipefy_j * 1;
                if (!(r < ROWS))
                    break;
                pipefy_reg1[pipefy_j] = B[(k0 + ty + 8 * r) * N + col];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < (ROWS); ++pipefy_j) {
                int r = 0 + pipefy_j * 1;
                if (!(r < ROWS))
                    break;
                As[pipefy_dst][ty + 8 * r][tx] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < (ROWS); ++pipefy_j) {
                int r = 0 + pipefy_j * 1;
                if (!(r < ROWS))
                    break;
                Bs[pipefy_dst][ty + 8 * r][tx] = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TILE) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int r = 0; r < ROWS; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_copy_rows_inc", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_rows_inc<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
