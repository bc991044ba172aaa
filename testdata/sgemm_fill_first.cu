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

#define TS 16
#define RB 4 /* rows (and columns) a thread of the blocked kernel computes */

__global__ void fill_first(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = 0.0f;
        if (row < M && k0 + tx < K)
            As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = 0.0f;
        if (col < N && k0 + ty < K) {
            Bs[ty][tx] = B[(k0 + ty) * N + col];
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// A block of TS x TS threads computes (TS*RB) x (TS*RB) of C.
__global__ void fill_first_blocked(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float as[TS * RB][TS];
    __shared__ float bs[TS][TS * RB];
    int ti = threadIdx.y, tj = threadIdx.x;
    int bi = ti * RB, bj = tj * RB;
    int i = blockIdx.y * TS * RB + bi, j = blockIdx.x * TS * RB + bj;
    float c[RB][RB] = {};
    int k;
    for (k = 0; k < K; k += TS) {
        as[bi + 0][tj] = 0.0f;
        if (i + 0 < M && k + tj < K) {
            as[bi + 0][tj] = A[K * (i + 0) + k + tj];
        }
        as[bi + 1][tj] = 0.0f;
        if (i + 1 < M && k + tj < K) {
            as[bi + 1][tj] = A[K * (i + 1) + k + tj];
        }
        as[bi + 2][tj] = 0.0f;
        if (i + 2 < M && k + tj < K) {
            as[bi + 2][tj] = A[K * (i + 2) + k + tj];
        }
        as[bi + 3][tj] = 0.0f;
        if (i + 3 < M && k + tj < K) {
            as[bi + 3][tj] = A[K * (i + 3) + k + tj];
        }
        bs[ti][bj + 0] = 0.0f;
        if (j + 0 < N && k + ti < K) {
            bs[ti][bj + 0] = B[N * (k + ti) + j + 0];
        }
        bs[ti][bj + 1] = 0.0f;
        if (j + 1 < N && k + ti < K) {
            bs[ti][bj + 1] = B[N * (k + ti) + j + 1];
        }
        bs[ti][bj + 2] = 0.0f;
        if (j + 2 < N && k + ti < K) {
            bs[ti][bj + 2] = B[N * (k + ti) + j + 2];
        }
        bs[ti][bj + 3] = 0.0f;
        if (j + 3 < N && k + ti < K) {
            bs[ti][bj + 3] = B[N * (k + ti) + j + 3];
        }
        __syncthreads();
        for (int tk = 0; tk < TS; tk++)
            for (int r = 0; r < RB; r++)
                for (int s = 0; s < RB; s++)
                    c[r][s] += as[bi + r][tk] * bs[tk][bj + s];
        __syncthreads();
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
    __shared__ float As[TS * TS], Bs[TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y, w = blockDim.x;
    int row = blockIdx.y * w + ty, col = blockIdx.x * w + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += w) {
        As[ty * w + tx] = 0.0f;
        if (row < M && k0 + tx < K)
            As[ty * w + tx] = A[row * K + k0 + tx];
        Bs[ty * w + tx] = 0.0f;
        if (col < N && k0 + ty < K)
            Bs[ty * w + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < w; ++k)
            acc += As[ty * w + k] * Bs[k * w + tx];
        __syncthreads();
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
