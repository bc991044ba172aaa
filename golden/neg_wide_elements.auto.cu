// neg_wide_elements.cu: tiles of 16-byte elements (float4): each thread copies one float4 of A's
// tile and one of B's and computes four outputs, from float operands or float4 ones. A tensor map's elements are 1, 2, 4 or 8
// bytes; the build before this program encoded this tile's map with 8-byte elements, so each
// box carried half the tile and the stage's mbarrier waited for the rest: tma, bulk and ws
// hung. They are refused, naming the element; registers and cp.async take the copies.
// pipefy-args: --arch=sm_90
// pipefy-golden: tma bulk ws
// Usage: neg_wide_elements [M N K] (M, N multiples of 16; K a multiple of 16, or of 4 for the
// guarded kernel alone).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 48 | 32 32 40 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"

#define TS 16

// 4 x 16 threads: thread (tx, ty) computes C[row][c0 + 4 tx .. 4 tx + 3]
__global__ void sgemm_float4_tiles(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float4 As[2][TS][TS / 4];
    __shared__ float4 Bs[2][TS][TS / 4];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, c0 = blockIdx.x * TS;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
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
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = *reinterpret_cast<const float4 *>(&A[row * K + k0 + 4 * tx]);
            pipefy_reg1 = *reinterpret_cast<const float4 *>(&B[(k0 + ty) * N + c0 + 4 * tx]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
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
            for (int k = 0; k < TS; ++k) {
                float a = reinterpret_cast<const float *>(As[pipefy_stage][ty])[k];
                float4 b = Bs[pipefy_stage][k][tx];
                acc.x += a * b.x;
                acc.y += a * b.y;
                acc.z += a * b.z;
                acc.w += a * b.w;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    *reinterpret_cast<float4 *>(&C[row * N + c0 + 4 * tx]) = acc;
}

// the operands handed over as float4 rows: each tile is a box of one of them
__global__ void sgemm_float4_operands(const float4 *A, const float4 *B, float4 *C, int M, int N, int K)
{
    __shared__ float4 As[2][TS][TS / 4];
    __shared__ float4 Bs[2][TS][TS / 4];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, c0 = blockIdx.x * (TS / 4);
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
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
                k0 += TS / 4;
            if (!(k0 < K / 4))
                return false;
            pipefy_reg0 = A[row * (K / 4) + k0 + tx];
            pipefy_reg1 = B[(4 * k0 + ty) * (N / 4) + c0 + tx];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K / 4; k0 += TS / 4) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k) {
                float a = reinterpret_cast<const float *>(As[pipefy_stage][ty])[k];
                float4 b = Bs[pipefy_stage][k][tx];
                acc.x += a * b.x;
                acc.y += a * b.y;
                acc.z += a * b.z;
                acc.w += a * b.w;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * (N / 4) + c0 + tx] = acc;
}

// the same product by 64 threads whose copy loops fill a partial last tile with zeros
// (`make_float4(0, 0, 0, 0)`): the build before recorded each such store twice (a float4's
// operator= shows as two cursors) and crashed on its own overlapping edits under ldg
__global__ void sgemm_float4_guarded(const float4 *A, const float4 *B, float4 *C, int M, int N, int K)
{
    __shared__ float4 As[2][TS][TS / 4];
    __shared__ float4 Bs[2][TS][TS / 4];
    int tid = threadIdx.x, tx = tid % (TS / 4), ty = tid / (TS / 4);
    int row = blockIdx.y * TS + ty, c0 = blockIdx.x * (TS / 4);
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 64 threads (launch at 115:13); other block
    // sizes run the loop as written
    if (blockDim.x == 64) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[((TS * TS / 4) + 64 - 1) / 64];
        float4 pipefy_reg1[((TS * TS / 4) + 64 - 1) / 64];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < (K + TS - 1) / TS * TS))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((TS * TS / 4) + 64 - 1) / 64; ++pipefy_j) {
                int i = tid + pipefy_j * 64;
                pipefy_reg0[pipefy_j] = k0 + 4 * (i % (TS / 4)) < K
                                                     ? A[(blockIdx.y * TS + i / (TS / 4)) * (K / 4) + k0 / 4 + i % (TS / 4)]
                                                     : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
            for (int pipefy_j = 0; pipefy_j < ((TS * TS / 4) + 64 - 1) / 64; ++pipefy_j) {
                int i = tid + pipefy_j * 64;
                pipefy_reg1[pipefy_j] = k0 + i / (TS / 4) < K ? B[(k0 + i / (TS / 4)) * (N / 4) + c0 + i % (TS / 4)]
                                                                     : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((TS * TS / 4) + 64 - 1) / 64; ++pipefy_j) {
                int i = tid + pipefy_j * 64;
                As[pipefy_dst][i / (TS / 4)][i % (TS / 4)] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((TS * TS / 4) + 64 - 1) / 64; ++pipefy_j) {
                int i = tid + pipefy_j * 64;
                Bs[pipefy_dst][i / (TS / 4)][i % (TS / 4)] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < (K + TS - 1) / TS * TS; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k) {
                float a = reinterpret_cast<const float *>(As[pipefy_stage][ty])[k];
                float4 b = Bs[pipefy_stage][k][tx];
                acc.x += a * b.x;
                acc.y += a * b.y;
                acc.z += a * b.z;
                acc.w += a * b.w;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < (K + TS - 1) / TS * TS; k0 += TS) {
            for (int i = tid; i < TS * TS / 4; i += blockDim.x)
                As[0][i / (TS / 4)][i % (TS / 4)] = k0 + 4 * (i % (TS / 4)) < K
                                                     ? A[(blockIdx.y * TS + i / (TS / 4)) * (K / 4) + k0 / 4 + i % (TS / 4)]
                                                     : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            for (int i = tid; i < TS * TS / 4; i += blockDim.x)
                Bs[0][i / (TS / 4)][i % (TS / 4)] = k0 + i / (TS / 4) < K ? B[(k0 + i / (TS / 4)) * (N / 4) + c0 + i % (TS / 4)]
                                                                     : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            __syncthreads();
            for (int k = 0; k < TS; ++k) {
                float a = reinterpret_cast<const float *>(As[0][ty])[k];
                float4 b = Bs[0][k][tx];
                acc.x += a * b.x;
                acc.y += a * b.y;
                acc.z += a * b.z;
                acc.w += a * b.w;
            }
            __syncthreads();
        }
    }
    C[row * (N / 4) + c0 + tx] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = 0;
    if (K % TS == 0) // (no bounds checks in these two)
        rc |= harness_gemm<float, float>("sgemm_float4_tiles", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_float4_tiles<<<dim3(N / TS, M / TS), dim3(TS / 4, TS)>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
    if (K % TS == 0)
        rc |= harness_gemm<float, float>("sgemm_float4_operands", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_float4_operands<<<dim3(N / TS, M / TS), dim3(TS / 4, TS)>>>(
                reinterpret_cast<const float4 *>(A), reinterpret_cast<const float4 *>(B), reinterpret_cast<float4 *>(C), M, N, K);
        }, 1e-4, 1e-4);
    if (K % 4 == 0) // (rows of whole float4s)
        rc |= harness_gemm<float, float>("sgemm_float4_guarded", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_float4_guarded<<<dim3(N / TS, M / TS), TS * TS / 4>>>(
                reinterpret_cast<const float4 *>(A), reinterpret_cast<const float4 *>(B), reinterpret_cast<float4 *>(C), M, N, K);
        }, 1e-4, 1e-4);
    return rc;
}
