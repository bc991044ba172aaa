// sgemm_copy_loop_template.cu: a template's copy loops whose trip count is fixed by its
// parameters but not written as `i < N` with a constant N and S: blocktile_1d strides by locals
// that are not const but hold one value (`int a_stride = thread_num / BK;`) and tests
// `off + b_stride <= BK` on an unsigned counter. The register variant sizes its staging
// registers by each loop's trips, the locals replaced by their initializers (an array's size
// must be a constant expression); each trip's value keeps the step as written. Two
// instantiations: four trips of each loop (256 threads), one (512 threads).
// Usage: sgemm_copy_loop_template [M N K] (M, N multiples of 64, K of 16).
// gpu-runs: 64 64 0 | 64 64 16 | 64 64 32 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
// ptx-instances: 2
#include "harness.cuh"

template <int BM, int BN, int BK, int TM>
__global__ void blocktile_1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    int thread_num = BM * BN / TM;  // the block size, though not declared const
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int tid = threadIdx.x;
    int tx = tid % BN, ty = tid / BN * TM;
    int a_row = tid / BK, a_col = tid % BK, a_stride = thread_num / BK;
    int b_row = tid / BN, b_col = tid % BN, b_stride = thread_num / BN;
    const float *Ab = A + blockIdx.y * BM * K;
    const float *Bb = B + blockIdx.x * BN;
    float acc[TM] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = 0; i < BM; i += a_stride)
            As[(a_row + i) * BK + a_col] = Ab[(a_row + i) * K + k0 + a_col];
        for (unsigned off = 0; off + b_stride <= BK; off += b_stride)
            Bs[(b_row + off) * BN + b_col] = Bb[(k0 + b_row + off) * N + b_col];
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float b = Bs[k * BN + tx];
            for (int m = 0; m < TM; ++m)
                acc[m] += As[(ty + m) * BK + k] * b;
        }
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        C[(blockIdx.y * BM + ty + m) * N + blockIdx.x * BN + tx] = acc[m];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    // 256 threads: 4 trips of each copy loop
    bad |= harness_gemm<float, float>("blocktile_1d<64,64,16,16>", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_1d<64, 64, 16, 16><<<dim3(N / 64, M / 64), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    // 512 threads: one trip each
    bad |= harness_gemm<float, float>("blocktile_1d<64,64,8,8>", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_1d<64, 64, 8, 8><<<dim3(N / 64, M / 64), 512>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
