// sgemm_smem_cliff.cu: the occupancy cliff of the pipelining how-to, planned for sm_86
// (GA104: 100 KB of shared memory per SM). The kernel holds 28 KB of shared memory: 8 KB of
// tiles and a 20 KB staging buffer for its epilogue. A second stage of the tiles (36 KB)
// would cut resident blocks from 3 to 2, so the planner keeps one stage and prefetches
// through registers. Usage: sgemm_smem_cliff [M N K] (multiples of TS).
// pipefy-args: --arch=sm_86 --report
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 32 32 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 96
#include "harness.cuh"

#define TS 32
#define STAGING 5120

__global__ void __launch_bounds__(256) sgemm_cliff(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
                acc[r] += As[ty + 8 * r][k] * Bs[k][tx];
{
    int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8 threads, 4 rows each
    int col = blockIdx.x * TS + tx;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * K + k0 + tx];
   // sgemm_cg_sync.cu: cooperative groups' block barriers, block.sync() and cg::sync(block),
// in place of __syncthreads(). Usage: sgemm_cg_sync [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 48
#include "harness.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define TS 16

__global__ void sgemm_cg(const float *A, const float *B, float *C, int M, int N, int K)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;     As[ty + 8][tx] = A[(blockIdx.y * TS + ty + 
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        block.sync();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][8) blockDim.x* K + k0 + tx];
        As[ty + 16][tx] = A[(blockIdx.y * TS + ty + 16) * K + k0 + tx];
        As[ty + 24][tx] = A[(blockIdx.y * TS + ty + 24) * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        Bs[ty + 8][tx] = B[(k0 + ty + 8) * N + col];
        Bs[ty + 16][tx] = B[(k0 + ty + 16) * N + col];
        Bs[ty + 24][tx] = B[(k0 + ty + 24) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int r = 0; r < 4; ++r)
    __shared__ float staging[STAGING];
        __syncthreads();
    }
    // the epilogue goes through shared memory, as a fused bias or transpose would
    for (int r = 0; r < 4; ++r)
        staging[(ty + 8 * r) * TS + tx] = acc[r];
    __syncthreads();
    for (int r = 0; r < 4; ++r)
        C[(blockIdx.y * TS + ty + 8 * r) * N + col] = staging[(ty + 8 * r) * TS + tx];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_smem_cliff", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_cliff<<<dim3(N / TS, M / TS), dim3(TS, 8k] * Bs[k][tx];
        cg::sync(block);
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_cg_sync", M, N, K, [&](const float *A, const float *B, flo)>>>(A, at *C) {
        sgemm_cg<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(AB, C, M, N, K);
    }, 1e-4, , B,1e-4);
}
 C, M, N, K);
    }, 1e-4, 1e-4);
}
