// A producer warp makes the block 32 threads bigger; pipefy rewrites `blockDim` in the kernel to
// the block it was written for, but not what it cannot see: a helper that reads blockDim, a
// macro that expands to it, cooperative groups' view of the block, PTX's %ntid. Each of the
// first three kernels and the last is left as written for ws (each multiplied its sums by 2
// once the warp was added); the fourth reads blockDim in its own code (rewritten: taken).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define T 32
#define NT blockDim.x

__device__ __forceinline__ int block_threads() { return blockDim.x; }
__device__ __forceinline__ unsigned ntid() { unsigned n; asm("mov.u32 %0, %%ntid.x;" : "=r"(n)); return n; }

__global__ void helper_dim(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx] * (block_threads() == 256 ? 1.0f : 2.0f);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

__global__ void cg_size(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx] * (cg::this_thread_block().size() == 256 ? 1.0f : 2.0f);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

__global__ void macro_dim(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx] * (NT == 256 ? 1.0f : 2.0f);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

__global__ void own_dim(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx] * (blockDim.x == 256 ? 1.0f : 2.0f);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

__global__ void asm_ntid(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx] * (ntid() == 256 ? 1.0f : 2.0f);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

void run(const float *S, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T);
    helper_dim<<<grid, 256>>>(S, B, C, M, N, K, K);
    cg_size<<<grid, 256>>>(S, B, C, M, N, K, K);
    macro_dim<<<grid, 256>>>(S, B, C, M, N, K, K);
    own_dim<<<grid, 256>>>(S, B, C, M, N, K, K);
    asm_ntid<<<grid, 256>>>(S, B, C, M, N, K, K);
}
