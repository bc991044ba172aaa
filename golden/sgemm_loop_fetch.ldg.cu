// sgemm_loop_fetch.cu: copy loops that load into a local of their own body and store it
// (a public autotuned SGEMM's `float4 tmp = ..; As[..] = tmp.x; ..`, A transposed as it is
// stored). The register variant stages the local a trip at a time: the fetch loads
// `pipefy_regN[pipefy_j]` and stores nothing, the stash declares the local from it and stores
// as written. transpose_a: 64 threads, two trips of each loop (`off + RSA <= BM`); scalar_t, a
// template, a scalar local in a block-strided loop and its strides `constexpr`. cp.async and
// tensor copies take no value from a register. no_fetch_* keep the loop as written, each with a
// remark: the local read after the stores by the compute's accumulation (`acc0 += tmp.x`), or
// written again before a store (`tmp.x *= 1.0f`).
// Usage: sgemm_loop_fetch [M N K] (M, N multiples of 64, K of 8).
// gpu-runs: 64 64 0 | 64 64 8 | 64 64 16 | 64 64 24 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 24
#include "harness.cuh"

#define BM 64
#define BN 64
#define BK 8
#define NT 64                       // threads
constexpr int RSA = NT * 4 / BK;    // A's rows a pass of float4 loads covers: 32
constexpr int RSB = NT / (BN / 4);  // B's rows a pass covers: 4

// each thread: an 8 x 8 block of C
#define C_BLOCK(As, Bs)                                                                  \
    for (int k = 0; k < BK; ++k)                                                         \
        for (int i = 0; i < 8; ++i)                                                      \
            for (int j = 0; j < 8; ++j)                                                  \
                acc[i][j] += As[k * BM + tr * 8 + i] * Bs[k * BN + tc * 8 + j];

__global__ void transpose_a(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][BK * BM];  // transposed: As[k][m]
    __shared__ float Bs[2][BK * BN];
    int tid = threadIdx.x, tr = tid / 8, tc = tid % 8;
    int innerRowA = tid / (BK / 4), innerColA = tid % (BK / 4);
    int innerRowB = tid / (BN / 4), innerColB = tid % (BN / 4);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[8][8] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_bk = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[(((long long)(BK) - (long long)(RSB) + 1) + (RSB) - 1) / (RSB)];
        float4 pipefy_reg1[(((long long)(BM) - (long long)(RSA) + 1) + (RSA) - 1) / (RSA)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int bk) {
            if (pipefy_step)
                bk += BK;
            if (!(bk < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < (((long long)(BM) - (long long)(RSA) + 1) + (RSA) - 1) / (RSA); ++pipefy_j) {
                int off = 0 + pipefy_j * (RSA);
                if (!(off + RSA <= BM))
                    break;
                pipefy_reg1[pipefy_j] = reinterpret_cast<const float4 *>(&A[(row0 + innerRowA + off) * K + bk + innerColA * 4])[0];
                // transpose A while storing it
            }
            for (int pipefy_j = 0; pipefy_j < (((long long)(BK) - (long long)(RSB) + 1) + (RSB) - 1) / (RSB); ++pipefy_j) {
                int off = 0 + pipefy_j * (RSB);
                if (!(off + RSB <= BK))
                    break;
                pipefy_reg0[pipefy_j] = reinterpret_cast<const float4 *>(&B[(bk + innerRowB + off) * N + col0 + innerColB * 4])[0];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < (((long long)(BM) - (long long)(RSA) + 1) + (RSA) - 1) / (RSA); ++pipefy_j) {
                int off = 0 + pipefy_j * (RSA);
                if (!(off + RSA <= BM))
                    break;
                float4 tmp = pipefy_reg1[pipefy_j];
                // transpose A while storing it
                As[pipefy_dst][(innerColA * 4 + 0) * BM + innerRowA + off] = tmp.x;
                As[pipefy_dst][(innerColA * 4 + 1) * BM + innerRowA + off] = tmp.y;
                As[pipefy_dst][(innerColA * 4 + 2) * BM + innerRowA + off] = tmp.z;
                As[pipefy_dst][(innerColA * 4 + 3) * BM + innerRowA + off] = tmp.w;
            }
            for (int pipefy_j = 0; pipefy_j < (((long long)(BK) - (long long)(RSB) + 1) + (RSB) - 1) / (RSB); ++pipefy_j) {
                int off = 0 + pipefy_j * (RSB);
                if (!(off + RSB <= BK))
                    break;
                reinterpret_cast<float4 *>(&Bs[pipefy_dst][(innerRowB + off) * BN + innerColB * 4])[0] = pipefy_reg0[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_bk))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int bk = 0; bk < K; bk += BK) {
            bool pipefy_more = pipefy_fetch(true, bk);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            C_BLOCK(As[pipefy_stage], Bs[pipefy_stage])
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            C[(row0 + tr * 8 + i) * N + col0 + tc * 8 + j] = acc[i][j];
}

template <int TBM, int TBK>
__global__ void scalar_t(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TBK * TBM];  // transposed
    __shared__ float Bs[2][TBK * BN];
    int tid = threadIdx.x, tr = tid / 8, tc = tid % 8;
    int row0 = blockIdx.y * TBM, col0 = blockIdx.x * BN;
    float acc[8][8] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_bk = 0;
        // pipefy: staging registers
        float pipefy_reg0[((TBK * BN) + (NT) - 1) / (NT) > 0 ? ((TBK * BN) + (NT) - 1) / (NT) : 1];
        float pipefy_reg1[((TBM * TBK) + (NT) - 1) / (NT) > 0 ? ((TBM * TBK) + (NT) - 1) / (NT) : 1];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int bk) {
            if (pipefy_step)
                bk += TBK;
            if (!(bk < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((TBM * TBK) + (NT) - 1) / (NT); ++pipefy_j) {
                unsigned e = tid + pipefy_j * (NT);
                if (!(e < TBM * TBK))
                    break;
                pipefy_reg1[pipefy_j] = A[(row0 + e / TBK) * K + bk + e % TBK];
            }
            for (int pipefy_j = 0; pipefy_j < ((TBK * BN) + (NT) - 1) / (NT); ++pipefy_j) {
                int e = tid + pipefy_j * (NT);
                if (!(e < TBK * BN))
                    break;
                pipefy_reg0[pipefy_j] = B[(bk + e / BN) * N + col0 + e % BN];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((TBM * TBK) + (NT) - 1) / (NT); ++pipefy_j) {
                unsigned e = tid + pipefy_j * (NT);
                if (!(e < TBM * TBK))
                    break;
                float v = pipefy_reg1[pipefy_j];
                As[pipefy_dst][(e % TBK) * TBM + e / TBK] = v;
            }
            for (int pipefy_j = 0; pipefy_j < ((TBK * BN) + (NT) - 1) / (NT); ++pipefy_j) {
                int e = tid + pipefy_j * (NT);
                if (!(e < TBK * BN))
                    break;
                Bs[pipefy_dst][e] = pipefy_reg0[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_bk))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int bk = 0; bk < K; bk += TBK) {
            bool pipefy_more = pipefy_fetch(true, bk);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TBK; ++k)
                for (int i = 0; i < 8; ++i)
                    for (int j = 0; j < 8; ++j)
                        acc[i][j] += As[pipefy_stage][k * TBM + tr * 8 + i] * Bs[pipefy_stage][k * BN + tc * 8 + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            C[(row0 + tr * 8 + i) * N + col0 + tc * 8 + j] = acc[i][j];
}

// the local also feeds the compute's sum: the fetch, a tile early, would change what it adds
__global__ void no_fetch_read_by_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK * BM];
    __shared__ float Bs[BK * BN];
    int tid = threadIdx.x, tr = tid / 8, tc = tid % 8;
    int innerRowA = tid / (BK / 4), innerColA = tid % (BK / 4);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[8][8] = {};
    float acc0 = 0.0f;
    for (int bk = 0; bk < K; bk += BK) {
        for (int off = 0; off + RSA <= BM; off += RSA) {
            float4 tmp = reinterpret_cast<const float4 *>(&A[(row0 + innerRowA + off) * K + bk + innerColA * 4])[0];
            As[(innerColA * 4 + 0) * BM + innerRowA + off] = tmp.x;
            As[(innerColA * 4 + 1) * BM + innerRowA + off] = tmp.y;
            As[(innerColA * 4 + 2) * BM + innerRowA + off] = tmp.z;
            As[(innerColA * 4 + 3) * BM + innerRowA + off] = tmp.w;
            acc0 += tmp.x;
        }
        for (int e = tid; e < BK * BN; e += NT)
            Bs[e] = B[(bk + e / BN) * N + col0 + e % BN];
        __syncthreads();
        C_BLOCK(As, Bs)
        __syncthreads();
    }
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            C[(row0 + tr * 8 + i) * N + col0 + tc * 8 + j] = acc[i][j] + acc0 * 0.0f;
}

// the local written again between its load and a store
__global__ void no_fetch_written(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK * BM];
    __shared__ float Bs[BK * BN];
    int tid = threadIdx.x, tr = tid / 8, tc = tid % 8;
    int innerRowA = tid / (BK / 4), innerColA = tid % (BK / 4);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[8][8] = {};
    for (int bk = 0; bk < K; bk += BK) {
        for (int off = 0; off + RSA <= BM; off += RSA) {
            float4 tmp = reinterpret_cast<const float4 *>(&A[(row0 + innerRowA + off) * K + bk + innerColA * 4])[0];
            tmp.x *= 1.0f;
            As[(innerColA * 4 + 0) * BM + innerRowA + off] = tmp.x;
            As[(innerColA * 4 + 1) * BM + innerRowA + off] = tmp.y;
            As[(innerColA * 4 + 2) * BM + innerRowA + off] = tmp.z;
            As[(innerColA * 4 + 3) * BM + innerRowA + off] = tmp.w;
        }
        for (int e = tid; e < BK * BN; e += NT)
            Bs[e] = B[(bk + e / BN) * N + col0 + e % BN];
        __syncthreads();
        C_BLOCK(As, Bs)
        __syncthreads();
    }
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            C[(row0 + tr * 8 + i) * N + col0 + tc * 8 + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    dim3 grid(N / BN, M / BM);
    bad |= harness_gemm<float, float>("transpose_a", M, N, K, [&](const float *A, const float *B, float *C) {
        transpose_a<<<grid, NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("scalar_t<64,8>", M, N, K, [&](const float *A, const float *B, float *C) {
        scalar_t<64, 8><<<grid, NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("no_fetch_read_by_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        no_fetch_read_by_compute<<<grid, NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("no_fetch_written", M, N, K, [&](const float *A, const float *B, float *C) {
        no_fetch_written<<<grid, NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
