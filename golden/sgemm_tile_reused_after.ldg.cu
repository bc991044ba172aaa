// sgemm_tile_reused_after.cu: the tiles are zeroed before the K-loop and As is reused after
// it to stage the block's C tile for a transposed write (C is written column-major), as kernels
// that save shared memory do. Such tiles keep one stage: the code before and after the loop
// must see the tile itself. Usage: sgemm_tile_reused_after [M N K] (M, N multiples of TILE).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 48 | 64 32 80 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 32 80
#include "harness.cuh"

#define TILE 16

// C (M x N) written column-major: the harness reads it back row-major through transpose_back
__global__ void sgemm_tile_reused_after(const float *A, const float *B, float *Ct, int M, int N, int K)
{
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    As[ty][tx] = 0.0f;
    Bs[ty][tx] = 0.0f;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (tile 'As' is also used outside the loop at 19:5: with a second stage it would see the first stage's copy only)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < (K + TILE - 1) / TILE))
                return false;
            pipefy_reg0 = t * TILE + tx < K ? A[row * K + t * TILE + tx] : 0.0f;
            pipefy_reg1 = t * TILE + ty < K ? B[(t * TILE + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
            Bs[ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k)
                acc += As[ty][k] * Bs[k][tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    // the block's C tile through As, transposed, so that the column-major write is coalesced;
    // with K == 0 the loop never ran and the zeros written before it are what is read back
    As[tx][ty] = acc + As[tx][ty] * 0.0f;
    __syncthreads();
    int crow = blockIdx.y * TILE + tx, ccol = blockIdx.x * TILE + ty;
    Ct[(size_t)ccol * M + crow] = As[ty][tx];
}

__global__ void transpose_back(const float *Ct, float *C, int M, int N)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M && j < N)
        C[(size_t)i * N + j] = Ct[(size_t)j * M + i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    float *Ct;
    CHECK(cudaMalloc(&Ct, (size_t)M * N * sizeof(float) + 16));
    int rc = harness_gemm<float, float>("sgemm_tile_reused_after", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_tile_reused_after<<<grid, block>>>(A, B, Ct, M, N, K);
        transpose_back<<<grid, block>>>(Ct, C, M, N);
    }, 1e-4, 1e-4);
    CHECK(cudaFree(Ct));
    return rc;
}
