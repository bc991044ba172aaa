// hgemm_wmma.cu: fp16 wmma GEMM, 128x128x32 block tile, 8 warps of 64x32 each, tiles copied
// in 16-byte vectors by a strided copy loop. Usage: hgemm_wmma [M N K] (M, N multiples of
// 128, K a multiple of 32).
// gpu-runs: 128 128 0 | 128 128 32 | 128 128 64 | 128 128 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 128 128 96
#include "harness.cuh"
#include <mma.h>

using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8

__global__ void __launch_bounds__(256)
hgemm_wmma(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
           int M, int N, int K)
{
    __shared__ __align__(16) half As[2][BM][BK + PAD];
    __shared__ __align__(16) half Bs[2][BK][BN + PAD];
    int tid = threadIdx.x;
    int warp = tid / 32;
    int wm = (warp / 4) * 64, wn = (warp % 4) * 32;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (__launch_bounds__); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        int4 pipefy_reg0[((BM * BK / 8) + 256 - 1) / 256];
        int4 pipefy_reg1[((BK * BN / 8) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / 8) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                pipefy_reg0[pipefy_j] = *(const int4 *)&A[(size_t)(bm + r) * K + k0 + c];
            }
            for (int pipefy_j = 0; pipefy_j < ((BK * BN / 8) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                pipefy_reg1[pipefy_j] = *(const int4 *)&B[(size_t)(k0 + r) * N + bn + c];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / 8) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                *(int4 *)&As[pipefy_dst][r][c] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((BK * BN / 8) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                *(int4 *)&Bs[pipefy_dst][r][c] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int kk = 0; kk < BK; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[4];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
                for (int i = 0; i < 4; i++)
                    wmma::load_matrix_sync(fa[i], &As[pipefy_stage][wm + i * 16][kk], BK + PAD);
                for (int j = 0; j < 2; j++)
                    wmma::load_matrix_sync(fb[j], &Bs[pipefy_stage][kk][wn + j * 16], BN + PAD);
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 2; j++)
                        wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += BK) {
            for (int i = tid; i < BM * BK / 8; i += blockDim.x) {
                int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                *(int4 *)&As[0][r][c] = *(const int4 *)&A[(size_t)(bm + r) * K + k0 + c];
            }
            for (int i = tid; i < BK * BN / 8; i += blockDim.x) {
                int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                *(int4 *)&Bs[0][r][c] = *(const int4 *)&B[(size_t)(k0 + r) * N + bn + c];
            }
            __syncthreads();
            for (int kk = 0; kk < BK; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[4];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
                for (int i = 0; i < 4; i++)
                    wmma::load_matrix_sync(fa[i], &As[0][wm + i * 16][kk], BK + PAD);
                for (int j = 0; j < 2; j++)
                    wmma::load_matrix_sync(fb[j], &Bs[0][kk][wn + j * 16], BN + PAD);
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 2; j++)
                        wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            __syncthreads();
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(size_t)(bm + wm + i * 16) * N + bn + wn + j * 16],
                                    acc[i][j], N, wmma::mem_row_major);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<half, float>("hgemm_wmma", M, N, K, [&](const half *A, const half *B, float *C) {
        dim3 grid(N / BN, M / BM);
        hgemm_wmma<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-3, 1e-3);
}
// pipefy-golden: tma bulk ws ws-cp.async ws-sm90a ws-cp.async-sm90a
