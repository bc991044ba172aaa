// neg_register_prefetch_top.cu: left alone: already pipelined through registers, as deftruth's
// "dbuf" HGEMM is: the next tile is loaded into the registers at the top of the iteration, the
// current one computed from the other of two buffers, then the registers stored. A register
// prefetch, whose remark once named the loads before the loop instead. (A file of its own: the
// PTX check counts this loop as a register pipeline, which no variant of another kernel would
// promise.) Usage: neg_register_prefetch_top [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

__global__ void prefetch_top_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    if (K >= TS) {
        float ra = A[row * K + tx], rb = B[ty * N + col];
        As[0][ty][tx] = ra;
        Bs[0][ty][tx] = rb;
        __syncthreads();
        for (int t = 1; t < K / TS; ++t) {
            int cur = (t - 1) & 1, nxt = t & 1;
            ra = A[row * K + t * TS + tx];
            rb = B[(t * TS + ty) * N + col];
            for (int k = 0; k < TS; ++k)
                acc += As[cur][ty][k] * Bs[cur][k][tx];
            As[nxt][ty][tx] = ra;
            Bs[nxt][ty][tx] = rb;
            __syncthreads();
        }
        int last = (K / TS - 1) & 1;
        for (int k = 0; k < TS; ++k)
            acc += As[last][ty][k] * Bs[last][k][tx];
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("prefetch_top_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        prefetch_top_gemm<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
