// sgemm_copy_rows_macro.cu: copy loops over tile rows strided by BY, a macro the build may
// redefine (`#ifndef BY`); the nvcc tests build it with -DBY=4 while pipefy parses BY as 8.
// The register variant's trip count must be written as the bound and stride are written,
// never as the number pipefy evaluated (it once baked 2 trips where 4 were needed).
// Usage: sgemm_copy_rows_macro [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 512 512 512
// gpu-sanitize: 32 32 48
// nvcc-args: -DBY=4
#include "harness.cuh"

#define TS 16
#ifndef BY
#define BY 8
#endif

__global__ void copy_rows(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;
    float acc[TS / BY] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((TS) + (BY) - 1) / (BY)];
        float pipefy_reg1[((TS) + (BY) - 1) / (BY)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((TS) + (BY) - 1) / (BY); ++pipefy_j) {
                int r = ty + pipefy_j * (BY);
                if (!(r < TS))
                    break;
                pipefy_reg0[pipefy_j] = A[(row0 + r) * K + k0 + tx];
            }
            for (int pipefy_j = 0; pipefy_j < ((TS) + (BY) - 1) / (BY); ++pipefy_j) {
                int r = ty + pipefy_j * (BY);
                if (!(r < TS))
                    break;
                pipefy_reg1[pipefy_j] = B[(k0 + r) * N + col];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((TS) + (BY) - 1) / (BY); ++pipefy_j) {
                int r = ty + pipefy_j * (BY);
                if (!(r < TS))
                    break;
                As[pipefy_dst][r][tx] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((TS) + (BY) - 1) / (BY); ++pipefy_j) {
                int r = ty + pipefy_j * (BY);
                if (!(r < TS))
                    break;
                Bs[pipefy_dst][r][tx] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int i = 0; i < TS / BY; ++i)
                for (int k = 0; k < TS; ++k)
                    acc[i] += As[pipefy_stage][ty + i * BY][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < TS / BY; ++i)
        C[(row0 + ty + i * BY) * N + col] = acc[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_copy_rows_macro", M, N, K, [&](const float *A, const float *B, float *C) {
        copy_rows<<<dim3(N / TS, M / TS), dim3(TS, BY)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
