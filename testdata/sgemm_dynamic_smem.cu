// sgemm_dynamic_smem.cu: the tiles live in one extern __shared__ buffer the launch sizes, A's
// as a flat pointer at its start and B's as a 2-D view at an offset, both fixed before the
// loop and never moved. One register stage needs no more shared memory than the launch gives,
// and keeps every store into the buffer where the loop had it, so pipefy can prove it; a
// second stage would need a bigger launch. Usage: sgemm_dynamic_smem [M N K] (M, N multiples
// of 16; K any).
// gpu-runs: 16 16 0 | 32 48 16 | 48 32 40 | 256 128 500 | 1024 1024 1024
// gpu-sanitize: 48 32 40
#include "harness.cuh"

#define TS 16

__global__ void sgemm_dynamic_smem(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 500};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_dynamic_smem", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_dynamic_smem<<<dim3(N / TS, M / TS), dim3(TS, TS), 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
