// manishklach/pmpp-cuda-study examples/043_tiled-matrix-multiply/main.cu (PUB_SRC: the original
// or pipefy's rewrite) in namespace PUB_NS, and pub_launch: the launch of run_bench() there
// (square matrices, size = M = N = K; 16x16 blocks, grid ceil(size/16)^2).
// build.sh compiles it with -I<tree>/include.
#include "../common/pre.h"
#include "pmpp/benchmark.cuh"
#include "pmpp/cli.cuh"
#include "pmpp/compare.cuh"
#include "pmpp/cuda_check.cuh"
#include "pmpp/random_inputs.cuh"
#include "pmpp/report.cuh"
namespace PUB_NS {
#include PUB_SRC
}
#undef main
namespace PUB_NS {
void pub_launch(int, const void *A, const void *B, void *C, int M, int, int)
{
    const int size = M;
    dim3 threads(kTile, kTile);
    dim3 blocks((size + kTile - 1) / kTile, (size + kTile - 1) / kTile);
    matmul_tiled_kernel<<<blocks, threads>>>((const float *)A, (const float *)B, (float *)C, size);
}
}
