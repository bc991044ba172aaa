// sgemm_batched.cu: a batch of independent products, one per blockIdx.z, each operand
// offset by the batch index before the K-loop. Usage: sgemm_batched [M N K BATCH].
// gpu-runs: 32 32 0 4 | 32 32 16 4 | 32 32 32 2 | 32 32 48 3 | 128 128 128 4 | 512 512 512 8
// gpu-sanitize: 32 32 48 3
#include "harness.cuh"

#define TS 16

__global__ void sgemm_batched(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    A += (size_t)blockIdx.z * M * K;
    B += (size_t)blockIdx.z * K * N;
    C += (size_t)blockIdx.z * M * N;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[4] = {128, 128, 128, 4};  // M N K BATCH
    harness_sizes(argc, argv, sz, 4);
    int M = sz[0], N = sz[1], K = sz[2], batch = sz[3];
    return harness_gemm<float, float>("sgemm_batched", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_batched<<<dim3(N / TS, M / TS, batch), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4, batch);
}
