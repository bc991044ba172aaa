// sgemm_early_return.cu: the bounds check written as an early return before the K-loop
// (`if (row >= M || col >= N) return;`), which pipefy cannot show every thread of a block takes
// alike. A kernel's return ends the thread, and __syncthreads() waits only for the threads that
// have not ended (PTX ISA, bar.sync), so the K-loop's barriers are the remaining threads' and
// the loop is pipelined with registers or cp.async; tensor copies, whose mbarriers count every
// thread, are refused (neg_participation.cu). The kernel as written reads tile elements no
// thread wrote where a block is cut by the matrix's edge, so the sizes here are multiples of
// TS; the launches give one more block row and column than the matrix needs, whose threads all
// return. The second kernel reads its copies' coordinates from a thread index, two floats a
// thread, and returns when the coordinates fall outside (deftruth's naive HGEMM does so).
// pipefy-golden: tma
// pipefy-args: --arch=sm_90
// Usage: sgemm_early_return [M N K] (M and N multiples of 16).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 40 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 40
#include "harness.cuh"

#define TS 16

__global__ void sgemm_early_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row >= M || col >= N)
        return;
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
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// 128 threads, tiles of 16 x 16: each thread copies two floats of A's tile and two of B's and
// computes two outputs (rows r and r + 8)
__global__ void sgemm_early_return_1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tid = threadIdx.x;
    int load_m = tid / 8, load_k = (tid % 8) * 2;  // A's tile: 16 rows of 8 pairs
    int load_kb = tid / 8, load_n = (tid % 8) * 2; // B's tile: 16 rows of 8 pairs
    int gm = blockIdx.y * TS + load_m, gn = blockIdx.x * TS + load_n;
    if (gm >= M || gn >= N)
        return;
    int r = tid / 16, c = tid % 16;
    float acc0 = 0.0f, acc1 = 0.0f;
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
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + load_k < K ? A[gm * K + k0 + load_k] : 0.0f;
            pipefy_reg1 = k0 + load_k + 1 < K ? A[gm * K + k0 + load_k + 1] : 0.0f;
            pipefy_reg2 = k0 + load_kb < K ? B[(k0 + load_kb) * N + gn] : 0.0f;
            pipefy_reg3 = k0 + load_kb < K ? B[(k0 + load_kb) * N + gn + 1] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][load_m][load_k] = pipefy_reg0;
            As[pipefy_dst][load_m][load_k + 1] = pipefy_reg1;
            Bs[pipefy_dst][load_kb][load_n] = pipefy_reg2;
            Bs[pipefy_dst][load_kb][load_n + 1] = pipefy_reg3;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k) {
                acc0 += As[pipefy_stage][r][k] * Bs[pipefy_stage][k][c];
                acc1 += As[pipefy_stage][r + 8][k] * Bs[pipefy_stage][k][c];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * TS + r) * N + blockIdx.x * TS + c] = acc0;
    C[(blockIdx.y * TS + r + 8) * N + blockIdx.x * TS + c] = acc1;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    // one block row and column more than the matrix needs: their threads all return
    dim3 grid(N / TS + 1, M / TS + 1);
    int rc = harness_gemm<float, float>("sgemm_early_return", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_early_return<<<grid, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_early_return_1d", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_early_return_1d<<<grid, 128>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
