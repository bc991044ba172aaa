// nvcc_openmp_host.cu: a file that includes gcc's <omp.h> for OpenMP host code, which nvcc
// finds through the host compiler and clang does not have (pipefy declares the OpenMP API for
// parsing when no omp.h is on clang's path). Usage: nvcc_openmp_host [M N K] (multiples of TS).
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include <omp.h>
#include "harness.cuh"

#define TS 16

__global__ void sgemm_openmp_host(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x % TS, ty = threadIdx.x / TS;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// Host-side work of the kind such files carry: threads only when built with -fopenmp.
static int host_threads(void)
{
    int n = 1;
#ifdef _OPENMP
    n = omp_get_max_threads();
#endif
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 1000; i++)
        sum += i;
    return sum == 499500 ? n : -1;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    if (host_threads() < 1)
        return 2;
    return harness_gemm<float, float>("nvcc_openmp_host", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 grid(N / TS, M / TS);
        sgemm_openmp_host<<<grid, TS * TS>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
