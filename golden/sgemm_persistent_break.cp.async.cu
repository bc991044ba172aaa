// sgemm_persistent_break.cu: a persistent kernel whose blocks take output tiles in turn and
// leave their loop with a `break` once none is left (`for (pos = blockIdx.x;; pos +=
// gridDim.x) { ti = pos / tiles_x; if (ti >= tiles_y) break; .. }`, NVIDIA's
// cudaTensorCoreGemm sample's shape). The break's test reads the loop's own counter, the same in
// every thread while all are still in the loop: by induction every thread leaves it together,
// so the K-loop inside is reached by every thread of the block (the build before read the
// counter as varying and left the K-loop as written). The negative kernel's test also reads the
// thread's index (`+ threadIdx.x * 0`, zero when it runs, but not a fact pipefy reads): left as
// written.
// Usage: sgemm_persistent_break [M N K] (multiples of TS)
// gpu-runs: 16 16 0 | 32 32 32 | 64 48 96 | 256 256 256
// gpu-sanitize: 64 48 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void persistent_break(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_x = N / TS, tiles_y = M / TS;
    for (unsigned int pos = blockIdx.x;; pos += gridDim.x) {
        const unsigned int ti = pos / tiles_x, tj = pos % tiles_x;
        if (ti >= tiles_y) {
            break;
        }
        int row = ti * TS + ty, col = tj * TS + tx;
        float acc = 0.0f;
        // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
        {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_k0 = 0;
            // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
            // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
            auto pipefy_load = [&](int pipefy_dst) {
                int k0 = pipefy_next_k0;
                if (k0 < K) {
                    __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
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
                    acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
                pipefy_stage = (pipefy_stage + 1) & 1;
            }
            __syncthreads(); // pipefy: every thread is done with the last tile
        }
        C[row * N + col] = acc;
    }
}

// the same, the break's test also reading the thread's index: left as written
__global__ void thread_break(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_x = N / TS, tiles_y = M / TS;
    for (unsigned int pos = blockIdx.x;; pos += gridDim.x) {
        const unsigned int ti = pos / tiles_x, tj = pos % tiles_x;
        if (ti + threadIdx.x * 0 >= tiles_y) {
            break;
        }
        int row = ti * TS + ty, col = tj * TS + tx;
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
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    int blocks = (M / TS) * (N / TS) / 3 + 1;  // (fewer blocks than tiles: each takes several)
    bad |= harness_gemm<float, float>("persistent_break", M, N, K, [&](const float *A, const float *B, float *C) {
        persistent_break<<<blocks, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("thread_break", M, N, K, [&](const float *A, const float *B, float *C) {
        thread_break<<<blocks, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
