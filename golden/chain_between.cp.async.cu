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
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
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
