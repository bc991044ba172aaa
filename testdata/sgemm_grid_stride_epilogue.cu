// sgemm_grid_stride_epilogue.cu: a grid-stride loop over output tiles whose body has barriers
// of its own: after the K-loop, the tile of C is staged through shared memory between two
// barriers and written back by other threads than those that computed it (thread (x, y)
// stores the element thread (y, x) computed). The inner K-loop is the candidate, the outer
// loop gets the remark that it holds it. Usage: sgemm_grid_stride_epilogue [M N K] (M, N, K
// multiples of 16).
// gpu-runs: 16 16 0 | 32 48 16 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"

#define TS 16

__global__ void sgemm_grid_stride_epilogue(const float *__restrict__ A, const float *__restrict__ B,
                                           float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    __shared__ float Cs[TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_n = N / TS, tiles = (M / TS) * tiles_n;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0 = (tile / tiles_n) * TS, col0 = (tile % tiles_n) * TS;
        float acc = 0.0f;
        for (int k0 = 0; k0 < K; k0 += TS) {
            As[ty][tx] = A[(row0 + ty) * K + k0 + tx];
            Bs[ty][tx] = B[(k0 + ty) * N + col0 + tx];
            __syncthreads();
            for (int k = 0; k < TS; ++k)
                acc += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        Cs[ty][tx] = acc;
        __syncthreads();
        C[(row0 + tx) * N + col0 + ty] = Cs[tx][ty];
        __syncthreads();
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_grid_stride_epilogue", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_grid_stride_epilogue<<<7, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
