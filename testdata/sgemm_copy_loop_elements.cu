// sgemm_copy_loop_elements.cu: copy loops whose trips must store distinct elements for their
// copies to become asynchronous (two cp.async copies of one thread to one address land in no
// fixed order, where the loop as written keeps the last). pipefy proves it from the element's
// address, not from the counter's name in it. same_row, quotient_row and inner_still store one
// element on every trip (`As[ty + 0 * x][tx]`, `As[ty][tx + x / 2]`, a loop inside the copy loop
// that does not move it), the last trip's load the right one: cp.async is refused for each (a
// gate that took a destination naming the counter for a distinct element let all three through,
// and the CPU model then sees two copies in flight to one address). padded_rows
// (`*(float4 *)&As[i / 8][(i % 8) * 4]` in rows of 36 floats: a quotient and remainder of the
// counter, padding between rows) and nested_rows (`As[ty + 4 * (2 * q + w)][tx]`, q's step
// outrunning w's) store distinct elements, and cp.async takes them.
// Usage: sgemm_copy_loop_elements [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 64 | 64 96 64 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 96 64
#include "harness.cuh"

#define T 32
#define P 4 // padding after each row

__global__ void same_row(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 8; ++q)
            for (int x = 0; x < 2; ++x)  // the last trip's load is the right one
                As[ty + 4 * q + 0 * x][tx] = A[(row0 + ty + 4 * q) * K + k0 + (tx + 1 - x) % T];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void quotient_row(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 8; ++q)
            for (int x = 0; x < 2; ++x)  // x / 2 is 0 on both trips
                As[ty + 4 * q][tx + x / 2] = A[(row0 + ty + 4 * q) * K + k0 + (tx + 1 - x) % T];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void inner_still(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 8; ++q) {
            for (int y = 0; y < 2; ++y)  // the element moves with q, not with y
                As[ty + 4 * q][tx] = A[(row0 + ty + 4 * q) * K + k0 + (tx + 1 - y) % T];
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void padded_rows(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T + P];
    __shared__ __align__(16) float Bs[T][T + P];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = tid; i < T * T / 4; i += 128) {
            int r = i / (T / 4), c = (i % (T / 4)) * 4;
            *(float4 *)&As[r][c] = *(const float4 *)&A[(row0 + r) * K + k0 + c];
            *(float4 *)&Bs[r][c] = *(const float4 *)&B[(k0 + r) * N + col0 + c];
        }
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col0 + tx] = acc[q];
}

__global__ void nested_rows(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 4; ++q)
            for (int w = 0; w < 2; ++w) {
                As[ty + 4 * (2 * q + w)][tx] = A[(row0 + ty + 4 * (2 * q + w)) * K + k0 + tx];
                Bs[ty + 4 * (2 * q + w)][tx] = B[(k0 + ty + 4 * (2 * q + w)) * N + col];
            }
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    dim3 grid(N / T, M / T), block(T, 4);
    bad |= harness_gemm<float, float>("same_row", M, N, K, [&](const float *A, const float *B, float *C) {
        same_row<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("quotient_row", M, N, K, [&](const float *A, const float *B, float *C) {
        quotient_row<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("inner_still", M, N, K, [&](const float *A, const float *B, float *C) {
        inner_still<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("padded_rows", M, N, K, [&](const float *A, const float *B, float *C) {
        padded_rows<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("nested_rows", M, N, K, [&](const float *A, const float *B, float *C) {
        nested_rows<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
