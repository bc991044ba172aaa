// sgemm_blockdim_compute.cu: a textbook tiled SGEMM written for any square block, as course code
// often is: the tile's width is blockDim.x, read at run time by the K-loop's step, the copies'
// indices and the compute loop's bound (`k < blockDim.x`); the tiles are sized for the largest
// block. The launch below uses a 16x16 block; pipefy counts the compute's trips from it and runs
// the pipelined loop under that shape, the loop as written for any other.
// Usage: sgemm_blockdim_compute [M N K] (M, N multiples of TILE; any K).
// gpu-runs: 64 64 0 | 64 64 1 | 64 64 17 | 64 64 48 | 128 96 100 | 512 512 512
// gpu-sanitize: 64 64 17
#include "harness.cuh"

#define TILE 16
#define MAX_TILE 32

__global__ void sgemm_blockdim_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[MAX_TILE * MAX_TILE];
    __shared__ float Bs[MAX_TILE * MAX_TILE];
    int w = blockDim.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += blockDim.x) {
        As[threadIdx.y * w + threadIdx.x] = k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y * w + threadIdx.x] = k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < blockDim.x; ++k)
            acc += As[threadIdx.y * w + k] * Bs[k * w + threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_blockdim_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_blockdim_compute<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
