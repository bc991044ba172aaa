// neg_reg_outside.cu: registers declared before the loop that are not a plain fetch. In the
// first kernel the last value of ra is read after the loop, in the second the compute reads
// rb, in the third the registers are stored before they are loaded (a register prefetch the
// author wrote). The first two were left alone until session 36; now their loads take a
// register of their own and the assignments stay where the stash stores the copies, so those
// reads see what they saw as written. The third is still left alone, named a register
// prefetch. The host program prints each kernel's output checksum for the CPU block model to
// compare; no K of 0: after_loop then reads ra unassigned.
// Usage: neg_reg_outside [M N K] (multiples of 16).
// gpu-runs: 64 64 32 | 64 64 96 | 128 128 160
#include "harness.cuh"

#define TS 16

__global__ void after_loop(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_kept0 = A[row * K + k0 + tx];
            rb = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            ra = pipefy_kept0;
            As[pipefy_dst][ty][tx] = ra;
            Bs[pipefy_dst][ty][tx] = rb;
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
    C[row * N + col] = acc + ra;
}

__global__ void compute_reads(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            ra = A[row * K + k0 + tx];
            pipefy_kept0 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            rb = pipefy_kept0;
            As[pipefy_dst][ty][tx] = ra;
            Bs[pipefy_dst][ty][tx] = rb;
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
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx] + rb;
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

__global__ void prefetched(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra = A[row * K + tx], rb = B[ty * N + col];
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        if (k0 + TS < K) {
            ra = A[row * K + k0 + TS + tx];
            rb = B[(k0 + TS + ty) * N + col];
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 64, 96};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    harness_checksum_only("after_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        after_loop<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    });
    harness_checksum_only("compute_reads", M, N, K, [&](const float *A, const float *B, float *C) {
        compute_reads<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    });
    harness_checksum_only("prefetched", M, N, K, [&](const float *A, const float *B, float *C) {
        prefetched<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, N, K);
    });
    return 0;
}
