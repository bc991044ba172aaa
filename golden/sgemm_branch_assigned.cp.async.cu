// sgemm_branch_assigned.cu: guarded fills whose load branch sets a local of the kernel declared
// before the loop, as ECE408's convolutions write them (`int i;` .. `if (g) { i = q * TS + ty;
// Bs[..] = in_4d(.., i / (K * K), ..); } else Bs[..] = 0;`). Nothing else names the local, so
// the copy reads its value: `Bs[..] = g ? B[((int)(q * TS + ty)) * N + col] : 0`.
// The first kernel sets the local for B's fill, declared with no value; the second sets one
// for each fill (one initialized where declared) and reads B through a macro.
// Usage: sgemm_branch_assigned [M N K].
// gpu-runs: 20 24 0 | 20 24 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16
#define B_AT(r, c) B[(size_t)(r) * N + (c)]

__global__ void sgemm_branch_assigned(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int i;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_q = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int q = pipefy_next_q;
            if (q < (K - 1) / TS + 1) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (row < M && q * TS + tx < K) ? &A[(size_t)row * K + q * TS + tx] : A, sizeof(float), (row < M && q * TS + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (q * TS + ty < K && col < N) ? &B[(size_t)((int)(q * TS + ty)) * N + col] : B, sizeof(float), (q * TS + ty < K && col < N) ? 0 : sizeof(float));
                q++;
                pipefy_next_q = q;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int q = 0; q < (K - 1) / TS + 1; q++) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; k++)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

__global__ void sgemm_branch_assigned_both(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    long a = 0;
    int b;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < M && q * TS + tx < K) {
            a = (long)row * K + q * TS + tx;
            As[ty][tx] = A[a];
        } else {
            As[ty][tx] = 0;
        }
        if (q * TS + ty >= K || col >= N) {
            Bs[ty][tx] = 0;
        } else {
            b = q * TS + ty;
            Bs[ty][tx] = B_AT(b, col);
        }
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_branch_assigned", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_assigned<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_branch_assigned_both", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_assigned_both<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
