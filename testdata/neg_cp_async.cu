// neg_cp_async.cu: left alone: already pipelined by hand with cp.async (two stages,
// __pipeline_memcpy_async / commit / wait_prior). Usage: neg_cp_async [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"
#include <cuda_pipeline.h>

#define TS 16

__global__ void cp_async_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int ntiles = K / TS;
    float acc = 0.0f;
    if (ntiles > 0) {
        __pipeline_memcpy_async(&As[0][ty][tx], &A[row * K + tx], sizeof(float));
        __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * N + col], sizeof(float));
    }
    __pipeline_commit();
    for (int t = 0; t < ntiles; ++t) {
        __pipeline_wait_prior(0);
        __syncthreads();
        if (t + 1 < ntiles) {
            __pipeline_memcpy_async(&As[(t + 1) % 2][ty][tx], &A[row * K + (t + 1) * TS + tx], sizeof(float));
            __pipeline_memcpy_async(&Bs[(t + 1) % 2][ty][tx], &B[((t + 1) * TS + ty) * N + col], sizeof(float));
        }
        __pipeline_commit();
        for (int k = 0; k < TS; ++k)
            acc += As[t % 2][ty][k] * Bs[t % 2][k][tx];
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_cp_async", M, N, K, [&](const float *A, const float *B, float *C) {
        cp_async_gemm<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
