// sgemm_thread_subset_fills.cu: tiles filled by some of the block's threads, each under a branch
// with no else that declares the locals its copies read (`if (tid < 128) { int r = tid / 2;
// .. }`), as register-tiled SGEMMs write them when a tile has fewer elements (or vectors) than
// the block has threads.
// The first kernel (256 threads, 64x64 outputs, 4x4 each) loads one float4 of A per thread of
// the first 128 into a local and stores its four lanes transposed (As[k][m]); B's float4 goes
// straight to the tile. It reads whole tiles: M and N multiples of 64, K of 8.
// The second (256 threads, 32x32 outputs, 2x2 each) copies scalars, guarded by the matrix's
// bounds: the first 128 threads fill A's tile, the other 128 B's, and a branch's local reads
// the loop variable (the column of A it loads).
// Usage: sgemm_thread_subset_fills [M N K].
// gpu-runs: 64 64 0 | 64 64 8 | 128 64 16 | 256 192 40 | 1024 1024 1024
// gpu-sanitize: 128 64 16
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

__global__ void __launch_bounds__(256) sgemm_lanes_transposed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM]; // transposed: As[k][m]
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int row0 = blockIdx.y * BM + threadIdx.y * TM, col0 = blockIdx.x * BN + threadIdx.x * TN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK / 4) {
            int row_a = tid / 2;           // two float4 a row of the tile
            int col_a = (tid % 2) * 4;
            float4 v = reinterpret_cast<const float4 *>(&A[(size_t)(blockIdx.y * BM + row_a) * K + k0 + col_a])[0];
            As[col_a + 0][row_a] = v.x;
            As[col_a + 1][row_a] = v.y;
            As[col_a + 2][row_a] = v.z;
            As[col_a + 3][row_a] = v.w;
        }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *reinterpret_cast<float4 *>(&Bs[row_b][col_b]) =
                reinterpret_cast<const float4 *>(&B[(size_t)(k0 + row_b) * N + blockIdx.x * BN + col_b])[0];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i)
                a[i] = As[k][threadIdx.y * TM + i];
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][threadIdx.x * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            C[(size_t)(row0 + i) * N + col0 + j] = acc[i][j];
}

#define SM 32
#define SN 32
#define SK 4

__global__ void __launch_bounds__(256) sgemm_split_fills(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][SM][SK];
    __shared__ float Bs[2][SK][SN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int m0 = blockIdx.y * SM, n0 = blockIdx.x * SN;
    float acc[2][2] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < (K + SK - 1) / SK) {
                if (tid < SM * SK) {
                    int r = tid / SK, c = tid % SK;
                    int gk = t * SK + c;           // the column of A: reads the loop variable
                    __pipeline_memcpy_async(&As[pipefy_dst][r][c], (m0 + r < M && gk < K) ? &A[(size_t)(m0 + r) * K + gk] : A, sizeof(float), (m0 + r < M && gk < K) ? 0 : sizeof(float));
                }
                if (tid >= SM * SK) {
                    int i = tid - SM * SK;
                    int r = i / SN, c = i % SN;
                    __pipeline_memcpy_async(&Bs[pipefy_dst][r][c], (t * SK + r < K && n0 + c < N) ? &B[(size_t)(t * SK + r) * N + n0 + c] : B, sizeof(float), (t * SK + r < K && n0 + c < N) ? 0 : sizeof(float));
                }
                ++t;
                pipefy_next_t = t;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < (K + SK - 1) / SK; ++t) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < SK; ++k)
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        acc[i][j] += As[pipefy_stage][threadIdx.y * 2 + i][k] * Bs[pipefy_stage][k][threadIdx.x * 2 + j];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            int r = m0 + threadIdx.y * 2 + i, c = n0 + threadIdx.x * 2 + j;
            if (r < M && c < N)
                C[(size_t)r * N + c] = acc[i][j];
        }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 192, 40};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 block(16, 16);
    int rc = 0;
    if (M % BM == 0 && N % BN == 0 && K % BK == 0)
        rc |= harness_gemm<float, float>("sgemm_lanes_transposed", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_lanes_transposed<<<dim3(N / BN, M / BM), block>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_split_fills", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_split_fills<<<dim3((N + SN - 1) / SN, (M + SM - 1) / SM), block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
