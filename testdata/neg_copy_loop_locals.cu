// neg_copy_loop_locals.cu: a copy loop whose body declares the column it loads from the K-loop's
// variable (`int c = k0 + tx;`). Staged in registers, the loop's body runs again for the stores,
// after the compute: pipefy once wrote such a rewrite with the stores reading a `k0` they did not
// have (its own validation rejected it), and in the second kernel, whose loop variable is
// declared before the loop, the current tile's `k0` (tile t+1's columns stored where tile t's
// parity says: a miscompile the CPU model shows, the checksum differs). The stores now declare
// the loop variables of the tile they store (pipefy_tile_k0, set by the fetch): both kernels
// take ldg x2, and the goldens run bit-identical to the originals.
// Both run, the second averaging its product with the first's (exact: (x + x) / 2 = x).
// Usage: neg_copy_loop_locals [M N K] (multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 96 | 256 256 256
#include "harness.cuh"

#define TILE 32

__global__ void copy_loop_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[4] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int r = 0; r < 4; ++r) {
            int c = k0 + tx;
            As[ty + 8 * r][tx] = A[(row0 + ty + 8 * r) * K + c];
            Bs[ty + 8 * r][tx] = B[(k0 + ty + 8 * r) * N + col];
        }
        __syncthreads();
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[ty + 8 * r][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

// A's columns stored swapped pairwise on odd tiles, and read back the same way: the product is
// unchanged, so long as each tile is stored and read with its own parity
__global__ void copy_loop_locals_outer(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[4] = {};
    int k0;
    for (k0 = 0; k0 < K; k0 += TILE) {
        for (int r = 0; r < 4; ++r) {
            int c = tx ^ ((k0 / TILE) & 1);
            As[ty + 8 * r][c] = A[(row0 + ty + 8 * r) * K + k0 + tx];
            Bs[ty + 8 * r][tx] = B[(k0 + ty + 8 * r) * N + col];
        }
        __syncthreads();
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[ty + 8 * r][k ^ ((k0 / TILE) & 1)] * Bs[k][tx];
        __syncthreads();
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + ty + 8 * r) * N + col] = 0.5f * (C[(row0 + ty + 8 * r) * N + col] + acc[r]);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_copy_loop_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_loop_locals<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
        copy_loop_locals_outer<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
