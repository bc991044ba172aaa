// neg_store_helper.cu: the tiles are filled through `st(&As[..], ld(..))` helpers in a copy
// loop of one trip. pipefy once pipelined this with nothing in the loader (it did not see the
// stores); it now reads the one-line helpers as the copies they are, and the copy loop's `++i`
// as a trip count: auto stages the copies in registers, one per trip (it once left the loop as
// written, `++i` being no trip count pipefy read).
// Usage: neg_store_helper [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16
__device__ __forceinline__ float ld(const float *p) { return *p; }
__device__ __forceinline__ void st(float *p, float v) { *p = v; }

__global__ void store_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int i = 0; i < 1; ++i) {
            st(&As[ty][tx], ld(&A[row * K + k0 + tx]));
            st(&Bs[ty][tx], ld(&B[(k0 + ty) * N + col]));
        }
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
    return harness_gemm<float, float>("neg_store_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        store_helper<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
