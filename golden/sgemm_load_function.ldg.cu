// sgemm_load_function.cu: tiles filled from the value of a function of this file that loads
// four floats through its pointer parameter, as one float4 where the row allows it and one by one
// (zero past the edge) where it does not (JamesHuoyu/Attention's load_float4), and writes only its
// own locals: register staging calls it a tile early. The 64 threads of the first two warps fill
// both tiles, a float4 each, under `if (tid < 64)`.
// Usage: sgemm_load_function [M N K].
// gpu-runs: 20 24 0 | 16 16 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"

#define TS 16

__device__ float4 load_row4(const float *m, int rows, int cols, int r, int c)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    size_t i = (size_t)r * cols + c;
    if (r < rows && c + 3 < cols && i % 4 == 0) {
        v = reinterpret_cast<const float4 *>(&m[i])[0];
    } else {
        for (int j = 0; j < 4; j++)
            ((float *)&v)[j] = r < rows && c + j < cols ? m[i + j] : 0.0f;
    }
    return v;
}

__global__ void sgemm_load_function(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float4 As[2][TS][TS / 4];
    __shared__ float4 Bs[2][TS][TS / 4];
    const int tid = threadIdx.y * TS + threadIdx.x;
    const int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
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
            if (tid < TS * TS / 4) {
                int r = tid / (TS / 4), c4 = tid % (TS / 4);
                pipefy_reg0 = load_row4(A, M, K, blockIdx.y * TS + r, k0 + c4 * 4);
                pipefy_reg1 = load_row4(B, K, N, k0 + r, blockIdx.x * TS + c4 * 4);
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (tid < TS * TS / 4) {
                int r = tid / (TS / 4), c4 = tid % (TS / 4);
                As[pipefy_dst][r][c4] = pipefy_reg0;
                Bs[pipefy_dst][r][c4] = pipefy_reg1;
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k) {
                const float *a = (const float *)&As[pipefy_stage][threadIdx.y][0];
                const float *b = (const float *)&Bs[pipefy_stage][k][0];
                acc += a[k] * b[threadIdx.x];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    return harness_gemm<float, float>("sgemm_load_function", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_load_function<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
