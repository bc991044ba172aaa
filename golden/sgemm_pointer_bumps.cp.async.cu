// sgemm_pointer_bumps.cu: the induction carried by pointer bumps (A += TS; B += TS * N;)
// placed before the first barrier, between the barrier and the compute, and after the
// second barrier, one kernel each. Usage: sgemm_pointer_bumps [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 128 128 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void bump_before_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    A += (blockIdx.y * TS + ty) * K + tx;
    B += ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        const float *pipefy_next_A = A;
        const float *pipefy_next_B = B;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            const float *A = pipefy_next_A;
            const float *B = pipefy_next_B;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], A, sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], B, sizeof(float));
                A += TS;
                B += TS * N;
                k0 += TS;
                pipefy_next_k0 = k0;
                pipefy_next_A = A;
                pipefy_next_B = B;
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
            A += TS;
            B += TS * N;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void bump_after_first_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        const float *pipefy_next_a = a;
        const float *pipefy_next_b = b;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            const float *a = pipefy_next_a;
            const float *b = pipefy_next_b;
            if (t < K / TS) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &a[0], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &b[0], sizeof(float));
                a += TS;
                b += TS * N;
                ++t;
                pipefy_next_t = t;
                pipefy_next_a = a;
                pipefy_next_b = b;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < K / TS; ++t) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            a += TS;
            b += TS * N;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void bump_after_second_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    int k0 = 0;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        const float *pipefy_next_a = a;
        const float *pipefy_next_b = b;
        int pipefy_next_k0 = k0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            const float *a = pipefy_next_a;
            const float *b = pipefy_next_b;
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &a[0], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &b[0], sizeof(float));
                a += TS;
                b += TS * N;
                k0 += TS;
                pipefy_next_a = a;
                pipefy_next_b = b;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (; k0 < K; ) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            a += TS;
            b += TS * N;
            k0 += TS;
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = 0;
    rc |= harness_gemm<float, float>("bump_before_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_before_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_first_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_after_first_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_second_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_after_second_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
// pipefy-golden: tma bulk ws
