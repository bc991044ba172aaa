// hgemm_wmma.cu: fp16 wmma GEMM, 128x128x32 block tile, 8 warps of 64x32 each, tiles copied
// in 16-byte vectors by a strided copy loop. Usage: hgemm_wmma [M N K] (M, N multiples of
// 128, K a multiple of 32).
// gpu-runs: 128 128 0 | 128 128 32 | 128 128 64 | 128 128 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 128 128 96
#include "harness.cuh"
#include <mma.h>
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

using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8

__global__ void __launch_bounds__(256)
hgemm_wmma(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
           int M, int N, int K)
{
    __shared__ __align__(16) half As[BM][BK + PAD];
    __shared__ __align__(16) half Bs[BK][BN + PAD];
    int tid = threadIdx.x;
    int warp = tid / 32;
    int wm = (warp / 4) * 64, wn = (warp % 4) * 32;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK / 8; i += blockDim.x) {
            int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
            *(int4 *)&As[r][c] = *(const int4 *)&A[(size_t)(bm + r) * K + k0 + c];
        }
        for (int i = tid; i < BK * BN / 8; i += blockDim.x) {
            int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
            *(int4 *)&Bs[r][c] = *(const int4 *)&B[(size_t)(k0 + r) * N + bn + c];
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(fa[i], &As[wm + i * 16][kk], BK + PAD);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(fb[j], &Bs[kk][wn + j * 16], BN + PAD);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(size_t)(bm + wm + i * 16) * N + bn + wn + j * 16],
                                    acc[i][j], N, wmma::mem_row_major);
}

// pipefy: 'hgemm_wmma' with sm_90 tensor copies; only pipefy_launch_hgemm_wmma below launches it
static __global__ void __launch_bounds__(256)
hgemm_wmma_pipefy_tma(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
           int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) __align__(16) half As[2][BM][BK + PAD];
    __shared__ alignas(128) __align__(16) half Bs[2][BK][BN + PAD];
    int tid = threadIdx.x;
    int warp = tid / 32;
    int wm = (warp / 4) * 64, wn = (warp % 4) * 32;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

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
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, issued by
        // one thread, which arrives for all; where a box reaches outside its operand every thread
        // copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 128LL * blockIdx.y;
                const long long pipefy_col_Bs = 128LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 && pipefy_row_As + 128 <= 2147483647LL &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 128 <= (long long)N &&
                    pipefy_row_Bs >= 0 && pipefy_row_Bs + 32 <= 2147483647LL) {
                    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 18944);
                        pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        pipefy_tma_load_2d(&As[pipefy_dst], &pipefy_map_As, (int)pipefy_col_As, (int)pipefy_row_As,
                                           &pipefy_full[pipefy_dst]);
                        pipefy_tma_load_2d(&Bs[pipefy_dst], &pipefy_map_Bs, (int)pipefy_col_Bs, (int)pipefy_row_Bs,
                                           &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    for (int i = tid; i < BM * BK / 8; i += blockDim.x) {
                        int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                        *(int4 *)&As[pipefy_dst][r][c] = *(const int4 *)&A[(size_t)(bm + r) * K + k0 + c];
                    }
                    for (int i = tid; i < BK * BN / 8; i += blockDim.x) {
                        int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                        *(int4 *)&Bs[pipefy_dst][r][c] = *(const int4 *)&B[(size_t)(k0 + r) * N + bn + c];
                    }
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += BK;
                pipefy_next_k0 = k0;
            }
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        unsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += BK) {
            pipefy_load((pipefy_stage + 1) % 2);
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            __syncwarp(); // pipefy: the warp leaves its waits apart; 'wmma::load_matrix_sync' (46:17) needs it whole
            for (int kk = 0; kk < BK; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[4];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
                for (int i = 0; i < 4; i++)
                    wmma::load_matrix_sync(fa[i], &As[pipefy_stage][wm + i * 16][kk], BK + PAD);
                for (int j = 0; j < 2; j++)
                    wmma::load_matrix_sync(fb[j], &Bs[pipefy_stage][kk][wn + j * 16], BN + PAD);
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 2; j++)
                        wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
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
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(size_t)(bm + wm + i * 16) * N + bn + wn + j * 16],
                                    acc[i][j], N, wmma::mem_row_major);
}

// pipefy: the launches of 'hgemm_wmma' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_hgemm_wmma(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)hgemm_wmma_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, hgemm_wmma_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 2, (long long)K, 40, 128) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 2, (long long)N, 136, 32))
        hgemm_wmma_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        hgemm_wmma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<half, float>("hgemm_wmma", M, N, K, [&](const half *A, const half *B, float *C) {
        dim3 grid(N / BN, M / BM);
        pipefy_launch_hgemm_wmma(grid, 256, 0, 0, A, B, C, M, N, K);
    }, 1e-3, 1e-3);
}
// pipefy-golden: tma bulk ws ws-cp.async ws-sm90a ws-cp.async-sm90a
