// hgemm_half2_tiles.cu: tiles of the toolkit's pairs of 16-bit floats, `__half2` and
// `__nv_bfloat162`, whose copy assignments cuda_fp16.hpp and cuda_bf16.hpp write out (each copies
// the pair's bits, on the device as one 32-bit word): a pair copied from global memory into a
// tile is a 4-byte copy like a float's, which cp.async and register staging both take. A struct
// of the program's own with such a written-out assignment stays refused (neg_user_assign.cu).
// The A tile holds pairs along k, the B tile single halves. Usage: hgemm_half2_tiles [M N K]
// (M, N multiples of 16, K of 32).
// gpu-runs: 16 16 0 | 32 32 32 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define TS 16
#define TK 32

// a 16 x 16 block, one C element a thread: A's tile 16 rows of 16 pairs, B's 32 rows of 16
__global__ void half2_tiles(const half *A, const half *B, float *C, int M, int N, int K)
{
    __shared__ half2 As[2][TS][TK / 2];
    __shared__ half Bs[2][TK][TS];
    const half2 *A2 = reinterpret_cast<const half2 *>(A);
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        half2 pipefy_reg0;
        half pipefy_reg1;
        half pipefy_reg2;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TK;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A2[(row * K + k0) / 2 + tx];
            pipefy_reg1 = B[(k0 + ty) * N + col];
            pipefy_reg2 = B[(k0 + ty + TS) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
            Bs[pipefy_dst][ty + TS][tx] = pipefy_reg2;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TK / 2; ++k) {
                half2 a = As[pipefy_stage][ty][k];
                acc += __low2float(a) * __half2float(Bs[pipefy_stage][2 * k][tx]);
                acc += __high2float(a) * __half2float(Bs[pipefy_stage][2 * k + 1][tx]);
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// the same with bfloat16 pairs in both tiles (B's pairs along n)
__global__ void bf162_tiles(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N, int K)
{
    __shared__ __nv_bfloat162 As[2][TS][TK / 2];
    __shared__ __nv_bfloat162 Bs[2][TK][TS / 2];
    const __nv_bfloat162 *A2 = reinterpret_cast<const __nv_bfloat162 *>(A);
    const __nv_bfloat162 *B2 = reinterpret_cast<const __nv_bfloat162 *>(B);
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        __nv_bfloat162 pipefy_reg0;
        __nv_bfloat162 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TK;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A2[(row * K + k0) / 2 + tx];
            // 32 rows of 8 pairs: a row each for threads tx < 8, the next row for the others
            pipefy_reg1 = B2[((k0 + 2 * ty + tx / 8) * N + blockIdx.x * TS) / 2 + tx % 8];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            // 32 rows of 8 pairs: a row each for threads tx < 8, the next row for the others
            Bs[pipefy_dst][2 * ty + tx / 8][tx % 8] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TK / 2; ++k) {
                __nv_bfloat162 a = As[pipefy_stage][ty][k];
                __nv_bfloat162 b0 = Bs[pipefy_stage][2 * k][tx / 2], b1 = Bs[pipefy_stage][2 * k + 1][tx / 2];
                acc += __low2float(a) * (tx % 2 ? __high2float(b0) : __low2float(b0));
                acc += __high2float(a) * (tx % 2 ? __high2float(b1) : __low2float(b1));
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 block(TS, TS), grid(N / TS, M / TS);
    int bad = harness_gemm<half, float>("half2_tiles", M, N, K, [&](const half *A, const half *B, float *C) {
        half2_tiles<<<grid, block>>>(A, B, C, M, N, K);
    }, 0.1, 2e-2);
    bad |= harness_gemm<__nv_bfloat16, float>("bf162_tiles", M, N, K,
                                               [&](const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C) {
        bf162_tiles<<<grid, block>>>(A, B, C, M, N, K);
    }, 0.1, 2e-2);
    return bad;
}
