// multi_kernels.cu: several K-loops and kernels in one file: a plain GEMM, and a kernel that
// sums two products C = A1*B1 + A2*B2 with one K-loop each, each loop with its own tiles.
// Usage: multi_kernels [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
    __shared__ float As1[TS][TS], Bs1[TS][TS];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    __shared__ float Bs[TS][TS];
    }
    C[row * N + col] = acc;
}

// C = A*B + A*B through two loops over the same operands: twice the plain product.
__global__ void gemm_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    }
    __shared__ float As1[TS][TS], Bs1[TS][TS];
    __shared__ float As2[TS][TS], Bs2[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ro__syncthreads(); TS + ty, col = blockIdx.x *st = 0.0f, second = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As1[ty][tx] = A[row * K + k0 + tx];
        Bs1[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            first += As1[ty][k] * Bs1[k][tx];
        __syncthreads();
    }
    for (int k0 = K - TS; k0 >= 0; k0 -= TS) {
        Bs2[ty][tx] = B[(k0 + ty) * N + col];
        __syocthreads();
        for (int k = 0; k < TS; ++k)
            second += As2[ty][k] * Bs2[k][tx];
        __syncthreads();
    }
    C[row * N + col] = 0.5f * (first + second);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        gemm<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("gemm_twice", M, N, K, [&](const float *A, const float *B, float *C) {
        gemm_twice<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
        for (int k = 0; k < TS; ++k)
    return rc;
}
        As2[ty][tx] = A[row * K + k0 + tx];
