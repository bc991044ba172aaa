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
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x;
    int ty = tid / 16, tx = tid % 16;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    int a_row = tid / 2, a_col = (tid % 2) * 4;
    int b_row = tid / 32, b_col = (tid % 32) * 4;
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        float4 a = *(const float4 *)&A[(size_t)(bm + a_row) * K + k0 + a_col];
        As[a_col + 0][a_row] = a.x;
        As[a_col + 1][a_row] = a.y;
        As[a_col + 2][a_row] = a.z;
        As[a_col + 3][a_row] = a.w;
        *(float4 *)&Bs[b_row][b_col] = *(const float4 *)&B[(size_t)(k0 + b_row) * N + bn + b_col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float ra[TM], rb[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                ra[i] = As[k][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                rb[j] = Bs[k][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
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
