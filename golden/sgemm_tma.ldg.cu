// sgemm_tma.cu: tiles that are boxes of their operands, for sm_90's tensor copies (TMA). Three
// kernels: one whose 32 x 32 block copies one element per thread from an operand whose rows are
// `lda` floats apart (a Hankel view when lda < K: row r of A starts at S[r * lda], so rows
// overlap and a tile can reach past a row's end into the next: there the copies run as written),
// one whose 256 threads copy the tiles in loops over i / 32 and i % 32, and a persistent one
// whose blocks take output tiles in turn (flat tiles, `As[ty * 32 + tx]`).
// Usage: sgemm_tma [M N K] (multiples of 32). Each kernel runs at lda = K, 40 (boxes past the
// row's end: the copies as written for those tiles) and 38 (rows not a multiple of 16 bytes:
// no tensor map, the kernel as written).
// pipefy-args: --arch=sm_90
// pipefy-golden: tma bulk ws ws-cp.async ws-sm90a ws-cp.async-sm90a
// gpu-runs: 32 32 0 | 32 32 64 | 64 64 32 | 64 96 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define T 32

// C = V * B, V[r][k] = S[r * lda + k]: one element per thread per tile
__global__ void sgemm_view(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
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
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = S[row * lda + k0 + tx];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// the same product by 256 threads, each copying four elements of each tile and computing four
// outputs; A's tile is flat, row i / T of it at i / T * T
__global__ void sgemm_flat(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 109:13); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = S[(r0 + i / T) * lda + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = S[(r0 + i / T) * lda + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// persistent: each block takes output tiles tile, tile + gridDim.x, ...; flat tiles
__global__ void sgemm_persistent(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C,
                                 int M, int N, int K, int lda)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T * T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tiles_x = N / T, tiles = tiles_x * (M / T);
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row = tile / tiles_x * T + ty, col = tile % tiles_x * T + tx;
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
                    k0 += T;
                if (!(k0 < K))
                    return false;
                pipefy_reg0 = S[row * lda + k0 + tx];
                pipefy_reg1 = B[(k0 + ty) * N + col];
                return true;
            };
            // pipefy: store the staging registers into stage pipefy_dst
            auto pipefy_stash = [&](int pipefy_dst) {
                As[pipefy_dst][ty * T + tx] = pipefy_reg0;
                Bs[pipefy_dst][ty * T + tx] = pipefy_reg1;
            };
            // pipefy: prologue: tile 0 into stage 0
            if (pipefy_fetch(false, pipefy_next_k0))
                pipefy_stash(0);
            __syncthreads();
            int pipefy_stage = 0; // the stage that holds tile t
            // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
            // the other stage. With two stages one barrier per iteration is enough: the stage being
            // filled was last read before the previous iteration's barrier
            for (int k0 = 0; k0 < K; k0 += T) {
                bool pipefy_more = pipefy_fetch(true, k0);
                __syncwarp(); // pipefy: the loads above stay ahead of the compute
                for (int k = 0; k < T; ++k)
                    acc += As[pipefy_stage][ty * T + k] * Bs[pipefy_stage][k * T + tx];
                if (pipefy_more)
                    pipefy_stash(pipefy_stage ^ 1);
                __syncthreads();
                pipefy_stage ^= 1;
            }
        }
        C[row * N + col] = acc;
    }
}

// S: the view's storage, (M - 1) * lda + K floats (so rows overlap when lda < K)
static int check(const char *name, int M, int N, int K, int lda, int kernel)
{
    size_t ns = (size_t)(M > 0 ? M - 1 : 0) * lda + K + 32, nb = (size_t)K * N + 32, nc = (size_t)M * N;
    float *hS = (float *)malloc(ns * sizeof(float)), *hB = (float *)malloc(nb * sizeof(float));
    float *hC = (float *)malloc(nc * sizeof(float) + 16);
    double *ref = (double *)calloc(nc + 1, sizeof(double));
    uint32_t seed = 777;
    for (size_t i = 0; i < ns; i++) hS[i] = harness_random(&seed);
    for (size_t i = 0; i < nb; i++) hB[i] = harness_random(&seed);
    for (int i = 0; i < M && !harness_skip_reference(); i++)
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                ref[(size_t)i * N + j] += (double)hS[(size_t)i * lda + k] * hB[(size_t)k * N + j];
    float *dS, *dB, *dC;
    CHECK(cudaMalloc(&dS, ns * sizeof(float)));
    CHECK(cudaMalloc(&dB, nb * sizeof(float)));
    CHECK(cudaMalloc(&dC, nc * sizeof(float) + 16));
    CHECK(cudaMemcpy(dS, hS, ns * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB, nb * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dC, 0xff, nc * sizeof(float)));
    auto launch = [&] {
        if (kernel == 1)
            sgemm_flat<<<dim3(N / T, M / T), 256>>>(dS, dB, dC, M, N, K, lda);
        else if (kernel == 2) // (fewer blocks than tiles: each takes several)
            sgemm_persistent<<<3, dim3(T, T)>>>(dS, dB, dC, M, N, K, lda);
        else
            sgemm_view<<<dim3(N / T, M / T), dim3(T, T)>>>(dS, dB, dC, M, N, K, lda);
    };
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hC, dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("%s: reference skipped\nchecksum %016llx\n", name, (unsigned long long)harness_checksum(hC, nc * sizeof *hC));
    else
        rc = harness_report(name, hC, ref, nc, 1e-4, 1e-4);
    harness_time(name, 2.0 * M * N * K, launch);
    CHECK(cudaFree(dS));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    free(hS);
    free(hB);
    free(hC);
    free(ref);
    return rc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = 0;
    const char *names[] = {"sgemm_view", "sgemm_flat", "sgemm_persistent"};
    for (int k = 0; k < 3; k++) {
        rc |= check(names[k], M, N, K, K > 0 ? K : 32, k);  // rows K apart: every tile a box
        rc |= check(names[k], M, N, K, 40, k);              // rows 40 apart: tiles past k0 = 0 reach
                                                            // past the row's end
        rc |= check(names[k], M, N, K, 38, k);              // rows of 152 bytes: no tensor map
    }
    return rc;
}
