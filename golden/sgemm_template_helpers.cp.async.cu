// sgemm_template_helpers.cu: the tiles filled by calls of function templates, one call a tile
// (`load_tile<BM, BK, NT>(As, A, ..); load_tile<BK, BN, NT>(Bs, B, ..);`), as leimao's, sampan's
// and siboehm's kernels fill theirs. pipefy reads the template's definition (its stores, its
// guards, with the template's parameters constants of the instantiation) and cp.async calls a
// copy of the template whose stores are asynchronous copies, `load_tile_pipefy_async<BM, BK,
// NT>(As[s], A, ..)`. The first kernel is a template whose calls clang leaves unresolved until
// it is instantiated; the second a plain kernel whose call names a specialization, through a
// namespace; the fourth one whose template is declared, with a default argument, before it is
// defined; the third, a template again, calls through a namespace (siboehm's
// `wt::loadFromGmem<..>`) a helper filling 4-byte elements, guarded with zeros past K, which
// auto leaves (narrow cp.async lost on the H200) and --variant=cp.async takes.
// Usage: sgemm_template_helpers [M N K] (M, N multiples of 64; K a multiple of 16 for the
// kernels of float4 tiles, any for the third).
// gpu-runs: 64 64 0 | 64 64 16 | 64 128 48 | 128 64 80 | 512 512 512
// gpu-sanitize: 64 128 48
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

// Copies a ROWS x COLS tile of float4s (COLS4 = COLS / 4 of them a row) from G, whose rows are
// ld4 float4s apart, with NT threads.
template <int ROWS, int COLS4, int NT>
__device__ void load_tile(float4 (*S)[COLS4], const float4 *G, int ld4)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS4; i += NT)
        S[i / COLS4][i % COLS4] = G[(i / COLS4) * ld4 + i % COLS4];
}

// pipefy: 'load_tile' with its copies made asynchronous (cp.async), for the pipelined loop that calls it
template <int ROWS, int COLS4, int NT>
__device__ void load_tile_pipefy_async(float4 (*S)[COLS4], const float4 *G, int ld4)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS4; i += NT)
        __pipeline_memcpy_async(&S[i / COLS4][i % COLS4], &G[(i / COLS4) * ld4 + i % COLS4], sizeof(float4));
}

namespace ld {
template <int ROWS, int COLS4>
__device__ void tile256(float4 (*S)[COLS4], const float4 *G, int ld4)
{
#pragma unroll
    for (int j = 0; j < ROWS * COLS4 / 256; ++j) {
        int i = threadIdx.y * 16 + threadIdx.x + j * 256;
        S[i / COLS4][i % COLS4] = G[(i / COLS4) * ld4 + i % COLS4];
    }
}

// pipefy: 'tile256' with its copies made asynchronous (cp.async), for the pipelined loop that calls it
template <int ROWS, int COLS4>
__device__ void tile256_pipefy_async(float4 (*S)[COLS4], const float4 *G, int ld4)
{
#pragma unroll
    for (int j = 0; j < ROWS * COLS4 / 256; ++j) {
        int i = threadIdx.y * 16 + threadIdx.x + j * 256;
        __pipeline_memcpy_async(&S[i / COLS4][i % COLS4], &G[(i / COLS4) * ld4 + i % COLS4], sizeof(float4));
    }
}
} // namespace ld

// Declared in its namespace with a default argument, defined outside it: the asynchronous copy
// is declared again next to each declaration (without the declaration, `fw::rows_pipefy_async`
// named nothing, and without the default, `fw::rows<64, 4>` matched nothing).
namespace fw {
template <int ROWS, int COLS4, int NT = 256>
__device__ void rows(float4 (*S)[COLS4], const float4 *G, int ld4);
template <int ROWS, int COLS4, int NT = 256>
__device__ void rows_pipefy_async(float4 (*S)[COLS4], const float4 *G, int ld4);
} // namespace fw

template <int ROWS, int COLS4, int NT>
__device__ void fw::rows(float4 (*S)[COLS4], const float4 *G, int ld4)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS4; i += NT)
        S[i / COLS4][i % COLS4] = G[(i / COLS4) * ld4 + i % COLS4];
}

// pipefy: 'rows' with its copies made asynchronous (cp.async), for the pipelined loop that calls it
template <int ROWS, int COLS4, int NT>
__device__ void fw::rows_pipefy_async(float4 (*S)[COLS4], const float4 *G, int ld4)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS4; i += NT)
        __pipeline_memcpy_async(&S[i / COLS4][i % COLS4], &G[(i / COLS4) * ld4 + i % COLS4], sizeof(float4));
}

// 64x64 tile of C a block of 16x16 threads, 4x4 a thread; K steps of BK.
template <int BM, int BN, int BK>
__global__ void sgemm_template_fill(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    __shared__ float4 As[2][BM][BK / 4];
    __shared__ float4 Bs[2][BK][BN / 4];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float4 *A4 = (const float4 *)(A + blockIdx.y * BM * K);
    const float4 *B4 = (const float4 *)(B + blockIdx.x * BN);
    float acc[4][4] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                load_tile_pipefy_async<BM, BK / 4, 256>(As[pipefy_dst], A4 + k0 / 4, K / 4);
                load_tile_pipefy_async<BK, BN / 4, 256>(Bs[pipefy_dst], B4 + k0 * (N / 4), N / 4);
                k0 += BK;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += BK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < BK; ++k) {
                float4 b = Bs[pipefy_stage][k][tx];
                for (int r = 0; r < 4; ++r) {
                    float4 a4 = As[pipefy_stage][ty * 4 + r][k / 4];
                    float a = k % 4 == 0 ? a4.x : k % 4 == 1 ? a4.y : k % 4 == 2 ? a4.z : a4.w;
                    acc[r][0] += a * b.x;
                    acc[r][1] += a * b.y;
                    acc[r][2] += a * b.z;
                    acc[r][3] += a * b.w;
                }
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            C[(blockIdx.y * BM + ty * 4 + r) * N + blockIdx.x * BN + tx * 4 + c] = acc[r][c];
}

// The same tiles, a plain kernel: the call names ld::tile256<64, 4>, a specialization.
__global__ void sgemm_namespace_fill(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                     int M, int N, int K)
{
    __shared__ float4 As[2][64][4];
    __shared__ float4 Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float4 *A4 = (const float4 *)(A + blockIdx.y * 64 * K);
    const float4 *B4 = (const float4 *)(B + blockIdx.x * 64);
    float acc[4][4] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                ld::tile256_pipefy_async<64, 4>(As[pipefy_dst], A4 + k0 / 4, K / 4);
                ld::tile256_pipefy_async<16, 16>(Bs[pipefy_dst], B4 + k0 * (N / 4), N / 4);
                k0 += 16;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += 16) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < 16; ++k) {
                float4 b = Bs[pipefy_stage][k][tx];
                for (int r = 0; r < 4; ++r) {
                    float4 a4 = As[pipefy_stage][ty * 4 + r][k / 4];
                    float a = k % 4 == 0 ? a4.x : k % 4 == 1 ? a4.y : k % 4 == 2 ? a4.z : a4.w;
                    acc[r][0] += a * b.x;
                    acc[r][1] += a * b.y;
                    acc[r][2] += a * b.z;
                    acc[r][3] += a * b.w;
                }
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            C[(blockIdx.y * 64 + ty * 4 + r) * N + blockIdx.x * 64 + tx * 4 + c] = acc[r][c];
}

// The same tiles again, through the declared template, its last argument the default's.
__global__ void sgemm_declared_fill(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int M, int N, int K)
{
    __shared__ float4 As[2][64][4];
    __shared__ float4 Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float4 *A4 = (const float4 *)(A + blockIdx.y * 64 * K);
    const float4 *B4 = (const float4 *)(B + blockIdx.x * 64);
    float acc[4][4] = {};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                fw::rows_pipefy_async<64, 4>(As[pipefy_dst], A4 + k0 / 4, K / 4);
                fw::rows_pipefy_async<16, 16>(Bs[pipefy_dst], B4 + k0 * (N / 4), N / 4);
                k0 += 16;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += 16) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < 16; ++k) {
                float4 b = Bs[pipefy_stage][k][tx];
                for (int r = 0; r < 4; ++r) {
                    float4 a4 = As[pipefy_stage][ty * 4 + r][k / 4];
                    float a = k % 4 == 0 ? a4.x : k % 4 == 1 ? a4.y : k % 4 == 2 ? a4.z : a4.w;
                    acc[r][0] += a * b.x;
                    acc[r][1] += a * b.y;
                    acc[r][2] += a * b.z;
                    acc[r][3] += a * b.w;
                }
            }
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            C[(blockIdx.y * 64 + ty * 4 + r) * N + blockIdx.x * 64 + tx * 4 + c] = acc[r][c];
}

namespace ld {
// 4-byte elements, zero past K (sampan's load_shmem): HEIGHT x WIDTH from in, rows stride apart,
// max_row x max_col of them real.
template <int BLOCK, int HEIGHT, int WIDTH>
__device__ void guarded(const float *in, int stride, int max_row, int max_col, float out[HEIGHT][WIDTH], int tid)
{
    for (int idx = tid; idx < HEIGHT * WIDTH; idx += BLOCK) {
        const int row = idx / WIDTH;
        const int col = idx % WIDTH;
        out[row][col] = row < max_row && col < max_col ? in[row * stride + col] : 0.0f;
    }
}

// pipefy: 'guarded' with its copies made asynchronous (cp.async), for the pipelined loop that calls it
template <int BLOCK, int HEIGHT, int WIDTH>
__device__ void guarded_pipefy_async(const float *in, int stride, int max_row, int max_col, float out[HEIGHT][WIDTH], int tid)
{
    for (int idx = tid; idx < HEIGHT * WIDTH; idx += BLOCK) {
        const int row = idx / WIDTH;
        const int col = idx % WIDTH;
        __pipeline_memcpy_async(&out[row][col], (row < max_row && col < max_col) ? &in[row * stride + col] : in, sizeof(float), (row < max_row && col < max_col) ? 0 : sizeof(float));
    }
}
} // namespace ld

// 64x64 tile of C, 256 threads in one dimension, 16 outputs a thread.
template <int BLOCK, int BM, int BN, int BK>
__global__ void sgemm_guarded_template(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int tid = threadIdx.x;
    const int offset_m = blockIdx.y * BM, offset_n = blockIdx.x * BN;
    A += offset_m * K;
    B += offset_n;
    __shared__ float A_shmem[2][BM][BK];
    __shared__ float B_shmem[2][BK][BN];
    float acc[BM * BN / BLOCK] = {0.0f};
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_offset_k = 0;
        const float *pipefy_next_A = A;
        const float *pipefy_next_B = B;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int offset_k = pipefy_next_offset_k;
            const float *A = pipefy_next_A;
            const float *B = pipefy_next_B;
            if (offset_k < K) {
                ld::guarded_pipefy_async<BLOCK, BM, BK>(A, K, M - offset_m, K - offset_k, A_shmem[pipefy_dst], tid);
                ld::guarded_pipefy_async<BLOCK, BK, BN>(B, N, K - offset_k, N - offset_n, B_shmem[pipefy_dst], tid);
                A += BK;
                B += BK * N;
                offset_k += BK;
                pipefy_next_offset_k = offset_k;
                pipefy_next_A = A;
                pipefy_next_B = B;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int offset_k = 0; offset_k < K; offset_k += BK) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int idx = tid; idx < BM * BN; idx += BLOCK) {
                const int row = idx / BN, col = idx % BN;
                for (int k = 0; k < BK; k++)
                    acc[idx / BLOCK] += A_shmem[pipefy_stage][row][k] * B_shmem[pipefy_stage][k][col];
            }
            A += BK;
            B += BK * N;
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (int idx = tid; idx < BM * BN; idx += BLOCK)
        C[(offset_m + idx / BN) * N + offset_n + idx % BN] = acc[idx / BLOCK];
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 64, 80};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = 0;
    if (K % 16 == 0) {
        rc |= harness_gemm<float, float>("sgemm_template_fill", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_template_fill<64, 64, 16><<<dim3(N / 64, M / 64), dim3(16, 16)>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
        rc |= harness_gemm<float, float>("sgemm_namespace_fill", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_namespace_fill<<<dim3(N / 64, M / 64), dim3(16, 16)>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
        rc |= harness_gemm<float, float>("sgemm_declared_fill", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_declared_fill<<<dim3(N / 64, M / 64), dim3(16, 16)>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
    }
    rc |= harness_gemm<float, float>("sgemm_guarded_template", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_guarded_template<256, 64, 64, 16><<<dim3(N / 64, M / 64), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
