// 8-byte copies under auto, each tile's compute long (ratio 64, where 16-byte copies go to
// cp.async): double tiles, and half tiles copied four halves at a time. On the
// H100 such copies ran faster staged in registers than as cp.async (colaws' double GEMM 0.970x
// its original with cp.async x2, 1.015x with ldg x2; DefTruth's half4 HGEMM 1.011x against
// 1.056x), so auto stages them in registers (the build before: "8-byte copies go straight to
// shared memory with cp.async"), on sm_90 too, where tensor copies were measured on 4-byte
// copies only. The third kernel's copies are 16 bytes: cp.async, as before.
#include <cuda_fp16.h>
#define TS 16

__global__ void dgemm(const double *A, const double *B, double *C, int N, int K)
{
    __shared__ double As[TS][TS];
    __shared__ double Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    double acc = 0.0;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int rep = 0; rep < 32; ++rep) // (a long compute per tile: ratio 64)
            for (int k = 0; k < TS; ++k)
                acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// 64 threads: each copies four halves of A's 16 x 16 tile and four of B's
__global__ void hgemm_half4(const half *A, const half *B, float *C, int N, int K)
{
    __shared__ __align__(8) half As[TS][TS];
    __shared__ __align__(8) half Bs[TS][TS];
    int tid = threadIdx.x, r = tid / 4, c = (tid % 4) * 4;
    int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < K / TS; ++t) {
        *(uint2 *)&As[r][c] = *(const uint2 *)&A[(row0 + r) * K + t * TS + c];
        *(uint2 *)&Bs[r][c] = *(const uint2 *)&B[(t * TS + r) * N + col0 + c];
        __syncthreads();
        for (int rep = 0; rep < 8; ++rep)
            for (int k = 0; k < TS; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += __half2float(As[r][k]) * __half2float(Bs[k][c + j]);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(row0 + r) * N + col0 + c + j] = acc[j];
}

__global__ void sgemm_float4(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ __align__(16) float As[TS][TS];
    __shared__ __align__(16) float Bs[TS][TS];
    int tid = threadIdx.x, r = tid / 4, c = (tid % 4) * 4;
    int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < K / TS; ++t) {
        *(float4 *)&As[r][c] = *(const float4 *)&A[(row0 + r) * K + t * TS + c];
        *(float4 *)&Bs[r][c] = *(const float4 *)&B[(t * TS + r) * N + col0 + c];
        __syncthreads();
        for (int rep = 0; rep < 16; ++rep)
            for (int k = 0; k < TS; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[r][k] * Bs[k][c + j];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(row0 + r) * N + col0 + c + j] = acc[j];
}

void run(const double *dA, const double *dB, double *dC, const half *hA, const half *hB, const float *fA,
         const float *fB, float *fC, int N, int K)
{
    dgemm<<<dim3(N / TS, N / TS), dim3(TS, TS)>>>(dA, dB, dC, N, K);
    hgemm_half4<<<dim3(N / TS, N / TS), 64>>>(hA, hB, fC, N, K);
    sgemm_float4<<<dim3(N / TS, N / TS), 64>>>(fA, fB, fC, N, K);
}
