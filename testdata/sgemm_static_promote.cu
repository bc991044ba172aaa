// sgemm_static_promote.cu: static tiles whose stages do not fit the 48 KB of static shared
// memory. In a kernel of this file's own (static, or in an unnamed namespace) whose launches are
// all here and ask for no dynamic shared memory, pipefy moves the staged tiles into the launch's
// dynamic shared memory and gives every launch that much; a kernel other files could launch,
// and one whose launch asks for dynamic shared memory of its own, keep their tiles static, and
// so fewer stages. One kernel fills its tiles with copy loops strided by the block.
// Usage: sgemm_static_promote [M N K] (M, N multiples of 64; K a multiple of 64)
// gpu-runs: 64 64 0 | 64 64 64 | 128 64 128 | 64 128 192 | 256 256 512 | 1024 1024 1024
// gpu-sanitize: 128 64 128
#include "harness.cuh"

#define BM 64
#define BN 64
#define BK 64

// 64x64x64 tiles, 32 KB a stage (two stages are 64 KB), 16-byte copies; 256 threads, 4x4
// outputs each; launched twice, once with a stream and no bytes
static __global__ void sgemm_static_big(const float *__restrict__ A, const float *__restrict__ B,
                                        float *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) float As[BM][BK];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int j = 0; j < 4; ++j) {
            int i = tid + j * 256;
            int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            *reinterpret_cast<float4 *>(&As[r][c]) = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
            int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&Bs[rb][cb]) =
                *reinterpret_cast<const float4 *>(&B[(k0 + rb) * N + col0 + cb]);
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    acc[a][b] += As[ty * 4 + a][k] * Bs[k][tx * 4 + b];
        __syncthreads();
    }
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            C[(row0 + ty * 4 + a) * N + col0 + tx * 4 + b] = acc[a][b];
}

// the same, but other files could launch it (external linkage) without the memory: its tiles
// stay static, and two stages of them do not fit
__global__ void sgemm_shared_big(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                 int M, int N, int K)
{
    __shared__ __align__(16) float As[BM][BK];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int j = 0; j < 4; ++j) {
            int i = tid + j * 256;
            int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            *reinterpret_cast<float4 *>(&As[r][c]) = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
            int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&Bs[rb][cb]) =
                *reinterpret_cast<const float4 *>(&B[(k0 + rb) * N + col0 + cb]);
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    acc[a][b] += As[ty * 4 + a][k] * Bs[k][tx * 4 + b];
        __syncthreads();
    }
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            C[(row0 + ty * 4 + a) * N + col0 + tx * 4 + b] = acc[a][b];
}

// the same tiles filled by copy loops strided by the block (`i += blockDim.x`): the pipelined
// loop runs under `blockDim.x == 256` (__launch_bounds__), the loop as written otherwise, both
// on the moved tiles
static __global__ void __launch_bounds__(256)
sgemm_static_strided(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                     int K)
{
    __shared__ __align__(16) float As[BM][BK];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK / 4; i += blockDim.x) {
            int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            *reinterpret_cast<float4 *>(&As[r][c]) = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
        }
        for (int i = tid; i < BK * BN / 4; i += blockDim.x) {
            int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&Bs[r][c]) = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + col0 + c]);
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    acc[a][b] += As[ty * 4 + a][k] * Bs[k][tx * 4 + b];
        __syncthreads();
    }
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            C[(row0 + ty * 4 + a) * N + col0 + tx * 4 + b] = acc[a][b];
}

namespace {
// the launch gives dynamic shared memory of its own (a row of partial sums in the epilogue):
// the tiles would share it, so they stay static
__global__ void sgemm_static_rowsum(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    extern __shared__ float rowsum[];
    __shared__ __align__(16) float As[BM][BK];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int j = 0; j < 4; ++j) {
            int i = tid + j * 256;
            int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            *reinterpret_cast<float4 *>(&As[r][c]) = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
            int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&Bs[rb][cb]) =
                *reinterpret_cast<const float4 *>(&B[(k0 + rb) * N + col0 + cb]);
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    acc[a][b] += As[ty * 4 + a][k] * Bs[k][tx * 4 + b];
        __syncthreads();
    }
    if (tx == 0)
        for (int a = 0; a < 4; ++a)
            rowsum[ty * 4 + a] = 0.0f;
    __syncthreads();
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            C[(row0 + ty * 4 + a) * N + col0 + tx * 4 + b] = acc[a][b] + rowsum[ty * 4 + a];
}
} // namespace

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / BN, M / BM);
    int rc = harness_gemm<float, float>("sgemm_static_big", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_big<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    cudaStream_t stream = 0;
    rc |= harness_gemm<float, float>("sgemm_static_big_stream", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_big<<<grid, 256, 0, stream>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_static_strided", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_strided<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_shared_big", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_shared_big<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_static_rowsum", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_rowsum<<<grid, 256, BM * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
