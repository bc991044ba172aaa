// Loops already pipelined by hand, or filled in ways pipefy does not read: each remark names
// what is there.
#include <cuda_pipeline.h>
#include <cuda/pipeline>

// Two buffers the loop swaps itself, one barrier an iteration: the copies store at 'slot'.
__global__ void swapped_buffers(const float *A, const float *B, float *C, int n, int K)
{
    __shared__ float As[2][16][16];
    __shared__ float Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    As[0][ty][tx] = A[ty * K + tx];
    Bs[0][ty][tx] = B[ty * n + tx];
    __syncthreads();
    int slot = 1;
    float acc = 0.f;
    for (int k0 = 16; k0 < K; k0 += 16) {
        As[slot][ty][tx] = A[ty * K + k0 + tx];
        Bs[slot][ty][tx] = B[(k0 + ty) * n + tx];
        slot ^= 1;
        for (int k = 0; k < 16; ++k)
            acc += As[slot][ty][k] * Bs[slot][k][tx];
        __syncthreads();
    }
    C[ty * n + tx] = acc;
}

// One barrier and one buffer: the next tile's copies race with this tile's readers.
__global__ void one_barrier(const float *A, const float *B, float *C, int n, int K)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + tx];
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[ty * n + tx] = acc;
}

// A three-stage cuda::pipeline whose copies go through pointers the loop computes.
__global__ void pipeline_through_pointers(const float *A, float *C, int K)
{
    __shared__ float As[3][256];
    auto pipe = cuda::make_pipeline();
    float acc = 0.f;
    int t = 0;
    for (; t < K / 256 - 2; ++t) {
        pipe.producer_acquire();
        float *dst = As[(t + 2) % 3] + threadIdx.x;
        const float *src = A + (t + 2) * 256 + threadIdx.x;
        cuda::memcpy_async(dst, src, sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        acc += As[t % 3][(threadIdx.x + 1) % 256];
        __syncthreads();
        pipe.consumer_release();
    }
    C[threadIdx.x] = acc;
}

// __pipeline_memcpy_async through a pointer.
__global__ void primitives_through_pointers(const float *A, float *C, int K)
{
    __shared__ float As[2][256];
    float acc = 0.f;
    for (int t = 0; t < K / 256; ++t) {
        float *dst = &As[t & 1][threadIdx.x];
        __pipeline_memcpy_async(dst, A + t * 256 + threadIdx.x, sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        acc += As[t & 1][(threadIdx.x + 1) % 256];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// __ldg loads stored through an array of pointers into the tile.
__global__ void pointer_array(const float *A, float *C, int K)
{
    __shared__ float As[4][64];
    float *to_As[2] = {As[threadIdx.x / 64] + threadIdx.x % 64, As[2 + threadIdx.x / 64] + threadIdx.x % 64};
    float acc = 0.f;
    for (int t = 0; t < K / 256; ++t) {
        float v[2] = {__ldg(A + t * 256 + threadIdx.x), __ldg(A + t * 256 + 128 + threadIdx.x)};
        for (int i = 0; i < 2; ++i)
            to_As[i][0] = v[i];
        __syncthreads();
        acc += As[threadIdx.x % 4][(threadIdx.x + 1) % 64];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// A view the copies store through, whose array the compute reads by the array's own name.
__global__ void view_and_array(const float2 *A, float *C, int K)
{
    __shared__ float sa[512];
    float *to_sa = sa + threadIdx.x * 2;
    float acc = 0.f;
    for (int i = 0; i < K; i += 256) {
        *((float2 *)to_sa) = A[i + threadIdx.x];
        __syncthreads();
        acc += sa[(threadIdx.x + 1) % 512];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// The same through a macro that parenthesizes the pointer before its cast.
#define STORE2(M, R) *((float2 *)(M)) = R
__global__ void view_in_parentheses(const float2 *A, float *C, int K)
{
    __shared__ float sa[512];
    float *to_sa = sa + threadIdx.x * 2;
    float acc = 0.f;
    for (int i = 0; i < K; i += 256) {
        float2 v = A[i + threadIdx.x];
        STORE2(to_sa, v);
        __syncthreads();
        acc += sa[(threadIdx.x + 1) % 512];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
