// sgemm_tiled.cu: the CUDA-samples shape: 2-D block of TILE x TILE threads, one output per
// thread, one float per thread per tile. Usage: sgemm_tiled [M N K] (multiples of TILE).
// pipefy-golden: tma bulk ws
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        As[ty][tx] = A[row * K + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
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
    return harness_gemm<float, float>("sgemm_tiled", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_tiled<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
