// sgemm_pointer_bumps.cu: the induction carried by pointer bumps (A += TS; B += TS * N;)
// placed before the first barrier, between the barrier and the compute, and after the
// second barrier, one kernel each. Usage: sgemm_pointer_bumps [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 128 128 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void bump_before_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    A += (blockIdx.y * TS + ty) * K + tx;
    B += ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = *A;
        Bs[ty][tx] = *B;
        A += TS;
        B += TS * N;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void bump_after_first_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = a[0];
        Bs[ty][tx] = b[0];
        __syncthreads();
        a += TS;
        b += TS * N;
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void bump_after_second_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    int k0 = 0;
    for (; k0 < K; ) {
        As[ty][tx] = a[0];
        Bs[ty][tx] = b[0];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        a += TS;
        b += TS * N;
        k0 += TS;
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = 0;
    rc |= harness_gemm<float, float>("bump_before_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_before_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_first_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_after_first_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_second_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_after_second_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
// pipefy-golden: tma bulk ws
