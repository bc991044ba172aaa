// sgemm_fill_first.cu: tiles filled as a constant first, then a copy under an if into the same
// element, the next statement (`As[r][c] = 0; if (g) As[r][c] = A[i];`, luckboy/unmtx-gpu's
// fill): the same values as `As[r][c] = g ? A[i] : 0`, so one guarded copy to pipefy. The
// sizes need not be multiples of the tile: the guards zero what lies outside. The second
// kernel has each thread fill four rows of A's tile and four columns of B's, each zeroed then
// copied under its own guard, and keeps a 4x4 block of C in registers. The third zeroes with a
// value that is not 0 (the padding is 1): only copies that can fill with it are legal. The
// fourth fills 1-D tiles so, its steps and the compute's trips counted by blockDim.x (luckboy's
// softmax): pipefy writes its loop twice, for the launch's block and as written for any other,
// and the copy as written keeps its zeroing store (stage 0's, like the copy under the if).
// Usage: sgemm_fill_first [M N K]
// gpu-runs: 16 16 0 | 16 16 5 | 17 33 31 | 64 64 64 | 100 70 45 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 17 33 31
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16
#define RB 4 /* rows (and columns) a thread of the blocked kernel computes */

__global__ void fill_first(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
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
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (row < M && k0 + tx < K) ? &A[row * K + k0 + tx] : A, sizeof(float), (row < M && k0 + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (col < N && k0 + ty < K) ? &B[(k0 + ty) * N + col] : B, sizeof(float), (col < N && k0 + ty < K) ? 0 : sizeof(float));
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
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// A block of TS x TS threads computes (TS*RB) x (TS*RB) of C.
__global__ void fill_first_blocked(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float as[2][TS * RB][TS];
    __shared__ float bs[2][TS][TS * RB];
    int ti = threadIdx.y, tj = threadIdx.x;
    int bi = ti * RB, bj = tj * RB;
    int i = blockIdx.y * TS * RB + bi, j = blockIdx.x * TS * RB + bj;
    float c[RB][RB] = {};
    int k;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k = pipefy_next_k;
            if (k < K) {
                __pipeline_memcpy_async(&as[pipefy_dst][bi + 0][tj], (i + 0 < M && k + tj < K) ? &A[K * (i + 0) + k + tj] : A, sizeof(float), (i + 0 < M && k + tj < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&as[pipefy_dst][bi + 1][tj], (i + 1 < M && k + tj < K) ? &A[K * (i + 1) + k + tj] : A, sizeof(float), (i + 1 < M && k + tj < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&as[pipefy_dst][bi + 2][tj], (i + 2 < M && k + tj < K) ? &A[K * (i + 2) + k + tj] : A, sizeof(float), (i + 2 < M && k + tj < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&as[pipefy_dst][bi + 3][tj], (i + 3 < M && k + tj < K) ? &A[K * (i + 3) + k + tj] : A, sizeof(float), (i + 3 < M && k + tj < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&bs[pipefy_dst][ti][bj + 0], (j + 0 < N && k + ti < K) ? &B[N * (k + ti) + j + 0] : B, sizeof(float), (j + 0 < N && k + ti < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&bs[pipefy_dst][ti][bj + 1], (j + 1 < N && k + ti < K) ? &B[N * (k + ti) + j + 1] : B, sizeof(float), (j + 1 < N && k + ti < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&bs[pipefy_dst][ti][bj + 2], (j + 2 < N && k + ti < K) ? &B[N * (k + ti) + j + 2] : B, sizeof(float), (j + 2 < N && k + ti < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&bs[pipefy_dst][ti][bj + 3], (j + 3 < N && k + ti < K) ? &B[N * (k + ti) + j + 3] : B, sizeof(float), (j + 3 < N && k + ti < K) ? 0 : sizeof(float));
                k += TS;
                pipefy_next_k = k;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (k = 0; k < K; k += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int tk = 0; tk < TS; tk++)
                for (int r = 0; r < RB; r++)
                    for (int s = 0; s < RB; s++)
                        c[r][s] += as[pipefy_stage][bi + r][tk] * bs[pipefy_stage][tk][bj + s];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < RB; r++)
        for (int s = 0; s < RB; s++)
            if (i + r < M && j + s < N)
                C[(i + r) * N + j + s] = c[r][s];
}

// Padded with 1 instead of 0: past K each product is 1 * 1, which the kernel counts (pad)
// and takes off again, so C is A B. The fill is not 0: cp.async's zero-fill cannot give it.
__global__ void fill_first_ones(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, pad = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = 1.0f;
        if (row < M && k0 + tx < K)
            As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = 1.0f;
        if (col < N && k0 + ty < K)
            Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k) {
            acc += As[ty][k] * Bs[k][tx];
            pad += (k0 + k >= K) ? 1.0f : 0.0f;
        }
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc - pad;
}

// The first kernel's fill into 1-D tiles, with the block's width for the tile's.
__global__ void fill_first_blockdim(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS * TS], Bs[2][TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y, w = blockDim.x;
    int row = blockIdx.y * w + ty, col = blockIdx.x * w + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: the compute's loops over blockDim.x run a fixed number of trips in a 16x16x1
    // block (launch at 164:9), which the compiler unrolls; other blocks run the loop as written
    if (blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty * w + tx], (row < M && k0 + tx < K) ? &A[row * K + k0 + tx] : A, sizeof(float), (row < M && k0 + tx < K) ? 0 : sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty * w + tx], (col < N && k0 + ty < K) ? &B[(k0 + ty) * N + col] : B, sizeof(float), (col < N && k0 + ty < K) ? 0 : sizeof(float));
                k0 += w;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += w) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < w; ++k)
                acc += As[pipefy_stage][ty * w + k] * Bs[pipefy_stage][k * w + tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    } else {
        for (int k0 = 0; k0 < K; k0 += w) {
            As[0][ty * w + tx] = 0.0f;
            if (row < M && k0 + tx < K)
                As[0][ty * w + tx] = A[row * K + k0 + tx];
            Bs[0][ty * w + tx] = 0.0f;
            if (col < N && k0 + ty < K)
                Bs[0][ty * w + tx] = B[(k0 + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < w; ++k)
                acc += As[0][ty * w + k] * Bs[0][k * w + tx];
            __syncthreads();
        }
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("fill_first", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("fill_first_blocked", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first_blocked<<<dim3((N + TS * RB - 1) / (TS * RB), (M + TS * RB - 1) / (TS * RB)), dim3(TS, TS)>>>(
            A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("fill_first_ones", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first_ones<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("fill_first_blockdim", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first_blockdim<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
