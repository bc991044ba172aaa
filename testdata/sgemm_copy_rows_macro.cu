// sgemm_copy_rows_macro.cu: copy loops over tile rows strided by BY, a macro the build may
// redefine (`#ifndef BY`); the nvcc tests build it with -DBY=4 while pipefy parses BY as 8.
// The register variant's trip count must be written as the bound and stride are written,
// never as the number pipefy evaluated (it once baked 2 trips where 4 were needed).
// Usage: sgemm_copy_rows_macro [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
// nvcc-args: -DBY=4
#include "harness.cuh"

#define TS 16
#ifndef BY
#define BY 8
#endif

__global__ void copy_rows(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;
    float acc[TS / BY] = {};
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int r = ty; r < TS; r += BY)
            As[r][tx] = A[(row0 + r) * K + k0 + tx];
        for (int r = ty; r < TS; r += BY)
            Bs[r][tx] = B[(k0 + r) * N + col];
        __syncthreads();
        for (int i = 0; i < TS / BY; ++i)
            for (int k = 0; k < TS; ++k)
                acc[i] += As[ty + i * BY][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < TS / BY; ++i)
        C[(row0 + ty + i * BY) * N + col] = acc[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_copy_rows_macro", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_rows<<<dim3(N / TS, M / TS), dim3(TS, BY)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
