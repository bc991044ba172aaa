// The compute calls a function template whose explicit specialization for half, the one the
// kernel's instantiation runs, writes a global variable the copies index with: the effects of a
// template's call are every function of its name's, not the primary template's alone.
#include <cuda_fp16.h>
#define TS 16
__device__ int g_flag;
template <typename T> __device__ float weight(T v) { return static_cast<float>(v); }
template <> __device__ float weight(half v) { g_flag = 1; return __half2float(v); }

template <typename T>
__global__ void k(const T *A, const float *B, float *C, int N, int K, const int *flag)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = B[row * K + k0 + tx + g_flag];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] * weight(A[k]);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
template __global__ void k<half>(const half *, const float *, float *, int, int, const int *);
