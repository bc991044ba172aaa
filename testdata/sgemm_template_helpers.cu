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

// Copies a ROWS x COLS tile of float4s (COLS4 = COLS / 4 of them a row) from G, whose rows are
// ld4 float4s apart, with NT threads.
template <int ROWS, int COLS4, int NT>
__device__ void load_tile(float4 (*S)[COLS4], const float4 *G, int ld4)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS4; i += NT)
        S[i / COLS4][i % COLS4] = G[(i / COLS4) * ld4 + i % COLS4];
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
} // namespace ld

// Declared in its namespace with a default argument, defined outside it: the asynchronous copy
// is declared again next to each declaration (without the declaration, `fw::rows_pipefy_async`
// named nothing, and without the default, `fw::rows<64, 4>` matched nothing).
namespace fw {
template <int ROWS, int COLS4, int NT = 256>
__device__ void rows(float4 (*S)[COLS4], const float4 *G, int ld4);
} // namespace fw

template <int ROWS, int COLS4, int NT>
__device__ void fw::rows(float4 (*S)[COLS4], const float4 *G, int ld4)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS4; i += NT)
        S[i / COLS4][i % COLS4] = G[(i / COLS4) * ld4 + i % COLS4];
}

// 64x64 tile of C a block of 16x16 threads, 4x4 a thread; K steps of BK.
template <int BM, int BN, int BK>
__global__ void sgemm_template_fill(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    __shared__ float4 As[BM][BK / 4];
    __shared__ float4 Bs[BK][BN / 4];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float4 *A4 = (const float4 *)(A + blockIdx.y * BM * K);
    const float4 *B4 = (const float4 *)(B + blockIdx.x * BN);
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_tile<BM, BK / 4, 256>(As, A4 + k0 / 4, K / 4);
        load_tile<BK, BN / 4, 256>(Bs, B4 + k0 * (N / 4), N / 4);
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float4 b = Bs[k][tx];
            for (int r = 0; r < 4; ++r) {
                float4 a4 = As[ty * 4 + r][k / 4];
                float a = k % 4 == 0 ? a4.x : k % 4 == 1 ? a4.y : k % 4 == 2 ? a4.z : a4.w;
                acc[r][0] += a * b.x;
                acc[r][1] += a * b.y;
                acc[r][2] += a * b.z;
                acc[r][3] += a * b.w;
            }
        }
        __syncthreads();
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            C[(blockIdx.y * BM + ty * 4 + r) * N + blockIdx.x * BN + tx * 4 + c] = acc[r][c];
}

// The same tiles, a plain kernel: the call names ld::tile256<64, 4>, a specialization.
__global__ void sgemm_namespace_fill(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                     int M, int N, int K)
{
    __shared__ float4 As[64][4];
    __shared__ float4 Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float4 *A4 = (const float4 *)(A + blockIdx.y * 64 * K);
    const float4 *B4 = (const float4 *)(B + blockIdx.x * 64);
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 16) {
        ld::tile256<64, 4>(As, A4 + k0 / 4, K / 4);
        ld::tile256<16, 16>(Bs, B4 + k0 * (N / 4), N / 4);
        __syncthreads();
        for (int k = 0; k < 16; ++k) {
            float4 b = Bs[k][tx];
            for (int r = 0; r < 4; ++r) {
                float4 a4 = As[ty * 4 + r][k / 4];
                float a = k % 4 == 0 ? a4.x : k % 4 == 1 ? a4.y : k % 4 == 2 ? a4.z : a4.w;
                acc[r][0] += a * b.x;
                acc[r][1] += a * b.y;
                acc[r][2] += a * b.z;
                acc[r][3] += a * b.w;
            }
        }
        __syncthreads();
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            C[(blockIdx.y * 64 + ty * 4 + r) * N + blockIdx.x * 64 + tx * 4 + c] = acc[r][c];
}

// The same tiles again, through the declared template, its last argument the default's.
__global__ void sgemm_declared_fill(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int M, int N, int K)
{
    __shared__ float4 As[64][4];
    __shared__ float4 Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float4 *A4 = (const float4 *)(A + blockIdx.y * 64 * K);
    const float4 *B4 = (const float4 *)(B + blockIdx.x * 64);
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 16) {
        fw::rows<64, 4>(As, A4 + k0 / 4, K / 4);
        fw::rows<16, 16>(Bs, B4 + k0 * (N / 4), N / 4);
        __syncthreads();
        for (int k = 0; k < 16; ++k) {
            float4 b = Bs[k][tx];
            for (int r = 0; r < 4; ++r) {
                float4 a4 = As[ty * 4 + r][k / 4];
                float a = k % 4 == 0 ? a4.x : k % 4 == 1 ? a4.y : k % 4 == 2 ? a4.z : a4.w;
                acc[r][0] += a * b.x;
                acc[r][1] += a * b.y;
                acc[r][2] += a * b.z;
                acc[r][3] += a * b.w;
            }
        }
        __syncthreads();
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
} // namespace ld

// 64x64 tile of C, 256 threads in one dimension, 16 outputs a thread.
template <int BLOCK, int BM, int BN, int BK>
__global__ void sgemm_guarded_template(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int tid = threadIdx.x;
    const int offset_m = blockIdx.y * BM, offset_n = blockIdx.x * BN;
    A += offset_m * K;
    B += offset_n;
    __shared__ float A_shmem[BM][BK];
    __shared__ float B_shmem[BK][BN];
    float acc[BM * BN / BLOCK] = {0.0f};
    for (int offset_k = 0; offset_k < K; offset_k += BK) {
        ld::guarded<BLOCK, BM, BK>(A, K, M - offset_m, K - offset_k, A_shmem, tid);
        ld::guarded<BLOCK, BK, BN>(B, N, K - offset_k, N - offset_n, B_shmem, tid);
        __syncthreads();
        for (int idx = tid; idx < BM * BN; idx += BLOCK) {
            const int row = idx / BN, col = idx % BN;
            for (int k = 0; k < BK; k++)
                acc[idx / BLOCK] += A_shmem[row][k] * B_shmem[k][col];
        }
        __syncthreads();
        A += BK;
        B += BK * N;
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
