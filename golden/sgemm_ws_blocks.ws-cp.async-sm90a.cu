// sgemm_ws_blocks.cu: one kernel whose copies and compute stride over the tile by blockDim.x, so
// that any whole number of warps runs it, launched with 160 threads (five warps).
// A producer warpgroup (ws and ws-cp.async on sm_90a) needs the kernel's threads to be whole
// warpgroups of 128: setmaxnreg is executed by whole warpgroups, and after 160 threads the
// producer's 128 would share a warpgroup with the kernel's last warp. pipefy keeps a one-warp
// producer for the 160-thread block (the remark says why); with that check broken
// (PIPEFY_TEST_BREAK=warpgroups) the CPU block model catches the warpgroup split.
// Usage: sgemm_ws_blocks [M N K] (multiples of 32).
// pipefy-args: --arch=sm_90
// pipefy-golden: ws ws-cp.async ws-sm90a ws-cp.async-sm90a
// gpu-runs: 32 32 0 | 32 32 32 | 64 96 64 | 256 256 256
// gpu-sanitize: 64 96 64
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
#define OUTS 8 // outputs a thread at most: 1024 of the tile over 160 threads or more

__global__ void sgemm_strided(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                              int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[OUTS] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i / T][i % T] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int j = 0; j < OUTS; ++j) {
            int o = threadIdx.x + j * blockDim.x;
            if (o < T * T)
                for (int k = 0; k < T; ++k)
                    acc[j] += As[o / T][k] * Bs[k][o % T];
        }
        __syncthreads();
    }
    for (int j = 0; j < OUTS; ++j) {
        int o = threadIdx.x + j * blockDim.x;
        if (o < T * T)
            C[(r0 + o / T) * N + c0 + o % T] = acc[j];
    }
}

// pipefy: 'sgemm_strided' with cp.async copies from a producer warp; only pipefy_launch_sgemm_strided below launches it
static __global__ void sgemm_strided_pipefy_ws(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                              int N, int K)
{
    const dim3 pipefy_block_dim(blockDim.x - 32, blockDim.y, blockDim.z); // pipefy: the block without its producer warp
    __shared__ alignas(128) float As[2][T][T];
    __shared__ alignas(128) float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[OUTS] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
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
                        As[pipefy_dst][i / T][i % T] = A[(r0 + i / T) * K + k0 + i % T];
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
            for (int j = 0; j < OUTS; ++j) {
                int o = threadIdx.x + j * pipefy_block_dim.x;
                if (o < T * T)
                    for (int k = 0; k < T; ++k)
                        acc[j] += As[pipefy_stage][o / T][k] * Bs[pipefy_stage][k][o % T];
            }
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
    for (int j = 0; j < OUTS; ++j) {
        int o = threadIdx.x + j * pipefy_block_dim.x;
        if (o < T * T)
            C[(r0 + o / T) * N + c0 + o % T] = acc[j];
    }
}

// pipefy: the launches of 'sgemm_strided' in this file: from a producer warp where the block is the shape
// the copies assume, whole warps, and room for one more (the producer's), and the copy's
// registers and shared memory let a block of that size run; the kernel as written otherwise
static void pipefy_launch_sgemm_strided(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024 &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, sgemm_strided_pipefy_ws, (int)pipefy_block.x + 32, pipefy_smem) ==
            cudaSuccess && pipefy_resident > 0)
        sgemm_strided_pipefy_ws<<<pipefy_grid, dim3(pipefy_block.x + 32, 1, 1), pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
    else
        sgemm_strided<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 96, 64};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_strided", M, N, K, [&](const float *A, const float *B, float *C) {
        pipefy_launch_sgemm_strided(dim3(N / T, M / T), 160, 0, 0, A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
