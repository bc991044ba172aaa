// hmma_ptx_macros.cu: one warp a 16x8 output tile, fp16 inputs, fp32 accumulators, through
// mma.sync; the tiles are read by ldmatrix written as macros of a header (include/ptx_macros.cuh),
// their shared addresses from __cvta_generic_to_shared, and the tile count comes from the
// header's div_ceil. 16-byte copies; B's by half the warp (the loop kept rolled, one loop a
// listing for the overlap check). Usage: hmma_ptx_macros [M N K]
// (M a multiple of 16, N of 8, K of 16).
// gpu-runs: 16 8 0 | 16 8 16 | 16 8 32 | 16 8 48 | 128 128 128 | 512 512 512
// gpu-sanitize: 16 8 48
#include "harness.cuh"
#include "include/ptx_macros.cuh"

#define TM 16
#define TN 8
#define TK 16

__global__ void hmma_ptx_macros(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
                                int M, int N, int K)
{
    const size_t k_tiles = div_ceil(K, TK);
    const int bm = blockIdx.y * TM, bn = blockIdx.x * TN;
    __shared__ __align__(16) half As[2][TM][TK];
    __shared__ __align__(16) half Bs[2][TK][TN];
    const int lane = threadIdx.x % 32;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        size_t pipefy_next_t = 0;
        // pipefy: staging registers
        int4 pipefy_reg0;
        int4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, size_t t) {
            if (pipefy_step)
                ++t;
            if (!(t < k_tiles))
                return false;
            pipefy_reg0 = *((const int4 *)&A[(size_t)(bm + lane / 2) * K + t * TK] + lane % 2);
            if (lane < TK)
                pipefy_reg1 = *(const int4 *)&B[(t * TK + lane) * N + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            *((int4 *)&As[pipefy_dst][lane / 2][0] + lane % 2) = pipefy_reg0;
            if (lane < TK)
                *(int4 *)&Bs[pipefy_dst][lane][0] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        #pragma unroll 1
        for (size_t t = 0; t < k_tiles; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            unsigned a0, a1, a2, a3, b0, b1;
            unsigned a_addr = (unsigned)__cvta_generic_to_shared(&As[pipefy_stage][lane % 16][(lane / 16) * 8]);
            LDMATRIX_X4(a0, a1, a2, a3, a_addr);
            unsigned b_addr = (unsigned)__cvta_generic_to_shared(&Bs[pipefy_stage][lane % 16][0]);
            LDMATRIX_X2_T(b0, b1, b_addr);
            HMMA16816F32(acc[0], acc[1], acc[2], acc[3], a0, a1, a2, a3, b0, b1);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    int row = bm + lane / 4, col = bn + (lane % 4) * 2;
    C[(size_t)row * N + col] = acc[0];
    C[(size_t)row * N + col + 1] = acc[1];
    C[(size_t)(row + 8) * N + col] = acc[2];
    C[(size_t)(row + 8) * N + col + 1] = acc[3];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<half, float>("hmma_ptx_macros", M, N, K, [&](const half *A, const half *B, float *C) {
        hmma_ptx_macros<<<dim3(N / TN, M / TM), 32>>>(A, B, C, M, N, K);
    }, 1e-3, 1e-3);
}
