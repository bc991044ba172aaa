// sgemm_nested_copy_loops.cu: each thread copies STRIDE x STRIDE elements of each tile in two
// nested loops (`for i` around `for j`). One staging register a trip of the outer loop would keep
// only the inner loop's last copy (pipefy once staged it so: every j stored the last j's value);
// the registers are now one a trip of each loop, `pipefy_reg0[pipefy_j][pipefy_k]` (register
// staging was refused in between, naming the inner loop); cp.async takes the copies too.
// Usage: sgemm_nested_copy_loops [M N K] (multiples of STEP)
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 48 32
#include "harness.cuh"

#define STEP 16
#define STRIDE 2

// Each thread of a (STEP/STRIDE)^2 block copies STRIDE x STRIDE elements of each tile, in two
// nested loops (sizes multiples of STEP).
__global__ void nested_copy_loops(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float as[2][STEP][STEP];
    __shared__ float bs[2][STEP][STEP];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + blockIdx.y * STEP * K, *b = B + blockIdx.x * STEP;
    float sum[STRIDE][STRIDE] = {{0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[(STRIDE)][(STRIDE)];
        float pipefy_reg1[(STRIDE)][(STRIDE)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += STEP;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < (STRIDE); ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < STRIDE))
                    break;
                for (int pipefy_k = 0; pipefy_k < (STRIDE); ++pipefy_k) {
                    int j = 0 + pipefy_k * 1;
                    if (!(j < STRIDE))
                        break;
                    pipefy_reg0[pipefy_j][pipefy_k] = a[(ty * STRIDE + i) * K + k0 + tx * STRIDE + j];
                    pipefy_reg1[pipefy_j][pipefy_k] = b[(k0 + ty * STRIDE + i) * N + tx * STRIDE + j];
                }
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < (STRIDE); ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < STRIDE))
                    break;
                for (int pipefy_k = 0; pipefy_k < (STRIDE); ++pipefy_k) {
                    int j = 0 + pipefy_k * 1;
                    if (!(j < STRIDE))
                        break;
                    as[pipefy_dst][ty * STRIDE + i][tx * STRIDE + j] = pipefy_reg0[pipefy_j][pipefy_k];
                    bs[pipefy_dst][ty * STRIDE + i][tx * STRIDE + j] = pipefy_reg1[pipefy_j][pipefy_k];
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
        for (int k0 = 0; k0 < K; k0 += STEP) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int i = 0; i < STRIDE; ++i)
                for (int j = 0; j < STRIDE; ++j)
                    for (int q = 0; q < STEP; ++q)
                        sum[i][j] += as[pipefy_stage][ty * STRIDE + i][q] * bs[pipefy_stage][q][tx * STRIDE + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < STRIDE; ++i)
        for (int j = 0; j < STRIDE; ++j)
            C[(blockIdx.y * STEP + ty * STRIDE + i) * N + blockIdx.x * STEP + tx * STRIDE + j] = sum[i][j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("nested_copy_loops", M, N, K, [&](const float *A, const float *B, float *C) {
        nested_copy_loops<<<dim3(N / STEP, M / STEP), dim3(STEP / STRIDE, STEP / STRIDE)>>>(M, N, K, A, B, C);
    }, 1e-4, 1e-4);
}
