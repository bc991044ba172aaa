// sgemm_register_locals.cu: a course-style tiled SGEMM whose counters and indices are declared
// `register`, as older code wrote them (C++17 removed the keyword; nvcc still compiles it, with
// a warning). A K-loop whose tile count is not a multiple, guarded copies with a zero else.
// Usage: sgemm_register_locals [M N K] (M, N multiples of TILE; any K).
// gpu-runs: 64 64 0 | 64 64 1 | 64 64 17 | 64 64 48 | 128 96 100 | 512 512 512
// gpu-sanitize: 64 64 17
#include "harness.cuh"

#define TILE 16

__global__ void sgemm_register_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    register int tx = threadIdx.x, ty = threadIdx.y;
    register int row = blockIdx.y * TILE + ty;
    register int col = blockIdx.x * TILE + tx;
    register float acc = 0.0f;
    for (register int m = 0; m < (K + TILE - 1) / TILE; ++m) {
        if (m * TILE + tx < K)
            As[ty][tx] = A[row * K + m * TILE + tx];
        else
            As[ty][tx] = 0.0f;
        if (m * TILE + ty < K)
            Bs[ty][tx] = B[(m * TILE + ty) * N + col];
        else
            Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (register int k = 0; k < TILE; ++k)
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
    return harness_gemm<float, float>("sgemm_register_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_register_locals<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
