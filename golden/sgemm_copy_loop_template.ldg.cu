// sgemm_copy_loop_template.cu: a template's copy loops whose trip count is fixed by its
// parameters but not written as `i < N` with a constant N and S: blocktile_1d strides by locals
// that are not const but hold one value (`int a_stride = thread_num / BK;`) and tests
// `off + b_stride <= BK` on an unsigned counter. The register variant sizes its staging
// registers by each loop's trips, the locals replaced by their initializers (an array's size
// must be a constant expression); each trip's value keeps the step as written. Two
// instantiations: four trips of each loop (256 threads), one (512 threads).
// Usage: sgemm_copy_loop_template [M N K] (M, N multiples of 64, K of 16).
// gpu-runs: 64 64 0 | 64 64 16 | 64 64 32 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
// ptx-instances: 2
#include "harness.cuh"

template <int BM, int BN, int BK, int TM>
__global__ void blocktile_1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    int thread_num = BM * BN / TM;  // the block size, though not declared const
    __shared__ float As[2][BM * BK];
    __shared__ float Bs[2][BK * BN];
    int tid = threadIdx.x;
    int tx = tid % BN, ty = tid / BN * TM;
    int a_row = tid / BK, a_col = tid % BK, a_stride = thread_num / BK;
    int b_row = tid / BN, b_col = tid % BN, b_stride = thread_num / BN;
    const float *Ab = A + blockIdx.y * BM * K;
    const float *Bb = B + blockIdx.x * BN;
    float acc[TM] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((BM) + (((BM * BN / TM) / BK)) - 1) / (((BM * BN / TM) / BK)) > 0 ? ((BM) + (((BM * BN / TM) / BK)) - 1) / (((BM * BN / TM) / BK)) : 1];
        float pipefy_reg1[(((long long)(BK) - (long long)(((BM * BN / TM) / BN)) + 1) + (((BM * BN / TM) / BN)) - 1) / (((BM * BN / TM) / BN)) > 0 ? (((long long)(BK) - (long long)(((BM * BN / TM) / BN)) + 1) + (((BM * BN / TM) / BN)) - 1) / (((BM * BN / TM) / BN)) : 1];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((BM) + (((BM * BN / TM) / BK)) - 1) / (((BM * BN / TM) / BK)); ++pipefy_j) {
                int i = 0 + pipefy_j * (a_stride);
                if (!(i < BM))
                    break;
                pipefy_reg0[pipefy_j] = Ab[(a_row + i) * K + k0 + a_col];
            }
            for (int pipefy_j = 0; pipefy_j < (((long long)(BK) - (long long)(((BM * BN / TM) / BN)) + 1) + (((BM * BN / TM) / BN)) - 1) / (((BM * BN / TM) / BN)); ++pipefy_j) {
                unsigned off = 0 + pipefy_j * (b_stride);
                if (!(off + b_stride <= BK))
                    break;
                pipefy_reg1[pipefy_j] = Bb[(k0 + b_row + off) * N + b_col];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((BM) + (((BM * BN / TM) / BK)) - 1) / (((BM * BN / TM) / BK)); ++pipefy_j) {
                int i = 0 + pipefy_j * (a_stride);
                if (!(i < BM))
                    break;
                As[pipefy_dst][(a_row + i) * BK + a_col] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < (((long long)(BK) - (long long)(((BM * BN / TM) / BN)) + 1) + (((BM * BN / TM) / BN)) - 1) / (((BM * BN / TM) / BN)); ++pipefy_j) {
                unsigned off = 0 + pipefy_j * (b_stride);
                if (!(off + b_stride <= BK))
                    break;
                Bs[pipefy_dst][(b_row + off) * BN + b_col] = pipefy_reg1[pipefy_j];
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
            for (int k = 0; k < BK; ++k) {
                float b = Bs[pipefy_stage][k * BN + tx];
                for (int m = 0; m < TM; ++m)
                    acc[m] += As[pipefy_stage][(ty + m) * BK + k] * b;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int m = 0; m < TM; ++m)
        C[(blockIdx.y * BM + ty + m) * N + blockIdx.x * BN + tx] = acc[m];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    // 256 threads: 4 trips of each copy loop
    bad |= harness_gemm<float, float>("blocktile_1d<64,64,16,16>", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_1d<64, 64, 16, 16><<<dim3(N / 64, M / 64), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    // 512 threads: one trip each
    bad |= harness_gemm<float, float>("blocktile_1d<64,64,8,8>", M, N, K, [&](const float *A, const float *B, float *C) {
        blocktile_1d<64, 64, 8, 8><<<dim3(N / 64, M / 64), 512>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
