// sgemm_nested_copy_loops.cu: each thread copies STRIDE x STRIDE elements of each tile in two
// nested loops (`for i` around `for j`). One staging register a trip of the outer loop would keep
// only the inner loop's last copy (pipefy once staged it so: every j stored the last j's value);
// the registers are now one a trip of each loop, `pipefy_reg0[pipefy_j][pipefy_k]` (register
// staging was refused in between, naming the inner loop); cp.async takes the copies too.
// Usage: sgemm_nested_copy_loops [M N K] (multiples of STEP)
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 48 32
#include "harness.cuh"

#define STEP 16
#define STRIDE 2

// Each thread of a (STEP/STRIDE)^2 block copies STRIDE x STRIDE elements of each tile, in two
// nested loops (sizes multiples of STEP).
__global__ void nested_copy_loops(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float as[STEP][STEP];
    __shared__ float bs[STEP][STEP];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + blockIdx.y * STEP * K, *b = B + blockIdx.x * STEP;
    float sum[STRIDE][STRIDE] = {{0.0f}};
    for (int k0 = 0; k0 < K; k0 += STEP) {
        for (int i = 0; i < STRIDE; ++i) {
            for (int j = 0; j < STRIDE; ++j) {
                as[ty * STRIDE + i][tx * STRIDE + j] = a[(ty * STRIDE + i) * K + k0 + tx * STRIDE + j];
                bs[ty * STRIDE + i][tx * STRIDE + j] = b[(k0 + ty * STRIDE + i) * N + tx * STRIDE + j];
            }
        }
        __syncthreads();
        for (int i = 0; i < STRIDE; ++i)
            for (int j = 0; j < STRIDE; ++j)
                for (int q = 0; q < STEP; ++q)
                    sum[i][j] += as[ty * STRIDE + i][q] * bs[q][tx * STRIDE + j];
        __syncthreads();
    }
    for (int i = 0; i < STRIDE; ++i)
        for (int j = 0; j < STRIDE; ++j)
            C[(blockIdx.y * STEP + ty * STRIDE + i) * N + blockIdx.x * STEP + tx * STRIDE + j] = sum[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nested_copy_loops", M, N, K, [&](const float *A, const float *B, float *C) {
        nested_copy_loops<<<dim3(N / STEP, M / STEP), dim3(STEP / STRIDE, STEP / STRIDE)>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
}
