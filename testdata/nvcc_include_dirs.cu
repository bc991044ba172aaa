// nvcc_include_dirs.cu: a header found only in the project's include/ folder (pipefy looks
// beside the file, in its parents up to the repository root, and in include/, src/ and common/
// next to each) and macros defined on the command line. Usage: nvcc_include_dirs [M N K]
// (multiples of 16).
// pipefy-args: -DUSE_FP32 -DWARPSIZE=32
// nvcc-args: -DUSE_FP32 -DWARPSIZE=32
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include "harness.cuh"
#include "gemm_config.h"

__global__ void sgemm_include_dirs(const gemm_t *A, const gemm_t *B, gemm_t *C, int M, int N, int K)
{
    __shared__ gemm_t As[GEMM_TILE][GEMM_TILE];
    __shared__ gemm_t Bs[GEMM_TILE][GEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * GEMM_TILE + ty, col = blockIdx.x * GEMM_TILE + tx;
    gemm_t acc = 0;
    for (int k0 = 0; k0 < K; k0 += GEMM_TILE) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < GEMM_TILE; ++k)
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
    return harness_gemm<float, float>("nvcc_include_dirs", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(GEMM_TILE, GEMM_TILE), grid(N / GEMM_TILE, M / GEMM_TILE);
        sgemm_include_dirs<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
