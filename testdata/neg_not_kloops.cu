// neg_not_kloops.cu: loops that synchronize the block and write shared memory but are no
// K-loop pipefy can take: each gets a remark that says why (none is passed over in silence),
// and the file is left as written. A GEMM whose K-loop is a `while`, the same GEMM whose
// barriers sit inside nested statements (both launched, the second overwriting the first's
// identical result), and a block reduction that only moves shared data.
// Usage: neg_not_kloops [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 48 | 256 256 256
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void gemm_while(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int k0 = 0;
    while (k0 < K) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        k0 += TS;
    }
    C[row * N + col] = acc;
}

__global__ void gemm_nested_barriers(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        {
            __syncthreads();
        }
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        {
            __syncthreads();
        }
    }
    C[row * N + col] = acc;
}

// the sum of a block's 256 values, in shared memory (not launched: its loop's remark is the test)
__device__ float block_sum(float *buf, float v)
{
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    return buf[0];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_not_kloops", M, N, K, [&](const float *A, const float *B, float *C) {
        gemm_while<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
        gemm_nested_barriers<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
