// neg_participation.cu: K-loops that not every thread of a block may reach. The first is the
// textbook kernel whose K-loop sits inside its bounds check: where N is not a multiple of the
// tile, the edge blocks hold threads that never reach the barriers (the loop as written reads
// elements no thread wrote that tile; the build before this program gave it tensor copies
// whose mbarriers wait for the whole block: it hung): left as written, for every variant, with
// the condition named. The second leaves through a return under the same test: the threads
// that return have ended, and __syncthreads() waits only for the others, so registers and
// cp.async pipeline it; tensor copies, whose mbarriers count every thread, must refuse it,
// naming the return. The last two put the loop under conditions every thread of a block shares
// (the block's index, the arguments): pipelined.
// pipefy-args: --arch=sm_90
// pipefy-golden: tma ws ws-cp.async
// Usage: neg_participation [M N K] (multiples of 16, as the kernels as written need).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
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

__global__ void bounds_check(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row < M && col < N) {
        float t = 0;
        for (int i = 0; i < K / TS; i++) {
            As[ty][tx] = A[row * K + i * TS + tx];
            Bs[ty][tx] = B[(i * TS + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; k++)
                t += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        C[row * N + col] = t;
    }
}

__global__ void early_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row >= M || col >= N)
        return;
    float t = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_i = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int i) {
            if (pipefy_step)
                i++;
            if (!(i < K / TS))
                return false;
            pipefy_reg0 = A[row * K + i * TS + tx];
            pipefy_reg1 = B[(i * TS + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_i))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int i = 0; i < K / TS; i++) {
            bool pipefy_more = pipefy_fetch(true, i);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; k++)
                t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = t;
}

// the block's own bounds: every thread of a block takes the branch alike
__global__ void block_guard(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const int tiles = K / TS;
    if (blockIdx.y * TS < M && blockIdx.x * TS < N && tiles > 0) {
        float t = 0;
        for (int i = 0; i < tiles; i++) {
            As[ty][tx] = A[row * K + i * TS + tx];
            Bs[ty][tx] = B[(i * TS + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; k++)
                t += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        C[row * N + col] = t;
    } else if (row < M && col < N) {
        C[row * N + col] = 0.0f;
    }
}

// pipefy: 'block_guard' with sm_90 tensor copies; only pipefy_launch_block_guard below launches it
static __global__ void block_guard_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[4][TS][TS];
    __shared__ alignas(128) float Bs[4][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const int tiles = K / TS;
    if (blockIdx.y * TS < M && blockIdx.x * TS < N && tiles > 0) {
        float t = 0;
        // pipefy: K-loop pipelined with tensor copies (sm_90), 4 stages: tiles to t+2 are copied while tile t is computed, t+3 after it
        {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_i = 0;
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
                int i = pipefy_next_i;
                if (i < tiles) {
                    const long long pipefy_col_As = 16LL * i, pipefy_row_As = 16LL * blockIdx.y;
                    const long long pipefy_col_Bs = 16LL * blockIdx.x, pipefy_row_Bs = 16LL * i;
                    if (pipefy_col_As >= 0 && pipefy_col_As + 16 <= (long long)K &&
                        pipefy_row_As >= 0 && pipefy_row_As + 16 <= 2147483647LL && pipefy_row_As + 16 <= pipefy_rows_As &&
                        pipefy_col_Bs >= 0 && pipefy_col_Bs + 16 <= (long long)N &&
                        pipefy_row_Bs >= 0 && pipefy_row_Bs + 16 <= 2147483647LL && pipefy_row_Bs + 16 <= pipefy_rows_Bs) {
                        if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1) { // the block's last thread
                            if (pipefy_loads >= 4) // the stage's last tile, pipefy_loads - 4, is computed
                                pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                            pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 2048);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                            pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                               &pipefy_full[pipefy_dst]);
                            pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                               &pipefy_full[pipefy_dst]);
                        }
                    } else {
                        if (pipefy_loads >= 4)
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 4 - 1) & 1);
                        As[pipefy_dst][ty][tx] = A[row * K + i * TS + tx];
                        Bs[pipefy_dst][ty][tx] = B[(i * TS + ty) * N + col];
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                    }
                    ++pipefy_loads;
                    i++;
                    pipefy_next_i = i;
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
            for (int i = 0; i < tiles; i++) {
                pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
                for (int k = 0; k < TS; k++)
                    t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
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
        C[row * N + col] = t;
    } else if (row < M && col < N) {
        C[row * N + col] = 0.0f;
    }
}

// pipefy: the launches of 'block_guard' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_block_guard(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 16 && pipefy_block.y == 16 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)block_guard_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, block_guard_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 16, 16) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 16, 16))
        block_guard_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        block_guard<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

// a return every thread of a block takes or none does
__global__ void block_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    if (blockIdx.y * TS >= M || blockIdx.x * TS >= N)
        return;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float t = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_i = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int i) {
            if (pipefy_step)
                i++;
            if (!(i < K / TS))
                return false;
            pipefy_reg0 = A[row * K + i * TS + tx];
            pipefy_reg1 = B[(i * TS + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_i))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int i = 0; i < K / TS; i++) {
            bool pipefy_more = pipefy_fetch(true, i);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; k++)
                t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = t;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    // (blocks over the whole output, as such code launches them: at sizes that are not multiples
    // of the tile the kernels as written read elements no thread wrote, and fail the reference)
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("bounds_check", M, N, K, [&](const float *A, const float *B, float *C) {
        bounds_check<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("early_return", M, N, K, [&](const float *A, const float *B, float *C) {
        early_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("block_guard", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_block_guard(grid, block, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("block_return", M, N, K, [&](const float *A, const float *B, float *C) {
        block_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
