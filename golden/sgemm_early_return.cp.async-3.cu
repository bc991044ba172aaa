// sgemm_early_return.cu: the bounds check written as an early return before the K-loop
// (`if (row >= M || col >= N) return;`), which pipefy cannot show every thread of a block takes
// alike. A kernel's return ends the thread, and __syncthreads() waits only for the threads that
// have not ended (PTX ISA, bar.sync), so the K-loop's barriers are the remaining threads' and
// the loop is pipelined with registers or cp.async; tensor copies, whose mbarriers count every
// thread, are refused (neg_participation.cu). The kernel as written reads tile elements no
// thread wrote where a block is cut by the matrix's edge, so the sizes here are multiples of
// TS; the launches give one more block row and column than the matrix needs, whose threads all
// return. The second kernel reads its copies' coordinates from a thread index, two floats a
// thread, and returns when the coordinates fall outside (deftruth's naive HGEMM does so).
// pipefy-golden: tma
// pipefy-args: --arch=sm_90
// Usage: sgemm_early_return [M N K] (M and N multiples of 16).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 40 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 40
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void sgemm_early_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (k0 + tx < K) ? &A[row * K + k0 + tx] : A, sizeof(float), (k0 + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (k0 + ty < K) ? &B[(k0 + ty) * N + col] : B, sizeof(float), (k0 + ty < K) ? 0 : sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TS) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}

// 128 threads, tiles of 16 x 16: each thread copies two floats of A's tile and two of B's and
// computes two outputs (rows r and r + 8)
__global__ void sgemm_early_return_1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tid = threadIdx.x;
    int load_m = tid / 8, load_k = (tid % 8) * 2;  // A's tile: 16 rows of 8 pairs
    int load_kb = tid / 8, load_n = (tid % 8) * 2; // B's tile: 16 rows of 8 pairs
    int gm = blockIdx.y * TS + load_m, gn = blockIdx.x * TS + load_n;
    if (gm >= M || gn >= N)
        return;
    int r = tid / 16, c = tid % 16;
    float acc0 = 0.0f, acc1 = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][load_m][load_k], (k0 + load_k < K) ? &A[gm * K + k0 + load_k] : A, sizeof(float), (k0 + load_k < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&As[pipefy_dst][load_m][load_k + 1], (k0 + load_k + 1 < K) ? &A[gm * K + k0 + load_k + 1] : A, sizeof(float), (k0 + load_k + 1 < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][load_kb][load_n], (k0 + load_kb < K) ? &B[(k0 + load_kb) * N + gn] : B, sizeof(float), (k0 + load_kb < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][load_kb][load_n + 1], (k0 + load_kb < K) ? &B[(k0 + load_kb) * N + gn + 1] : B, sizeof(float), (k0 + load_kb < K) ? 0 : sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TS) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < TS; ++k) {
                acc0 += As[pipefy_stage][r][k] * Bs[pipefy_stage][k][c];
                acc1 += As[pipefy_stage][r + 8][k] * Bs[pipefy_stage][k][c];
            }
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[(blockIdx.y * TS + r) * N + blockIdx.x * TS + c] = acc0;
    C[(blockIdx.y * TS + r + 8) * N + blockIdx.x * TS + c] = acc1;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    // one block row and column more than the matrix needs: their threads all return
    dim3 grid(N / TS + 1, M / TS + 1);
    int rc = harness_gemm<float, float>("sgemm_early_return", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_early_return<<<grid, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_early_return_1d", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_early_return_1d<<<grid, 128>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
