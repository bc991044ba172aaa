// sgemm_copy_loop_offset_start.cu: copy loops strided by the block that do not start at
// threadIdx.x. `threadIdx.x + 256`, bound `N + 256`: the bound is a multiple of the block, but the
// last trip of every thread runs over it, so the loops pipefy unrolls for the block (under
// `blockDim.x == 256`) keep their test `if (!(i < N)) break;`; without it every thread would copy
// past the tiles (only a start of threadIdx.x, or a local set to it once, lets pipefy leave the
// test out). A local set to threadIdx.x and then stepped: pipefy cannot show it is never
// negative, so its loops stay loops (cp.async) or the loop is left (registers).
// Usage: sgemm_copy_loop_offset_start [M N K] (M, N multiples of 16; K a multiple of 32)
// gpu-runs: 16 16 0 | 16 16 32 | 32 16 64 | 16 32 96 | 256 256 512 | 1024 1024 1024
// gpu-sanitize: 32 16 64
#include "harness.cuh"

#define TM 16
#define TK 32

// the start written as threadIdx.x plus a constant
__global__ void __launch_bounds__(256) offset_start(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TM][TK];
    __shared__ float Bs[2][TK][TM];
    int tid = threadIdx.x;
    int row = tid / TM, col = tid % TM;
    int row0 = blockIdx.y * TM, col0 = blockIdx.x * TM;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (__launch_bounds__); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((TM * TK + 256) + 256 - 1) / 256];
        float pipefy_reg1[((TK * TM + 256) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((TM * TK + 256) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + 256 + pipefy_j * 256;
                if (!(i < TM * TK + 256))
                    break;
                int e = i - 256;
                pipefy_reg0[pipefy_j] = A[(row0 + e / TK) * K + k0 + e % TK];
            }
            for (int pipefy_j = 0; pipefy_j < ((TK * TM + 256) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + 256 + pipefy_j * 256;
                if (!(i < TK * TM + 256))
                    break;
                int e = i - 256;
                pipefy_reg1[pipefy_j] = B[(k0 + e / TM) * N + col0 + e % TM];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((TM * TK + 256) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + 256 + pipefy_j * 256;
                if (!(i < TM * TK + 256))
                    break;
                int e = i - 256;
                As[pipefy_dst][e / TK][e % TK] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((TK * TM + 256) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + 256 + pipefy_j * 256;
                if (!(i < TK * TM + 256))
                    break;
                int e = i - 256;
                Bs[pipefy_dst][e / TM][e % TM] = pipefy_reg1[pipefy_j];
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
                acc += As[pipefy_stage][row][k] * Bs[pipefy_stage][k][col];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += TK) {
            for (int i = threadIdx.x + 256; i < TM * TK + 256; i += blockDim.x) {
                int e = i - 256;
                As[0][e / TK][e % TK] = A[(row0 + e / TK) * K + k0 + e % TK];
            }
            for (int i = threadIdx.x + 256; i < TK * TM + 256; i += blockDim.x) {
                int e = i - 256;
                Bs[0][e / TM][e % TM] = B[(k0 + e / TM) * N + col0 + e % TM];
            }
            __syncthreads();
            for (int k = 0; k < TK; ++k)
                acc += As[0][row][k] * Bs[0][k][col];
            __syncthreads();
        }
    }
    C[(row0 + row) * N + col0 + col] = acc;
}

// a local set to threadIdx.x, then stepped: not threadIdx.x any more
__global__ void __launch_bounds__(256) stepped_start(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TM][TK];
    __shared__ float Bs[TK][TM];
    int first = threadIdx.x;
    first += 256;
    int row = threadIdx.x / TM, col = threadIdx.x % TM;
    int row0 = blockIdx.y * TM, col0 = blockIdx.x * TM;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TK) {
        for (int i = first; i < TM * TK + 256; i += blockDim.x) {
            int e = i - 256;
            As[e / TK][e % TK] = A[(row0 + e / TK) * K + k0 + e % TK];
        }
        for (int i = first; i < TK * TM + 256; i += blockDim.x) {
            int e = i - 256;
            Bs[e / TM][e % TM] = B[(k0 + e / TM) * N + col0 + e % TM];
        }
        __syncthreads();
        for (int k = 0; k < TK; ++k)
            acc += As[row][k] * Bs[k][col];
        __syncthreads();
    }
    C[(row0 + row) * N + col0 + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 64, 128};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TM, M / TM);
    int rc = harness_gemm<float, float>("offset_start", M, N, K, [&](const float *A, const float *B, float *C) {
        offset_start<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("stepped_start", M, N, K, [&](const float *A, const float *B, float *C) {
        stepped_start<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
