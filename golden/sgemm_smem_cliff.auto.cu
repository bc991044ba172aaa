// sgemm_smem_cliff.cu: the occupancy cliff of the pipelining how-to, planned for sm_86
// (GA104: 100 KB of shared memory per SM). The kernel holds 28 KB of shared memory: 8 KB of
// tiles and a 20 KB staging buffer for its epilogue. A second stage of the tiles (36 KB)
// would cut resident blocks from 3 to 2, so the planner keeps one stage and prefetches
// through registers. Usage: sgemm_smem_cliff [M N K] (multiples of TS).
// pipefy-args: --arch=sm_86 --report
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 32 32 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 96
#include "harness.cuh"

#define TS 32
#define STAGING 5120

__global__ void __launch_bounds__(256) sgemm_cliff(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    __shared__ float staging[STAGING];
    int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8 threads, 4 rows each
    int col = blockIdx.x * TS + tx;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second stage would cost occupancy)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        float pipefy_reg2;
        float pipefy_reg3;
        float pipefy_reg4;
        float pipefy_reg5;
        float pipefy_reg6;
        float pipefy_reg7;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * TS + ty) * K + k0 + tx];
            pipefy_reg1 = A[(blockIdx.y * TS + ty + 8) * K + k0 + tx];
            pipefy_reg2 = A[(blockIdx.y * TS + ty + 16) * K + k0 + tx];
            pipefy_reg3 = A[(blockIdx.y * TS + ty + 24) * K + k0 + tx];
            pipefy_reg4 = B[(k0 + ty) * N + col];
            pipefy_reg5 = B[(k0 + ty + 8) * N + col];
            pipefy_reg6 = B[(k0 + ty + 16) * N + col];
            pipefy_reg7 = B[(k0 + ty + 24) * N + col];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
            As[ty + 8][tx] = pipefy_reg1;
            As[ty + 16][tx] = pipefy_reg2;
            As[ty + 24][tx] = pipefy_reg3;
            Bs[ty][tx] = pipefy_reg4;
            Bs[ty + 8][tx] = pipefy_reg5;
            Bs[ty + 16][tx] = pipefy_reg6;
            Bs[ty + 24][tx] = pipefy_reg7;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                for (int r = 0; r < 4; ++r)
                    acc[r] += As[ty + 8 * r][k] * Bs[k][tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    // the epilogue goes through shared memory, as a fused bias or transpose would
    for (int r = 0; r < 4; ++r)
        staging[(ty + 8 * r) * TS + tx] = acc[r];
    __syncthreads();
    for (int r = 0; r < 4; ++r)
        C[(blockIdx.y * TS + ty + 8 * r) * N + col] = staging[(ty + 8 * r) * TS + tx];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_smem_cliff", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_cliff<<<dim3(N / TS, M / TS), dim3(TS, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
