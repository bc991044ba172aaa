// sgemm_other_array_view.cu: the compute reads a __shared__ array that is no tile of the loop
// (filled once before it) through a pointer it declares each tile (`const float *w = one;`):
// the rewrite stages the tiles and leaves that array, and the address kept in the pointer, as
// they were. The weights are ones, so the product is A*B.
// Usage: sgemm_other_array_view [M N K]
// gpu-runs: 16 16 0 | 16 16 5 | 17 33 31 | 64 64 64 | 100 70 45 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 17 33 31
#include "harness.cuh"

#define TS 16

__global__ void weighted_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
    __shared__ float one[TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (ty == 0)
        one[tx] = 1.0f;
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
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = col < N && k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
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
            const float *w = one;
            for (int k = 0; k < TS; ++k)
                acc += w[k] * As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("weighted_view", M, N, K, [&](const float *A, const float *B, float *C) {
        weighted_view<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
