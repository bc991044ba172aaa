// sgemm_branch_assigned.cu: guarded fills whose load branch sets a local of the kernel declared
// before the loop, as ECE408's convolutions write them (`int i;` .. `if (g) { i = q * TS + ty;
// Bs[..] = in_4d(.., i / (K * K), ..); } else Bs[..] = 0;`). Nothing else names the local, so
// the copy reads its value: `Bs[..] = g ? B[((int)(q * TS + ty)) * N + col] : 0`.
// The first kernel sets the local for B's fill, declared with no value; the second sets one
// for each fill (one initialized where declared) and reads B through a macro.
// Usage: sgemm_branch_assigned [M N K].
// gpu-runs: 20 24 0 | 20 24 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"

#define TS 16
#define B_AT(r, c) B[(size_t)(r) * N + (c)]

__global__ void sgemm_branch_assigned(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int i;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_q = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int q) {
            if (pipefy_step)
                q++;
            if (!(q < (K - 1) / TS + 1))
                return false;
            pipefy_reg0 = (row < M && q * TS + tx < K) ? A[(size_t)row * K + q * TS + tx] : 0;
            pipefy_reg1 = (q * TS + ty < K && col < N) ? B[(size_t)((int)(q * TS + ty)) * N + col] : 0;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_q))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int q = 0; q < (K - 1) / TS + 1; q++) {
            bool pipefy_more = pipefy_fetch(true, q);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; k++)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

__global__ void sgemm_branch_assigned_both(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    long a = 0;
    int b;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_q = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int q) {
            if (pipefy_step)
                q++;
            if (!(q < (K - 1) / TS + 1))
                return false;
            pipefy_reg0 = (row < M && q * TS + tx < K) ? A[((long)((long)row * K + q * TS + tx))] : 0;
            pipefy_reg1 = (!(q * TS + ty >= K || col >= N)) ? B_AT(((int)(q * TS + ty)), col) : 0;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_q))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int q = 0; q < (K - 1) / TS + 1; q++) {
            bool pipefy_more = pipefy_fetch(true, q);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; k++)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_branch_assigned", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_assigned<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_branch_assigned_both", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_branch_assigned_both<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
