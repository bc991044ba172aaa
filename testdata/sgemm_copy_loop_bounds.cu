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

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void rows_le(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int stride = 8;  // blockDim.y
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int r = ty; r <= TILE - 1; r += stride)
            As[r][tx] = A[(row0 + r) * K + k0 + tx];
        for (int r = 0; r + 1 <= ROWS; ++r)
            Bs[ty + 8 * r][tx] = B[(k0 + ty + 8 * r) * N + col];
        __syncthreads();
        for (int r = 0; r < ROWS; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[ty + 8 * r][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

__global__ void halves(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE * TILE];
    __shared__ float Bs[TILE * TILE];
    int tid = threadIdx.x, tx = tid % TILE, ty = tid / TILE;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[ROWS] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int i = tid; i / 2 < TILE * TILE / 2; i += 256)  // 4 trips of 256 threads
            As[i] = A[(row0 + i / TILE) * K + k0 + i % TILE];
        for (int i = tid; i < TILE * TILE; i += 256)
            Bs[i] = B[(k0 + i / TILE) * N + col0 + i % TILE];
        __syncthreads();
        for (int r = 0; r < ROWS; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[(ty + 8 * r) * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col0 + tx] = acc[r];
}

__global__ void nested(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;  // 16 x 16
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                As[ty * 2 + i][tx * 2 + j] = A[(row0 + ty * 2 + i) * K + k0 + tx * 2 + j];
        for (int i = 0; i < 2; ++i) {
#pragma unroll
            for (int j = 0; j < 2; j++) {
                Bs[ty * 2 + i][tx * 2 + j] = B[(k0 + ty * 2 + i) * N + col0 + tx * 2 + j];
            }
        }
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    acc[i][j] += As[ty * 2 + i][k] * Bs[k][tx * 2 + j];
        __syncthreads();
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
