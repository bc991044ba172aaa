// Plain copies, and a cuda::pipeline whose calls no copy goes through (its acquire and release):
// pipefy drops a pipeline's calls only with the memcpy_async copies it makes plain ones, so the
// loop is left, and the remark says why (not "asynchronous already": nothing is).
#include <cuda/pipeline>
#define TS 16

__global__ void stray_calls(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        pipe.producer_acquire();
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        pipe.consumer_release();
        __syncthreads();
    }
    C[row * N + col] = acc;
}
