// sgemm_dynamic_stages.cu: tiles in dynamic shared memory, in kernels of this file's own (static,
// or in an unnamed namespace) whose launches are all here: pipefy gives each launch one copy of
// the layout per stage and moves the tiles to a stage's copy, so these get a second stage (and
// cp.async) like static tiles. A third kernel's launch size is not a constant, and a fourth
// reads a tile through a pointer no copy names: one stage each.
// Usage: sgemm_dynamic_stages [M N K] (M, N multiples of 32; K any; the vector kernel runs when
// K is a multiple of 16).
// gpu-runs: 32 32 0 | 32 64 16 | 64 32 40 | 64 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 64 32 48
#include "harness.cuh"
// pipefy: tiles in a launch's dynamic shared memory get one copy of its layout per stage:
// pipefy_launch_bytes gives a launch that much (allowing it above 48 KB), pipefy_at finds a
// tile's copy at a stage
static __device__ __forceinline__ unsigned pipefy_dynamic_smem_size()
{
    unsigned bytes;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes;
}
template <class T> static __device__ __forceinline__ T *pipefy_at(T *tile, int stage, unsigned stride)
{
    return (T *)((char *)tile + stage * stride);
}
template <class K> static size_t pipefy_launch_bytes(K *kernel, size_t bytes, int stages)
{
    size_t total = (size_t)stages * ((bytes + 127) / 128 * 128);
    if (total > 48 * 1024)
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)total);
    return total;
}

#define TS 16

// 4-byte copies into a flat view and a 2-D view at an offset (registers, two stages)
static __global__ void sgemm_views(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the launch gives the tiles' shared memory once per stage
        const unsigned pipefy_stride = pipefy_dynamic_smem_size() / 2;
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            pipefy_at(As, pipefy_dst, pipefy_stride)[ty * TS + tx] = pipefy_reg0;
            pipefy_at(Bs, pipefy_dst, pipefy_stride)[ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += pipefy_at(As, pipefy_stage, pipefy_stride)[ty * TS + k] * pipefy_at(Bs, pipefy_stage, pipefy_stride)[k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

namespace {
// 16-byte copies into the extern array itself and a view past A's tile (cp.async); 32x32
// outputs per block of 8x16 threads, 2x4 per thread; the launch's size has room to spare
__global__ void sgemm_vec(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                          int N, int K)
{
    extern __shared__ float4 sm4[];
    float (*Bs)[32] = reinterpret_cast<float (*)[32]>(sm4 + 32 * TS / 4);
    int tx = threadIdx.x, ty = threadIdx.y; // tx < 8, ty < 16
    int tid = ty * 8 + tx;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    float acc[2][4] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the launch gives the tiles' shared memory once per stage
        const unsigned pipefy_stride = pipefy_dynamic_smem_size() / 2;
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0;
        float4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = *reinterpret_cast<const float4 *>(&A[(row0 + tid / 4) * K + k0 + (tid % 4) * 4]);
            pipefy_reg1 = *reinterpret_cast<const float4 *>(&B[(k0 + tid / 8) * N + col0 + (tid % 8) * 4]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            pipefy_at(sm4, pipefy_dst, pipefy_stride)[tid] = pipefy_reg0;
            *reinterpret_cast<float4 *>(&pipefy_at(Bs, pipefy_dst, pipefy_stride)[tid / 8][(tid % 8) * 4]) = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                for (int a = 0; a < 2; ++a)
                    for (int b = 0; b < 4; ++b)
                        acc[a][b] += reinterpret_cast<const float *>(pipefy_at(sm4, pipefy_stage, pipefy_stride))[(ty * 2 + a) * TS + k] * pipefy_at(Bs, pipefy_stage, pipefy_stride)[k][tx * 4 + b];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 4; ++b)
            C[(row0 + ty * 2 + a) * N + col0 + tx * 4 + b] = acc[a][b];
}
} // namespace

// the launch's size is read at run time: one register stage in what it gives
static __global__ void sgemm_runtime_size(const float *__restrict__ A, const float *__restrict__ B,
                                          float *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float *Bs = As + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (the tiles' shared memory is the launch's)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty * TS + tx] = pipefy_reg0;
            Bs[ty * TS + tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[ty * TS + k] * Bs[k * TS + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[row * N + col] = acc;
}

// the compute reads A's tile through a second pointer that no copy writes through: stages would
// move only the tile the copies name, so one stage
static __global__ void sgemm_second_pointer(const float *__restrict__ A, const float *__restrict__ B,
                                            float *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    const float *Ar = reinterpret_cast<const float *>(smem);
    float *Bs = As + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (the tiles' shared memory is the launch's)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty * TS + tx] = pipefy_reg0;
            Bs[ty * TS + tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += Ar[ty * TS + k] * Bs[k * TS + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 500};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = harness_gemm<float, float>("sgemm_views", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_views<<<dim3(N / TS, M / TS), dim3(TS, TS), pipefy_launch_bytes(sgemm_views, 2 * TS * TS * sizeof(float), 2)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    if (K % TS == 0) // (no bounds checks in it)
        rc |= harness_gemm<float, float>("sgemm_vec", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_vec<<<dim3(N / 32, M / 32), dim3(8, 16), pipefy_launch_bytes(sgemm_vec, 3 * 32 * TS * sizeof(float), 2)>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
    // a launch with room for more: two stages of it are over 48 KB (cudaFuncSetAttribute first)
    if (K % TS == 0)
        rc |= harness_gemm<float, float>("sgemm_vec_roomy", M, N, K, [&](const float *A, const float *B, float *C) {
            sgemm_vec<<<dim3(N / 32, M / 32), dim3(8, 16), pipefy_launch_bytes(sgemm_vec, (3 * 32 * TS + 8192) * sizeof(float), 2)>>>(A, B, C, M, N, K);
        }, 1e-4, 1e-4);
    size_t bytes = 2 * TS * TS * sizeof(float) + (K < 0 ? 16 : 0);
    rc |= harness_gemm<float, float>("sgemm_runtime_size", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_runtime_size<<<dim3(N / TS, M / TS), dim3(TS, TS), bytes>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_second_pointer", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_second_pointer<<<dim3(N / TS, M / TS), dim3(TS, TS), 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
