// sgemm_blockdim_compute.cu: a textbook tiled SGEMM written for any square block, as course code
// often is: the tile's width is blockDim.x, read at run time by the K-loop's step, the copies'
// indices and the compute loop's bound (`k < blockDim.x`); the tiles are sized for the largest
// block. The launch below uses a 16x16 block; pipefy counts the compute's trips from it and runs
// the pipelined loop under that shape, the loop as written for any other.
// Usage: sgemm_blockdim_compute [M N K] (M, N multiples of TILE; any K).
// gpu-runs: 64 64 0 | 64 64 1 | 64 64 17 | 64 64 48 | 128 96 100 | 512 512 512
// gpu-sanitize: 64 64 17
#include "harness.cuh"

#define TILE 16
#define MAX_TILE 32

__global__ void sgemm_blockdim_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][MAX_TILE * MAX_TILE];
    __shared__ float Bs[2][MAX_TILE * MAX_TILE];
    int w = blockDim.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the compute's loops over blockDim.x run a fixed number of trips in a 16x16x1
    // block (launch at 40:9), which the compiler unrolls; other blocks run the loop as written
    if (blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += blockDim.x;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0.0f;
            pipefy_reg1 = k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][threadIdx.y * w + threadIdx.x] = pipefy_reg0;
            Bs[pipefy_dst][threadIdx.y * w + threadIdx.x] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += blockDim.x) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < blockDim.x; ++k)
                acc += As[pipefy_stage][threadIdx.y * w + k] * Bs[pipefy_stage][k * w + threadIdx.x];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += blockDim.x) {
            As[0][threadIdx.y * w + threadIdx.x] = k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0.0f;
            Bs[0][threadIdx.y * w + threadIdx.x] = k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
            __syncthreads();
            for (int k = 0; k < blockDim.x; ++k)
                acc += As[0][threadIdx.y * w + k] * Bs[0][k * w + threadIdx.x];
            __syncthreads();
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_blockdim_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_blockdim_compute<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
