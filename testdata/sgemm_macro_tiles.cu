// sgemm_macro_tiles.cu: tiles named only inside macros' bodies (`#define AS(i, j) As[...]`), as
// CUDA's samples and public SGEMMs write them: no stage index can be written where the name is,
// so only one stage is legal, and register staging takes it (the tiles' references stay as
// written; the copies' sides are the macros' uses). Usage: sgemm_macro_tiles [M N K]
// (multiples of TS).
// gpu-runs: 64 64 0 | 64 64 16 | 64 64 32 | 64 64 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16
#define AS(i, j) As[(i) * TS + (j)]
#define BS(i, j) Bs[(i) * TS + (j)]
#define A_AT(r, c) A[(r) * K + (c)]
#define B_AT(r, c) B[(r) * N + (c)]

__global__ void sgemm_macro_tiles(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS * TS];
    __shared__ float Bs[TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        AS(ty, tx) = A_AT(row, k0 + tx);
        BS(ty, tx) = B_AT(k0 + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += AS(ty, k) * BS(k, tx);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_macro_tiles", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_macro_tiles<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
