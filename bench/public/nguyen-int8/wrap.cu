// NguyenThaiVu/cuda_project int8mm_kernel.cu (PUB_SRC) in namespace PUB_NS, and pub_launch
// through its int8_gemm_tiled_launcher (block (32, 32), grid (ceil(N/32), ceil(M/32))).
#include "../common/pre.h"
namespace PUB_NS {
#include PUB_SRC
}
#undef main
namespace PUB_NS {
void pub_launch(int, const void *A, const void *B, void *C, int M, int N, int K)
{
    int8_gemm_tiled_launcher((const int8_t *)A, (const int8_t *)B, (int32_t *)C, M, N, K, 0);
}
}
