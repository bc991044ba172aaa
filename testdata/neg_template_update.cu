// neg_template_update.cu: a kernel template whose copy reads a variable the compute updates
// with a compound assignment (`shift += (acc != 0);`, acc being what the compute sums). In a
// template, clang leaves `acc += As[ty][k] * Bs[k][tx]` an unresolved operator call (the
// headers overload operator+=), which pipefy did not read as a write of acc: it took the
// update of shift for a loop variable's bump and replayed it a tile early, and the cp.async
// and ldg rewrites read A's tile at the wrong place (the CPU block model: 1024 of 1024
// outside tolerance at K = 32 and 64; generated seed 1595 found it). Every variant must leave
// it as written, naming the update. Usage: neg_template_update [M N K] (multiples of 16).
// gpu-runs: 32 32 16 | 32 32 32 | 32 32 64 | 64 64 128
// gpu-sanitize: 32 32 64
#include "harness.cuh"

#define BY 16

// the copy of A's tile reads `shift`, which counts the tiles after which acc, which the compute
// writes, was not zero: shift - k0 / TS lies between -k0 / TS and 0, so the index stays in A
template <int TS>
__global__ void gen_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;
    float acc = 0;
    int shift = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[(row0 + ty) * K + k0 + tx + (shift - k0 / TS)];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        shift += (acc != 0);
        __syncthreads();
    }
    C[(row0 + ty) * N + col] = acc;
}

constexpr int TS = 16;
int main(int argc, char **argv)
{
    int sz[3] = {32, 32, 64};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("neg_template_update", M, N, K, [&](const float *A, const float *B, float *C) {
        gen_kernel<TS><<<dim3(N / TS, M / TS), dim3(TS, BY)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
