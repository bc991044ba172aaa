// sgemm_device_helpers.cu: the compute of each tile in a __device__ helper that takes the
// tiles as arguments (pipelined: `As` becomes `As[stage]`, of the same type), and a second
// kernel whose copies also sit in a helper, load_tile (cp.async calls a copy of it whose
// stores are asynchronous; auto leaves its 4-byte copies alone, as for any narrow copy that
// registers cannot stage). Usage: sgemm_device_helpers [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__device__ float dot_tile(const float (*As)[TS], const float (*Bs)[TS], int ty, int tx)
{
    float sum = 0.0f;
    for (int k = 0; k < TS; ++k)
        sum += As[ty][k] * Bs[k][tx];
    return sum;
}

__device__ void load_tile(float (*As)[TS], float (*Bs)[TS], const float *A, const float *B, int row, int col,
                          int k0, int N, int K)
{
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
}

// pipefy: 'load_tile' with its copies made asynchronous (cp.async), for the pipelined loop that calls it
__device__ void load_tile_pipefy_async(float (*As)[TS], float (*Bs)[TS], const float *A, const float *B, int row, int col,
                          int k0, int N, int K)
{
    __pipeline_memcpy_async(&As[threadIdx.y][threadIdx.x], &A[row * K + k0 + threadIdx.x], sizeof(float));
    __pipeline_memcpy_async(&Bs[threadIdx.y][threadIdx.x], &B[(k0 + threadIdx.y) * N + col], sizeof(float));
}

__global__ void sgemm_compute_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
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
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
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
            acc += dot_tile(As[pipefy_stage], Bs[pipefy_stage], ty, tx);
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}

__global__ void sgemm_load_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
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
                load_tile_pipefy_async(As[pipefy_dst], Bs[pipefy_dst], A, B, row, col, k0, N, K);
                k0 += TS;
                pipefy_next_k0 = k0;
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
            acc += dot_tile(As[pipefy_stage], Bs[pipefy_stage], ty, tx);
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
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_compute_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_compute_helper<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_load_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_load_helper<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
