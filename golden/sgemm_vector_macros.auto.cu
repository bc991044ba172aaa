// sgemm_vector_macros.cu: float4 copies written through macros, as public SGEMMs write them
// (`FLOAT4(s_a[m][k]) = FLOAT4(a[i])`): each side is one macro's whole use and the tile's
// name is the macro's argument, so the stage index goes into the argument. The compute reads a
// tile through a macro too (ELEM), and through one that uses its argument twice (HALVES: one
// stage index, not two). Usage: sgemm_vector_macros [M N K] (multiples of TILE).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32
#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])
#define CONST_FLOAT4(value) (reinterpret_cast<const float4 *>(&(value))[0])
#define ELEM(tile, r, c) tile[r][c]
#define HALVES(v) ((v) * 0.5f + (v) * 0.5f)

// a 16 x 16 block: each thread copies one float4 of each tile and computes 2 x 2 outputs
__global__ void sgemm_vector_macros(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int lr = tid / 8, lc = (tid % 8) * 4; // the float4 this thread copies: row lr, column lc
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_reg0;
        float4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_reg0 = CONST_FLOAT4(A[(row0 + lr) * K + t * TILE + lc]);
            pipefy_reg1 = CONST_FLOAT4(B[(t * TILE + lr) * N + col0 + lc]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            FLOAT4(As[pipefy_dst][lr][lc]) = pipefy_reg0;
            FLOAT4(Bs[pipefy_dst][lr][lc]) = pipefy_reg1;
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
                        acc[i][j] += ELEM(As[pipefy_stage], threadIdx.y * 2 + i, k) * HALVES(Bs[pipefy_stage][k][threadIdx.x * 2 + j]);
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
    return harness_gemm<float, float>("sgemm_vector_macros", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(16, 16), grid(N / TILE, M / TILE);
        sgemm_vector_macros<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
