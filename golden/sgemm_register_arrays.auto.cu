// sgemm_register_arrays.cu: the copies go through register arrays declared before the loop, as
// the classic "V2" SGEMMs write them: one float4 load into the array through a vector macro
// (`FLOAT4(ra[0]) = FLOAT4(A[i])`), then the array's elements stored into the tile transposed
// (`As[k + 1][m] = ra[1]`), or the array stored whole (`FLOAT4(Bs[k][n]) = FLOAT4(rb[0])`). The
// addresses come from locals declared in the body. Nothing else reads the arrays, so their
// loads can start a tile early. Usage: sgemm_register_arrays [M N K] (multiples of TILE).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32
#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])
#define CONST_FLOAT4(value) (reinterpret_cast<const float4 *>(&(value))[0])

// a 16 x 16 block: each thread loads one float4 of A and one of B per tile and computes 2 x 2
__global__ void sgemm_register_arrays(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float ra[4];
    float rb[4];
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            int a_at = (row0 + am) * K + t * TILE + ak;
            int b_at = (t * TILE + bk) * N + col0 + bn;
            FLOAT4(ra[0]) = CONST_FLOAT4(A[a_at]);
            FLOAT4(rb[0]) = CONST_FLOAT4(B[b_at]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = ra[0];
            As[pipefy_dst][ak + 1][am] = ra[1];
            As[pipefy_dst][ak + 2][am] = ra[2];
            As[pipefy_dst][ak + 3][am] = ra[3];
            FLOAT4(Bs[pipefy_dst][bk][bn]) = FLOAT4(rb[0]);
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k)
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        acc[i][j] += As[pipefy_stage][k][threadIdx.y * 2 + i] * Bs[pipefy_stage][k][threadIdx.x * 2 + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_register_arrays", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_register_arrays<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
