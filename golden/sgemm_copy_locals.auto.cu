// sgemm_copy_locals.cu: locals the K-loop declares for its copies and then advances, the way
// NVIDIA's cudaTensorCoreGemm sample copies a tile: a lane pointer into the global operand and
// a row index into the tile, both declared in the body, moved by a statement between the
// declaration and the copy loop and by the copy loop itself. The loader replays those
// statements with the copies, a tile early; register staging's stores declare the locals and
// step them again (it was left out while they replayed only the copies). A control kernel
// whose compute also reads such a local keeps the statement that advances it in the body, so
// the copies may not run a tile early: it stays as written (built before, pipefy replayed the
// declaration without that statement and every rewrite of `advanced_in_compute` read the tile
// one row off).
// Usage: sgemm_copy_locals [M N K] (multiples of TILE)
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32
#define LANES 8   // float4 lanes per tile row
#define ROWS 16   // tile rows one pass of the 128 threads copies

// 128 threads; each computes eight rows of one column of the 32 x 32 tile of C. Each tile
// row is 8 float4 lanes; a pass of the block copies 16 rows, two passes fill a tile.
__global__ void __launch_bounds__(128) lane_pointers(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.x, col = tid % TILE, row = tid / TILE;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: the loop variables of the tile in the staging registers
        int pipefy_tile_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[(TILE / ROWS)];
        float4 pipefy_reg1[(TILE / ROWS)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TILE;
            pipefy_tile_k0 = k0;
            if (!(k0 < K))
                return false;
            int a_row = tid / LANES + ROWS;
            const float4 *a_lane = (const float4 *)(A + (size_t)(row0 + a_row - ROWS) * K + k0) + tid % LANES;
            a_row -= ROWS;
            for (int pipefy_j = 0; pipefy_j < (TILE / ROWS); ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < TILE / ROWS))
                    break;
                pipefy_reg0[pipefy_j] = *a_lane;
                a_lane = (const float4 *)((const float *)a_lane + ROWS * K);
                a_row += ROWS;
            }
            int b_row = tid / LANES;
            const float4 *b_lane = (const float4 *)(B + (size_t)(k0 + b_row) * N + col0) + tid % LANES;
            for (int pipefy_j = 0; pipefy_j < (TILE / ROWS); ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < TILE / ROWS))
                    break;
                pipefy_reg1[pipefy_j] = *b_lane;
                b_lane = (const float4 *)((const float *)b_lane + ROWS * N);
                b_row += ROWS;
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int k0 = pipefy_tile_k0;
            int a_row = tid / LANES + ROWS;
            const float4 *a_lane = (const float4 *)(A + (size_t)(row0 + a_row - ROWS) * K + k0) + tid % LANES;
            a_row -= ROWS;
            for (int pipefy_j = 0; pipefy_j < (TILE / ROWS); ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < TILE / ROWS))
                    break;
                *((float4 *)&As[pipefy_dst][a_row][0] + tid % LANES) = pipefy_reg0[pipefy_j];
                a_lane = (const float4 *)((const float *)a_lane + ROWS * K);
                a_row += ROWS;
            }
            int b_row = tid / LANES;
            const float4 *b_lane = (const float4 *)(B + (size_t)(k0 + b_row) * N + col0) + tid % LANES;
            for (int pipefy_j = 0; pipefy_j < (TILE / ROWS); ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < TILE / ROWS))
                    break;
                *((float4 *)&Bs[pipefy_dst][b_row][0] + tid % LANES) = pipefy_reg1[pipefy_j];
                b_lane = (const float4 *)((const float *)b_lane + ROWS * N);
                b_row += ROWS;
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
                for (int r = 0; r < 8; ++r)
                    acc[r] += As[pipefy_stage][row + 4 * r][k] * Bs[pipefy_stage][k][col];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int r = 0; r < 8; ++r)
        C[(size_t)(row0 + row + 4 * r) * N + col0 + col] = acc[r];
}

// a local of the body the copies read through another local, advanced by a statement of its
// own: that statement goes with the copies
__global__ void advanced_index(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][16][16];
    __shared__ float Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += 16;
            if (!(k0 < K))
                return false;
            int r = row - 1;
            r += 1;
            int ia = r * K + k0 + tx;
            pipefy_reg0 = A[ia];
            pipefy_reg1 = B[(k0 + ty) * N + col];
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
        for (int k0 = 0; k0 < K; k0 += 16) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < 16; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// the same local, read by the compute too: the statement that advances it stays in the body,
// and the copies, which read it, cannot run a tile early
__global__ void advanced_in_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        int r = row - 1;
        r += 1;
        int ia = r * K + k0 + tx;
        As[ty][tx] = A[ia];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            acc += As[ty][k] * Bs[k][tx] + (float)(r - row);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("lane_pointers", M, N, K, [&](const float *A, const float *B, float *C) {
        lane_pointers<<<dim3(N / TILE, M / TILE), 128>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("advanced_index", M, N, K, [&](const float *A, const float *B, float *C) {
        advanced_index<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("advanced_in_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        advanced_in_compute<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
