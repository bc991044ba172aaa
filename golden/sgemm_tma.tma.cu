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
#include <cuda.h>         // pipefy: CUtensorMap
#include <cudaTypedefs.h> // pipefy: PFN_cuTensorMapEncodeTiled
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
static __device__ __forceinline__ void pipefy_tma_load_2d(void *dst, const CUtensorMap *map, int col, int row,
                                                          unsigned long long *bar)
{
    PIPEFY_SM90(asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                             "[%0], [%1, {%2, %3}], [%4];" ::"r"(pipefy_smem(dst)), "l"(map), "r"(col), "r"(row),
                             "r"(pipefy_smem(bar)) : "memory"));
}
#undef PIPEFY_SM90
// A tensor map of a row-major operand whose rows are row_elems long (rows unbounded), for boxes
// of box_rows x box_cols; false where the copy engine cannot take it: a device below sm_90, a
// base not 16-byte aligned, rows not a multiple of 16 bytes
static bool pipefy_tensor_map_2d(CUtensorMap *map, const void *base, unsigned elem, long long row_elems,
                                 unsigned box_cols, unsigned box_rows)
{
    int device = 0, major = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess || major < 9)
        return false;
    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    if (!encode) {
        void *fn = nullptr;
        cudaDriverEntryPointQueryResult found;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) !=
                cudaSuccess || found != cudaDriverEntryPointSuccess)
            return false;
        encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    }
    if (row_elems <= 0 || row_elems > (1LL << 32) || (unsigned long long)base % 16 || row_elems * elem % 16)
        return false;
    cuuint64_t dims[2] = {(cuuint64_t)row_elems, 2147483647ull}, strides[1] = {(cuuint64_t)row_elems * elem};
    cuuint32_t box[2] = {box_cols, box_rows}, steps[2] = {1, 1};
    CUtensorMapDataType type = elem == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                               : elem == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                               : elem == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                           : CU_TENSOR_MAP_DATA_TYPE_UINT64;
    return encode(map, type, 2, const_cast<void *>(base), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}
// Whether the kernel's code on this device was compiled for sm_90 or up: a build for older
// GPUs runs on an H100 from PTX compiled there, where the tensor copies are compiled out
static bool pipefy_sm90_code(const void *kernel)
{
    static thread_local const void *known[8];
    static thread_local int known_device[8], next;
    static thread_local bool is[8];
    int device;
    if (cudaGetDevice(&device) != cudaSuccess)
        return false;
    for (int i = 0; i < 8; i++)
        if (known[i] == kernel && known_device[i] == device)
            return is[i];
    cudaFuncAttributes attr;
    bool sm90 = cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;
    known[next] = kernel;
    known_device[next] = device;
    is[next] = sm90;
    next = (next + 1) % 8;
    return sm90;
}
// } pipefy: Hopper tensor copies

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

// pipefy: 'sgemm_view' with sm_90 tensor copies; only pipefy_launch_sgemm_view below launches it
static __global__ void sgemm_view_pipefy_tma(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[2][T][T];
    __shared__ alignas(128) float Bs[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with tensor copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[2], pipefy_empty[2];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
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
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                    pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
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
    }
    C[row * N + col] = acc;
}

// pipefy: the launches of 'sgemm_view' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_sgemm_view(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 32 && pipefy_block.y == 32 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)sgemm_view_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, sgemm_view_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, S, 4, (long long)lda, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        sgemm_view_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda, pipefy_map_As, pipefy_map_Bs);
    else
        sgemm_view<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda);
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

// pipefy: 'sgemm_flat' with sm_90 tensor copies; only pipefy_launch_sgemm_flat below launches it
static __global__ void sgemm_flat_pipefy_tma(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K, int lda,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[2][T * T];
    __shared__ alignas(128) float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with tensor copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[2], pipefy_empty[2];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
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
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                    pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
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
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: the launches of 'sgemm_flat' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_sgemm_flat(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)sgemm_flat_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, sgemm_flat_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, S, 4, (long long)lda, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        sgemm_flat_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda, pipefy_map_As, pipefy_map_Bs);
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

// pipefy: 'sgemm_persistent' with sm_90 tensor copies; only pipefy_launch_sgemm_persistent below launches it
static __global__ void sgemm_persistent_pipefy_tma(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C,
                                 int M, int N, int K, int lda,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[2][T * T];
    __shared__ alignas(128) float Bs[2][T * T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tiles_x = N / T, tiles = tiles_x * (M / T);
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row = tile / tiles_x * T + ty, col = tile % tiles_x * T + tx;
        float acc = 0.0f;
        // pipefy: K-loop pipelined with tensor copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
        {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_k0 = 0;
            // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
            // stage s has landed, empty[s] when every thread is done computing it
            __shared__ alignas(8) unsigned long long pipefy_full[2], pipefy_empty[2];
            const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
            unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
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
            // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
            // one thread, which arrives for all; where a box reaches outside its operand every thread
            // copies as written and arrives for itself
            auto pipefy_load = [&](int pipefy_dst) {
                int k0 = pipefy_next_k0;
                if (k0 < K) {
                    const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * ((long long)tile / (long long)((long long)N / 32LL));
                    const long long pipefy_col_Bs = 32LL * ((long long)tile % (long long)((long long)N / 32LL)), pipefy_row_Bs = (long long)k0;
                    if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)lda &&
                        pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                        pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                        pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                            if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                                pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                            pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                            pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                               &pipefy_full[pipefy_dst]);
                            pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                               &pipefy_full[pipefy_dst]);
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
        }
        C[row * N + col] = acc;
    }
}

// pipefy: the launches of 'sgemm_persistent' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_sgemm_persistent(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K, int lda)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 32 && pipefy_block.y == 32 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)sgemm_persistent_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, sgemm_persistent_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, S, 4, (long long)lda, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        sgemm_persistent_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda, pipefy_map_As, pipefy_map_Bs);
    else
        sgemm_persistent<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(S, B, C, M, N, K, lda);
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
            pipefy_launch_sgemm_persistent(3, dim3(T, T), 0, 0, dS, dB, dC, M, N, K, lda);
        else
            pipefy_launch_sgemm_view(dim3(N / T, M / T), dim3(T, T), 0, 0, dS, dB, dC, M, N, K, lda);
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
