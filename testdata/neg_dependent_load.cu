// neg_dependent_load.cu: left alone: the A load's address depends on 'off', which the
// compute of the previous tile writes, so tile t+1 cannot be loaded before tile t is done.
// Usage: neg_dependent_load [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

__global__ void dependent_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int off = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx + off];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        off = acc > 1e30f ? TS : 0;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_dependent_load", M, N, K, [&](const float *A, const float *B, float *C) {
        dependent_gemm<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
