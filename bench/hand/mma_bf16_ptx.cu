// mma_bf16_ptx.cu (hand): the expert reference for testdata/mma_bf16_ptx.cu: cp.async, two
// stages, copy loops unrolled to a constant count for the 128-thread block.
#include "harness.cuh"
#include <cuda_pipeline.h>

#define BM 64
#define BN 64
#define BK 32
#define PAD 8

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__global__ void __launch_bounds__(128)
mma_bf16(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B, float *__restrict__ C,
         int M, int N, int K)
{
    __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK + PAD];
    __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN + PAD];
    int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    float acc[2][4][4] = {};

    int ntiles = K / BK;
    auto load = [&](int t, int s) {
        int k0 = t * BK;
#pragma unroll
        for (int j = 0; j < BM * BK / 8 / 128; j++) {
            int i = tid + j * 128, r = i / (BK / 8), c = (i % (BK / 8)) * 8;
            __pipeline_memcpy_async(&As[s][r][c], &A[(size_t)(bm + r) * K + k0 + c], 16);
        }
#pragma unroll
        for (int j = 0; j < BK * BN / 8 / 128; j++) {
            int i = tid + j * 128, r = i / (BN / 8), c = (i % (BN / 8)) * 8;
            __pipeline_memcpy_async(&Bs[s][r][c], &B[(size_t)(k0 + r) * N + bn + c], 16);
        }
    };
    if (ntiles > 0)
        load(0, 0);
    __pipeline_commit();
    for (int t = 0; t < ntiles; ++t) {
        __pipeline_wait_prior(0);
        __syncthreads();
        if (t + 1 < ntiles)
            load(t + 1, (t + 1) & 1);
        __pipeline_commit();
        int s = t & 1;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned a[2][4], b[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                             : "r"(smem_addr(&As[s][wm + mi * 16 + lane % 16][kk + (lane / 16) * 8])));
#pragma unroll
            for (int ni = 0; ni < 4; ni++)
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                             : "=r"(b[ni][0]), "=r"(b[ni][1])
                             : "r"(smem_addr(&Bs[s][kk + lane % 16][wn + ni * 8])));
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
#pragma unroll
                for (int ni = 0; ni < 4; ni++)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]),
                                   "+f"(acc[mi][ni][3])
                                 : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]),
                                   "r"(b[ni][0]), "r"(b[ni][1]));
        }
    }
    for (int mi = 0; mi < 2; mi++)
        for (int ni = 0; ni < 4; ni++) {
            int row = bm + wm + mi * 16 + lane / 4, col = bn + wn + ni * 8 + (lane % 4) * 2;
            C[(size_t)row * N + col] = acc[mi][ni][0];
            C[(size_t)row * N + col + 1] = acc[mi][ni][1];
            C[(size_t)(row + 8) * N + col] = acc[mi][ni][2];
            C[(size_t)(row + 8) * N + col + 1] = acc[mi][ni][3];
        }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<__nv_bfloat16, float>("mma_bf16_ptx", M, N, K,
                                              [&](const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C) {
        mma_bf16<<<dim3(N / BN, M / BM), 128>>>(A, B, C, M, N, K);
    }, 1e-3, 1e-3);
}
