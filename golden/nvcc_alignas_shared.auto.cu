// nvcc_alignas_shared.cu: tiles declared `__shared__ alignas(16) float As[..]`, which nvcc
// accepts and clang rejects ("an attribute list cannot appear here"): pipefy parses the file
// with each such pair swapped (same length, same offsets) and edits it as written. The copies
// are float4 vectors, which need the 16-byte alignment. Usage: nvcc_alignas_shared [M N K]
// (M, N multiples of 32, K of 16).
// gpu-runs: 32 32 0 | 32 32 16 | 64 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 64 32 48
#include "harness.cuh"

#define BM 32
#define BK 16

__global__ void nvcc_alignas_shared(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    __shared__ alignas(16) float As[2][BM][BK];
    __shared__ alignas(alignof(float4)) float Bs[2][BK][BM];
    int t = threadIdx.x;            // 128 threads: one float4 of A's tile and one of B's each
    int ar = t / 4, ac = t % 4 * 4; // A: 32 rows of 4 float4
    int br = t / 8, bc = t % 8 * 4; // B: 16 rows of 8 float4
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    int r = t / 4, c = t % 4 * 8;   // each thread computes 8 outputs of one row
    float acc[8] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0;
        float4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = *(const float4 *)&A[(row0 + ar) * K + k0 + ac];
            pipefy_reg1 = *(const float4 *)&B[(k0 + br) * N + col0 + bc];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            *(float4 *)&As[pipefy_dst][ar][ac] = pipefy_reg0;
            *(float4 *)&Bs[pipefy_dst][br][bc] = pipefy_reg1;
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
            for (int k = 0; k < BK; ++k)
                for (int j = 0; j < 8; ++j)
                    acc[j] += As[pipefy_stage][r][k] * Bs[pipefy_stage][k][c + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int j = 0; j < 8; ++j)
        C[(row0 + r) * N + col0 + c + j] = acc[j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nvcc_alignas_shared", M, N, K, [&](const float *A, const float *B, float *C) {
        nvcc_alignas_shared<<<dim3(N / BM, M / BM), 128>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
