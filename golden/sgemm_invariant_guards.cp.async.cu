// sgemm_invariant_guards.cu: copies under an if with no else whose condition is the same on
// every tile: which threads of the block copy (a 16 x 16 block fills 16 x 8 and 8 x 16 tiles).
// The same elements are written on every tile, so a stage never holds an element the loop as
// written would not; register staging loads under the condition and stores under it again, one
// copy (`if (tx < TK) As[..] = A[..];`) or two in braces (two_per_thread). Usage:
// sgemm_invariant_guards [M N K] (M, N multiples of 16, K of 8).
// gpu-runs: 16 16 0 | 16 16 8 | 16 16 16 | 16 16 24 | 256 256 256 | 512 512 512
// gpu-sanitize: 16 16 24
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TMN 16  // the block's rows and columns of C
#define TK 8    // the tiles' depth

__global__ void which_threads(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TMN][TK];
    __shared__ float Bs[2][TK][TMN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TMN + ty, col = blockIdx.x * TMN + tx;
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
                if (tx < TK)
                    __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(float));
                if (ty < TK)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
                k0 += TK;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TK; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}

__global__ void two_per_thread(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TMN][TK];
    __shared__ float Bs[2][TK][TMN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TMN + ty, col = blockIdx.x * TMN + tx;
    const bool a_copier = tx < TK / 2;
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
                if (a_copier) {
                    __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(float));
                    __pipeline_memcpy_async(&As[pipefy_dst][ty][tx + TK / 2], &A[row * K + k0 + tx + TK / 2], sizeof(float));
                }
                if (ty < TK / 2) {
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty + TK / 2][tx], &B[(k0 + ty + TK / 2) * N + col], sizeof(float));
                }
                k0 += TK;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TK; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("which_threads", M, N, K, [&](const float *A, const float *B, float *C) {
        which_threads<<<dim3(N / TMN, M / TMN), dim3(TMN, TMN)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("two_per_thread", M, N, K, [&](const float *A, const float *B, float *C) {
        two_per_thread<<<dim3(N / TMN, M / TMN), dim3(TMN, TMN)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
