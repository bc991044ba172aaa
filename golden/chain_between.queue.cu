// chain_between.cu: launches back to back on one stream with statements between them that
// change what the second launch uses. In the first chain the second launch's grid and length
// are assigned after the first launch (`g2.x = ...; n = ...;`): one persistent launch
// (--launches=queue) evaluates both launches where the first was, so the build before this
// program ran the second kernel with a grid of one block and a length of zero (C left as
// poisoned). In the second chain the stream variable itself is reassigned between the launches
// (`s = s2;`): they run on two streams, not back to back on one. Both pairs are left as
// written, naming the statement; overlapping the first pair's launches is still legal.
// pipefy-golden: queue
// gpu-runs: 16 16 16 | 16 64 64 | 32 64 48 | 64 128 256 | 256 256 512
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

__global__ void scale(const float *H, float *Y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        Y[i] = 2.0f * H[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *hA = (float *)malloc(na * 4), *hB = (float *)malloc(nb * 4), *hY = (float *)malloc(nc * 4 + 4);
    uint32_t seed = 2025;
    for (size_t i = 0; i < na; i++) hA[i] = harness_random(&seed);
    for (size_t i = 0; i < nb; i++) hB[i] = harness_random(&seed);
    double *ref = (double *)calloc(nc + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++)
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                ref[(size_t)i * N + j] += 2.0 * hA[(size_t)i * K + k] * hB[(size_t)k * N + j];
    float *dA, *dB, *dH, *dY, *dH2, *dY2;
    CHECK(cudaMalloc(&dA, na * 4));
    CHECK(cudaMalloc(&dB, nb * 4));
    CHECK(cudaMalloc(&dH, nc * 4));
    CHECK(cudaMalloc(&dY, nc * 4));
    CHECK(cudaMalloc(&dH2, nc * 4));
    CHECK(cudaMalloc(&dY2, nc * 4));
    CHECK(cudaMemcpy(dA, hA, na * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB, nb * 4, cudaMemcpyHostToDevice));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    dim3 block(TS, TS), grid(N / TS, M / TS);
    auto chain = [&] {
        dim3 g2(1);
        int n = 0;
        gemm<<<grid, block, 0, s1>>>(dA, dB, dH, M, N, K);
        g2.x = (unsigned)((nc + 255) / 256);
        n = (int)nc;
        scale<<<g2, 256, 0, s1>>>(dH, dY, n);
    };
    // the second chain: the same product, then the stream is another one
    auto chain2 = [&] {
        cudaStream_t s = s1;
        gemm<<<grid, block, 0, s>>>(dA, dB, dH2, M, N, K);
        s = s2;
        scale<<<(unsigned)((nc + 255) / 256), 256, 0, s>>>(dA, dY2, (int)(M < K ? M : K));
    };
    auto poisoned = [&] {
        CHECK(cudaMemset(dY, 0xff, nc * 4));
        chain();
        CHECK(cudaStreamSynchronize(s1));
    };
    poisoned();
    chain2();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hY, dY, nc * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_between: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hY, nc * 4));
    else
        rc = harness_report("chain_between", hY, ref, nc, 1e-3, 1e-3);
    if (harness_repeat("chain_between", dY, hY, nc * 4, poisoned))
        rc = 1;
    harness_time("chain_between", 2.0 * M * N * K, chain);
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dH));
    CHECK(cudaFree(dY));
    CHECK(cudaFree(dH2));
    CHECK(cudaFree(dY2));
    free(hA);
    free(hB);
    free(hY);
    free(ref);
    return rc;
}
