// sgemm_copy_rows_inc.cu: copy loops over a thread's rows counted with `++r` and `r++`
// (a 32 x 32 tile, a block of 32 x 8 threads, four rows each, `constexpr` trip count), the
// first under `#pragma unroll`: the register variant stages one register per trip as for
// `r += S`, with S = 1 (the pragma stays, before the loop over the trips).
// Usage: sgemm_copy_rows_inc [M N K] (multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 32 32 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 96
#include "harness.cuh"

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void copy_rows_inc(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
            As[ty + 8 * r][tx] = A[(row0 + ty + 8 * r) * K + k0 + tx];
        for (int r = 0; r < ROWS; r++)
            Bs[ty + 8 * r][tx] = B[(k0 + ty + 8 * r) * N + col];
        __syncthreads();
        for (int r = 0; r < ROWS; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[ty + 8 * r][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_copy_rows_inc", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_rows_inc<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
