// sgemm_branch_locals.cu: guarded fills whose load branch declares the locals its store reads,
// as ECE408-style kernels write them: `if (in bounds) { const int off = col * M + row; As[..] =
// A[off]; } else As[..] = 0.0f;`. Each local is set once from arithmetic on locals and
// parameters, so the copy is the same as `As[..] = g ? A[((int)(col * M + row))] : 0.0f`.
// The first kernel reads column-major A and B (the locals are offsets, one of them named like a
// local outside the branch), the second chains two locals (one reads the other) of another type
// than their value's, and writes the zero first.
// Usage: sgemm_branch_locals [M N K].
// gpu-runs: 20 24 0 | 20 24 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

// C = A * B, every matrix column-major (as BLAS stores them): A is M x K, B is K x N
__global__ void sgemm_branch_locals(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < (K + TS - 1) / TS) {
                const int acol = t * TS + tx;
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (acol < K && row < M) ? &A[((int)(acol * M + row))] : A, sizeof(float), (acol < K && row < M) ? 0 : sizeof(float));
                const int brow = t * TS + ty;
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (brow < K && col < N) ? &B[((int)(col * K + ((int)(brow))))] : B, sizeof(float), (brow < K && col < N) ? 0 : sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < (K + TS - 1) / TS; ++t) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (row < M && col < N)
        C[col * M + row] = acc;
}

// the same product with row-major A and B: two locals a branch, one read by the other, the
// wider one 64-bit; the zero in the then branch
__global__ void sgemm_branch_locals_chained(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < (K + TS - 1) / TS) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (!(row >= M || t * TS + tx >= K)) ? &A[((long)((long)row * K + ((int)(t * TS + tx))))] : A, sizeof(float), (!(row >= M || t * TS + tx >= K)) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (t * TS + ty < K && col < N) ? &B[((size_t)(((unsigned int)(t * TS + ty)) * (size_t)N + col))] : B, sizeof(float), (t * TS + ty < K && col < N) ? 0 : sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < (K + TS - 1) / TS; ++t) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    // row-major A, B and C are column-major A^T, B^T and C^T, and C^T = B^T A^T
    int rc = harness_gemm<float, float>("sgemm_branch_locals", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_locals<<<dim3((M + TS - 1) / TS, (N + TS - 1) / TS), block>>>(B, A, C, N, M, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_branch_locals_chained", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_locals_chained<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
