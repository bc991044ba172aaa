// sgemm_template_copy_loops.cu: copy loops whose trip count a template's instantiation fixes
// (`for (int j = 0; j < (BM * BK) / kThreads; ++j)`, kThreads a constexpr of the parameters, as
// public block-tiled SGEMMs write them): staged in registers sized by the same expression, one a
// trip, in one text for every instantiation. The loops' bodies declare the element from the
// K-loop's variable (`gc = k0 + c`), so the stores declare the loop variables of the tile they
// store. Launched with two instantiations (64x64, 8 rows a thread; 32x32, 4 rows).
// Usage: sgemm_template_copy_loops [M N K]
// ptx-instances: 2
// gpu-runs: 64 64 0 | 64 64 8 | 64 64 24 | 100 90 50 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 100 90 50
#include "harness.cuh"

template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM * BN) / TM)
    blocktile(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C)
{
    constexpr int kThreads = (BM * BN) / TM;
    __shared__ float As[2][BM][BK];
    __shared__ float Bs[2][BK][BN];
    const int tid = threadIdx.x;
    const int threadCol = tid % BN, threadRow = tid / BN;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;
    float acc[TM] = {0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: the loop variables of the tile in the staging registers
        int pipefy_tile_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((BM * BK) / kThreads) > 0 ? ((BM * BK) / kThreads) : 1];
        float pipefy_reg1[((BK * BN) / kThreads) > 0 ? ((BK * BN) / kThreads) : 1];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            pipefy_tile_k0 = k0;
            if (!(k0 < K))
                return false;
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < ((BM * BK) / kThreads); ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < (BM * BK) / kThreads))
                    break;
                const int i = tid + j * kThreads;
                const int r = i / BK, c = i % BK;
                const int gr = blockRow + r, gc = k0 + c;
                pipefy_reg0[pipefy_j] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
            }
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < ((BK * BN) / kThreads); ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < (BK * BN) / kThreads))
                    break;
                const int i = tid + j * kThreads;
                const int r = i / BN, c = i % BN;
                const int gr = k0 + r, gc = blockCol + c;
                pipefy_reg1[pipefy_j] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int k0 = pipefy_tile_k0;
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < ((BM * BK) / kThreads); ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < (BM * BK) / kThreads))
                    break;
                const int i = tid + j * kThreads;
                const int r = i / BK, c = i % BK;
                const int gr = blockRow + r, gc = k0 + c;
                As[pipefy_dst][r][c] = pipefy_reg0[pipefy_j];
            }
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < ((BK * BN) / kThreads); ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < (BK * BN) / kThreads))
                    break;
                const int i = tid + j * kThreads;
                const int r = i / BN, c = i % BN;
                const int gr = k0 + r, gc = blockCol + c;
                Bs[pipefy_dst][r][c] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                const float b = Bs[pipefy_stage][k][threadCol];
#pragma unroll
                for (int t = 0; t < TM; ++t)
                    acc[t] += As[pipefy_stage][threadRow * TM + t][k] * b;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int t = 0; t < TM; ++t) {
        const int row = blockRow + threadRow * TM + t, col = blockCol + threadCol;
        if (row < M && col < N)
            C[row * N + col] = acc[t];
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("blocktile_64x64", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile<64, 64, 8, 8><<<dim3((N + 63) / 64, (M + 63) / 64), 64 * 64 / 8>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("blocktile_32x32", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile<32, 32, 8, 4><<<dim3((N + 31) / 32, (M + 31) / 32), 32 * 32 / 4>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
    return bad;
}
