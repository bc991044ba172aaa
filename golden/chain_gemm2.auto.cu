// chain_gemm2.cu: two GEMMs as two launches on one stream, the second reading the rows the first
// wrote: H = X * W1, then Y = H * W2 (one tiled kernel, launched twice). A block of the second
// reads one row of blocks of H (its blockIdx.y's), all of H's columns.
// Usage: chain_gemm2 [M HIDDEN FF] (each a multiple of TS).
// pipefy-golden: queue
// gpu-runs: 16 16 16 | 16 64 64 | 32 64 48 | 64 128 256 | 256 256 512 | 1024 512 1024
// gpu-sanitize: 32 64 48
#include "harness.cuh"

#define TS 16

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
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
            pipefy_reg0 = A[row * K + k0 + tx];
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 256};  // M HIDDEN FF
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], D = sz[1], F = sz[2];
    size_t nx = (size_t)M * D, nw1 = (size_t)D * F, nh = (size_t)M * F, nw2 = (size_t)F * D;
    float *hX = (float *)malloc(nx * 4), *hW1 = (float *)malloc(nw1 * 4), *hW2 = (float *)malloc(nw2 * 4);
    float *hY = (float *)malloc(nx * 4 + 4);
    uint32_t seed = 2024;
    for (size_t i = 0; i < nx; i++) hX[i] = harness_random(&seed);
    for (size_t i = 0; i < nw1; i++) hW1[i] = harness_random(&seed) * 0.25f;
    for (size_t i = 0; i < nw2; i++) hW2[i] = harness_random(&seed) * 0.25f;
    double *h = (double *)calloc(nh + 1, sizeof(double)), *ref = (double *)calloc(nx + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++) {
        for (int k = 0; k < D; k++)
            for (int j = 0; j < F; j++)
                h[(size_t)i * F + j] += (double)hX[(size_t)i * D + k] * hW1[(size_t)k * F + j];
        for (int k = 0; k < F; k++)
            for (int j = 0; j < D; j++)
                ref[(size_t)i * D + j] += h[(size_t)i * F + k] * hW2[(size_t)k * D + j];
    }
    float *dX, *dW1, *dH, *dW2, *dY;
    CHECK(cudaMalloc(&dX, nx * 4));
    CHECK(cudaMalloc(&dW1, nw1 * 4));
    CHECK(cudaMalloc(&dH, nh * 4));
    CHECK(cudaMalloc(&dW2, nw2 * 4));
    CHECK(cudaMalloc(&dY, nx * 4));
    CHECK(cudaMemcpy(dX, hX, nx * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW1, hW1, nw1 * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW2, hW2, nw2 * 4, cudaMemcpyHostToDevice));
    dim3 block(TS, TS), up(F / TS, M / TS), down(D / TS, M / TS);
    auto chain = [&] {
        gemm<<<up, block>>>(dX, dW1, dH, M, F, D);
        gemm<<<down, block>>>(dH, dW2, dY, M, D, F);
    };
    // H and Y poisoned first: a block of the second GEMM that reads H before the first has
    // written its rows reads NaNs
    auto poisoned = [&] {
        CHECK(cudaMemset(dH, 0xff, nh * 4));
        CHECK(cudaMemset(dY, 0xff, nx * 4));
        chain();
    };
    poisoned();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hY, dY, nx * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_gemm2: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hY, nx * 4));
    else
        rc = harness_report("chain_gemm2", hY, ref, nx, 1e-3, 1e-3);
    if (harness_repeat("chain_gemm2", dY, hY, nx * 4, poisoned))
        rc = 1;
    harness_time("chain_gemm2", 2.0 * M * D * F * 2, chain);
    CHECK(cudaFree(dX));
    CHECK(cudaFree(dW1));
    CHECK(cudaFree(dH));
    CHECK(cudaFree(dW2));
    CHECK(cudaFree(dY));
    free(hX);
    free(hW1);
    free(hW2);
    free(hY);
    free(h);
    free(ref);
    return rc;
}
