// neg_tma.cu: K-loops that the other variants take but sm_90's tensor copies must not: a tile
// that is no box of its operand, a box whose row length only the kernel knows, a kernel pipefy
// cannot copy, launches it cannot route. Each remark of the tma golden names the reason.
// pipefy-golden: tma bulk ws
#include <cuda_runtime.h>
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

// transposed: thread (x, y) stores As[x][y], the box's element (y, x)
__global__ void transposed(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[tx][ty] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// a 32-row tile filled by two copies of 16 rows each
__global__ void two_copies(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        As[ty + 16][tx] = A[(blockIdx.y * T + ty + 16) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// the rows are gridDim.x * 32 apart: the host could not build the tensor map
__global__ void grid_stride(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ld = gridDim.x * T;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * ld + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// guarded copies fill zeros where the operand ends
__global__ void guarded(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    if (row < M)
        C[row * N + blockIdx.x * T + tx] = acc;
}

// rows of two floats: 8 bytes, where a tensor copy's box rows need a multiple of 16 (its loop is
// kept rolled, so that the PTX check sees one loop of it)
__global__ void narrow_tile(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][2];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
#pragma unroll 1
    for (int k0 = 0; k0 < K; k0 += 2) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < 2; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * 2 + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * 2 + tx] = acc;
}

// a template: the copy pipefy would make is per instantiation
template <int TS>
__global__ void templated(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * TS + tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// C linkage: a second kernel of the same name could not be told apart
extern "C" __global__ void c_linkage(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ alignas(128) float As[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.x == 32 && blockDim.y == 32 && blockDim.z == 1 &&
        (long long)K * 4 % 16 == 0) {
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
        const long long pipefy_rows_As = (long long)K > 0 ? 4294967296LL / (long long)K : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 4);
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 4096);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        if ((long long)K == 32) { // the tile's rows follow each other in 'A': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 4096, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 128,
                                                 (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 4)),
                                                 128, &pipefy_full[pipefy_dst]);
                        }
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
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
                acc += As[pipefy_stage][ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
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
            As[0][ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                acc += As[0][ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads();
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// launched only through a macro, where pipefy cannot route the launch
__global__ void macro_launched(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ alignas(128) float As[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.x == 32 && blockDim.y == 32 && blockDim.z == 1 &&
        (long long)K * 4 % 16 == 0) {
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
        const long long pipefy_rows_As = (long long)K > 0 ? 4294967296LL / (long long)K : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 4);
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 4096);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        if ((long long)K == 32) { // the tile's rows follow each other in 'A': one copy
                            if (pipefy_tid == 0)
                                pipefy_bulk_load(&As[pipefy_dst], (const void *)pipefy_src_As, 4096, &pipefy_full[pipefy_dst]);
                        } else {
                            for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                                pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 128,
                                                 (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 4)),
                                                 128, &pipefy_full[pipefy_dst]);
                        }
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
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
                acc += As[pipefy_stage][ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
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
            As[0][ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                acc += As[0][ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads();
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// 'base' takes off's value before off moves: the loader must not read off again
__global__ void stale_local(const float *A, const float *B, float *C, int N, int K, int shift)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int off = blockIdx.y * T;
    int base = off * K;
    off += shift;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[base + ty * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(off + ty) * N + blockIdx.x * T + tx] = acc;
}

// 'first' is the loop variable's value before the loop: 0, not the tile's
__global__ void stale_loop_variable(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int k0 = 0;
    int first = k0;
    float acc = 0.0f;
    for (; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + first + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// A moved under a condition: how far it has moved is not one polynomial
__global__ void moved_in_branch(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (blockIdx.x > 0)
        A += K;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// the bump comes before the copy, which reads the moved pointer
__global__ void bump_before_copy(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * T + ty) * K + tx - T;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        a += T;
        As[ty][tx] = a[0];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

#define LAUNCH(kernel, grid, ...) kernel<<<grid, dim3(T, T)>>>(__VA_ARGS__)

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T), block(T, T);
    transposed<<<grid, block>>>(A, B, C, N, K);
    two_copies<<<grid, dim3(T, 16)>>>(A, B, C, N, K);
    grid_stride<<<grid, block>>>(A, B, C, N, K);
    guarded<<<grid, block>>>(A, B, C, M, N, K);
    narrow_tile<<<dim3(N / 2, M / T), dim3(2, T)>>>(A, B, C, N, K);
    templated<T><<<grid, block>>>(A, B, C, N, K);
    c_linkage<<<grid, block>>>(A, B, C, N, K);
    LAUNCH(macro_launched, grid, A, B, C, N, K);
    stale_local<<<grid, block>>>(A, B, C, N, K, 3);
    stale_loop_variable<<<grid, block>>>(A, B, C, N, K);
    moved_in_branch<<<grid, block>>>(A, B, C, N, K);
    bump_before_copy<<<grid, block>>>(A, B, C, N, K);
}
