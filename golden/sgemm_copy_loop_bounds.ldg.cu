// sgemm_copy_loop_bounds.cu: copy loops whose trip count is fixed but not written as `i < N`
// with a constant N and S. rows_le tests `r <= TILE - 1` and `r + 1 <= ROWS`, stepping by a local
// set once (`int stride = 8;`); the register variant sizes its staging registers by each loop's
// trips, the local replaced by its value (an array's size must be a constant expression).
// halves tests `i / 2 < ...`, which runs twice the trips `i < ...` would: register staging
// leaves it as written (it once sized the registers for half of them). nested copies a 2 x 2
// block of each tile per thread through two loops, the inner one the outer one's whole body,
// braced or not: registers [outer trip][inner trip]. (sgemm_copy_loop_template.cu: a template's.)
// Usage: sgemm_copy_loop_bounds [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 64 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32
constexpr int ROWS = 4;  // rows per thread: TILE / blockDim.y

__global__ void rows_le(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int stride = 8;  // blockDim.y
    int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
    float acc[ROWS] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[(((TILE - 1) + 1) + ((8)) - 1) / ((8)) > 0 ? (((TILE - 1) + 1) + ((8)) - 1) / ((8)) : 1];
        float pipefy_reg1[((long long)(ROWS) - (long long)(1) + 1)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TILE;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < (((TILE - 1) + 1) + ((8)) - 1) / ((8)); ++pipefy_j) {
                int r = ty + pipefy_j * (stride);
                if (!(r <= TILE - 1))
                    break;
                pipefy_reg0[pipefy_j] = A[(row0 + r) * K + k0 + tx];
            }
            for (int pipefy_j = 0; pipefy_j < ((long long)(ROWS) - (long long)(1) + 1); ++pipefy_j) {
                int r = 0 + pipefy_j * 1;
                if (!(r + 1 <= ROWS))
                    break;
                pipefy_reg1[pipefy_j] = B[(k0 + ty + 8 * r) * N + col];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < (((TILE - 1) + 1) + ((8)) - 1) / ((8)); ++pipefy_j) {
                int r = ty + pipefy_j * (stride);
                if (!(r <= TILE - 1))
                    break;
                As[pipefy_dst][r][tx] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((long long)(ROWS) - (long long)(1) + 1); ++pipefy_j) {
                int r = 0 + pipefy_j * 1;
                if (!(r + 1 <= ROWS))
                    break;
                Bs[pipefy_dst][ty + 8 * r][tx] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += TILE) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int r = 0; r < ROWS; ++r)
                for (int k = 0; k < TILE; ++k)
                    acc[r] += As[pipefy_stage][ty + 8 * r][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col] = acc[r];
}

__global__ void halves(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE * TILE];
    __shared__ float Bs[TILE * TILE];
    int tid = threadIdx.x, tx = tid % TILE, ty = tid / TILE;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[ROWS] = {};
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int i = tid; i / 2 < TILE * TILE / 2; i += 256)  // 4 trips of 256 threads
            As[i] = A[(row0 + i / TILE) * K + k0 + i % TILE];
        for (int i = tid; i < TILE * TILE; i += 256)
            Bs[i] = B[(k0 + i / TILE) * N + col0 + i % TILE];
        __syncthreads();
        for (int r = 0; r < ROWS; ++r)
            for (int k = 0; k < TILE; ++k)
                acc[r] += As[(ty + 8 * r) * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r)
        C[(row0 + ty + 8 * r) * N + col0 + tx] = acc[r];
}

__global__ void nested(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;  // 16 x 16
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[2][2];
        float pipefy_reg1[2][2];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TILE;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 2))
                    break;
                for (int pipefy_k = 0; pipefy_k < 2; ++pipefy_k) {
                    int j = 0 + pipefy_k * 1;
                    if (!(j < 2))
                        break;
                    pipefy_reg0[pipefy_j][pipefy_k] = A[(row0 + ty * 2 + i) * K + k0 + tx * 2 + j];
                }
            }
            for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 2))
                    break;
#pragma unroll
                for (int pipefy_k = 0; pipefy_k < 2; ++pipefy_k) {
                    int j = 0 + pipefy_k * 1;
                    if (!(j < 2))
                        break;
                    pipefy_reg1[pipefy_j][pipefy_k] = B[(k0 + ty * 2 + i) * N + col0 + tx * 2 + j];
                }
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 2))
                    break;
                for (int pipefy_k = 0; pipefy_k < 2; ++pipefy_k) {
                    int j = 0 + pipefy_k * 1;
                    if (!(j < 2))
                        break;
                    As[pipefy_dst][ty * 2 + i][tx * 2 + j] = pipefy_reg0[pipefy_j][pipefy_k];
                }
            }
            for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 2))
                    break;
#pragma unroll
                for (int pipefy_k = 0; pipefy_k < 2; ++pipefy_k) {
                    int j = 0 + pipefy_k * 1;
                    if (!(j < 2))
                        break;
                    Bs[pipefy_dst][ty * 2 + i][tx * 2 + j] = pipefy_reg1[pipefy_j][pipefy_k];
                }
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
        for (int k0 = 0; k0 < K; k0 += TILE) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k)
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        acc[i][j] += As[pipefy_stage][ty * 2 + i][k] * Bs[pipefy_stage][k][tx * 2 + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + ty * 2 + i) * N + col0 + tx * 2 + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("rows_le", M, N, K, [&](const float *A, const float *B, float *C) {
        rows_le<<<dim3(N / TILE, M / TILE), dim3(TILE, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("halves", M, N, K, [&](const float *A, const float *B, float *C) {
        halves<<<dim3(N / TILE, M / TILE), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("nested", M, N, K, [&](const float *A, const float *B, float *C) {
        nested<<<dim3(N / TILE, M / TILE), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
