// hgemm_wmma.cu: fp16 wmma GEMM, 128x128x32 block tile, 8 warps of 64x32 each, tiles copied
// in 16-byte vectors by a strided copy loop. Usage: hgemm_wmma [M N K] (M, N multiples of
// 128, K a multiple of 32).
// gpu-runs: 128 128 0 | 128 128 32 | 128 128 64 | 128 128 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 128 128 96
#include "harness.cuh"
#include <mma.h>
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

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

    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: the copy loops are unrolled for 256 threads (__launch_bounds__); other block sizes
    // run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int pipefy_j = 0; pipefy_j < ((BM * BK / 8) + 256 - 1) / 256; ++pipefy_j) {
                    int i = tid + pipefy_j * 256;
                    int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                    __pipeline_memcpy_async((int4 *)&As[pipefy_dst][r][c], (const int4 *)&A[(size_t)(bm + r) * K + k0 + c], sizeof(int4));
                }
                for (int pipefy_j = 0; pipefy_j < ((BK * BN / 8) + 256 - 1) / 256; ++pipefy_j) {
                    int i = tid + pipefy_j * 256;
                    int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                    __pipeline_memcpy_async((int4 *)&Bs[pipefy_dst][r][c], (const int4 *)&B[(size_t)(k0 + r) * N + bn + c], sizeof(int4));
                }
                k0 += BK;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += BK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
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
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
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
