// neg_reg_outside.cu: registers declared before the loop that are not a plain fetch. In the
// first kernel the last value of ra is read after the loop, in the second the compute reads
// rb, in the third the registers are stored before they are loaded (a register prefetch the
// author wrote). The first two were left alone until session 36; now their loads take a
// register of their own and the assignments stay where the stash stores the copies, so those
// reads see what they saw as written. The third is still left alone, named a register
// prefetch. The host program prints each kernel's output checksum for the CPU block model to
// compare; no K of 0: after_loop then reads ra unassigned.
// Usage: neg_reg_outside [M N K] (multiples of 16).
// gpu-runs: 64 64 32 | 64 64 96 | 128 128 160
#include "harness.cuh"

#define TS 16

__global__ void after_loop(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    for (int k0 = 0; k0 < K; k0 += TS) {
        ra = A[row * K + k0 + tx];
        rb = B[(k0 + ty) * N + col];
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc + ra;
}

__global__ void compute_reads(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    for (int k0 = 0; k0 < K; k0 += TS) {
        ra = A[row * K + k0 + tx];
        rb = B[(k0 + ty) * N + col];
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + rb;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void prefetched(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra = A[row * K + tx], rb = B[ty * N + col];
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        if (k0 + TS < K) {
            ra = A[row * K + k0 + TS + tx];
            rb = B[(k0 + TS + ty) * N + col];
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
    int sz[3] = {64, 64, 96};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    harness_checksum_only("after_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        after_loop<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    });
    harness_checksum_only("compute_reads", M, N, K, [&](const float *A, const float *B, float *C) {
        compute_reads<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    });
    harness_checksum_only("prefetched", M, N, K, [&](const float *A, const float *B, float *C) {
        prefetched<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    });
    return 0;
}
