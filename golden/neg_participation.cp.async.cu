// neg_participation.cu: K-loops that not every thread of a block may reach. The first is the
// textbook kernel whose K-loop sits inside its bounds check: where N is not a multiple of the
// tile, the edge blocks hold threads that never reach the barriers (the loop as written reads
// elements no thread wrote that tile; the build before this program gave it tensor copies
// whose mbarriers wait for the whole block: it hung): left as written, for every variant, with
// the condition named. The second leaves through a return under the same test: the threads
// that return have ended, and __syncthreads() waits only for the others, so registers and
// cp.async pipeline it; tensor copies, whose mbarriers count every thread, must refuse it,
// naming the return. The last two put the loop under conditions every thread of a block shares
// (the block's index, the arguments): pipelined.
// pipefy-args: --arch=sm_90
// pipefy-golden: tma ws ws-cp.async
// Usage: neg_participation [M N K] (multiples of 16, as the kernels as written need).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void bounds_check(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row < M && col < N) {
        float t = 0;
        for (int i = 0; i < K / TS; i++) {
            As[ty][tx] = A[row * K + i * TS + tx];
            Bs[ty][tx] = B[(i * TS + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; k++)
                t += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        C[row * N + col] = t;
    }
}

__global__ void early_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row >= M || col >= N)
        return;
    float t = 0;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_i = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int i = pipefy_next_i;
            if (i < K / TS) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + i * TS + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(i * TS + ty) * N + col], sizeof(float));
                i++;
                pipefy_next_i = i;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int i = 0; i < K / TS; i++) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; k++)
                t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = t;
}

// the block's own bounds: every thread of a block takes the branch alike
__global__ void block_guard(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const int tiles = K / TS;
    if (blockIdx.y * TS < M && blockIdx.x * TS < N && tiles > 0) {
        float t = 0;
        // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
        {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_i = 0;
            // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
            // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
            auto pipefy_load = [&](int pipefy_dst) {
                int i = pipefy_next_i;
                if (i < tiles) {
                    __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + i * TS + tx], sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(i * TS + ty) * N + col], sizeof(float));
                    i++;
                    pipefy_next_i = i;
                }
                __pipeline_commit();
            };
            // pipefy: prologue: start copying tile 0
            pipefy_load(0);
            int pipefy_stage = 0; // the stage that holds tile t
            // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
            // iterations find no tile left to start and only compute: that is the epilogue
            for (int i = 0; i < tiles; i++) {
                __pipeline_wait_prior(0); // tile t has landed for this thread...
                __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
                pipefy_load((pipefy_stage + 1) & 1);
                for (int k = 0; k < TS; k++)
                    t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
                pipefy_stage = (pipefy_stage + 1) & 1;
            }
            __syncthreads(); // pipefy: every thread is done with the last tile
        }
        C[row * N + col] = t;
    } else if (row < M && col < N) {
        C[row * N + col] = 0.0f;
    }
}

// a return every thread of a block takes or none does
__global__ void block_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    if (blockIdx.y * TS >= M || blockIdx.x * TS >= N)
        return;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float t = 0;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_i = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int i = pipefy_next_i;
            if (i < K / TS) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + i * TS + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(i * TS + ty) * N + col], sizeof(float));
                i++;
                pipefy_next_i = i;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int i = 0; i < K / TS; i++) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; k++)
                t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = t;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    // (blocks over the whole output, as such code launches them: at sizes that are not multiples
    // of the tile the kernels as written read elements no thread wrote, and fail the reference)
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("bounds_check", M, N, K, [&](const float *A, const float *B, float *C) {
        bounds_check<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("early_return", M, N, K, [&](const float *A, const float *B, float *C) {
        early_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("block_guard", M, N, K, [&](const float *A, const float *B, float *C) {
        block_guard<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("block_return", M, N, K, [&](const float *A, const float *B, float *C) {
        block_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
