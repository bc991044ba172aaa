// mumupika/cuda_sgemm_playground src/kernels.cu (PUB_SRC) in namespace PUB_NS, and pub_launch
// through the file's own launchers, with the repository's src/running.cu configuration:
// kernel 0 sgemm_smem (run_kernel<4>: grid (ceil(N/32), ceil(M/32)), block (32, 32), 8 KB of
// dynamic shared memory it does not use), 1 sgemm_smem_opt at tileSize 32 (run_kernel<5>, the
// same grid and block, 2*32*32 floats), 2 sgemm_smem_opt at tileSize 16 (block (16, 16),
// grid (ceil(N/16), ceil(M/16)), 2*16*16 floats; not a configuration of the repository's own).
// alpha 1, beta 0, ldA = K, ldB = ldC = N. build.sh compiles it with -I<tree>/include.
#include "../common/pre.h"
#include "launcher.h"
#include "helper.h"
namespace PUB_NS {
#include PUB_SRC
}
#undef main
namespace PUB_NS {
void pub_launch(int kernel, const void *A, const void *B, void *C, int M, int N, int K)
{
    const float *a = (const float *)A, *b = (const float *)B;
    float *c = (float *)C;
    if (kernel == 0) {
        dim3 gridDim((N + 31) / 32, (M + 31) / 32, 1);
        int const tileSize = 32;
        dim3 blockDim(tileSize, tileSize);
        size_t sharedMemSize = 2 * tileSize * tileSize * sizeof(float);
        PUB_NS::launch_sgemm_smem(M, N, K, K, N, N, a, b, c, 1.0f, 0.0f, gridDim, blockDim, sharedMemSize, 0);
    } else {
        int const tileSize = kernel == 1 ? 32 : 16;
        dim3 gridDim((N + tileSize - 1) / tileSize, (M + tileSize - 1) / tileSize, 1);
        dim3 blockDim(tileSize, tileSize);
        size_t sharedMemSize = 2 * tileSize * tileSize * sizeof(float);
        PUB_NS::launch_sgemm_smem_opt(M, N, K, K, N, N, a, b, c, 1.0f, 0.0f, gridDim, blockDim, tileSize,
                                      sharedMemSize, 0);
    }
}
}
