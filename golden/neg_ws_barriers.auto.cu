// neg_ws_barriers.cu: K-loops that tensor copies take but a producer warp (ws, ws-cp.async) must
// not: the producer warp runs the code before the loop with thread indices past the kernel's,
// and arrives only at the barriers pipefy writes. The build before this program gave each of
// these kernels a producer warp: the first trapped in it (a test that is never true for the
// kernel's threads is true for the producer's), the second and third waited forever at a
// barrier of the compute the producer never reaches (a helper's __syncthreads(), a
// __syncthreads_or). Each ws remark names the statement; the last kernel is the control.
// pipefy-args: --arch=sm_90
// pipefy-golden: tma ws ws-cp.async
// Usage: neg_ws_barriers [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 32 64 | 32 64 96 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 64 32 64
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

// a thread past the block's size would be a launch error: the kernel stops it
__global__ void trap_guard(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    if (threadIdx.x >= blockDim.x)
        __trap();
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
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

// pipefy: 'trap_guard' with sm_90 tensor copies; only pipefy_launch_trap_guard below launches it
static __global__ void trap_guard_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[4][T * T];
    __shared__ alignas(128) float Bs[4][T][T];
    if (threadIdx.x >= blockDim.x)
        __trap();
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with tensor copies (sm_90), 4 stages: tiles to t+2 are copied while tile t is computed, t+3 after it
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[4], pipefy_empty[4];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 4
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
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
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1) { // the block's last thread
                        if (pipefy_loads >= 4) // the stage's last tile, pipefy_loads - 4, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 4)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        As[pipefy_dst][i] = A[(r0 + i / T) * K + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tiles 0..2
        for (int pipefy_s = 0; pipefy_s < 3; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: wait for tile t, compute it, say so, then start tile t+3 into stage
        // (t-1) % 4 (whose tile every thread is done with as a rule by then); the last iterations
        // find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
            pipefy_load((pipefy_stage + 3) % 4);
            pipefy_stage = (pipefy_stage + 1) % 4;
            pipefy_phase ^= pipefy_stage == 0;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
                pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
            }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: the launches of 'trap_guard' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_trap_guard(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)trap_guard_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, trap_guard_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        trap_guard_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        trap_guard<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

// the compute's helper synchronizes the block halfway through the tile
__device__ void half_tile(float *acc, const float *As, const float (*Bs)[T], int tx, int ty, int k_begin)
{
    for (int k = k_begin; k < k_begin + T / 2; ++k)
        for (int j = 0; j < 4; ++j)
            acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
    __syncthreads();
}

__global__ void helper_sync(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        half_tile(acc, As, Bs, tx, ty, 0);
        half_tile(acc, As, Bs, tx, ty, T / 2);
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: 'helper_sync' with sm_90 tensor copies; only pipefy_launch_helper_sync below launches it
static __global__ void helper_sync_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[4][T * T];
    __shared__ alignas(128) float Bs[4][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with tensor copies (sm_90), 4 stages: tiles to t+2 are copied while tile t is computed, t+3 after it
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[4], pipefy_empty[4];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 4
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
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
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1) { // the block's last thread
                        if (pipefy_loads >= 4) // the stage's last tile, pipefy_loads - 4, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 4)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        As[pipefy_dst][i] = A[(r0 + i / T) * K + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tiles 0..2
        for (int pipefy_s = 0; pipefy_s < 3; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: wait for tile t, compute it, say so, then start tile t+3 into stage
        // (t-1) % 4 (whose tile every thread is done with as a rule by then); the last iterations
        // find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            half_tile(acc, As[pipefy_stage], Bs[pipefy_stage], tx, ty, 0);
            half_tile(acc, As[pipefy_stage], Bs[pipefy_stage], tx, ty, T / 2);
            pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
            pipefy_load((pipefy_stage + 3) % 4);
            pipefy_stage = (pipefy_stage + 1) % 4;
            pipefy_phase ^= pipefy_stage == 0;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
                pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
            }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: the launches of 'helper_sync' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_helper_sync(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)helper_sync_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, helper_sync_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        helper_sync_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        helper_sync<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

// the compute asks the block whether any thread saw a zero product sum (and uses the answer)
__global__ void vote_in_compute(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int votes = 0;
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        votes += __syncthreads_or(acc[0] != acc[0]); // (a NaN: never, for these operands)
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j] + (float)votes;
}

// pipefy: 'vote_in_compute' with sm_90 tensor copies; only pipefy_launch_vote_in_compute below launches it
static __global__ void vote_in_compute_pipefy_tma(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[4][T * T];
    __shared__ alignas(128) float Bs[4][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int votes = 0;
    // pipefy: K-loop pipelined with tensor copies (sm_90), 4 stages: tiles to t+2 are copied while tile t is computed, t+3 after it
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[4], pipefy_empty[4];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 4
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
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
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1) { // the block's last thread
                        if (pipefy_loads >= 4) // the stage's last tile, pipefy_loads - 4, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 4)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        As[pipefy_dst][i] = A[(r0 + i / T) * K + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tiles 0..2
        for (int pipefy_s = 0; pipefy_s < 3; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: wait for tile t, compute it, say so, then start tile t+3 into stage
        // (t-1) % 4 (whose tile every thread is done with as a rule by then); the last iterations
        // find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            votes += __syncthreads_or(acc[0] != acc[0]);
            pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
            pipefy_load((pipefy_stage + 3) % 4);
            pipefy_stage = (pipefy_stage + 1) % 4;
            pipefy_phase ^= pipefy_stage == 0;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
                pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
            }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j] + (float)votes;
}

// pipefy: the launches of 'vote_in_compute' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_vote_in_compute(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)vote_in_compute_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, vote_in_compute_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        vote_in_compute_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        vote_in_compute<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

// the control: nothing a producer warp could trip on
__global__ void plain(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
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

// pipefy: 'plain' with sm_90 tensor copies; only pipefy_launch_plain below launches it
static __global__ void plain_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[4][T * T];
    __shared__ alignas(128) float Bs[4][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with tensor copies (sm_90), 4 stages: tiles to t+2 are copied while tile t is computed, t+3 after it
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when
        // stage s has landed, empty[s] when every thread is done computing it
        __shared__ alignas(8) unsigned long long pipefy_full[4], pipefy_empty[4];
        const unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 4
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
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
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 32 <= 2147483647LL && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL && pipefy_row_Bs + 32 <= pipefy_rows_Bs) {
                    if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1) { // the block's last thread
                        if (pipefy_loads >= 4) // the stage's last tile, pipefy_loads - 4, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 4)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        As[pipefy_dst][i] = A[(r0 + i / T) * K + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tiles 0..2
        for (int pipefy_s = 0; pipefy_s < 3; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: wait for tile t, compute it, say so, then start tile t+3 into stage
        // (t-1) % 4 (whose tile every thread is done with as a rule by then); the last iterations
        // find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1); // this thread is done with tile t
            pipefy_load((pipefy_stage + 3) % 4);
            pipefy_stage = (pipefy_stage + 1) % 4;
            pipefy_phase ^= pipefy_stage == 0;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
            for (int pipefy_s = 0; pipefy_s < 4; ++pipefy_s) {
                pipefy_mbar_inval(&pipefy_full[pipefy_s]);
                pipefy_mbar_inval(&pipefy_empty[pipefy_s]);
            }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: the launches of 'plain' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_plain(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)plain_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, plain_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 32, 32) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 32, 32))
        plain_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        plain<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / T, M / T);
    int rc = harness_gemm<float, float>("trap_guard", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_trap_guard(grid, 256, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("helper_sync", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_helper_sync(grid, 256, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("vote_in_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_vote_in_compute(grid, 256, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("plain", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_plain(grid, 256, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
