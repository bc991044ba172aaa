// neg_helper_fill_value.cu: a tile filled by a helper whose guarded copy fills -INFINITY:
// cp.async only fills zeros, so no variant can take it (it was once made a zero fill).
// Usage: neg_helper_fill_value [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16
__device__ void load_guarded(float (*As)[TS], float (*Bs)[TS], const float *A, const float *B, int row, int col,
                             int k0, int N, int K)
{
    As[threadIdx.y][threadIdx.x] = k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : -INFINITY;
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : -INFINITY;
}

__global__ void helper_fill_value(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_guarded(As, Bs, A, B, row, col, k0, N, K);
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
    return harness_gemm<float, float>("neg_helper_fill_value", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_fill_value<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
