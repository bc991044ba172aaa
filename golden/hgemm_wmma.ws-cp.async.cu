// hgemm_wmma.cu: fp16 wmma GEMM, 128x128x32 block tile, 8 warps of 64x32 each, tiles copied
// in 16-byte vectors by a strided copy loop. Usage: hgemm_wmma [M N K] (M, N multiples of
// 128, K a multiple of 32).
// gpu-runs: 128 128 0 | 128 128 32 | 128 128 64 | 128 128 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 128 128 96
#include "harness.cuh"
#include <mma.h>
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

// pipefy: 'hgemm_wmma' with cp.async copies from a producer warp; only pipefy_launch_hgemm_wmma below launches it
static __global__ void __launch_bounds__((256) + 32 /* pipefy: the producer warp */)
hgemm_wmma_pipefy_ws(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
           int M, int N, int K)
{
    const dim3 pipefy_block_dim(blockDim.x - 32, blockDim.y, blockDim.z); // pipefy: the block without its producer warp
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
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, its rows
        // copied by the producer warp's 32 threads in 16-byte units; where a box reaches outside its
        // operand or starts off a 16-byte boundary the kernel's threads copy as written; the
        // producer commits one group of copies a call, empty past the last tile
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 128LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 2);
                const long long pipefy_col_Bs = 128LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 2);
                const bool pipefy_box = pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && (long long)K * 2 % 16 == 0 &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 128 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && (long long)N * 2 % 16 == 0;
                if (pipefy_producer) {
                    if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                        pipefy_bar_sync(3 + pipefy_dst, pipefy_threads + 32);
                    if (pipefy_box) {
                        for (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < 512; pipefy_i += 32) {
                            const unsigned pipefy_r = pipefy_i / 4, pipefy_c = pipefy_i % 4;
                            __pipeline_memcpy_async((char *)&As[pipefy_dst] + pipefy_r * 80 + pipefy_c * 16,
                                                    (const char *)pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 2) + pipefy_c * 16, 16);
                        }
                        for (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < 512; pipefy_i += 32) {
                            const unsigned pipefy_r = pipefy_i / 16, pipefy_c = pipefy_i % 16;
                            __pipeline_memcpy_async((char *)&Bs[pipefy_dst] + pipefy_r * 272 + pipefy_c * 16,
                                                    (const char *)pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 2) + pipefy_c * 16, 16);
                        }
                    }
                } else if (!pipefy_box) {
                    if (pipefy_loads >= 2) // every kernel thread is done with the stage's last tile
                        pipefy_bar_sync(5, pipefy_threads);
                    for (int i = tid; i < BM * BK / 8; i += pipefy_block_dim.x) {
                        int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                        *(int4 *)&As[pipefy_dst][r][c] = *(const int4 *)&A[(size_t)(bm + r) * K + k0 + c];
                    }
                    for (int i = tid; i < BK * BN / 8; i += pipefy_block_dim.x) {
                        int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                        *(int4 *)&Bs[pipefy_dst][r][c] = *(const int4 *)&B[(size_t)(k0 + r) * N + bn + c];
                    }
                }
                ++pipefy_loads;
                k0 += BK;
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
        for (int k0 = 0; k0 < K; k0 += BK) {
            pipefy_load((int)(pipefy_loads % 2));
            if (pipefy_producer) { // the producer warp only copies, and says when tile t has landed
                __pipeline_wait_prior(1);
                pipefy_bar_arrive(1 + pipefy_stage, pipefy_threads + 32);
                pipefy_stage = (pipefy_stage + 1) % 2;
                continue;
            }
            pipefy_bar_sync(1 + pipefy_stage, pipefy_threads + 32); // tile t has landed
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
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(size_t)(bm + wm + i * 16) * N + bn + wn + j * 16],
                                    acc[i][j], N, wmma::mem_row_major);
}

// pipefy: the launches of 'hgemm_wmma' in this file: from a producer warp where the block is the shape
// the copies assume, whole warps, and room for one more (the producer's), and the copy's
// registers and shared memory let a block of that size run; the kernel as written otherwise
static void pipefy_launch_hgemm_wmma(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024 &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, hgemm_wmma_pipefy_ws, (int)pipefy_block.x + 32, pipefy_smem) ==
            cudaSuccess && pipefy_resident > 0)
        hgemm_wmma_pipefy_ws<<<pipefy_grid, dim3(pipefy_block.x + 32, 1, 1), pipefy_smem, pipefy_stream>>>(A, B, C, M, N, K);
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
