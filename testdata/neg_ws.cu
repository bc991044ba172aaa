// neg_ws.cu: K-loops that tensor copies take but a producer warp must not: the producer warp
// runs the code before the loop with thread indices past the kernel's, and leaves after the
// loop. base_shape is taken (the control); each other kernel changes one thing, and the ws
// golden's remark names it.
// pipefy-golden: tma ws ws-cp.async
#include <cuda_runtime.h>

#define T 32

// 256 threads, flat A tile, both tiles copied by loops strided by blockDim.x; the words in the
// comments (a return, a goto, a sync) are not statements
__global__ void base_shape(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    // no return before the loop and no goto anywhere
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    // no sync after the loop either
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a store before the loop: the producer's thread indices would write past the output tile
__global__ void store_before(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    C[(r0 + ty) * N + c0 + tx] = 0.0f;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] += acc[j];
}

// a load indexed by the thread before the loop: the producer's would read past the bias
__global__ void read_before(const float *A, const float *B, const float *bias, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    const float b = bias[c0 + threadIdx.x % T + T * (threadIdx.x / T)];
    float acc[4] = {b, b, b, b};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a return before the loop: a producer that returned would copy nothing
__global__ void return_before(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    if (r0 >= M)
        return;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a barrier after the loop (the epilogue goes through shared memory): the producer has left
__global__ void barrier_after(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    __shared__ float Cs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        Cs[ty + 8 * j][tx] = acc[j];
    __syncthreads();
    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
        C[(r0 + i / T) * N + c0 + i % T] = Cs[i / T][i % T];
}

// launched with 1024 threads: no room for the producer warp
__global__ void full_block(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// the K-loop inside another loop: a producer that left after it would miss the next pass
__global__ void nested(const float *A, const float *B, float *C, int N, int K, int passes)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int p = 0; p < passes; ++p) {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

void run(const float *A, const float *B, const float *bias, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T);
    base_shape<<<grid, 256>>>(A, B, C, N, K);
    store_before<<<grid, 256>>>(A, B, C, N, K);
    read_before<<<grid, 256>>>(A, B, bias, C, N, K);
    return_before<<<grid, 256>>>(A, B, C, M, N, K);
    barrier_after<<<grid, 256>>>(A, B, C, N, K);
    nested<<<grid, 256>>>(A, B, C, N, K, 2);
    full_block<<<grid, 1024>>>(A, B, C, N, K);
}
