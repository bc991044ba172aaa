// sgemm_pointer_bumps.cu: the induction carried by pointer bumps (A += TS; B += TS * N;)
// placed before the first barrier, between the barrier and the compute, and after the
// second barrier, one kernel each. Usage: sgemm_pointer_bumps [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 128 128 256 | 512 512 512
// gpu-sanitize: 32 32 48
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

#define TS 16

__global__ void bump_before_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    A += (blockIdx.y * TS + ty) * K + tx;
    B += ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = *A;
        Bs[ty][tx] = *B;
        A += TS;
        B += TS * N;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// pipefy: 'bump_before_barrier' with sm_90 tensor copies; only pipefy_launch_bump_before_barrier below launches it
static __global__ void bump_before_barrier_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    auto const pipefy_entry_A = A; // pipefy: where 'A' points on entry, its tensor map's base
    auto const pipefy_entry_B = B; // pipefy: where 'B' points on entry, its tensor map's base
    __shared__ alignas(128) float As[2][TS][TS];
    __shared__ alignas(128) float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    A += (blockIdx.y * TS + ty) * K + tx;
    B += ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with tensor copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        const float *pipefy_next_A = A;
        const float *pipefy_next_B = B;
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
        // pipefy: the offsets the kernel computed in 32 bits are exact in every thread (else no box)
        const bool pipefy_exact = __syncthreads_and(0LL <= (16LL * blockIdx.y * K + (long long)threadIdx.y * K + (long long)threadIdx.x) && (16LL * blockIdx.y * K + (long long)threadIdx.y * K + (long long)threadIdx.x) <= 4294967295LL &&
            0LL <= ((long long)threadIdx.y * N + 16LL * blockIdx.x + (long long)threadIdx.x) && ((long long)threadIdx.y * N + 16LL * blockIdx.x + (long long)threadIdx.x) <= 4294967295LL);
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            const float *A = pipefy_next_A;
            const float *B = pipefy_next_B;
            if (k0 < K) {
                const long long pipefy_flat_As = (long long)(A - pipefy_entry_A) - (16LL * blockIdx.y * K + (long long)threadIdx.y * K + (long long)threadIdx.x) + (16LL * blockIdx.y * K);
                const long long pipefy_col_As = pipefy_flat_As % ((long long)K), pipefy_row_As = pipefy_flat_As / ((long long)K);
                const long long pipefy_flat_Bs = (long long)(B - pipefy_entry_B) - ((long long)threadIdx.y * N + 16LL * blockIdx.x + (long long)threadIdx.x) + (16LL * blockIdx.x);
                const long long pipefy_col_Bs = pipefy_flat_Bs % ((long long)N), pipefy_row_Bs = pipefy_flat_Bs / ((long long)N);
                if (pipefy_col_As >= 0 && pipefy_col_As + 16 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 16 <= 2147483647LL &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 16 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 16 <= 2147483647LL &&
                    pipefy_exact &&
                    -2147483648LL <= (16LL) && (16LL) <= 2147483647LL && -2147483648LL <= (16LL * N) && (16LL * N) <= 2147483647LL) {
                    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 2048);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = *A;
                    Bs[pipefy_dst][ty][tx] = *B;
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                A += TS;
                B += TS * N;
                k0 += TS;
                pipefy_next_k0 = k0;
                pipefy_next_A = A;
                pipefy_next_B = B;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += TS) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            A += TS;
            B += TS * N;
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
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// pipefy: the launches of 'bump_before_barrier' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_bump_before_barrier(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 16 && pipefy_block.y == 16 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)bump_before_barrier_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, bump_before_barrier_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 16, 16) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 16, 16))
        bump_before_barrier_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        bump_before_barrier<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

__global__ void bump_after_first_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = a[0];
        Bs[ty][tx] = b[0];
        __syncthreads();
        a += TS;
        b += TS * N;
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// pipefy: 'bump_after_first_barrier' with sm_90 tensor copies; only pipefy_launch_bump_after_first_barrier below launches it
static __global__ void bump_after_first_barrier_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[2][TS][TS];
    __shared__ alignas(128) float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with tensor copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        const float *pipefy_next_a = a;
        const float *pipefy_next_b = b;
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
        // pipefy: the offsets the kernel computed in 32 bits are exact in every thread (else no box)
        const bool pipefy_exact = __syncthreads_and(-2147483648LL <= ((long long)threadIdx.x) && ((long long)threadIdx.x) <= 2147483647LL && 0LL <= (16LL * blockIdx.y * K + (long long)threadIdx.y * K) && (16LL * blockIdx.y * K + (long long)threadIdx.y * K) <= 4294967295LL && -2147483648LL <= (0LL) && (0LL) <= 2147483647LL &&
            -2147483648LL <= ((long long)threadIdx.x) && ((long long)threadIdx.x) <= 2147483647LL && 0LL <= (16LL * blockIdx.x) && (16LL * blockIdx.x) <= 4294967295LL && -2147483648LL <= ((long long)threadIdx.y * N) && ((long long)threadIdx.y * N) <= 2147483647LL && -2147483648LL <= (0LL) && (0LL) <= 2147483647LL);
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int t = pipefy_next_t;
            const float *a = pipefy_next_a;
            const float *b = pipefy_next_b;
            if (t < K / TS) {
                const long long pipefy_flat_As = (long long)(a - A) - ((long long)threadIdx.x + 16LL * blockIdx.y * K + (long long)threadIdx.y * K) + (16LL * blockIdx.y * K);
                const long long pipefy_col_As = pipefy_flat_As % ((long long)K), pipefy_row_As = pipefy_flat_As / ((long long)K);
                const long long pipefy_flat_Bs = (long long)(b - B) - ((long long)threadIdx.x + 16LL * blockIdx.x + (long long)threadIdx.y * N) + (16LL * blockIdx.x);
                const long long pipefy_col_Bs = pipefy_flat_Bs % ((long long)N), pipefy_row_Bs = pipefy_flat_Bs / ((long long)N);
                if (pipefy_col_As >= 0 && pipefy_col_As + 16 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 16 <= 2147483647LL &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 16 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 16 <= 2147483647LL &&
                    pipefy_exact &&
                    -2147483648LL <= (16LL) && (16LL) <= 2147483647LL && -2147483648LL <= (16LL * N) && (16LL * N) <= 2147483647LL) {
                    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 2048);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = a[0];
                    Bs[pipefy_dst][ty][tx] = b[0];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                a += TS;
                b += TS * N;
                ++t;
                pipefy_next_t = t;
                pipefy_next_a = a;
                pipefy_next_b = b;
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
            a += TS;
            b += TS * N;
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
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// pipefy: the launches of 'bump_after_first_barrier' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_bump_after_first_barrier(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 16 && pipefy_block.y == 16 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)bump_after_first_barrier_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, bump_after_first_barrier_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 16, 16) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 16, 16))
        bump_after_first_barrier_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        bump_after_first_barrier<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

__global__ void bump_after_second_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    int k0 = 0;
    for (; k0 < K; ) {
        As[ty][tx] = a[0];
        Bs[ty][tx] = b[0];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        a += TS;
        b += TS * N;
        k0 += TS;
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// pipefy: 'bump_after_second_barrier' with sm_90 tensor copies; only pipefy_launch_bump_after_second_barrier below launches it
static __global__ void bump_after_second_barrier_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[2][TS][TS];
    __shared__ alignas(128) float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    int k0 = 0;
    // pipefy: K-loop pipelined with tensor copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        const float *pipefy_next_a = a;
        const float *pipefy_next_b = b;
        int pipefy_next_k0 = k0;
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
        // pipefy: the offsets the kernel computed in 32 bits are exact in every thread (else no box)
        const bool pipefy_exact = __syncthreads_and(-2147483648LL <= ((long long)threadIdx.x) && ((long long)threadIdx.x) <= 2147483647LL && 0LL <= (16LL * blockIdx.y * K + (long long)threadIdx.y * K) && (16LL * blockIdx.y * K + (long long)threadIdx.y * K) <= 4294967295LL && -2147483648LL <= (0LL) && (0LL) <= 2147483647LL &&
            -2147483648LL <= ((long long)threadIdx.x) && ((long long)threadIdx.x) <= 2147483647LL && 0LL <= (16LL * blockIdx.x) && (16LL * blockIdx.x) <= 4294967295LL && -2147483648LL <= ((long long)threadIdx.y * N) && ((long long)threadIdx.y * N) <= 2147483647LL && -2147483648LL <= (0LL) && (0LL) <= 2147483647LL);
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            const float *a = pipefy_next_a;
            const float *b = pipefy_next_b;
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_flat_As = (long long)(a - A) - ((long long)threadIdx.x + 16LL * blockIdx.y * K + (long long)threadIdx.y * K) + (16LL * blockIdx.y * K);
                const long long pipefy_col_As = pipefy_flat_As % ((long long)K), pipefy_row_As = pipefy_flat_As / ((long long)K);
                const long long pipefy_flat_Bs = (long long)(b - B) - ((long long)threadIdx.x + 16LL * blockIdx.x + (long long)threadIdx.y * N) + (16LL * blockIdx.x);
                const long long pipefy_col_Bs = pipefy_flat_Bs % ((long long)N), pipefy_row_Bs = pipefy_flat_Bs / ((long long)N);
                if (pipefy_col_As >= 0 && pipefy_col_As + 16 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 16 <= 2147483647LL &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 16 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 16 <= 2147483647LL &&
                    pipefy_exact &&
                    -2147483648LL <= (16LL) && (16LL) <= 2147483647LL && -2147483648LL <= (16LL * N) && (16LL * N) <= 2147483647LL && -2147483648LL <= (16LL) && (16LL) <= 2147483647LL) {
                    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 2048);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    As[pipefy_dst][ty][tx] = a[0];
                    Bs[pipefy_dst][ty][tx] = b[0];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                a += TS;
                b += TS * N;
                k0 += TS;
                pipefy_next_a = a;
                pipefy_next_b = b;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (; k0 < K; ) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            a += TS;
            b += TS * N;
            k0 += TS;
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
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// pipefy: the launches of 'bump_after_second_barrier' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_bump_after_second_barrier(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 16 && pipefy_block.y == 16 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)bump_after_second_barrier_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, bump_after_second_barrier_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 16, 16) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 16, 16))
        bump_after_second_barrier_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        bump_after_second_barrier<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = 0;
    rc |= harness_gemm<float, float>("bump_before_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_bump_before_barrier(grid, block, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_first_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_bump_after_first_barrier(grid, block, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_second_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_bump_after_second_barrier(grid, block, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
// pipefy-golden: tma bulk ws
