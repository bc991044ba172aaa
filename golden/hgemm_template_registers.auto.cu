// hgemm_template_registers.cu: a half-precision GEMM written as a template, the way tutorials
// write their "V2" kernels: the register arrays are sized by the template's parameters
// (`half ra[VW]`), loaded 8 bytes at a time through a vector macro and stored element by element
// into the transposed tile; the compute calls `__hfma`, which the template leaves unresolved
// between cuda_fp16's and cuda_bf16's overloads until it is instantiated (either is a library
// function that reads its arguments only). Usage: hgemm_template_registers [M N K] (multiples of
// 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"
#include <cuda_fp16.h>

#define LDST64(value) (reinterpret_cast<float2 *>(&(value))[0])
#define LDST64_CONST(value) (reinterpret_cast<const float2 *>(&(value))[0])

// a 16 x 16 block: each thread loads four halves of A and four of B per tile and computes 2 x 2
template <int TILE, int VW>
__global__ void hgemm_template_registers(const half *A, const half *B, float *C, int M, int N, int K)
{
    static_assert(VW == 4 && TILE * TILE == 256 * VW, "each of 256 threads loads VW halves");
    __shared__ __align__(16) half As[2][TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) half Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / (TILE / VW), ak = (tid % (TILE / VW)) * VW; // A: row am, columns ak..ak+3
    int bk = tid / (TILE / VW), bn = (tid % (TILE / VW)) * VW;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    half ra[VW], rb[VW];
    half acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            acc[i][j] = __float2half(0.0f);
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
            LDST64(ra[0]) = LDST64_CONST(A[a_at]);
            LDST64(rb[0]) = LDST64_CONST(B[b_at]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = ra[0];
            As[pipefy_dst][ak + 1][am] = ra[1];
            As[pipefy_dst][ak + 2][am] = ra[2];
            As[pipefy_dst][ak + 3][am] = ra[3];
            LDST64(Bs[pipefy_dst][bk][bn]) = LDST64(rb[0]);
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
                        acc[i][j] = __hfma(As[pipefy_stage][k][threadIdx.y * 2 + i], Bs[pipefy_stage][k][threadIdx.x * 2 + j], acc[i][j]);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = __half2float(acc[i][j]);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<half, float>("hgemm_template_registers", M, N, K, [&](const half *A, const half *B, float *C) {
        dim3 block(16, 16), grid(N / 32, M / 32);
        hgemm_template_registers<32, 4><<<grid, block>>>(A, B, C, M, N, K);
    }, 0.1, 2e-2);
}
