// neg_register_prefetch.cu: left alone: already pipelined through registers into a single
// buffer: tile t+1 is loaded into ra/rb while tile t is computed. The second kernel only looks
// like it: its registers are loaded as one float4 through a macro right before the stores, in the
// same iteration (once called a register prefetch too), a load pipefy now starts a tile early
// itself (ldg; testdata/sgemm_register_arrays.cu). Usage: neg_register_prefetch [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

__global__ void prefetch_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int ntiles = K / TS;
    float ra = ntiles > 0 ? A[row * K + tx] : 0.0f;
    float rb = ntiles > 0 ? B[ty * N + col] : 0.0f;
    float acc = 0.0f;
    for (int t = 0; t < ntiles; ++t) {
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        if (t + 1 < ntiles) {
            ra = A[row * K + (t + 1) * TS + tx];
            rb = B[((t + 1) * TS + ty) * N + col];
        }
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

#define F4(x) (reinterpret_cast<float4 *>(&(x))[0])

// 4 x 16 threads, each staging four of A's elements as one float4 in a register array
__global__ void staged_gemm(float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, c0 = blockIdx.x * TS;
    float ra[4];
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < K / TS; ++t) {
        F4(ra[0]) = F4(A[row * K + t * TS + 4 * tx]);
        As[ty][4 * tx] = ra[0];
        As[ty][4 * tx + 1] = ra[1];
        As[ty][4 * tx + 2] = ra[2];
        As[ty][4 * tx + 3] = ra[3];
        for (int j = 0; j < 4; ++j)
            Bs[ty][4 * tx + j] = B[(t * TS + ty) * N + c0 + 4 * tx + j];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[ty][k] * Bs[k][4 * tx + j];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[row * N + c0 + 4 * tx + j] = acc[j];
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = harness_gemm<float, float>("neg_register_prefetch", M, N, K, [&](const float *A, const float *B, float *C) {
        prefetch_gemm<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("staged_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        staged_gemm<<<dim3(N / TS, M / TS), dim3(TS / 4, TS)>>>(const_cast<float *>(A), B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
