// Copies through a one-stage cuda::pipeline that pipefy must leave as written: each kernel is
// correct as written, and each breaks one fact the staging of such copies as plain ones needs.
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#define TS 16

// 16 bytes a copy, at addresses only 4-byte aligned: the size is the constructor's argument, not
// the alignment aligned_size_t promises (an early build took the 4 for the size)
__global__ void promise_4(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS + 4];
    __shared__ float Bs[TS][TS + 4];
    int ty = threadIdx.y, tx = threadIdx.x, t4x = tx * 4;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (t4x < TS) {
            pipe.producer_acquire();
            cuda::memcpy_async(&As[ty][1 + t4x], &A[row * K + k0 + t4x], cuda::aligned_size_t<4>(16), pipe);
            cuda::memcpy_async(&Bs[ty][1 + t4x], &B[(k0 + ty) * N + blockIdx.x * TS + t4x], cuda::aligned_size_t<4>(16), pipe);
            pipe.producer_commit();
            pipe.consumer_wait();
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][1 + k] * Bs[k][1 + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// copies from a __shared__ table, not from global memory (cp.async takes global sources only)
__global__ void shared_source(const float *A, float *C, int M, int N, int K)
{
    __shared__ float Tab[TS][TS];
    __shared__ float As[TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    Tab[ty][tx] = A[ty * TS + tx];
    __syncthreads();
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        pipe.producer_acquire();
        cuda::memcpy_async(&As[ty][tx], &Tab[tx][ty], sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * (float)(k0 + k);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a group committed before the loop, which the loop's first wait also completes (the wait
// covers every group of the thread): dropping that wait would leave Cs unwaited
__global__ void early_group(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    __shared__ float Cs[TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    __pipeline_memcpy_async(&Cs[ty][tx], &C[row * N + col], sizeof(float));
    __pipeline_commit();
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        pipe.producer_acquire();
        cuda::memcpy_async(&As[ty][tx], &A[row * K + k0 + tx], sizeof(float), pipe);
        cuda::memcpy_async(&Bs[ty][tx], &B[(k0 + ty) * N + col], sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        if (k0 == 0)
            acc += Cs[tx][ty];
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// A's copies through a pointer into its tile, not `&As[ty][tx]`: pipefy cannot index that by stage
__global__ void pointer_destination(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float *as = &As[ty][tx];
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        pipe.producer_acquire();
        cuda::memcpy_async(as, &A[row * K + k0 + tx], sizeof(float), pipe);
        cuda::memcpy_async(&Bs[ty][tx], &B[(k0 + ty) * N + col], sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / TS, M / TS), block(TS, TS);
    promise_4<<<grid, block>>>(A, B, C, M, N, K);
    shared_source<<<grid, block>>>(A, C, M, N, K);
    early_group<<<grid, block>>>(A, B, C, M, N, K);
    pointer_destination<<<grid, block>>>(A, B, C, M, N, K);
}
