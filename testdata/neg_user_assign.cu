// neg_user_assign.cu: left alone: the tiles hold a type with a user-written operator=; the
// register variant would run it twice and cp.async not at all.
// Usage: neg_user_assign [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

struct Val {
    float v;
    __device__ Val &operator=(const Val &o) { v = o.v; return *this; }
};

__global__ void user_assign(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ Val As[TS][TS];
    __shared__ Val Bs[TS][TS];
    const Val *a = (const Val *)A, *b = (const Val *)B;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = a[row * K + k0 + tx];
        Bs[ty][tx] = b[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k].v * Bs[k][tx].v;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_user_assign", M, N, K, [&](const float *A, const float *B, float *C) {
        user_assign<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
