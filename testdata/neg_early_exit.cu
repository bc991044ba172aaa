// neg_early_exit.cu: left alone: a break (and, in the second kernel, a return) inside the
// K-loop: the prologue would load tiles the loop never reaches. Usage: neg_early_exit [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

__global__ void gemm_break(const float *A, const float *B, float *C, int M, int N, int K)
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
        __syncthreads();
        if (isnan(acc))
            break;
    }
    C[row * N + col] = acc;
}

__global__ void gemm_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (K < 0)
            return;
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("gemm_break", M, N, K, [&](const float *A, const float *B, float *C) {
        gemm_break<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("gemm_return", M, N, K, [&](const float *A, const float *B, float *C) {
        gemm_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
