// sgemm_persistent.cu: the K-loop inside a persistent loop over output tiles (a block takes
// tile b, b + gridDim.x, ...): every variant must leave the stages free before the next run of
// the K-loop refills them (cp.async once lacked the barrier after its loop).
// Usage: sgemm_persistent [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

__global__ void persistent(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_n = N / TS, tiles = (M / TS) * tiles_n;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        int row = (t / tiles_n) * TS + ty, col = (t % tiles_n) * TS + tx;
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
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_persistent", M, N, K, [&](const float *A, const float *B, float *C) {
        persistent<<<3, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
