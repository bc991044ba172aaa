// psmarter/PMPP-Learning Exercises/Chapter06/Exercise01/solution.cu (PUB_SRC) in namespace
// PUB_NS, and pub_launch: the launches of its host functions matrixMulTiledRowMajor (kernel 0,
// TiledMatrixMulKernel) and matrixMulTiledColMajor (kernel 1, ...ColMajor, B stored
// transposed): block (16, 16), grid (ceil(o/16), ceil(m/16)); m = M, n = K, o = N.
// build.sh compiles it with -I<tree>/Common -I<tree>/Exercises/Chapter06/Exercise01.
#include "../common/pre.h"
#include "utils.cuh"
#include "solution.h"
namespace PUB_NS {
#include PUB_SRC
}
#undef main
namespace PUB_NS {
void pub_launch(int kernel, const void *A, const void *B, void *C, int M, int N, int K)
{
    int m = M, n = K, o = N;
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid(cdiv(o, dimBlock.x), cdiv(m, dimBlock.y));
    if (kernel == 0)
        TiledMatrixMulKernel<<<dimGrid, dimBlock>>>((float *)A, (float *)B, (float *)C, m, n, o);
    else
        TiledMatrixMulKernelColMajor<<<dimGrid, dimBlock>>>((float *)A, (float *)B, (float *)C, m, n, o);
}
}
