// sgemm_reg_outside.cu: the loads go through registers declared before the loop (`float ra,
// rb;`) and are stored in the same iteration, B's transposed into a padded tile: a fetch into
// registers, not a prefetch, since nothing but the copies reads ra and rb. The loop counts
// tiles and computes a size_t offset k0 from it, which the loads need: it goes to the loader
// with them (found by the generator, seed 138: left behind, the rewrite named an undeclared
// k0 and validation refused it). Usage: sgemm_reg_outside [M N K] (M, N, K multiples of 16).
// gpu-runs: 32 48 0 | 32 48 16 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"

#define TS 16

__global__ void sgemm_reg_outside(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float BsT[TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    for (unsigned t = 0; t < (unsigned)K / TS; ++t) {
        size_t k0 = (size_t)t * TS;
        ra = A[row * (size_t)K + k0 + tx];
        rb = B[(k0 + ty) * N + col];
        As[ty][tx] = ra;
        BsT[tx][ty] = rb;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * BsT[tx][k];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_reg_outside", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_reg_outside<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
