// A compute that waits for, or orders itself with, what other threads write: the original loads
// the next tile after the wait, a pipelined loop would load it before. Each is left as written
// (even with __restrict__ on every pointer, which speaks of aliasing, not of order), a grid
// barrier among them; the last kernel reads volatile shared memory only, which is no wait (the
// control: pipelined).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define TS 16

__global__ void volatile_flag(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N, int K,
                     const int *__restrict__ ready)
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
        while (((const volatile int *)ready)[k0 / TS] == 0)
            ;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void cache_volatile(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N, int K,
                     const int *__restrict__ ready)
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
        while (__ldcv(ready + k0 / TS) == 0)
            ;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void fence(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N, int K,
                     const int *__restrict__ ready)
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
        if (ready[k0 / TS] == 0)
            acc = -acc;
        __threadfence();
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void acquire_load(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N, int K,
                     const int *__restrict__ ready)
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
        int r;
        do
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(ready + k0 / TS) : "memory");
        while (r == 0);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void grid_barrier(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N, int K)
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
        cg::this_grid().sync();
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void shared_volatile(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N,
                                int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    __shared__ float scale[TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (ty == 0)
        scale[tx] = 1.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        acc *= ((volatile float *)scale)[tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
