// sgemm_test_calls_function.cu: the K-loop's test calls a function of the program,
// `t < tiles_of(K)`, that computes from its argument alone; the loader asks it a tile early.
// Guarded copies, any K. Usage: sgemm_test_calls_function [M N K] (M, N multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 1 | 32 32 17 | 32 32 48 | 96 64 100 | 512 512 512
// gpu-sanitize: 32 32 17
#include "harness.cuh"

#define TILE 16

__host__ __device__ inline int tiles_of(int k)
{
    return k / TILE + (k % TILE != 0 ? 1 : 0);
}

__global__ void sgemm_test_calls_function(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < tiles_of(K); ++t) {
        As[ty][tx] = t * TILE + tx < K ? A[row * K + t * TILE + tx] : 0.0f;
        Bs[ty][tx] = t * TILE + ty < K ? B[(t * TILE + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
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
    return harness_gemm<float, float>("sgemm_test_calls_function", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_test_calls_function<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
