// sgemm_smem_cliff.cu: the occupancy cliff of the pipelining how-to, planned for sm_86
// (GA104: 100 KB of shared memory per SM). The kernel holds 28 KB of shared memory: 8 KB of
// tiles and a 20 KB staging buffer for its epilogue. A second stage of the tiles (36 KB)
// would cut resident blocks from 3 to 2, so the planner keeps one stage and prefetches
// through registers. Usage: sgemm_smem_cliff [M N K] (multiples of TS).
// pipefy-args: --arch=sm_86 --report
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 32 32 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 32
#define STAGING 5120

__global__ void __launch_bounds__(256) sgemm_cliff(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    __shared__ float staging[STAGING];
    int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8 threads, 4 rows each
    int col = blockIdx.x * TS + tx;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[(blockIdx.y * TS + ty) * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&As[pipefy_dst][ty + 8][tx], &A[(blockIdx.y * TS + ty + 8) * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&As[pipefy_dst][ty + 16][tx], &A[(blockIdx.y * TS + ty + 16) * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&As[pipefy_dst][ty + 24][tx], &A[(blockIdx.y * TS + ty + 24) * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 8][tx], &B[(k0 + ty + 8) * N + col], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 16][tx], &B[(k0 + ty + 16) * N + col], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 24][tx], &B[(k0 + ty + 24) * N + col], sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                for (int r = 0; r < 4; ++r)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
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
        sgemm_cliff<<<dim3(N / TS, M / TS), dim3(TS, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
