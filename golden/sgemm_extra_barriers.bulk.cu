// sgemm_extra_barriers.cu: K-loops with more barriers than the two a tile needs, as ECE408
// convolutions and generated code write them: a barrier between A's copies and B's (`As = ..;
// __syncthreads(); Bs = ..;`), which orders nothing (the copies after it write another tile and
// read none), and a barrier right after another one. The rewrite's own barriers keep the
// stages apart, and it leaves these out (three barriers a tile each, so that the SASS check
// reads one tile an iteration of the original). neg: a barrier between copies into one tile, or before
// a local of B's copies that reads A's tile, orders them (tests/cli/barriers-between-copies).
// pipefy-golden: tma bulk ws ws-cp.async
// pipefy-args: --arch=sm_90
// Usage: sgemm_extra_barriers [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 48 32 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
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

#define TS 16

__global__ void sgemm_barrier_between_copies(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(128) float As[2][TS][TS];
    __shared__ alignas(128) float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1 &&
        (long long)K * 4 % 16 == 0 &&
        (long long)N * 4 % 16 == 0) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
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
        const long long pipefy_rows_As = (long long)K > 0 ? 2147483648LL / (long long)K : 0;
        // pipefy: the rows of 'Bs's operand that end within its 32-bit index
        const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < K / TS) {
                const long long pipefy_col_As = 16LL * t, pipefy_row_As = 16LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 16LL * blockIdx.x, pipefy_row_Bs = 16LL * t;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                if (pipefy_col_As >= 0 && pipefy_col_As + 16 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && pipefy_row_As + 16 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 16 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && pipefy_row_Bs + 16 <= pipefy_rows_Bs) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 2048);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        if ((long long)K == 16) { // the tile's rows follow each other in 'A': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 1024, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 16; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 64,
                                                 (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 4)),
                                                 64, &pipefy_full[pipefy_dst]);
                        }
                        if ((long long)N == 16) { // the tile's rows follow each other in 'B': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&Bs[pipefy_dst], (const void *)pipefy_src_Bs, 1024, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 16; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&Bs[pipefy_dst] + pipefy_r * 64,
                                                 (const void *)(pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4)),
                                                 64, &pipefy_full[pipefy_dst]);
                        }
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = A[row * K + t * TS + tx];
                    int brow = t * TS + ty;
                    Bs[pipefy_dst][ty][tx] = B[brow * N + col];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                ++t;
                pipefy_next_t = t;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < K / TS; ++t) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < TS; ++k)
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
        for (int t = 0; t < K / TS; ++t) {
            As[0][ty][tx] = A[row * K + t * TS + tx];
            __syncthreads();
            int brow = t * TS + ty;
            Bs[0][ty][tx] = B[brow * N + col];
            __syncthreads();
            for (int k = 0; k < TS; ++k)
                acc += As[0][ty][k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    C[row * N + col] = acc;
}

__global__ void sgemm_barrier_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(128) float As[2][TS][TS];
    __shared__ alignas(128) float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1 &&
        (long long)K * 4 % 16 == 0 &&
        (long long)N * 4 % 16 == 0) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
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
        const long long pipefy_rows_As = (long long)K > 0 ? 2147483648LL / (long long)K : 0;
        // pipefy: the rows of 'Bs's operand that end within its 32-bit index
        const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            if (t < K / TS) {
                const long long pipefy_col_As = 16LL * t, pipefy_row_As = 16LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 16LL * blockIdx.x, pipefy_row_Bs = 16LL * t;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                if (pipefy_col_As >= 0 && pipefy_col_As + 16 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && pipefy_row_As + 16 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 16 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && pipefy_row_Bs + 16 <= pipefy_rows_Bs) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 2048);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        if ((long long)K == 16) { // the tile's rows follow each other in 'A': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 1024, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 16; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 64,
                                                 (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 4)),
                                                 64, &pipefy_full[pipefy_dst]);
                        }
                        if ((long long)N == 16) { // the tile's rows follow each other in 'B': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&Bs[pipefy_dst], (const void *)pipefy_src_Bs, 1024, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 16; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&Bs[pipefy_dst] + pipefy_r * 64,
                                                 (const void *)(pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4)),
                                                 64, &pipefy_full[pipefy_dst]);
                        }
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = A[row * K + t * TS + tx];
                    Bs[pipefy_dst][ty][tx] = B[(t * TS + ty) * N + col];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                ++t;
                pipefy_next_t = t;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int t = 0; t < K / TS; ++t) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < TS; ++k)
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
        for (int t = 0; t < K / TS; ++t) {
            As[0][ty][tx] = A[row * K + t * TS + tx];
            Bs[0][ty][tx] = B[(t * TS + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; ++k)
                acc += As[0][ty][k] * Bs[0][k][tx];
            __syncthreads();
            __syncthreads();
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("sgemm_barrier_between_copies", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_barrier_between_copies<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_barrier_twice", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_barrier_twice<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
