// neg_memcpy_async.cu: left alone: the tiles arrive through cuda::memcpy_async on a thread-scope
// cuda::pipeline the loop's body makes afresh each tile. pipefy stages such copies again only
// through a pipeline declared before the loop and used by it alone
// (testdata/sgemm_pipeline_async.cu); the remark names where this one is declared.
// Usage: neg_memcpy_async [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"
#include <cuda/pipeline>

#define TS 16

__global__ void memcpy_async_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
        pipe.producer_acquire();
        cuda::memcpy_async(&As[ty][tx], &A[row * K + k0 + tx], sizeof(float), pipe);
        cuda::memcpy_async(&Bs[ty][tx], &B[(k0 + ty) * N + col], sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        pipe.consumer_release();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_memcpy_async", M, N, K, [&](const float *A, const float *B, float *C) {
        memcpy_async_gemm<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
