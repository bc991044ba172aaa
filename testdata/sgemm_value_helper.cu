// sgemm_value_helper.cu (neg_value_helper.cu until session 26): the tiles are filled from a
// function of the program that takes the matrix and the indices (`As[ty][tx] = get(A, K, row,
// k0 + tx)`, the load inside it). Its whole body returns the element its pointer parameter
// indexes, reading nothing but its parameters: a load, which register staging makes a tile
// early (pipefy once said the loop had no tile filled from global memory at all, then left it
// as written naming the function).
// Usage: sgemm_value_helper [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 48 | 256 256 256
#include "harness.cuh"

#define TS 16
__device__ __forceinline__ float get(const float *Mat, int ld, int r, int c) { return Mat[r * ld + c]; }

__global__ void value_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = get(A, K, row, k0 + tx);
        Bs[ty][tx] = get(B, N, k0 + ty, col);
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
    return harness_gemm<float, float>("sgemm_value_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        value_helper<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
