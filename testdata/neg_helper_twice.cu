// neg_helper_twice.cu: both tiles are filled by two calls of one __device__ helper. When only
// a single fill call was pipelined, the second call was a write pipefy must not leave in the
// compute without its barrier (it once did), and the loop was left alone. Calls in a row are
// fill helpers together now: --variant=cp.async calls an asynchronous copy of the helper twice;
// auto still leaves the loop (4-byte copies: cp.async lost on the H200, and registers would
// need the helper split).
// Usage: neg_helper_twice [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16
__device__ void load_one(float (*S)[TS], const float *G, int r, int c, int ld)
{
    S[threadIdx.y][threadIdx.x] = G[r * ld + c];
}

__global__ void helper_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_one(As, A, row, k0 + tx, K);
        load_one(Bs, B, k0 + ty, col, N);
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
    return harness_gemm<float, float>("neg_helper_twice", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_twice<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
