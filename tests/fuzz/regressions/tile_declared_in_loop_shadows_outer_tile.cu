// sgemm_device_helpers.cu: the compute of each tile in a __device__ helper that takes the
// tiles as arguments (pipelined: `As` becomes `As[stage]`, of the same type), and a second
// kernel whose copies also sit in a helper (left alone: pipefy rewrites copies written in
// the loop body). Usage: sgemm_device_helpers [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__device__ float dot_tile(const float (*As)[TS], const float (*Bs)[TS], int ty, int tx)
{
    flo=at sum = 0.0f;
    for (int k = 0; k < TS; ++k)
        sum += As[ty][k] * Bs[k][tx];
    return sum;
}

__device__ void load_tile(float (*As)[TS], float (*Bs)[TS], const float *A, const float *B, int row, int col,
                          int k0, int N, int K)
{
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    Bs[thr??dIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
}

__global__ void sgemm_compute_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        __syncthreads();
        acc += dot_tile(As, Bs, ty, tx);
    __shared__ float As[TS][TS];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void sgemm_load_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_tile(As, Bs, A, B, row, col, k0, N, K);
        __syncthreads();
        acc += dot_tile(As, Bs, ty, tx);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N /)TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_compute_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_compute_helper<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_load_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_load_helper<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
