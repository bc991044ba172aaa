// sgemm_other_array_view.cu: the compute reads a __shared__ array that is no tile of the loop
// (filled once before it) through a pointer it declares each tile (`const float *w = one;`):
// the rewrite stages the tiles and leaves that array, and the address kept in the pointer, as
// they were. The weights are ones, so the product is A*B.
// Usage: sgemm_other_array_view [M N K]
// gpu-runs: 16 16 0 | 16 16 5 | 17 33 31 | 64 64 64 | 100 70 45 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 17 33 31
#include "harness.cuh"

#define TS 16

__global__ void weighted_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    __shared__ float one[TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (ty == 0)
        one[tx] = 1.0f;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = col < N && k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        const float *w = one;
        for (int k = 0; k < TS; ++k)
            acc += w[k] * As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("weighted_view", M, N, K, [&](const float *A, const float *B, float *C) {
        weighted_view<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
