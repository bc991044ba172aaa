// sgemm_guarded_copy_loop.cu: tiled SGEMM for any M, N, K, its tiles filled by a copy loop
// whose every trip stores an element under if/else, the load where it is in range and zero
// where not (`if (g) As[r][tx] = A[..]; else As[r][tx] = 0.0f;`): one guarded copy a trip, as
// at the top of the body (registers load `g ? A[..] : 0.0f`; cp.async zero-fills). The
// negative leaves A's else out and zeroes its tile once before the loop instead, so that an
// element out of range keeps the zero (or the previous tile's value): a second stage would be
// neither. The store before the loop keeps the tiles to one stage; the remark names the store
// made on some tiles only.
// Usage: sgemm_guarded_copy_loop [M N K]
// gpu-runs: 32 32 0 | 32 32 32 | 40 72 50 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 40 72 50
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 32

__global__ void guarded_copy_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][TS][TS];
    __shared__ float Bs[3][TS][TS];
    int tid = threadIdx.x;
    int tx = tid % TS, ty = tid / TS; // 256 threads: ty in 0..7, four rows each
    int brow = blockIdx.y * TS, bcol = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < (K + TS - 1) / TS) {
                for (int i = 0; i < 4; ++i) {
                    int r = ty + 8 * i;
                    __pipeline_memcpy_async(&As[pipefy_dst][r][tx], (brow + r < M && t * TS + tx < K) ? &A[(brow + r) * K + t * TS + tx] : A, sizeof(float), (brow + r < M && t * TS + tx < K) ? 0 : sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][r][tx], (t * TS + r < K && bcol + tx < N) ? &B[(t * TS + r) * N + bcol + tx] : B, sizeof(float), (t * TS + r < K && bcol + tx < N) ? 0 : sizeof(float));
                }
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
                for (int i = 0; i < 4; ++i)
                    acc[i] += As[pipefy_stage][ty + 8 * i][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int i = 0; i < 4; ++i)
        if (brow + ty + 8 * i < M && bcol + tx < N)
            C[(brow + ty + 8 * i) * N + bcol + tx] = acc[i];
}

// negative: no else for A, its tile zeroed once before the loop (an element out of range keeps
// the zero or the previous tile's value, whose products with B's zero rows add nothing)
__global__ void partial_copy_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tid = threadIdx.x;
    int tx = tid % TS, ty = tid / TS;
    int brow = blockIdx.y * TS, bcol = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 4; ++i)
        As[ty + 8 * i][tx] = 0.0f;
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        for (int i = 0; i < 4; ++i) {
            int r = ty + 8 * i;
            if (brow + r < M && t * TS + tx < K)
                As[r][tx] = A[(brow + r) * K + t * TS + tx];
            if (t * TS + r < K && bcol + tx < N)
                Bs[r][tx] = B[(t * TS + r) * N + bcol + tx];
            else
                Bs[r][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 8 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        if (brow + ty + 8 * i < M && bcol + tx < N)
            C[(brow + ty + 8 * i) * N + bcol + tx] = acc[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256}; // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(256);
    int bad = harness_gemm<float, float>("guarded_copy_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        guarded_copy_loop<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("partial_copy_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        partial_copy_loop<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
