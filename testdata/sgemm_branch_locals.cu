// sgemm_branch_locals.cu: guarded fills whose load branch declares the locals its store reads,
// as ECE408-style kernels write them: `if (in bounds) { const int off = col * M + row; As[..] =
// A[off]; } else As[..] = 0.0f;`. Each local is set once from arithmetic on locals and
// parameters, so the copy is the same as `As[..] = g ? A[((int)(col * M + row))] : 0.0f`.
// The first kernel reads column-major A and B (the locals are offsets, one of them named like a
// local outside the branch), the second chains two locals (one reads the other) of another type
// than their value's, and writes the zero first.
// Usage: sgemm_branch_locals [M N K].
// gpu-runs: 20 24 0 | 20 24 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"

#define TS 16

// C = A * B, every matrix column-major (as BLAS stores them): A is M x K, B is K x N
__global__ void sgemm_branch_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        const int acol = t * TS + tx;
        if (acol < K && row < M) {
            const int aoff = acol * M + row;  // A(row, acol)
            As[ty][tx] = A[aoff];
        } else {
            As[ty][tx] = 0.0f;
        }
        const int brow = t * TS + ty;
        if (brow < K && col < N) {
            const int row = brow;             // (the tile's row of B: the name of an outer local)
            const int boff = col * K + row;   // B(brow, col)
            Bs[ty][tx] = B[boff];
        } else {
            Bs[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[col * M + row] = acc;
}

// the same product with row-major A and B: two locals a branch, one read by the other, the
// wider one 64-bit; the zero in the then branch
__global__ void sgemm_branch_locals_chained(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        if (row >= M || t * TS + tx >= K) {
            As[ty][tx] = 0.0f;
        } else {
            int k = t * TS + tx;
            long off = (long)row * K + k;
            As[ty][tx] = A[off];
        }
        if (t * TS + ty < K && col < N) {
            unsigned k = t * TS + ty;
            size_t off = k * (size_t)N + col;
            Bs[ty][tx] = B[off];
        } else
            Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    // row-major A, B and C are column-major A^T, B^T and C^T, and C^T = B^T A^T
    int rc = harness_gemm<float, float>("sgemm_branch_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_locals<<<dim3((M + TS - 1) / TS, (N + TS - 1) / TS), block>>>(B, A, C, N, M, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_branch_locals_chained", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_locals_chained<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
