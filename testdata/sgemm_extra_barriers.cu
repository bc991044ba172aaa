// sgemm_extra_barriers.cu: K-loops with more barriers than the two a tile needs, as ECE408
// convolutions and generated code write them: a barrier between A's copies and B's (`As = ..;
// __syncthreads(); Bs = ..;`), which orders nothing (the copies after it write another tile and
// read none), and a barrier right after another one. The rewrite's own barriers keep the
// stages apart, and it leaves these out (three barriers a tile each, so that the SASS check
// reads one tile an iteration of the original). neg: a barrier between copies into one tile, or before
// a local of B's copies that reads A's tile, orders them (tests/cli/barriers-between-copies).
// pipefy-golden: tma bulk ws ws-cp.async
// pipefy-args: --arch=sm_90
// Usage: sgemm_extra_barriers [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 48 32 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"

#define TS 16

__global__ void sgemm_barrier_between_copies(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        __syncthreads();
        int brow = t * TS + ty;
        Bs[ty][tx] = B[brow * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void sgemm_barrier_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_barrier_between_copies", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_barrier_between_copies<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_barrier_twice", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_barrier_twice<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
