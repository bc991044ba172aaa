// chain_mlp.cu: a two-layer MLP as three launches on one stream, each kernel reading what the
// one before it wrote: H = X * W1 (tiled GEMM), G = gelu(H + b) (elementwise), Y = G * W2 (the
// same GEMM). Usage: chain_mlp [M HIDDEN FF] (HIDDEN and FF multiples of TS, M of TS).
// pipefy-golden: overlap queue
// gpu-runs: 16 64 64 | 16 16 16 | 32 64 48 | 64 128 256 | 256 256 512 | 1024 512 1024
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

__global__ void bias_gelu(const float *H, const float *bias, float *G, int M, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        float x = H[i] + bias[i % N];
        G[i] = 0.5f * x * (1.0f + erff(x * 0.70710678f));
    }
}

static double gelu_ref(double x) { return 0.5 * x * (1.0 + erf(x * 0.7071067811865476)); }

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 256};  // M HIDDEN FF
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], D = sz[1], F = sz[2];
    size_t nx = (size_t)M * D, nw1 = (size_t)D * F, nh = (size_t)M * F, nw2 = (size_t)F * D;
    float *hX = (float *)malloc(nx * 4), *hW1 = (float *)malloc(nw1 * 4), *hb = (float *)malloc(F * 4);
    float *hW2 = (float *)malloc(nw2 * 4), *hY = (float *)malloc(nx * 4);
    uint32_t seed = 777;
    for (size_t i = 0; i < nx; i++) hX[i] = harness_random(&seed);
    for (size_t i = 0; i < nw1; i++) hW1[i] = harness_random(&seed) * 0.25f;
    for (int i = 0; i < F; i++) hb[i] = harness_random(&seed);
    for (size_t i = 0; i < nw2; i++) hW2[i] = harness_random(&seed) * 0.25f;
    double *g = (double *)calloc(nh + 1, sizeof(double)), *ref = (double *)calloc(nx + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++) {
        for (int k = 0; k < D; k++)
            for (int j = 0; j < F; j++)
                g[(size_t)i * F + j] += (double)hX[(size_t)i * D + k] * hW1[(size_t)k * F + j];
        for (int j = 0; j < F; j++)
            g[(size_t)i * F + j] = gelu_ref(g[(size_t)i * F + j] + hb[j]);
        for (int k = 0; k < F; k++)
            for (int j = 0; j < D; j++)
                ref[(size_t)i * D + j] += g[(size_t)i * F + k] * hW2[(size_t)k * D + j];
    }
    float *dX, *dW1, *db, *dH, *dG, *dW2, *dY;
    CHECK(cudaMalloc(&dX, nx * 4));
    CHECK(cudaMalloc(&dW1, nw1 * 4));
    CHECK(cudaMalloc(&db, F * 4));
    CHECK(cudaMalloc(&dH, nh * 4));
    CHECK(cudaMalloc(&dG, nh * 4));
    CHECK(cudaMalloc(&dW2, nw2 * 4));
    CHECK(cudaMalloc(&dY, nx * 4));
    CHECK(cudaMemcpy(dX, hX, nx * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW1, hW1, nw1 * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, F * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW2, hW2, nw2 * 4, cudaMemcpyHostToDevice));
    dim3 block(TS, TS), up(F / TS, M / TS), down(D / TS, M / TS);
    int threads = 256, blocks = (int)((nh + threads - 1) / threads);
    auto chain = [&] {
        gemm<<<up, block>>>(dX, dW1, dH, M, F, D);
        bias_gelu<<<blocks, threads>>>(dH, db, dG, M, F);
        gemm<<<down, block>>>(dG, dW2, dY, M, D, F);
    };
    // every buffer a kernel writes poisoned first: a kernel that reads one before the kernel
    // ahead of it has written it reads NaNs
    auto poisoned = [&] {
        CHECK(cudaMemset(dH, 0xff, nh * 4));
        CHECK(cudaMemset(dG, 0xff, nh * 4));
        CHECK(cudaMemset(dY, 0xff, nx * 4));
        chain();
    };
    poisoned();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hY, dY, nx * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_mlp: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hY, nx * 4));
    else
        rc = harness_report("chain_mlp", hY, ref, nx, 1e-3, 1e-3);
    if (harness_repeat("chain_mlp", dY, hY, nx * 4, poisoned))
        rc = 1;
    harness_time("chain_mlp", 2.0 * M * D * F * 2, chain);
    CHECK(cudaFree(dX));
    CHECK(cudaFree(dW1));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dH));
    CHECK(cudaFree(dG));
    CHECK(cudaFree(dW2));
    CHECK(cudaFree(dY));
    free(hX);
    free(hW1);
    free(hb);
    free(hW2);
    free(hY);
    free(g);
    free(ref);
    return rc;
}
