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
    int sz[3] = {64, 64, 96};
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    size_t na = (size_t)M * K + 64, nb = (size_t)K * N + 64, nc = (size_t)M * N + 64;
    float *hA = (float *)malloc(na * 4), *hB = (float *)malloc(nb * 4), *hC = (float *)malloc(nc * 4);
    uint32_t seed = 7;
    for (size_t i = 0; i < na; i++) hA[i] = harness_random(&seed);
    for (size_t i = 0; i < nb; i++) hB[i] = harness_random(&seed);
    float *A, *B, *C;
    CHECK(cudaMalloc(&A, na * 4)); CHECK(cudaMalloc(&B, nb * 4)); CHECK(cudaMalloc(&C, nc * 4));
    CHECK(cudaMemcpy(A, hA, na * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, hB, nb * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(C, 0, nc * 4));
    after_loop<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hC, C, nc * 4, cudaMemcpyDeviceToHost));
    printf("after_loop: PASS\nchecksum %016llx\n", (unsigned long long)harness_checksum(hC, nc * 4));
    CHECK(cudaMemset(C, 0, nc * 4));
    compute_reads<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hC, C, nc * 4, cudaMemcpyDeviceToHost));
    printf("compute_reads: PASS\nchecksum %016llx\n", (unsigned long long)harness_checksum(hC, nc * 4));
    CHECK(cudaMemset(C, 0, nc * 4));
    prefetched<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hC, C, nc * 4, cudaMemcpyDeviceToHost));
    printf("prefetched: PASS\nchecksum %016llx\n", (unsigned long long)harness_checksum(hC, nc * 4));
    return 0;
}
