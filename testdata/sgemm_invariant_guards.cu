// sgemm_invariant_guards.cu: copies under an if with no else whose condition is the same on
// every tile: which threads of the block copy (a 16 x 16 block fills 16 x 8 and 8 x 16 tiles).
// The same elements are written on every tile, so a stage never holds an element the loop as
// written would not; register staging loads under the condition and stores under it again, one
// copy (`if (tx < TK) As[..] = A[..];`) or two in braces (two_per_thread). Usage:
// sgemm_invariant_guards [M N K] (M, N multiples of 16, K of 8).
// gpu-runs: 16 16 0 | 16 16 8 | 16 16 16 | 16 16 24 | 256 256 256 | 512 512 512
// gpu-sanitize: 16 16 24
#include "harness.cuh"

#define TMN 16  // the block's rows and columns of C
#define TK 8    // the tiles' depth

__global__ void which_threads(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TMN][TK];
    __shared__ float Bs[TK][TMN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TMN + ty, col = blockIdx.x * TMN + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TK) {
        if (tx < TK)
            As[ty][tx] = A[row * K + k0 + tx];
        if (ty < TK)
            Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TK; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void two_per_thread(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TMN][TK];
    __shared__ float Bs[TK][TMN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TMN + ty, col = blockIdx.x * TMN + tx;
    const bool a_copier = tx < TK / 2;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TK) {
        if (a_copier) {
            As[ty][tx] = A[row * K + k0 + tx];
            As[ty][tx + TK / 2] = A[row * K + k0 + tx + TK / 2];
        }
        if (ty < TK / 2) {
            Bs[ty][tx] = B[(k0 + ty) * N + col];
            Bs[ty + TK / 2][tx] = B[(k0 + ty + TK / 2) * N + col];
        }
        __syncthreads();
        for (int k = 0; k < TK; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("which_threads", M, N, K, [&](const float *A, const float *B, float *C) {
        which_threads<<<dim3(N / TMN, M / TMN), dim3(TMN, TMN)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("two_per_thread", M, N, K, [&](const float *A, const float *B, float *C) {
        two_per_thread<<<dim3(N / TMN, M / TMN), dim3(TMN, TMN)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
