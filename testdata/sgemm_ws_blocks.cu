// sgemm_ws_blocks.cu: one kernel whose copies and compute stride over the tile by blockDim.x, so
// that any whole number of warps runs it, launched with 160 threads (five warps).
// A producer warpgroup (ws and ws-cp.async on sm_90a) needs the kernel's threads to be whole
// warpgroups of 128: setmaxnreg is executed by whole warpgroups, and after 160 threads the
// producer's 128 would share a warpgroup with the kernel's last warp. pipefy keeps a one-warp
// producer for the 160-thread block (the remark says why); with that check broken
// (PIPEFY_TEST_BREAK=warpgroups) the CPU block model catches the warpgroup split.
// Usage: sgemm_ws_blocks [M N K] (multiples of 32).
// pipefy-args: --arch=sm_90
// pipefy-golden: ws ws-cp.async ws-sm90a ws-cp.async-sm90a
// gpu-runs: 32 32 0 | 32 32 32 | 64 96 64 | 256 256 256
// gpu-sanitize: 64 96 64
#include "harness.cuh"

#define T 32
#define OUTS 8 // outputs a thread at most: 1024 of the tile over 160 threads or more

__global__ void sgemm_strided(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                              int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[OUTS] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i / T][i % T] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int j = 0; j < OUTS; ++j) {
            int o = threadIdx.x + j * blockDim.x;
            if (o < T * T)
                for (int k = 0; k < T; ++k)
                    acc[j] += As[o / T][k] * Bs[k][o % T];
        }
        __syncthreads();
    }
    for (int j = 0; j < OUTS; ++j) {
        int o = threadIdx.x + j * blockDim.x;
        if (o < T * T)
            C[(r0 + o / T) * N + c0 + o % T] = acc[j];
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 96, 64};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_strided", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_strided<<<dim3(N / T, M / T), 160>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
