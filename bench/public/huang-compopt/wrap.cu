// Huanghongru/SGEMM-Implementation-and-Optimization matmul_CompOpt.cu (PUB_SRC) in namespace
// PUB_NS, and pub_launch: its main()'s launch (threads (16, 4), grid (N/64, M/16); no bounds
// checks: M and K multiples of 16, N of 64).
#include "../common/pre.h"
namespace PUB_NS {
#include PUB_SRC
}
#undef main
namespace PUB_NS {
void pub_launch(int, const void *A, const void *B, void *C, int M, int N, int K)
{
    dim3 threads(TILE_SIZE, VECTOR_SIZE);
    dim3 grid(N / (TILE_SIZE * VECTOR_SIZE), M / TILE_SIZE);
    matmul_CompOpt<float><<<grid, threads>>>((float *)A, (float *)B, (float *)C, M, K, N);
}
}
