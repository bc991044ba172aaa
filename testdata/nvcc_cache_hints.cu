// nvcc_cache_hints.cu: tile copies through cache-hinted loads (__ldg, __ldcg) and stores with
// __stcs on float4, which nvcc overloads for every scalar and vector type and clang 19 does not
// declare at all. pipefy reads `__ldg(&A[i])` as the load of A[i]. Usage: nvcc_cache_hints
// [M N K] (M, N multiples of TS, K a multiple of TS).
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include "harness.cuh"

#define TS 16

// Clears C four floats at a time with streaming stores (the GEMM then accumulates into it).
__global__ void clear_streaming(float4 *C4, const float4 *zero4, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        __stcs(&C4[i], __ldcs(&zero4[0]));
}

__global__ void sgemm_cache_hints(const float *__restrict__ A, const float *__restrict__ B, float *C, int M,
                                  int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = __ldg(&A[row * K + k0 + tx]);
        Bs[ty][tx] = __ldcg(&B[(k0 + ty) * N + col]);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] += acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    float4 *zero4;
    CHECK(cudaMalloc(&zero4, sizeof(float4)));
    CHECK(cudaMemset(zero4, 0, sizeof(float4)));
    int rc = harness_gemm<float, float>("nvcc_cache_hints", M, N, K, [&](const float *A, const float *B, float *C) {
        int n4 = M * N / 4;
        clear_streaming<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<float4 *>(C), zero4, n4);
        dim3 block(TS, TS), grid(N / TS, M / TS);
        sgemm_cache_hints<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    CHECK(cudaFree(zero4));
    return rc;
}
