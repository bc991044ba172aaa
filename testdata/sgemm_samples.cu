// sgemm_samples.cu: the CUDA samples' matrixMul: template tile size, two induction variables
// in the for header (a += aStep, b += bStep), tiles declared inside the loop body.
// Usage: sgemm_samples [M N K] (multiples of 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const float *A, const float *B, int wA, int wB)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;
    float Csub = 0;

    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];

        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];

        __syncthreads();

#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) {
            Csub += As[ty][k] * Bs[k][tx];
        }

        __syncthreads();
    }

    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_samples", M, N, K, [&](const float *A, const float *B, float *C) {
        MatrixMulCUDA<32><<<dim3(N / 32, M / 32), dim3(32, 32)>>>(C, A, B, K, N);
    }, 1e-4, 1e-4);
}
