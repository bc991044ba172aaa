// sgemm_ws_blocks.cu: one kernel whose copies and compute stride over the tile by blockDim.x, so
// that any whole number of warps runs it, launched with 160 threads (five warps).
// A producer warpgroup (ws and ws-cp.async on sm_90a) needs the kernel's threads to be whole
// warpgroups of 128: setmaxnreg is executed by whole warpgroups, and after 160 threads the
// producer's 128 would share a warpgroup with the kernel's last warp. pipefy keeps a one-warp
// producer for the 160-thread block (the remark says why); with that check broken
// (PIPEFY_TEST_BREAK=warpgroups) the CPU block model catches the warpgroup split.
// Usage: sgemm_ws_blocks [M N K] (multiples of 32).
// pipefy-args: --arch=sm_90
// pipefy-golden: ws ws-cp.async ws-sm90a ws-cp.async-sm90a
// gpu-runs: 32 32 0 | 32 32 32 | 64 96 64 | 256 256 256
// gpu-sanitize: 64 96 64
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define T 32
#define OUTS 8 // outputs a thread at most: 1024 of the tile over 160 threads or more

__global__ void sgemm_strided(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                              int N, int K)
{
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[OUTS] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: the copy loops are unrolled for 160 threads (launch at 52:9); other block sizes
    // run the loop as written
    if (blockDim.x == 160) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int pipefy_j = 0; pipefy_j < ((T * T) + 160 - 1) / 160; ++pipefy_j) {
                    int i = threadIdx.x + pipefy_j * 160;
                    if (!(i < T * T))
                        break;
                    __pipeline_memcpy_async(&As[pipefy_dst][i / T][i % T], &A[(r0 + i / T) * K + k0 + i % T], sizeof(float));
                }
                for (int pipefy_j = 0; pipefy_j < ((T * T) + 160 - 1) / 160; ++pipefy_j) {
                    int i = threadIdx.x + pipefy_j * 160;
                    if (!(i < T * T))
                        break;
                    __pipeline_memcpy_async(&Bs[pipefy_dst][i / T][i % T], &B[(k0 + i / T) * N + c0 + i % T], sizeof(float));
                }
                k0 += T;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int j = 0; j < OUTS; ++j) {
                int o = threadIdx.x + j * blockDim.x;
                if (o < T * T)
                    for (int k = 0; k < T; ++k)
                        acc[j] += As[pipefy_stage][o / T][k] * Bs[pipefy_stage][k][o % T];
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i / T][i % T] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int j = 0; j < OUTS; ++j) {
                int o = threadIdx.x + j * blockDim.x;
                if (o < T * T)
                    for (int k = 0; k < T; ++k)
                        acc[j] += As[0][o / T][k] * Bs[0][k][o % T];
            }
            __syncthreads();
        }
    }
    for (int j = 0; j < OUTS; ++j) {
        int o = threadIdx.x + j * blockDim.x;
        if (o < T * T)
            C[(r0 + o / T) * N + c0 + o % T] = acc[j];
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 96, 64};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_strided", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_strided<<<dim3(N / T, M / T), 160>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
