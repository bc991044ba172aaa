// nvcc_header_kernel.cu: launches the kernel of include/tiled_gemm.cuh, a header pipefy takes
// as its input (golden/include/tiled_gemm.auto.cuh); its GPU check builds this program against
// the pipelined header. Usage: nvcc_header_kernel [M N K] (multiples of 16).
// gpu-header: include/tiled_gemm.cuh
// gpu-runs: 16 16 0 | 16 16 16 | 16 16 32 | 16 16 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 16 16 48
#include "harness.cuh"
#include "tiled_gemm.cuh"

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nvcc_header_kernel", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(HT, HT), grid(N / HT, M / HT);
        sgemm_in_header<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
