// sgemm_scratch_index.cu: an index declared before the K-loop and assigned again before each
// copy (`int idx; for (..) { idx = ..; if (idx >= n * n) As[..] = 0; else As[..] = A[idx]; ..
// }`, a public tiled multiply's shape): only the loop's copies read it and every iteration
// assigns it before they do, so the loader may assign it a tile early, with the copies. The
// second kernel's compute reads the index too: a loader a tile ahead would hand it the next
// tile's index, so the loader sets an index of its own (declared in it), and the compute keeps
// setting the one it reads (it stayed as written until the loaders had their own).
// Usage: sgemm_scratch_index [N] (a multiple of TS; N x N matrices)
// gpu-runs: 16 | 32 | 48 | 256
// gpu-sanitize: 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void scratch_index(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    int idx;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            int idx; // pipefy: the loader's own
            if (t < n / TS) {
                idx = row * n + t * TS + threadIdx.x;
                __pipeline_memcpy_async(&As[pipefy_dst][threadIdx.y][threadIdx.x], (!(idx >= n * n)) ? &A[idx] : A, sizeof(float), (!(idx >= n * n)) ? 0 : sizeof(float));
                idx = (t * TS + threadIdx.y) * n + col;
                __pipeline_memcpy_async(&Bs[pipefy_dst][threadIdx.y][threadIdx.x], (!(idx >= n * n)) ? &B[idx] : B, sizeof(float), (!(idx >= n * n)) ? 0 : sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < n / TS; ++t) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][threadIdx.y][k] * Bs[pipefy_stage][k][threadIdx.x];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * n + col] = acc;
}

// the index read by the compute too: the loader sets its own, the compute its
__global__ void index_in_compute(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    int idx;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            int idx; // pipefy: the loader's own
            if (t < n / TS) {
                idx = row * n + t * TS + threadIdx.x;
                __pipeline_memcpy_async(&As[pipefy_dst][threadIdx.y][threadIdx.x], &A[idx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][threadIdx.y][threadIdx.x], &B[(t * TS + threadIdx.y) * n + col], sizeof(float));
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < n / TS; ++t) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            idx = row * n + t * TS + threadIdx.x;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][threadIdx.y][k] * Bs[pipefy_stage][k][threadIdx.x];
            acc += (float)(idx - (row * n + t * TS + threadIdx.x));
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[1] = {256};
    harness_sizes(argc, argv, sz, 1);
    int n = sz[0];
    int bad = 0;
    bad |= harness_gemm<float, float>("scratch_index", n, n, n, [&](const float *A, const float *B, float *C) {
        scratch_index<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(A, B, C, n);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("index_in_compute", n, n, n, [&](const float *A, const float *B, float *C) {
        index_in_compute<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(A, B, C, n);
    }, 1e-4, 1e-4);
    return bad;
}
