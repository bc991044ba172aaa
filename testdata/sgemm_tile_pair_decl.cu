// sgemm_tile_pair_decl.cu: both tiles in one declaration, `__shared__ float As[TS][TS],
// Bs[TS][TS];`, as many tutorials write them. The tensor-copy rewrites align the tiles with one
// `alignas(128)` before the type, which aligns both: the build before wrote it once per tile,
// `__shared__ alignas(128) alignas(128) float ..`, which clang rejects, and validation then left
// the loop as written under tma and bulk (ws and ws-cp.async refuse the 2-D block for another
// reason: their producer warp is added to a 1-D one).
// Usage: sgemm_tile_pair_decl [M N K] (multiples of TS)
// pipefy-args: --arch=sm_90
// pipefy-golden: tma bulk
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TS 16

__global__ void tile_pair(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
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

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("tile_pair", M, N, K, [&](const float *A, const float *B, float *C) {
        tile_pair<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
