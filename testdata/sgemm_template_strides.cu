// sgemm_template_strides.cu: a block-tiled SGEMM template whose copy loops step by a stride
// computed through a chain of const locals of the template's parameters (`const uint
// total_results = BM * BN; const uint threads = total_results / (TM * TN); const uint stride_A =
// threads / BK;`, as public 2D block-tiling kernels write it): a trip count the instantiation
// fixes, so the copies are staged in registers sized by the same expressions (the build before
// followed constants only 8 operators deep and left the loop as written).
// Usage: sgemm_template_strides [M N K] (multiples of 64)
// gpu-runs: 64 64 0 | 64 64 8 | 64 64 24 | 128 128 64 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 24
#include "harness.cuh"

typedef unsigned int uint;

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    blocktile_2d(const float *A, const float *B, float *C, int M, int N, int K)
{
    const uint total_results = BM * BN;
    const uint threads = total_results / (TM * TN);
    const uint inner_row_A = threadIdx.x / BK, inner_col_A = threadIdx.x % BK;
    const uint stride_A = threads / BK;
    const uint inner_row_B = threadIdx.x / BN, inner_col_B = threadIdx.x % BN;
    const uint stride_B = threads / BN;
    const uint thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    float acc[TM * TN] = {0.0f};
    A += blockIdx.y * BM * K;
    B += blockIdx.x * BN;
    C += blockIdx.y * BM * N + blockIdx.x * BN;
    for (uint k0 = 0; k0 < K; k0 += BK) {
        for (uint off = 0; off < BM; off += stride_A)
            As[(inner_row_A + off) * BK + inner_col_A] = A[(inner_row_A + off) * K + inner_col_A];
        for (uint off = 0; off < BK; off += stride_B)
            Bs[(inner_row_B + off) * BN + inner_col_B] = B[(inner_row_B + off) * N + inner_col_B];
        __syncthreads();
        A += BK;
        B += BK * N;
        for (uint k = 0; k < BK; ++k)
            for (uint m = 0; m < TM; ++m)
                for (uint n = 0; n < TN; ++n)
                    acc[m * TN + n] += As[(thread_row * TM + m) * BK + k] * Bs[k * BN + thread_col * TN + n];
        __syncthreads();
    }
    for (uint m = 0; m < TM; ++m)
        for (uint n = 0; n < TN; ++n)
            C[(thread_row * TM + m) * N + thread_col * TN + n] = acc[m * TN + n];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_template_strides", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_2d<64, 64, 8, 4, 4><<<dim3(N / 64, M / 64), 64 * 64 / 16>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
