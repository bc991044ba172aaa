// sgemm_directive_compute.cu: a tiled SGEMM whose compute chooses its multiply-add with the
// preprocessor, as code built for several element types does (`#if USE_FMA ... #else ... #endif`
// inside the compute's loop). The directives travel inside the compute's text; the code the
// parse skips names the tiles too, so pipefy keeps one stage (registers), where no tile is
// renamed. A directive between the copies would still leave the loop as written.
// Usage: sgemm_directive_compute [M N K] (M, N multiples of TS; any K).
// gpu-runs: 32 32 0 | 32 32 1 | 32 32 17 | 64 32 48 | 96 64 100 | 512 512 512
// gpu-sanitize: 64 32 17
#include "harness.cuh"

#define TS 16
#define USE_FMA 1

__global__ void sgemm_directive_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k) {
#if USE_FMA
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
#else
            acc += As[ty][k] * Bs[k][tx];
#endif
        }
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_directive_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TS, TS), grid(N / TS, M / TS);
        sgemm_directive_compute<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
