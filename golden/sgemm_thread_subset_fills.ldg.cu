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

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

__global__ void __launch_bounds__(256) sgemm_lanes_transposed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][BK][BM]; // transposed: As[k][m]
    __shared__ float Bs[2][BK][BN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int row0 = blockIdx.y * BM + threadIdx.y * TM, col0 = blockIdx.x * BN + threadIdx.x * TN;
    float acc[TM][TN] = {};
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
            if (tid < BM * BK / 4) {
                int row_a = tid / 2;           // two float4 a row of the tile
                int col_a = (tid % 2) * 4;
                pipefy_reg1 = reinterpret_cast<const float4 *>(&A[(size_t)(blockIdx.y * BM + row_a) * K + k0 + col_a])[0];
            }
            if (tid < BK * BN / 4) {
                int row_b = tid / 16, col_b = (tid % 16) * 4;
                pipefy_reg0 = reinterpret_cast<const float4 *>(&B[(size_t)(k0 + row_b) * N + blockIdx.x * BN + col_b])[0];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (tid < BM * BK / 4) {
                int row_a = tid / 2;           // two float4 a row of the tile
                int col_a = (tid % 2) * 4;
                float4 v = pipefy_reg1;
                As[pipefy_dst][col_a + 0][row_a] = v.x;
                As[pipefy_dst][col_a + 1][row_a] = v.y;
                As[pipefy_dst][col_a + 2][row_a] = v.z;
                As[pipefy_dst][col_a + 3][row_a] = v.w;
            }
            if (tid < BK * BN / 4) {
                int row_b = tid / 16, col_b = (tid % 16) * 4;
                *reinterpret_cast<float4 *>(&Bs[pipefy_dst][row_b][col_b]) = pipefy_reg0;
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
                float a[TM], b[TN];
                for (int i = 0; i < TM; ++i)
                    a[i] = As[pipefy_stage][k][threadIdx.y * TM + i];
                for (int j = 0; j < TN; ++j)
                    b[j] = Bs[pipefy_stage][k][threadIdx.x * TN + j];
                for (int i = 0; i < TM; ++i)
                    for (int j = 0; j < TN; ++j)
                        acc[i][j] += a[i] * b[j];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
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
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: the loop variables of the tile in the staging registers
        int pipefy_tile_t = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            pipefy_tile_t = t;
            if (!(t < (K + SK - 1) / SK))
                return false;
            if (tid < SM * SK) {
                int r = tid / SK, c = tid % SK;
                int gk = t * SK + c;           // the column of A: reads the loop variable
                pipefy_reg0 = m0 + r < M && gk < K ? A[(size_t)(m0 + r) * K + gk] : 0.0f;
            }
            if (tid >= SM * SK) {
                int i = tid - SM * SK;
                int r = i / SN, c = i % SN;
                pipefy_reg1 = t * SK + r < K && n0 + c < N ? B[(size_t)(t * SK + r) * N + n0 + c] : 0.0f;
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int t = pipefy_tile_t;
            if (tid < SM * SK) {
                int r = tid / SK, c = tid % SK;
                int gk = t * SK + c;           // the column of A: reads the loop variable
                As[pipefy_dst][r][c] = pipefy_reg0;
            }
            if (tid >= SM * SK) {
                int i = tid - SM * SK;
                int r = i / SN, c = i % SN;
                Bs[pipefy_dst][r][c] = pipefy_reg1;
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < (K + SK - 1) / SK; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < SK; ++k)
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        acc[i][j] += As[pipefy_stage][threadIdx.y * 2 + i][k] * Bs[pipefy_stage][k][threadIdx.x * 2 + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
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
