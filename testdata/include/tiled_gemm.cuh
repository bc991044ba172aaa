// tiled_gemm.cuh: a kernel in a header, the way libraries ship them. It and gemm_epilogue.cuh
// include each other behind #pragma once; given to pipefy as the input, the cycle must end
// where nvcc's does. nvcc_header_kernel.cu launches it.
#pragma once
#include "gemm_epilogue.cuh"

#define HT 16

__global__ void sgemm_in_header(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[HT][HT];
    __shared__ float Bs[HT][HT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * HT + ty, col = blockIdx.x * HT + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += HT) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < HT; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    store_result(C, row * N + col, acc);
}
