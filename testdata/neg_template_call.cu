// neg_template_call.cu: in a kernel template, a tile filled by a call whose callee the template's
// parameters decide (`L::load(As, ...)`, a loader passed as a template argument). clang cannot
// resolve it before instantiation, so pipefy cannot see that it writes the tile: the loop is
// left as written, with the call named. A call of a function template with the template's
// parameters as its arguments (`fill_row<float, M>(As, ...)`) has one candidate, which pipefy
// reads: it writes the tile, so that loop is left as written too. (Before, both calls were
// taken for arithmetic, kept in the compute, and lost the barrier their readers waited at.)
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

template <class T, int N> __device__ void fill_row(T (*As)[N], const T *A, int row, int K, int k0)
{
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
}

template <class T, int N> __device__ T dot(const T (*As)[N], const T (*Bs)[N], int r, int c)
{
    T s = 0;
    for (int k = 0; k < N; ++k)
        s += As[r][k] * Bs[k][c];
    return s;
}

template <int M>
__global__ void sgemm_fill_template(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[M][M];
    __shared__ float Bs[M][M];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * M + ty, col = blockIdx.x * M + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += M) {
        fill_row<float, M>(As, A, row, K, k0);
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        acc += dot<float, M>(As, Bs, ty, tx);
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
    }, 1e-4, 1e-4) | harness_gemm<float, float>("sgemm_fill_template", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_fill_template<TS><<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, N, K);
    }, 1e-4, 1e-4);
}
