// mma_bf16_ptx.cu: bf16 GEMM through inline PTX: ldmatrix (x4 for A, x2.trans for B) and
// mma.sync.m16n8k16 with fp32 accumulators. 64x64x32 block tile, 4 warps of 32x32, 16-byte
// copies by strided copy loops. Usage: mma_bf16_ptx [M N K] (M, N multiples of 64, K a
// multiple of 32).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"
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

#define BM 64
#define BN 64
#define BK 32
#define PAD 8

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__global__ void __launch_bounds__(128)
mma_bf16(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B, float *__restrict__ C,
         int M, int N, int K)
{
    __shared__ alignas(128) __align__(16) __nv_bfloat16 As[2][BM][BK + PAD];
    __shared__ alignas(128) __align__(16) __nv_bfloat16 Bs[2][BK][BN + PAD];
    int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    float acc[2][4][4] = {};

    // pipefy: K-loop pipelined with bulk copies (sm_90), 2 stages: tile t+1 is copied while tile t is computed
    // pipefy: bulk copies need sm_90, the block shape the copies assume and rows of whole
    // 16-byte units; elsewhere the loop runs as written
    if (pipefy_sm90 && blockDim.x == 128 && blockDim.y == 1 && blockDim.z == 1 &&
        (long long)K * 2 % 16 == 0 &&
        (long long)N * 2 % 16 == 0) {
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
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, each of its
        // rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand
        // or starts off a 16-byte boundary every thread copies as written and arrives for itself
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 64LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 2);
                const long long pipefy_col_Bs = 64LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 2);
                if (pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 64 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0) {
                    if (pipefy_tid < 32) {
                        if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                            pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                        pipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes
                        if (pipefy_tid == 0) {
                            pipefy_mbar_expect_tx(&pipefy_full[pipefy_dst], 8192);
                            pipefy_mbar_arrive(&pipefy_full[pipefy_dst], pipefy_threads);
                        }
                        __syncwarp(pipefy_warp0); // the bytes are expected before any row lands
                        for (unsigned pipefy_r = pipefy_tid; pipefy_r < 64; pipefy_r += pipefy_issuers)
                            pipefy_bulk_load((char *)&As[pipefy_dst] + pipefy_r * 80,
                                             (const void *)(pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 2)),
                                             64, &pipefy_full[pipefy_dst]);
                        for (unsigned pipefy_r = pipefy_tid; pipefy_r < 32; pipefy_r += pipefy_issuers)
                            pipefy_bulk_load((char *)&Bs[pipefy_dst] + pipefy_r * 144,
                                             (const void *)(pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 2)),
                                             128, &pipefy_full[pipefy_dst]);
                    }
                } else {
                    if (pipefy_loads >= 2)
                        pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);
                    for (int i = tid; i < BM * BK / 8; i += 128) {
                        int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                        *(uint4 *)&As[pipefy_dst][r][c] = *(const uint4 *)&A[(size_t)(bm + r) * K + k0 + c];
                    }
                    for (int i = tid; i < BK * BN / 8; i += 128) {
                        int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                        *(uint4 *)&Bs[pipefy_dst][r][c] = *(const uint4 *)&B[(size_t)(k0 + r) * N + bn + c];
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
            __syncwarp(); // pipefy: the warp leaves its waits apart; 'ldmatrix.sync.aligned.m8n8.x4.shared.b16' (45:17) needs it whole
#pragma unroll
            for (int kk = 0; kk < BK; kk += 16) {
                unsigned a[2][4], b[4][2];
#pragma unroll
                for (int mi = 0; mi < 2; mi++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                                 : "r"(smem_addr(&As[pipefy_stage][wm + mi * 16 + lane % 16][kk + (lane / 16) * 8])));
#pragma unroll
                for (int ni = 0; ni < 4; ni++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                                 : "=r"(b[ni][0]), "=r"(b[ni][1])
                                 : "r"(smem_addr(&Bs[pipefy_stage][kk + lane % 16][wn + ni * 8])));
#pragma unroll
                for (int mi = 0; mi < 2; mi++)
#pragma unroll
                    for (int ni = 0; ni < 4; ni++)
                        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                     : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]),
                                       "+f"(acc[mi][ni][3])
                                     : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]),
                                       "r"(b[ni][0]), "r"(b[ni][1]));
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
    } else {
        for (int k0 = 0; k0 < K; k0 += BK) {
            for (int i = tid; i < BM * BK / 8; i += 128) {
                int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
                *(uint4 *)&As[0][r][c] = *(const uint4 *)&A[(size_t)(bm + r) * K + k0 + c];
            }
            for (int i = tid; i < BK * BN / 8; i += 128) {
                int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
                *(uint4 *)&Bs[0][r][c] = *(const uint4 *)&B[(size_t)(k0 + r) * N + bn + c];
            }
            __syncthreads();
#pragma unroll
            for (int kk = 0; kk < BK; kk += 16) {
                unsigned a[2][4], b[4][2];
#pragma unroll
                for (int mi = 0; mi < 2; mi++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                                 : "r"(smem_addr(&As[0][wm + mi * 16 + lane % 16][kk + (lane / 16) * 8])));
#pragma unroll
                for (int ni = 0; ni < 4; ni++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                                 : "=r"(b[ni][0]), "=r"(b[ni][1])
                                 : "r"(smem_addr(&Bs[0][kk + lane % 16][wn + ni * 8])));
#pragma unroll
                for (int mi = 0; mi < 2; mi++)
#pragma unroll
                    for (int ni = 0; ni < 4; ni++)
                        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                     : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]),
                                       "+f"(acc[mi][ni][3])
                                     : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]),
                                       "r"(b[ni][0]), "r"(b[ni][1]));
            }
            __syncthreads();
        }
    }
    for (int mi = 0; mi < 2; mi++)
        for (int ni = 0; ni < 4; ni++) {
            int row = bm + wm + mi * 16 + lane / 4, col = bn + wn + ni * 8 + (lane % 4) * 2;
            C[(size_t)row * N + col] = acc[mi][ni][0];
            C[(size_t)row * N + col + 1] = acc[mi][ni][1];
            C[(size_t)(row + 8) * N + col] = acc[mi][ni][2];
            C[(size_t)(row + 8) * N + col + 1] = acc[mi][ni][3];
        }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<__nv_bfloat16, float>("mma_bf16_ptx", M, N, K,
                                              [&](const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C) {
        mma_bf16<<<dim3(N / BN, M / BM), 128>>>(A, B, C, M, N, K);
    }, 1e-3, 1e-3);
}
// pipefy-golden: tma bulk ws ws-cp.async ws-sm90a ws-cp.async-sm90a
