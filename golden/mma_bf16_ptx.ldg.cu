// mma_bf16_ptx.cu: bf16 GEMM through inline PTX: ldmatrix (x4 for A, x2.trans for B) and
// mma.sync.m16n8k16 with fp32 accumulators. 64x64x32 block tile, 4 warps of 32x32, 16-byte
// copies by strided copy loops. Usage: mma_bf16_ptx [M N K] (M, N multiples of 64, K a
// multiple of 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

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

    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        uint4 pipefy_reg0[((BM * BK / 8) + 128 - 1) / 128];
        uint4 pipefy_reg1[((BK * BN / 8) + 128 - 1) / 128];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / 8) + 128 - 1) / 128; ++pipefy_j) {
                int i = tid + pipefy_j * 128;
                if (!(i < BM * BK / 8))
                    break;
                int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                pipefy_reg0[pipefy_j] = *(const uint4 *)&A[(size_t)(bm + r) * K + k0 + c];
            }
            for (int pipefy_j = 0; pipefy_j < ((BK * BN / 8) + 128 - 1) / 128; ++pipefy_j) {
                int i = tid + pipefy_j * 128;
                if (!(i < BK * BN / 8))
                    break;
                int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                pipefy_reg1[pipefy_j] = *(const uint4 *)&B[(size_t)(k0 + r) * N + bn + c];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / 8) + 128 - 1) / 128; ++pipefy_j) {
                int i = tid + pipefy_j * 128;
                if (!(i < BM * BK / 8))
                    break;
                int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                *(uint4 *)&As[pipefy_dst][r][c] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((BK * BN / 8) + 128 - 1) / 128; ++pipefy_j) {
                int i = tid + pipefy_j * 128;
                if (!(i < BK * BN / 8))
                    break;
                int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                *(uint4 *)&Bs[pipefy_dst][r][c] = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
#pragma unroll
            for (int kk = 0; kk < BK; kk += 16) {
                unsigned a[2][4], b[4][2];
#pragma unroll
                for (int mi = 0; mi < 2; mi++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                                 : "r"(smem_addr(&As[pipefy_stage][wm + mi * 16 + lane % 16][kk + (lane / 16) * 8])));
#pragma unroll
                for (int ni = 0; ni < 4; ni++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                                 : "=r"(b[ni][0]), "=r"(b[ni][1])
                                 : "r"(smem_addr(&Bs[pipefy_stage][kk + lane % 16][wn + ni * 8])));
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
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
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
// pipefy-golden: tma bulk ws ws-cp.async ws-sm90a ws-cp.async-sm90a
