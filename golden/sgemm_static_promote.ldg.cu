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
// pipefy: pipefy_launch_bytes gives a launch the dynamic shared memory the tiles moved
// there take (allowing it above 48 KB)
template <class K> static size_t pipefy_launch_bytes(K *kernel, size_t bytes, int stages)
{
    size_t total = (size_t)stages * ((bytes + 127) / 128 * 128);
    if (total > 48 * 1024)
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)total);
    return total;
}

#define BM 64
#define BN 64
#define BK 64

// 64x64x64 tiles, 32 KB a stage (two stages are 64 KB), 16-byte copies; 256 threads, 4x4
// outputs each; launched twice, once with a stream and no bytes
static __global__ void sgemm_static_big(const float *__restrict__ A, const float *__restrict__ B,
                                        float *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __align__(128) unsigned char pipefy_shared[]; // pipefy: the tiles' stages, 64.0 KB, are the launch's dynamic shared memory
    float (&As)[2][BM][BK] = *reinterpret_cast<float (*)[2][BM][BK]>(pipefy_shared + 0);
    static_assert(sizeof(float[2][BM][BK]) == 32768, "pipefy: the size pipefy laid 'As' out with");
    float (&Bs)[2][BK][BN] = *reinterpret_cast<float (*)[2][BK][BN]>(pipefy_shared + 32768);
    static_assert(sizeof(float[2][BK][BN]) == 32768, "pipefy: the size pipefy laid 'Bs' out with");
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[4];
        float4 pipefy_reg1[4];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                int i = tid + j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                pipefy_reg0[pipefy_j] = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
                int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
                pipefy_reg1[pipefy_j] = *reinterpret_cast<const float4 *>(&B[(k0 + rb) * N + col0 + cb]);
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                int i = tid + j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                *reinterpret_cast<float4 *>(&As[pipefy_dst][r][c]) = pipefy_reg0[pipefy_j];
                int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
                *reinterpret_cast<float4 *>(&Bs[pipefy_dst][rb][cb]) = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BK; ++k)
                for (int a = 0; a < 4; ++a)
                    for (int b = 0; b < 4; ++b)
                        acc[a][b] += As[pipefy_stage][ty * 4 + a][k] * Bs[pipefy_stage][k][tx * 4 + b];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
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
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second stage would not fit in static shared memory)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[4];
        float4 pipefy_reg1[4];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                int i = tid + j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                pipefy_reg0[pipefy_j] = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
                int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
                pipefy_reg1[pipefy_j] = *reinterpret_cast<const float4 *>(&B[(k0 + rb) * N + col0 + cb]);
            }
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                int i = tid + j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                *reinterpret_cast<float4 *>(&As[r][c]) = pipefy_reg0[pipefy_j];
                int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
                *reinterpret_cast<float4 *>(&Bs[rb][cb]) = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BK; ++k)
                for (int a = 0; a < 4; ++a)
                    for (int b = 0; b < 4; ++b)
                        acc[a][b] += As[ty * 4 + a][k] * Bs[k][tx * 4 + b];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
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
    extern __shared__ __align__(128) unsigned char pipefy_shared[]; // pipefy: the tiles' stages, 64.0 KB, are the launch's dynamic shared memory
    float (&As)[2][BM][BK] = *reinterpret_cast<float (*)[2][BM][BK]>(pipefy_shared + 0);
    static_assert(sizeof(float[2][BM][BK]) == 32768, "pipefy: the size pipefy laid 'As' out with");
    float (&Bs)[2][BK][BN] = *reinterpret_cast<float (*)[2][BK][BN]>(pipefy_shared + 32768);
    static_assert(sizeof(float[2][BK][BN]) == 32768, "pipefy: the size pipefy laid 'Bs' out with");
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (__launch_bounds__); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[((BM * BK / 4) + 256 - 1) / 256];
        float4 pipefy_reg1[((BK * BN / 4) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / 4) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                pipefy_reg0[pipefy_j] = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
            }
            for (int pipefy_j = 0; pipefy_j < ((BK * BN / 4) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
                pipefy_reg1[pipefy_j] = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + col0 + c]);
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / 4) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                *reinterpret_cast<float4 *>(&As[pipefy_dst][r][c]) = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((BK * BN / 4) + 256 - 1) / 256; ++pipefy_j) {
                int i = tid + pipefy_j * 256;
                int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
                *reinterpret_cast<float4 *>(&Bs[pipefy_dst][r][c]) = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BK; ++k)
                for (int a = 0; a < 4; ++a)
                    for (int b = 0; b < 4; ++b)
                        acc[a][b] += As[pipefy_stage][ty * 4 + a][k] * Bs[pipefy_stage][k][tx * 4 + b];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += BK) {
            for (int i = tid; i < BM * BK / 4; i += blockDim.x) {
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                *reinterpret_cast<float4 *>(&As[0][r][c]) = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
            }
            for (int i = tid; i < BK * BN / 4; i += blockDim.x) {
                int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
                *reinterpret_cast<float4 *>(&Bs[0][r][c]) = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + col0 + c]);
            }
            __syncthreads();
            for (int k = 0; k < BK; ++k)
                for (int a = 0; a < 4; ++a)
                    for (int b = 0; b < 4; ++b)
                        acc[a][b] += As[0][ty * 4 + a][k] * Bs[0][k][tx * 4 + b];
            __syncthreads();
        }
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
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second stage would not fit in static shared memory)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[4];
        float4 pipefy_reg1[4];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                int i = tid + j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                pipefy_reg0[pipefy_j] = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
                int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
                pipefy_reg1[pipefy_j] = *reinterpret_cast<const float4 *>(&B[(k0 + rb) * N + col0 + cb]);
            }
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                int i = tid + j * 256;
                int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
                *reinterpret_cast<float4 *>(&As[r][c]) = pipefy_reg0[pipefy_j];
                int rb = i / (BN / 4), cb = (i % (BN / 4)) * 4;
                *reinterpret_cast<float4 *>(&Bs[rb][cb]) = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BK; ++k)
                for (int a = 0; a < 4; ++a)
                    for (int b = 0; b < 4; ++b)
                        acc[a][b] += As[ty * 4 + a][k] * Bs[k][tx * 4 + b];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
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
        sgemm_static_big<<<grid, 256, pipefy_launch_bytes(sgemm_static_big, 65536, 1)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    cudaStream_t stream = 0;
    rc |= harness_gemm<float, float>("sgemm_static_big_stream", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_big<<<grid, 256, pipefy_launch_bytes(sgemm_static_big, 65536, 1), stream>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_static_strided", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_strided<<<grid, 256, pipefy_launch_bytes(sgemm_static_strided, 65536, 1)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_shared_big", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_shared_big<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_static_rowsum", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_static_rowsum<<<grid, 256, BM * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
