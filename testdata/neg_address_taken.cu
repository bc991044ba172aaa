// neg_address_taken.cu: left alone: the copies read the tile's first column through a local the
// compute advances through a pointer to it (`*next += TS`); the loader, reading it a tile
// early, would load tile t again as tile t+1 (the check: pipefy without it pipelines the loop,
// and that rewrite fails its reference in the CPU model). Usage: neg_address_taken [M N K].
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void address_taken(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                              int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int k0 = 0; // the tile's first column
    int *next = &k0;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        *next += TS;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_address_taken", M, N, K, [&](const float *A, const float *B, float *C) {
        address_taken<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
