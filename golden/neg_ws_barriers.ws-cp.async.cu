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

// pipefy: 'plain' with cp.async copies from a producer warp; only pipefy_launch_plain below launches it
static __global__ void plain_pipefy_ws(const float *A, const float *B, float *C, int M, int N, int K)
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
        const long long pipefy_rows_As = (long long)K > 0 ? 2147483648LL / (long long)K : 0;
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
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                const bool pipefy_box = pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && (long long)K * 4 % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As &&
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
                                                    (const char *)pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 4) + pipefy_c * 16, 16);
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
                        As[pipefy_dst][i] = A[(r0 + i / T) * K + k0 + i % T];
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

// pipefy: the launches of 'plain' in this file: from a producer warp where the block is the shape
// the copies assume, whole warps, and room for one more (the producer's), and the copy's
// registers and shared memory let a block of that size run; the kernel as written otherwise
static void pipefy_launch_plain(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int M, int N, int K)
{
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024 &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, plain_pipefy_ws, (int)pipefy_block.x + 32, pipefy_smem) ==
            cudaSuccess && pipefy_resident > 0)
        plain_pipefy_ws<<<pipefy_grid, dim3(pipefy_block.x + 32, 1, 1), pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
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
        trap_guard<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("helper_sync", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_sync<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("vote_in_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        vote_in_compute<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("plain", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_plain(grid, 256, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
