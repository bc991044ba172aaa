// sgemm_1d_block.cu: a 1-D block of TS*TS threads computing a TS x TS tile, one output per
// thread; `#define` tile sizes and an unrolled inner loop. Usage: sgemm_1d_block [M N K]
// (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void sgemm_1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x % TS, ty = threadIdx.x / TS;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        // one element of each tile per thread
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_1d_block", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_1d<<<dim3(N / TS, M / TS), TS * TS>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
