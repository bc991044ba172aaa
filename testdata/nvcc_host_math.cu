// nvcc_host_math.cu: host code calling min, max and isfinite unqualified, as nvcc's implicit
// math_functions.hpp allows (clang's CUDA wrapper declares them for the device only; pipefy's
// nvcc-compatibility prelude declares them for the host). Usage: nvcc_host_math [M N K]
// (multiples of TS).
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include "harness.cuh"

#define TS 16

__global__ void sgemm_host_math(const float *A, const float *B, float *C, int M, int N, int K)
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
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int blocks_x = max(1, N / TS), blocks_y = max(1, min(M, 1 << 20) / TS);
    float tolerance = 1e-4f;
    if (!isfinite(tolerance) || isnan(tolerance))
        return 2;
    return harness_gemm<float, float>("nvcc_host_math", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TS, TS), grid(blocks_x, blocks_y);
        sgemm_host_math<<<grid, block>>>(A, B, C, M, N, K);
    }, tolerance, tolerance);
}
