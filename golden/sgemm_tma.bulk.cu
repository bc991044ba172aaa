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
// pipefy: Hopper tensor copies {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define PIPEFY_SM90(...) ((void)&pipefy_smem, __trap()) /* (never run below sm_90) */
#else
#define PIPEFY_SM90(...) __VA_ARGS__
#endif
static __device__ __forceinline__ unsigned pipefy_smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
static __device__ __forceinline__ void pipefy_mbar_init(unsigned long long *bar, unsigned count)
{
    PIPEFY_SM90(asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(pipefy_smem(bar)), "r"(count) : "memory"));
}
static __device__ __forceinline__ void pipefy_mbar_fence_init()
{
    PIPEFY_SM90(asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"));
}
static __device__ __forceinline__ void pipefy_mbar_inval(unsigned long long *bar)
{
    PIPEFY_SM90(asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(pipefy_smem(bar)) : "memory"));
}
static __device__ __forceinline__ void pipefy_mbar_arrive(unsigned long long *bar, unsigned count)
{
    PIPEFY_SM90(asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;" ::"r"(pipefy_smem(bar)), "r"(count) : "memory"));
}
static __device__ __forceinline__ void pipefy_mbar_expect_tx(unsigned long long *bar, unsigned bytes)
{
    PIPEFY_SM90(asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;" ::"r"(pipefy_smem(bar)), "r"(bytes) : "memory"));
}
static __device__ __forceinline__ void pipefy_mbar_wait(unsigned long long *bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        PIPEFY_SM90(asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                                 "selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(pipefy_smem(bar)), "r"(parity) : "memory"));
}
static __device__ __forceinline__ void pipefy_fence_proxy_async()
{
    PIPEFY_SM90(asm volatile("fence.proxy.async.shared::cta;" ::: "memory"));
}
static __device__ __forceinline__ void pipefy_bulk_load(void *dst, const void *src, unsigned bytes,
                                                        unsigned long long *bar)
{
    PIPEFY_SM90(asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                             ::"r"(pipefy_smem(dst)), "l"(__cvta_generic_to_global(src)), "r"(bytes),
                             "r"(pipefy_smem(bar)) : "memory"));
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
static constexpr bool pipefy_sm90 = false;
#else
static constexpr bool pipefy_sm90 = true;
#endif
#undef PIPEFY_SM90
// } pipefy: Hopper tensor copies

#define T 32

// C = V * B, V[r][k] = S[r * lda + k]: one element per thread per tile
__global__ void sgemm_view(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    __shared__ alignas(128) float As[2][T][T];
    __shared__ alignas(128) float Bs[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.x == 32 && blockDim.y == 32 && blockDim.z == 1 &&
        (long long)lda * 4 % 16 == 0 &&
        (long long)N * 4 % 16 == 0) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[2], pipefy_empty[2];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
        // pipefy: the threads of warp 0 issue the rows' bulk copies
        const unsigned pipefy_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        const unsigned pipefy_issuers = pipefy_threads < 32 ? pipefy_threads : 32;
        const unsigned pipefy_warp0 = pipefy_issuers == 32 ? 0xffffffffu : (1u << pipefy_issuers) - 1;
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s) {
                pipefy_mbar_init(&pipefy_full[pipefy_s], pipefy_threads);
                pipefy_mbar_init(&pipefy_empty[pipefy_s], pipefy_threads);
            }
            pipefy_mbar_fence_init();
        }
        __syncthreads();
        // pipefy: the rows of 'As's operand that end within its 32-bit index
        const long long pipefy_rows_As = (long long)lda > 0 ? 2147483648LL / (long long)lda : 0;
        // pipefy: the rows of 'Bs's operand that end within its 32-bit index
        const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)S +
                    (unsigned long long)((pipefy_row_As * (long long)lda + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        if ((long long)lda == 32) { // the tile's rows follow each other in 'S': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 4096, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 128,
                                                 (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)lda * 4)),
                                                 128, &pipefy_full[pipefy_dst]);
                        }
                        if ((long long)N == 32) { // the tile's rows follow each other in 'B': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&Bs[pipefy_dst], (const void *)pipefy_src_Bs, 4096, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&Bs[pipefy_dst] + pipefy_r * 128,
                                                 (const void *)(pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4)),
                                                 128, &pipefy_full[pipefy_dst]);
                        }
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = S[row * lda + k0 + tx];
                    Bs[pipefy_dst][ty][tx] = B[(k0 + ty) * N + col];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < T; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
            pipefy_stage = (pipefy_stage + 1) % 2;
            pipefy_phase ^= pipefy_stage == 0;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
            for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s) {
                pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
            }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            As[0][ty][tx] = S[row * lda + k0 + tx];
            Bs[0][ty][tx] = B[(k0 + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                acc += As[0][ty][k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    C[row * N + col] = acc;
}

// the same product by 256 threads, each copying four elements of each tile and computing four
// outputs; A's tile is flat, row i / T of it at i / T * T
__global__ void sgemm_flat(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda)
{
    __shared__ alignas(128) float As[2][T * T];
    __shared__ alignas(128) float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.y == 1 && blockDim.z == 1 &&
        (long long)lda * 4 % 16 == 0 &&
        (long long)N * 4 % 16 == 0) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[2], pipefy_empty[2];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
        // pipefy: the threads of warp 0 issue the rows' bulk copies
        const unsigned pipefy_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        const unsigned pipefy_issuers = pipefy_threads < 32 ? pipefy_threads : 32;
        const unsigned pipefy_warp0 = pipefy_issuers == 32 ? 0xffffffffu : (1u << pipefy_issuers) - 1;
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s) {
                pipefy_mbar_init(&pipefy_full[pipefy_s], pipefy_threads);
                pipefy_mbar_init(&pipefy_empty[pipefy_s], pipefy_threads);
            }
            pipefy_mbar_fence_init();
        }
        __syncthreads();
        // pipefy: the rows of 'As's operand that end within its 32-bit index
        const long long pipefy_rows_As = (long long)lda > 0 ? 2147483648LL / (long long)lda : 0;
        // pipefy: the rows of 'Bs's operand that end within its 32-bit index
        const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)S +
                    (unsigned long long)((pipefy_row_As * (long long)lda + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        if ((long long)lda == 32) { // the tile's rows follow each other in 'S': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 4096, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 128,
                                                 (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)lda * 4)),
                                                 128, &pipefy_full[pipefy_dst]);
                        }
                        if ((long long)N == 32) { // the tile's rows follow each other in 'B': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&Bs[pipefy_dst], (const void *)pipefy_src_Bs, 4096, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&Bs[pipefy_dst] + pipefy_r * 128,
                                                 (const void *)(pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4)),
                                                 128, &pipefy_full[pipefy_dst]);
                        }
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        As[pipefy_dst][i] = S[(r0 + i / T) * lda + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
            pipefy_stage = (pipefy_stage + 1) % 2;
            pipefy_phase ^= pipefy_stage == 0;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
            for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s) {
                pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
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
    __shared__ alignas(128) float As[2][T * T];
    __shared__ alignas(128) float Bs[2][T * T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tiles_x = N / T, tiles = tiles_x * (M / T);
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row = tile / tiles_x * T + ty, col = tile % tiles_x * T + tx;
        float acc = 0.0f;
        // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
        // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
        // 16-byte units; elsewhere the loop runs as written
        if (pipefy_sm90 && blockDim.x == 32 && blockDim.y == 32 && blockDim.z == 1 &&
            (long long)lda * 4 % 16 == 0 &&
            (long long)N * 4 % 16 == 0) {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_k0 = 0;
            // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
            // stage s has landed, empty[s] when every thread is done computing it
            __shared__ alignas(8) unsigned long long pipefy_full[2], pipefy_empty[2];
            const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
            unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
            // pipefy: the threads of warp 0 issue the rows' bulk copies
            const unsigned pipefy_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
            const unsigned pipefy_issuers = pipefy_threads < 32 ? pipefy_threads : 32;
            const unsigned pipefy_warp0 = pipefy_issuers == 32 ? 0xffffffffu : (1u << pipefy_issuers) - 1;
            if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s) {
                    pipefy_mbar_init(&pipefy_full[pipefy_s], pipefy_threads);
                    pipefy_mbar_init(&pipefy_empty[pipefy_s], pipefy_threads);
                }
                pipefy_mbar_fence_init();
            }
            __syncthreads();
            // pipefy: the rows of 'As's operand that end within its 32-bit index
            const long long pipefy_rows_As = (long long)lda > 0 ? 2147483648LL / (long long)lda : 0;
            // pipefy: the rows of 'Bs's operand that end within its 32-bit index
            const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
            // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
            // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
            // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
            // or starts off a 16-byte boundary every thread copies as written and arrives for itself
            auto pipefy_load = [&](int pipefy_dst) {
                int k0 = pipefy_next_k0;
                if (k0 < K) {
                    const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * ((long long)tile / (long long)((long long)N / 32LL));
                    const unsigned long long pipefy_src_As = (unsigned long long)S +
                        (unsigned long long)((pipefy_row_As * (long long)lda + pipefy_col_As) * 4);
                    const long long pipefy_col_Bs = 32LL * ((long long)tile % (long long)((long long)N / 32LL)), pipefy_row_Bs = (long long)k0;
                    const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                        (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                    if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                        pipefy_row_As >= 0 &&
                        pipefy_src_As % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As &&
                        pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                        pipefy_row_Bs >= 0 &&
                        pipefy_src_Bs % 16 == 0 && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                        if (pipefy_tid < 32) {
                            if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                                pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                            pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                            if (pipefy_tid == 0) {
                                pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                                pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                            }
                            __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                            if ((long long)lda == 32) { // the tile's rows follow each other in 'S': one copy
                                if (pipefy_tid == 0)
                                    pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 4096, &pipefy_full[pipefy_dst]);
                            } else {
                                for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                    pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 128,
                                                     (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)lda * 4)),
                                                     128, &pipefy_full[pipefy_dst]);
                            }
                            if ((long long)N == 32) { // the tile's rows follow each other in 'B': one copy
                                if (pipefy_tid == 0)
                                    pipefy_bulk_load(&Bs[pipefy_dst], (const void *)pipefy_src_Bs, 4096, &pipefy_full[pipefy_dst]);
                            } else {
                                for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                    pipefy_bulk_load((char *)&Bs[pipefy_dst] + pipefy_r * 128,
                                                     (const void *)(pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4)),
                                                     128, &pipefy_full[pipefy_dst]);
                            }
                        }
                    } else {
                        if (pipefy_loads >= 2)
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        As[pipefy_dst][ty * T + tx] = S[row * lda + k0 + tx];
                        Bs[pipefy_dst][ty * T + tx] = B[(k0 + ty) * N + col];
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                    }
                    ++pipefy_loads;
                    k0 += T;
                    pipefy_next_k0 = k0;
                }
            };
            // pipefy: prologue: start loading tile 0
            pipefy_load(0);
            int pipefy_stage = 0;       // the stage that holds tile t
            unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
            // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
            // so; the last iterations find no tile left to start and only compute: that is the epilogue
            for (int k0 = 0; k0 < K; k0 += T) {
                pipefy_load((pipefy_stage + 1) % 2);
                pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
                for (int k = 0; k < T; ++k)
                    acc += As[pipefy_stage][ty * T + k] * Bs[pipefy_stage][k * T + tx];
                pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
                pipefy_stage = (pipefy_stage + 1) % 2;
                pipefy_phase ^= pipefy_stage == 0;
            }
            __syncthreads(); // pipefy: every thread is done with the last tile
            if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
                for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s) {
                    pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                    pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
                }
        } else {
            for (int k0 = 0; k0 < K; k0 += T) {
                As[0][ty * T + tx] = S[row * lda + k0 + tx];
                Bs[0][ty * T + tx] = B[(k0 + ty) * N + col];
                __syncthreads();
                for (int k = 0; k < T; ++k)
                    acc += As[0][ty * T + k] * Bs[0][k * T + tx];
                __syncthreads();
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
