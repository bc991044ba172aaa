// neg_warp_sync.cu: left alone: a warp-synchronous loop: each warp fills and reads its own
// slice of shared memory under __syncwarp(), with no block barrier to pipeline around.
// Usage: neg_warp_sync [M N K] (M a multiple of WARPS, N and K multiples of 32).
// gpu-runs: 128 128 0 | 128 128 32 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 64
#include "harness.cuh"

#define WARPS 4

__global__ void warp_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[WARPS][32];
    __shared__ float Bs[WARPS][32][33];
    int lane = threadIdx.x, w = threadIdx.y;
    int row = blockIdx.y * WARPS + w, col = blockIdx.x * 32 + lane;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 32) {
        As[w][lane] = A[row * K + k0 + lane];
        for (int r = 0; r < 32; ++r)
            Bs[w][r][lane] = B[(k0 + r) * N + col];
        __syncwarp();
        for (int k = 0; k < 32; ++k)
            acc += As[w][k] * Bs[w][k][lane];
        __syncwarp();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_warp_sync", M, N, K, [&](const float *A, const float *B, float *C) {
        warp_gemm<<<dim3(N / 32, M / WARPS), dim3(32, WARPS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
