// neg_template_call.cu: in a kernel template, a tile filled by a call whose callee the template's
// parameters decide (`L::load(As, ...)`, a loader passed as a template argument). clang cannot
// resolve it before instantiation, so pipefy cannot see that it writes the tile: the loop is
// left as written, with the call named. (Before this was refused, the call was taken for
// arithmetic, kept in the compute, and lost the barrier its readers waited at.)
// Usage: neg_template_call [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 48 | 256 256 256
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

struct RowLoader {
    __device__ static void load(float (*As)[TS], const float *A, int row, int K, int k0)
    {
        As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    }
};

template <class L>
__global__ void sgemm_loader(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        L::load(As, A, row, K, k0);
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
    return harness_gemm<float, float>("sgemm_loader", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_loader<RowLoader><<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
