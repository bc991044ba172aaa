// neg_register_prefetch_one_buffer.cu: left alone: already pipelined through registers into one
// buffer. The next tile's float2 halves are loaded into registers at the top of the iteration,
// the current tile computed, then, between two barriers, the registers stored over the tile
// through a float2 cast (`*(float2 *)&As[..] = ra;`). The remark says it is a register
// prefetch (it once said only that the tiles are read before the last copy into them).
// Usage: neg_register_prefetch_one_buffer [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

// 8 x 16 threads: each loads a float2 of A's tile and one of B's, and computes two outputs
__global__ void prefetch_one_buffer(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(8) float As[TS][TS];
    __shared__ __align__(8) float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + 2 * tx;
    float acc[2] = {0.0f, 0.0f};
    if (K >= TS) {
        *(float2 *)&As[ty][2 * tx] = *(const float2 *)&A[row * K + 2 * tx];
        *(float2 *)&Bs[ty][2 * tx] = *(const float2 *)&B[ty * N + col];
        __syncthreads();
        float2 ra, rb;
        for (int t = 1; t < K / TS; ++t) {
            ra = *(const float2 *)&A[row * K + t * TS + 2 * tx];
            rb = *(const float2 *)&B[(t * TS + ty) * N + col];
            for (int k = 0; k < TS; ++k) {
                acc[0] += As[ty][k] * Bs[k][2 * tx];
                acc[1] += As[ty][k] * Bs[k][2 * tx + 1];
            }
            __syncthreads();
            *(float2 *)&As[ty][2 * tx] = ra;
            *(float2 *)&Bs[ty][2 * tx] = rb;
            __syncthreads();
        }
        for (int k = 0; k < TS; ++k) {
            acc[0] += As[ty][k] * Bs[k][2 * tx];
            acc[1] += As[ty][k] * Bs[k][2 * tx + 1];
        }
    }
    C[row * N + col] = acc[0];
    C[row * N + col + 1] = acc[1];
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("prefetch_one_buffer", M, N, K, [&](const float *A, const float *B, float *C) {
        prefetch_one_buffer<<<dim3(N / TS, M / TS), dim3(TS / 2, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
