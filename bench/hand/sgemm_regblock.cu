// sgemm_regblock.cu (hand): the expert reference for testdata/sgemm_regblock.cu: the next
// tile's two float4 reads go into registers before the compute; after it A is stored
// transposed and B as a float4 into the other stage; one barrier per iteration.
#include "harness.cuh"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256)
sgemm_regblock(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];
    int tid = threadIdx.x;
    int ty = tid / 16, tx = tid % 16;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    int a_row = tid / 2, a_col = (tid % 2) * 4;
    int b_row = tid / 32, b_col = (tid % 32) * 4;
    float acc[TM][TN] = {};
    int ntiles = K / BK;
    float4 a = make_float4(0, 0, 0, 0), b = a;
    if (ntiles > 0) {
        a = *(const float4 *)&A[(size_t)(bm + a_row) * K + a_col];
        b = *(const float4 *)&B[(size_t)b_row * N + bn + b_col];
        As[0][a_col + 0][a_row] = a.x;
        As[0][a_col + 1][a_row] = a.y;
        As[0][a_col + 2][a_row] = a.z;
        As[0][a_col + 3][a_row] = a.w;
        *(float4 *)&Bs[0][b_row][b_col] = b;
    }
    __syncthreads();
    for (int t = 0; t < ntiles; ++t) {
        bool more = t + 1 < ntiles;
        if (more) {
            int k0 = (t + 1) * BK;
            a = *(const float4 *)&A[(size_t)(bm + a_row) * K + k0 + a_col];
            b = *(const float4 *)&B[(size_t)(k0 + b_row) * N + bn + b_col];
        }
        int s = t & 1;
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float ra[TM], rb[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                ra[i] = As[s][k][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                rb[j] = Bs[s][k][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += ra[i] * rb[j];
        }
        if (more) {
            As[s ^ 1][a_col + 0][a_row] = a.x;
            As[s ^ 1][a_col + 1][a_row] = a.y;
            As[s ^ 1][a_col + 2][a_row] = a.z;
            As[s ^ 1][a_col + 3][a_row] = a.w;
            *(float4 *)&Bs[s ^ 1][b_row][b_col] = b;
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
