// neg_compute_atomic.cu: left alone: the compute atomicAdds into A, which the next tile's
// copies read (the added zero keeps the product; pipefy cannot know it is zero).
// Usage: neg_compute_atomic [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void compute_atomic(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K)
            atomicAdd((float *)&A[row * K + k0 + TS + tx], 0.0f);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_compute_atomic", M, N, K, [&](const float *A, const float *B, float *C) {
        compute_atomic<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
