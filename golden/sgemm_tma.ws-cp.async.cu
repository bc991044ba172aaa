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
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async
// pipefy: named barriers {
static __device__ __forceinline__ void pipefy_bar_sync(unsigned id, unsigned threads)
{
    asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
static __device__ __forceinline__ void pipefy_bar_arrive(unsigned id, unsigned threads)
{
    asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// } pipefy: named barriers

#define T 32

// C = V * B, V[r][k] = S[r * lda + k]: one element per thread per tile
__global__ void sgemm_view(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = S[row * lda + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the same product by 256 threads, each copying four elements of each tile and computing four
// outputs; A's tile is flat, row i / T of it at i / T * T
__global__ void sgemm_flat(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: 'sgemm_flat' with cp.async copies from a producer warp; only pipefy_launch_sgemm_flat below launches it
static __global__ void sgemm_flat_pipefy_ws(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    const dim3 pipefy_block_dim(blockDim.x - 32, blockDim.y, blockDim.z); // pipefy: the block without its producer warp
    __shared__ alignas(128) float As[2][T * T];
    __shared__ alignas(128) float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async copies from a producer warp, named barriers, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two named barriers per stage, each of the kernel's threads and the producer warp:
        // 1 + s, the producer's signal that stage s has landed; 3 + s, the threads' that they are
        // done with it; and 5, of the kernel's threads alone
        // pipefy: the kernel's threads (a producer warp follows them)
        const unsigned pipefy_threads = pipefy_block_dim.x;
        const bool pipefy_producer = threadIdx.x >= pipefy_threads;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
        __syncthreads();
        // pipefy: the rows of 'As's operand that end within its 32-bit index
        const long long pipefy_rows_As = (long long)lda > 0 ? 2147483648LL / (long long)lda : 0;
        // pipefy: the rows of 'Bs's operand that end within its 32-bit index
        const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, its rows
        // copied by the producer warp's 32 threads in 16-byte units; where a box reaches outside its
        // operand or starts off a 16-byte boundary the kernel's threads copy as written; the
        // producer commits one group of copies a call, empty past the last tile
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)S +
                    (unsigned long long)((pipefy_row_As * (long long)lda + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                const bool pipefy_box = pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && (long long)lda * 4 % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && (long long)N * 4 % 16 == 0 && pipefy_row_Bs + 32 <= pipefy_rows_Bs;
                if (pipefy_producer) {
                    if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                        pipefy_bar_sync(3 + pipefy_dst, pipefy_threads + 32);
                    if (pipefy_box) {
                        for (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < 256; pipefy_i += 32) {
                            const unsigned pipefy_r = pipefy_i / 8, pipefy_c = pipefy_i % 8;
                            __pipeline_memcpy_async((char *)&As[pipefy_dst] + pipefy_r * 128 + pipefy_c * 16,
                                                    (const char *)pipefy_src_As + pipefy_r * (unsigned long long)((long long)lda * 4) + pipefy_c * 16, 16);
                        }
                        for (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < 256; pipefy_i += 32) {
                            const unsigned pipefy_r = pipefy_i / 8, pipefy_c = pipefy_i % 8;
                            __pipeline_memcpy_async((char *)&Bs[pipefy_dst] + pipefy_r * 128 + pipefy_c * 16,
                                                    (const char *)pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4) + pipefy_c * 16, 16);
                        }
                    }
                } else if (!pipefy_box) {
                    if (pipefy_loads >= 2) // every kernel thread is done with the stage's last tile
                        pipefy_bar_sync(5, pipefy_threads);
                    for (int i = threadIdx.x; i < T * T; i += pipefy_block_dim.x)
                        As[pipefy_dst][i] = S[(r0 + i / T) * lda + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += pipefy_block_dim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
            if (pipefy_producer)
                __pipeline_commit();
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_load((int)(pipefy_loads % 2));
            if (pipefy_producer) { // the producer warp only copies, and says when tile t has landed
                __pipeline_wait_prior(1);
                pipefy_bar_arrive(1 + pipefy_stage, pipefy_threads + 32);
                pipefy_stage = (pipefy_stage + 1) % 2;
                continue;
            }
            pipefy_bar_sync(1 + pipefy_stage, pipefy_threads + 32); // tile t has landed
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            pipefy_bar_arrive(3 + pipefy_stage, pipefy_threads + 32); // this thread is done with tile t
            pipefy_stage = (pipefy_stage + 1) % 2;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (pipefy_producer) // the threads' arrivals after the last tiles, which no copy waited for
            for (unsigned pipefy_u = pipefy_loads > 2 ? pipefy_loads - 2 : 0; pipefy_u < pipefy_loads; ++pipefy_u)
                pipefy_bar_sync(3 + pipefy_u % 2, pipefy_threads + 32);
        if (pipefy_producer) // its work is done; no barrier follows the loop
            return;
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: the launches of 'sgemm_flat' in this file: from a producer warp where the block is the shape
// the copies assume, whole warps, and room for one more (the producer's), and the copy's
// registers and shared memory let a block of that size run; the kernel as written otherwise
static void pipefy_launch_sgemm_flat(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024 &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, sgemm_flat_pipefy_ws, (int)pipefy_block.x + 32, pipefy_smem) ==
            cudaSuccess && pipefy_resident > 0)
        sgemm_flat_pipefy_ws<<<pipefy_grid, dim3(pipefy_block.x + 32, 1, 1), pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda);
    else
        sgemm_flat<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda);
}

// persistent: each block takes output tiles tile, tile + gridDim.x, ...; flat tiles
__global__ void sgemm_persistent(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C,
                                 int M, int N, int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T * T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tiles_x = N / T, tiles = tiles_x * (M / T);
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row = tile / tiles_x * T + ty, col = tile % tiles_x * T + tx;
        float acc = 0.0f;
        for (int k0 = 0; k0 < K; k0 += T) {
            As[ty * T + tx] = S[row * lda + k0 + tx];
            Bs[ty * T + tx] = B[(k0 + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                acc += As[ty * T + k] * Bs[k * T + tx];
            __syncthreads();
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
            pipefy_launch_sgemm_flat(dim3(N / T, M / T), 256, 0, 0, dS, dB, dC, M, N, K, lda);
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
