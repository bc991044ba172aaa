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
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

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
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                for (int i = 0; i < BM; i += a_stride)
                    __pipeline_memcpy_async(&As[pipefy_dst][(a_row + i) * BK + a_col], &Ab[(a_row + i) * K + k0 + a_col], sizeof(float));
                for (unsigned off = 0; off + b_stride <= BK; off += b_stride)
                    __pipeline_memcpy_async(&Bs[pipefy_dst][(b_row + off) * BN + b_col], &Bb[(k0 + b_row + off) * N + b_col], sizeof(float));
                k0 += BK;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += BK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < BK; ++k) {
                float b = Bs[pipefy_stage][k * BN + tx];
                for (int m = 0; m < TM; ++m)
                    acc[m] += As[pipefy_stage][(ty + m) * BK + k] * b;
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
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
