// igemm_wmma.cu (hand): the expert reference for testdata/igemm_wmma.cu: cp.async, two
// stages, copy loops unrolled to a constant count for the 256-thread block.
#include "harness.cuh"
#include <cuda_pipeline.h>
#include <mma.h>

using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 64
#define PAD 16

__global__ void __launch_bounds__(256)
igemm_wmma(const signed char *__restrict__ A, const signed char *__restrict__ B, int *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) signed char As[2][BM][BK + PAD];
    __shared__ __align__(16) signed char Bs[2][BK][BN + PAD];
    int tid = threadIdx.x;
    int warp = tid / 32;
    int wm = (warp / 4) * 64, wn = (warp % 4) * 32;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0);
    int ntiles = K / BK;
    auto load = [&](int t, int s) {
        int k0 = t * BK;
#pragma unroll
        for (int j = 0; j < BM * BK / 16 / 256; j++) {
            int i = tid + j * 256, r = i / (BK / 16), c = (i % (BK / 16)) * 16;
            __pipeline_memcpy_async(&As[s][r][c], &A[(size_t)(bm + r) * K + k0 + c], 16);
        }
#pragma unroll
        for (int j = 0; j < BK * BN / 16 / 256; j++) {
            int i = tid + j * 256, r = i / (BN / 16), c = (i % (BN / 16)) * 16;
            __pipeline_memcpy_async(&Bs[s][r][c], &B[(size_t)(k0 + r) * N + bn + c], 16);
        }
    };
    if (ntiles > 0)
        load(0, 0);
    __pipeline_commit();
    for (int t = 0; t < ntiles; ++t) {
        __pipeline_wait_prior(0);
        __syncthreads();
        if (t + 1 < ntiles)
            load(t + 1, (t + 1) & 1);
        __pipeline_commit();
        int s = t & 1;
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(fa[i], &As[s][wm + i * 16][kk], BK + PAD);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(fb[j], &Bs[s][kk][wn + j * 16], BN + PAD);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(size_t)(bm + wm + i * 16) * N + bn + wn + j * 16], acc[i][j], N,
                                    wmma::mem_row_major);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<signed char, int>("igemm_wmma", M, N, K, [&](const signed char *A, const signed char *B, int *C) {
        igemm_wmma<<<dim3(N / BN, M / BM), 256>>>(A, B, C, M, N, K);
    }, 0, 0);
}
