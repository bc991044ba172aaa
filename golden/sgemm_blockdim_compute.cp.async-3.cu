// sgemm_blockdim_compute.cu: a textbook tiled SGEMM written for any square block, as course code
// often is: the tile's width is blockDim.x, read at run time by the K-loop's step, the copies'
// indices and the compute loop's bound (`k < blockDim.x`); the tiles are sized for the largest
// block. The launch below uses a 16x16 block; pipefy counts the compute's trips from it and runs
// the pipelined loop under that shape, the loop as written for any other.
// Usage: sgemm_blockdim_compute [M N K] (M, N multiples of TILE; any K).
// gpu-runs: 64 64 0 | 64 64 1 | 64 64 17 | 64 64 48 | 128 96 100 | 512 512 512
// gpu-sanitize: 64 64 17
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TILE 16
#define MAX_TILE 32

__global__ void sgemm_blockdim_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][MAX_TILE * MAX_TILE];
    __shared__ float Bs[3][MAX_TILE * MAX_TILE];
    int w = blockDim.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    // pipefy: the compute's loops over blockDim.x run a fixed number of trips in a 16x16x1
    // block (launch at 40:9), which the compiler unrolls; other blocks run the loop as written
    if (blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][threadIdx.y * w + threadIdx.x], (k0 + threadIdx.x < K) ? &A[row * K + k0 + threadIdx.x] : A, sizeof(float), (k0 + threadIdx.x < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][threadIdx.y * w + threadIdx.x], (k0 + threadIdx.y < K) ? &B[(k0 + threadIdx.y) * N + col] : B, sizeof(float), (k0 + threadIdx.y < K) ? 0 : sizeof(float));
                k0 += blockDim.x;
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
        for (int k0 = 0; k0 < K; k0 += blockDim.x) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (int k = 0; k < blockDim.x; ++k)
                acc += As[pipefy_stage][threadIdx.y * w + k] * Bs[pipefy_stage][k * w + threadIdx.x];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    } else {
        for (int k0 = 0; k0 < K; k0 += blockDim.x) {
            As[0][threadIdx.y * w + threadIdx.x] = k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0.0f;
            Bs[0][threadIdx.y * w + threadIdx.x] = k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
            __syncthreads();
            for (int k = 0; k < blockDim.x; ++k)
                acc += As[0][threadIdx.y * w + k] * Bs[0][k * w + threadIdx.x];
            __syncthreads();
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_blockdim_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_blockdim_compute<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
