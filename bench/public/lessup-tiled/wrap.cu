// LessUp/sgemm-optimization src/kernels/tiled_sgemm.cuh (PUB_SRC) in namespace PUB_NS, and
// pub_launch through its launcher launch_tiled_sgemm<TILE_SIZE> (block (T, T), grid
// (ceil(N/T), ceil(M/T))): kernel 0 at T = 32 (the launcher's default), 1 at T = 16.
// The project's src/utils/cuda_utils.cuh does not compile under CUDA 13 (cudaDeviceProp::
// clockRate); build.sh replaces it in each build's copy with cuda_utils_stub.cuh (the
// error macros the launcher uses) and compiles with -I<tree>/src/utils.
#include "../common/pre.h"
#include "cuda_utils.cuh"
namespace PUB_NS {
#include PUB_SRC
}
#undef main
namespace PUB_NS {
void pub_launch(int kernel, const void *A, const void *B, void *C, int M, int N, int K)
{
    if (kernel == 0)
        launch_tiled_sgemm<32>((const float *)A, (const float *)B, (float *)C, M, K, N);
    else
        launch_tiled_sgemm<16>((const float *)A, (const float *)B, (float *)C, M, K, N);
}
}
