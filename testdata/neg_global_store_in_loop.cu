// neg_global_store_in_loop.cu: left alone: the compute stores the running sum to C every tile, and
// A and B are not __restrict__, so the next tile's loads may read what it stores. The second
// kernel is a template whose output's type is a parameter (`P C`, a float * where launched): a
// store through it is a store through a pointer too, though the template does not say so (the
// build before took `C[i] = acc` for a write to the local C and pipelined it).
// Usage: neg_global_store_in_loop [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void store_in_loop(const float *A, const float *B, float *C, int M, int N, int K)
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
        C[row * N + col] = acc;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template <typename P>
__global__ void store_in_loop_typed(const float *A, const float *B, P C, int M, int N, int K)
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
        C[row * N + col] = acc;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = harness_gemm<float, float>("neg_global_store_in_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        store_in_loop<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("typed", M, N, K, [&](const float *A, const float *B, float *C) {
        store_in_loop_typed<float *><<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
