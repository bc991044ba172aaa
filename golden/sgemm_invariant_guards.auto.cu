// sgemm_invariant_guards.cu: copies under an if with no else whose condition is the same on
// every tile: which threads of the block copy (a 16 x 16 block fills 16 x 8 and 8 x 16 tiles).
// The same elements are written on every tile, so a stage never holds an element the loop as
// written would not; register staging loads under the condition and stores under it again, one
// copy (`if (tx < TK) As[..] = A[..];`) or two in braces (two_per_thread). Usage:
// sgemm_invariant_guards [M N K] (M, N multiples of 16, K of 8).
// gpu-runs: 16 16 0 | 16 16 8 | 16 16 16 | 16 16 24 | 256 256 256 | 512 512 512
// gpu-sanitize: 16 16 24
#include "harness.cuh"

#define TMN 16  // the block's rows and columns of C
#define TK 8    // the tiles' depth

__global__ void which_threads(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TMN][TK];
    __shared__ float Bs[2][TK][TMN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TMN + ty, col = blockIdx.x * TMN + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TK;
            if (!(k0 < K))
                return false;
            if (tx < TK)
                pipefy_reg0 = A[row * K + k0 + tx];
            if (ty < TK)
                pipefy_reg1 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (tx < TK)
                As[pipefy_dst][ty][tx] = pipefy_reg0;
            if (ty < TK)
                Bs[pipefy_dst][ty][tx] = pipefy_reg1;
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
            for (int k = 0; k < TK; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

__global__ void two_per_thread(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TMN][TK];
    __shared__ float Bs[2][TK][TMN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TMN + ty, col = blockIdx.x * TMN + tx;
    const bool a_copier = tx < TK / 2;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        float pipefy_reg2;
        float pipefy_reg3;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TK;
            if (!(k0 < K))
                return false;
            if (a_copier) {
                pipefy_reg0 = A[row * K + k0 + tx];
                pipefy_reg1 = A[row * K + k0 + tx + TK / 2];
            }
            if (ty < TK / 2) {
                pipefy_reg2 = B[(k0 + ty) * N + col];
                pipefy_reg3 = B[(k0 + ty + TK / 2) * N + col];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (a_copier) {
                As[pipefy_dst][ty][tx] = pipefy_reg0;
                As[pipefy_dst][ty][tx + TK / 2] = pipefy_reg1;
            }
            if (ty < TK / 2) {
                Bs[pipefy_dst][ty][tx] = pipefy_reg2;
                Bs[pipefy_dst][ty + TK / 2][tx] = pipefy_reg3;
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
        for (int k0 = 0; k0 < K; k0 += TK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TK; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
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
    int bad = 0;
    bad |= harness_gemm<float, float>("which_threads", M, N, K, [&](const float *A, const float *B, float *C) {
        which_threads<<<dim3(N / TMN, M / TMN), dim3(TMN, TMN)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("two_per_thread", M, N, K, [&](const float *A, const float *B, float *C) {
        two_per_thread<<<dim3(N / TMN, M / TMN), dim3(TMN, TMN)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
