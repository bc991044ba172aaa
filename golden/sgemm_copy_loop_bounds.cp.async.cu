// sgemm_copy_loop_bounds.cu: copy loops whose trip count is fixed but not written as `i < N`
// with a constant N and S. rows_le tests `r <= TILE - 1` and `r + 1 <= ROWS`, stepping by a local
// set once (`int stride = 8;`); the register variant sizes its staging registers by each loop's
// trips, the local replaced by its value (an array's size must be a constant expression).
// halves tests `i / 2 < ...`, which runs twice the trips `i < ...` would: register staging
// leaves it as written (it once sized the registers for half of them). nested copies a 2 x 2
// block of each tile per thread through two loops, the inner one the outer one's whole body,
// braced or not: registers [outer trip][inner trip]. (sgemm_copy_loop_template.cu: a template's.)
// Usage: sgemm_copy_loop_bounds [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 64 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void rows_le(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int stride = 8;  // blockDim.y
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int r = ty; r <= TILE - 1; r += stride)
                    __pipeline_memcpy_async(&As[pipefy_dst][r][tx], &A[(row0 + r) * K + k0 + tx], sizeof(float));
                for (int r = 0; r + 1 <= ROWS; ++r)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 8 * r][tx], &B[(k0 + ty + 8 * r) * N + col], sizeof(float));
                k0 += TILE;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TILE) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int r = 0; r < ROWS; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

__global__ void halves(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE * TILE];
    __shared__ float Bs[2][TILE * TILE];
    int tid = threadIdx.x, tx = tid % TILE, ty = tid / TILE;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[ROWS] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int i = tid; i / 2 < TILE * TILE / 2; i += 256)  // 4 trips of 256 threads
                    __pipeline_memcpy_async(&As[pipefy_dst][i], &A[(row0 + i / TILE) * K + k0 + i % TILE], sizeof(float));
                for (int i = tid; i < TILE * TILE; i += 256)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][i], &B[(k0 + i / TILE) * N + col0 + i % TILE], sizeof(float));
                k0 += TILE;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TILE) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int r = 0; r < ROWS; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][(ty + 8 * r) * TILE + k] * Bs[pipefy_stage][k * TILE + tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col0 + tx] = acc[r];
}

__global__ void nested(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;  // 16 x 16
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        __pipeline_memcpy_async(&As[pipefy_dst][ty * 2 + i][tx * 2 + j], &A[(row0 + ty * 2 + i) * K + k0 + tx * 2 + j], sizeof(float));
                for (int i = 0; i < 2; ++i) {
#pragma unroll
                    for (int j = 0; j < 2; j++) {
                        __pipeline_memcpy_async(&Bs[pipefy_dst][ty * 2 + i][tx * 2 + j], &B[(k0 + ty * 2 + i) * N + col0 + tx * 2 + j], sizeof(float));
                    }
                }
                k0 += TILE;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TILE) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TILE; ++k)
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        acc[i][j] += As[pipefy_stage][ty * 2 + i][k] * Bs[pipefy_stage][k][tx * 2 + j];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + ty * 2 + i) * N + col0 + tx * 2 + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("rows_le", M, N, K, [&](const float *A, const float *B, float *C) {
        rows_le<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("halves", M, N, K, [&](const float *A, const float *B, float *C) {
        halves<<<dim3(N / TILE, M / TILE), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("nested", M, N, K, [&](const float *A, const float *B, float *C) {
        nested<<<dim3(N / TILE, M / TILE), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
