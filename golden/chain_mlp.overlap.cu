// chain_mlp.cu: a two-layer MLP as three launches on one stream, each kernel reading what the
// one before it wrote: H = X * W1 (tiled GEMM), G = gelu(H + b) (elementwise), Y = G * W2 (the
// same GEMM). Usage: chain_mlp [M HIDDEN FF] (HIDDEN and FF multiples of TS, M of TS).
// pipefy-golden: overlap queue
// gpu-runs: 16 64 64 | 16 16 16 | 32 64 48 | 64 128 256 | 256 256 512 | 1024 512 1024
// gpu-sanitize: 32 64 48
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
// pipefy: overlapped launches {
// A kernel launched by pipefy_launch_dependent may start while the kernel before it in its
// stream is finishing (programmatic dependent launch, sm_90); pipefy_grid_wait, first in its
// body, waits until that kernel has completed and its writes are visible (griddepcontrol.wait).
// Below sm_90, or where the kernel's code was compiled for less (and so does not wait), the
// launch is an ordinary one.
static __device__ __forceinline__ void pipefy_grid_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
static bool pipefy_kernel_waits(const void *kernel)
{
    static thread_local const void *known[8];
    static thread_local int known_device[8], next;
    static thread_local bool waits[8];
    int device;
    if (cudaGetDevice(&device) != cudaSuccess)
        return false;
    for (int i = 0; i < 8; i++)
        if (known[i] == kernel && known_device[i] == device)
            return waits[i];
    int major = 0;
    cudaFuncAttributes attr;
    bool w = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9 &&
             cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;
    known[next] = kernel;
    known_device[next] = device;
    waits[next] = w;
    next = (next + 1) % 8;
    return w;
}
// (the arguments become the kernel's parameter types where they are passed, as in a launch:
// P is deduced from the kernel alone, so `0` or NULL for a pointer is a null pointer)
template <class T>
struct pipefy_parameter {
    typedef T type;
};
template <class... P>
static cudaError_t pipefy_launch_dependent(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                                           typename pipefy_parameter<P>::type... args)
{
    cudaLaunchAttribute overlap;
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = &overlap;
    config.numAttrs = pipefy_kernel_waits((const void *)kernel) ? 1 : 0;
    return cudaLaunchKernelEx(&config, kernel, args...);
}
// } pipefy: overlapped launches

#define TS 16

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// pipefy: 'gemm' with sm_90 tensor copies; only pipefy_launch_gemm below launches it
static __global__ void gemm_pipefy_tma(const float *A, const float *B, float *C, int M, int N, int K,
    const __grid_constant__ CUtensorMap pipefy_map_As,
    const __grid_constant__ CUtensorMap pipefy_map_Bs)
{
    __shared__ alignas(128) float As[4][TS][TS];
    __shared__ alignas(128) float Bs[4][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
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
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 16LL * blockIdx.y;
                const long long pipefy_col_Bs = 16LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
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
                    As[pipefy_dst][ty][tx] = A[row * K + k0 + tx];
                    Bs[pipefy_dst][ty][tx] = B[(k0 + ty) * N + col];
                    pipefy_mbar_arrive(&pipefy_full[pipefy_dst], 1);
                }
                ++pipefy_loads;
                k0 += TS;
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase); // tile t has landed
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
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
    C[row * N + col] = acc;
}

// pipefy: the launches of 'gemm' in this file: with sm_90's tensor copies where the device has
// them and the kernel's code was compiled for them, the block is the shape the copies assume
// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes), and
// the copy's registers and shared memory let a block of that size run; the kernel as written
// otherwise
static void pipefy_launch_gemm(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    CUtensorMap pipefy_map_As, pipefy_map_Bs;
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.x == 16 && pipefy_block.y == 16 && pipefy_block.z == 1 && pipefy_sm90_code((const void *)gemm_pipefy_tma) &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, gemm_pipefy_tma, (int)(pipefy_block.x * pipefy_block.y * pipefy_block.z), pipefy_smem) == cudaSuccess &&
        pipefy_resident > 0 &&
        pipefy_tensor_map_2d(&pipefy_map_As, A, 4, (long long)K, 16, 16) &&
        pipefy_tensor_map_2d(&pipefy_map_Bs, B, 4, (long long)N, 16, 16))
        gemm_pipefy_tma<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K, pipefy_map_As, pipefy_map_Bs);
    else
        gemm<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

__global__ void bias_gelu(const float *H, const float *bias, float *G, int M, int N)
{
    pipefy_grid_wait(); // pipefy: 'bias_gelu' may start before the kernel launched ahead of it ends: wait for it first
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        float x = H[i] + bias[i % N];
        G[i] = 0.5f * x * (1.0f + erff(x * 0.70710678f));
    }
}

static double gelu_ref(double x) { return 0.5 * x * (1.0 + erf(x * 0.7071067811865476)); }

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 256};  // M HIDDEN FF
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], D = sz[1], F = sz[2];
    size_t nx = (size_t)M * D, nw1 = (size_t)D * F, nh = (size_t)M * F, nw2 = (size_t)F * D;
    float *hX = (float *)malloc(nx * 4), *hW1 = (float *)malloc(nw1 * 4), *hb = (float *)malloc(F * 4);
    float *hW2 = (float *)malloc(nw2 * 4), *hY = (float *)malloc(nx * 4);
    uint32_t seed = 777;
    for (size_t i = 0; i < nx; i++) hX[i] = harness_random(&seed);
    for (size_t i = 0; i < nw1; i++) hW1[i] = harness_random(&seed) * 0.25f;
    for (int i = 0; i < F; i++) hb[i] = harness_random(&seed);
    for (size_t i = 0; i < nw2; i++) hW2[i] = harness_random(&seed) * 0.25f;
    double *g = (double *)calloc(nh + 1, sizeof(double)), *ref = (double *)calloc(nx + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++) {
        for (int k = 0; k < D; k++)
            for (int j = 0; j < F; j++)
                g[(size_t)i * F + j] += (double)hX[(size_t)i * D + k] * hW1[(size_t)k * F + j];
        for (int j = 0; j < F; j++)
            g[(size_t)i * F + j] = gelu_ref(g[(size_t)i * F + j] + hb[j]);
        for (int k = 0; k < F; k++)
            for (int j = 0; j < D; j++)
                ref[(size_t)i * D + j] += g[(size_t)i * F + k] * hW2[(size_t)k * D + j];
    }
    float *dX, *dW1, *db, *dH, *dG, *dW2, *dY;
    CHECK(cudaMalloc(&dX, nx * 4));
    CHECK(cudaMalloc(&dW1, nw1 * 4));
    CHECK(cudaMalloc(&db, F * 4));
    CHECK(cudaMalloc(&dH, nh * 4));
    CHECK(cudaMalloc(&dG, nh * 4));
    CHECK(cudaMalloc(&dW2, nw2 * 4));
    CHECK(cudaMalloc(&dY, nx * 4));
    CHECK(cudaMemcpy(dX, hX, nx * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW1, hW1, nw1 * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, F * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW2, hW2, nw2 * 4, cudaMemcpyHostToDevice));
    dim3 block(TS, TS), up(F / TS, M / TS), down(D / TS, M / TS);
    int threads = 256, blocks = (int)((nh + threads - 1) / threads);
    auto chain = [&] {
        pipefy_launch_gemm(up, block, 0, 0, dX, dW1, dH, M, F, D);
        pipefy_launch_dependent(bias_gelu, blocks, threads, 0, 0, dH, db, dG, M, F);
        pipefy_launch_gemm(down, block, 0, 0, dG, dW2, dY, M, D, F);
    };
    // every buffer a kernel writes poisoned first: a kernel that reads one before the kernel
    // ahead of it has written it reads NaNs
    auto poisoned = [&] {
        CHECK(cudaMemset(dH, 0xff, nh * 4));
        CHECK(cudaMemset(dG, 0xff, nh * 4));
        CHECK(cudaMemset(dY, 0xff, nx * 4));
        chain();
    };
    poisoned();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hY, dY, nx * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_mlp: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hY, nx * 4));
    else
        rc = harness_report("chain_mlp", hY, ref, nx, 1e-3, 1e-3);
    if (harness_repeat("chain_mlp", dY, hY, nx * 4, poisoned))
        rc = 1;
    harness_time("chain_mlp", 2.0 * M * D * F * 2, chain);
    CHECK(cudaFree(dX));
    CHECK(cudaFree(dW1));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dH));
    CHECK(cudaFree(dG));
    CHECK(cudaFree(dW2));
    CHECK(cudaFree(dY));
    free(hX);
    free(hW1);
    free(hb);
    free(hW2);
    free(hY);
    free(g);
    free(ref);
    return rc;
}
