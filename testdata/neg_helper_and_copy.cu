// neg_helper_and_copy.cu: left alone: one tile filled by a __device__ helper, the other by a
// direct copy; pipefy moved the copy into the loader and left the helper's fill in the compute
// without its barrier (a race it once had).
// Usage: neg_helper_and_copy [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16
__device__ void load_one(float (*S)[TS], const float *G, int r, int c, int ld)
{
    S[threadIdx.y][threadIdx.x] = G[r * ld + c];
}

__global__ void helper_and_copy(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_one(As, A, row, k0 + tx, K);
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
    return harness_gemm<float, float>("neg_helper_and_copy", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_and_copy<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
