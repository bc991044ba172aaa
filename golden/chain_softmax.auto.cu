// chain_softmax.cu: attention's first two steps as two launches on one stream: S = Q K^T / sqrt(D)
// (a tiled GEMM reading K's rows as B's columns), then P = softmax of each row of S (one block a
// row, reductions in shared memory). Usage: chain_softmax [M N D] (multiples of TS).
// pipefy-golden: overlap queue
// gpu-runs: 16 64 64 | 16 16 16 | 32 48 32 | 64 128 64 | 256 256 64 | 1024 1024 64 | 2048 2048 128
// gpu-sanitize: 32 48 32
#include "harness.cuh"

#define TS 16
#define ROW_THREADS 256

__global__ void qk(const float *Q, const float *Km, float *S, int M, int N, int D, float scale)
{
    __shared__ float Qs[2][TS][TS];
    __shared__ float Ks[2][TS][TS];
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
            if (!(k0 < D))
                return false;
            pipefy_reg0 = Q[row * D + k0 + tx];
            pipefy_reg1 = Km[(blockIdx.x * TS + ty) * D + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Qs[pipefy_dst][ty][tx] = pipefy_reg0;
            Ks[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < D; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += Qs[pipefy_stage][ty][k] * Ks[pipefy_stage][tx][k];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    S[row * N + col] = acc * scale;
}

__global__ void row_softmax(const float *S, float *P, int N)
{
    __shared__ float red[ROW_THREADS];
    const float *s = S + (size_t)blockIdx.x * N;
    float *p = P + (size_t)blockIdx.x * N;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int j = t; j < N; j += ROW_THREADS)
        m = fmaxf(m, s[j]);
    red[t] = m;
    __syncthreads();
    for (int half = ROW_THREADS / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] = fmaxf(red[t], red[t + half]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int j = t; j < N; j += ROW_THREADS)
        sum += expf(s[j] - m);
    red[t] = sum;
    __syncthreads();
    for (int half = ROW_THREADS / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] += red[t + half];
        __syncthreads();
    }
    sum = red[0];
    for (int j = t; j < N; j += ROW_THREADS)
        p[j] = expf(s[j] - m) / sum;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 64};  // M N D
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], D = sz[2];
    size_t nq = (size_t)M * D, nk = (size_t)N * D, ns = (size_t)M * N;
    float *hQ = (float *)malloc(nq * 4), *hK = (float *)malloc(nk * 4), *hP = (float *)malloc(ns * 4 + 4);
    uint32_t seed = 4242;
    for (size_t i = 0; i < nq; i++) hQ[i] = harness_random(&seed) * 4.0f;
    for (size_t i = 0; i < nk; i++) hK[i] = harness_random(&seed) * 4.0f;
    float scale = 1.0f / sqrtf((float)D);
    double *ref = (double *)calloc(ns + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++) {
        double *r = ref + (size_t)i * N, m = -INFINITY, sum = 0;
        for (int j = 0; j < N; j++) {
            for (int k = 0; k < D; k++)
                r[j] += (double)hQ[(size_t)i * D + k] * hK[(size_t)j * D + k];
            r[j] *= scale;
            m = r[j] > m ? r[j] : m;
        }
        for (int j = 0; j < N; j++)
            sum += exp(r[j] - m);
        for (int j = 0; j < N; j++)
            r[j] = exp(r[j] - m) / sum;
    }
    float *dQ, *dK, *dS, *dP;
    CHECK(cudaMalloc(&dQ, nq * 4));
    CHECK(cudaMalloc(&dK, nk * 4));
    CHECK(cudaMalloc(&dS, ns * 4));
    CHECK(cudaMalloc(&dP, ns * 4));
    CHECK(cudaMemcpy(dQ, hQ, nq * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dK, hK, nk * 4, cudaMemcpyHostToDevice));
    dim3 block(TS, TS), grid(N / TS, M / TS);
    auto chain = [&] {
        qk<<<grid, block>>>(dQ, dK, dS, M, N, D, scale);
        row_softmax<<<M, ROW_THREADS>>>(dS, dP, N);
    };
    // S and P poisoned first: a softmax that reads S before qk has written it reads NaNs
    auto poisoned = [&] {
        CHECK(cudaMemset(dS, 0xff, ns * 4));
        CHECK(cudaMemset(dP, 0xff, ns * 4));
        chain();
    };
    poisoned();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hP, dP, ns * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_softmax: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hP, ns * 4));
    else
        rc = harness_report("chain_softmax", hP, ref, ns, 1e-6, 1e-4);
    if (harness_repeat("chain_softmax", dP, hP, ns * 4, poisoned))
        rc = 1;
    harness_time("chain_softmax", 2.0 * M * N * D, chain);
    CHECK(cudaFree(dQ));
    CHECK(cudaFree(dK));
    CHECK(cudaFree(dS));
    CHECK(cudaFree(dP));
    free(hQ);
    free(hK);
    free(hP);
    free(ref);
    return rc;
}
