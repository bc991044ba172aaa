// sgemm_regblock.cu: register-blocked SGEMM, 128x128x8 block tile, 256 threads of 8x8
// outputs each. The A tile is stored transposed (As[k][m]) from one float4 read per thread;
// the B tile is copied as one float4 per thread. Usage: sgemm_regblock [M N K] (M, N
// multiples of 128, K a multiple of 8).
// gpu-runs: 128 128 0 | 128 128 8 | 128 128 16 | 128 128 24 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 128 128 24
#include "harness.cuh"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256)
sgemm_regblock(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
               int M, int N, int K)
{
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];
    int tid = threadIdx.x;
    int ty = tid / 16, tx = tid % 16;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    int a_row = tid / 2, a_col = (tid % 2) * 4;
    int b_row = tid / 32, b_col = (tid % 32) * 4;
    float acc[TM][TN] = {};

    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0;
        float4 a;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            a = *(const float4 *)&A[(size_t)(bm + a_row) * K + k0 + a_col];
            pipefy_reg0 = *(const float4 *)&B[(size_t)(k0 + b_row) * N + bn + b_col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][a_col + 0][a_row] = a.x;
            As[pipefy_dst][a_col + 1][a_row] = a.y;
            As[pipefy_dst][a_col + 2][a_row] = a.z;
            As[pipefy_dst][a_col + 3][a_row] = a.w;
            *(float4 *)&Bs[pipefy_dst][b_row][b_col] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                float ra[TM], rb[TN];
#pragma unroll
                for (int i = 0; i < TM; ++i)
                    ra[i] = As[pipefy_stage][k][ty * TM + i];
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    rb[j] = Bs[pipefy_stage][k][tx * TN + j];
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < TN; ++j)
                        acc[i][j] += ra[i] * rb[j];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            C[(size_t)(bm + ty * TM + i) * N + bn + tx * TN + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_regblock", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_regblock<<<dim3(N / BN, M / BM), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
