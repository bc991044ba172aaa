// sgemm_pipeline_async.cu: tiled SGEMM whose copies go through a thread-scope cuda::pipeline
// with one stage, as the CUDA samples' globalToShmemAsyncCopy writes them: `pipe.producer_acquire();
// cuda::memcpy_async(&As[ty][tx], &A[..], shape, pipe); pipe.producer_commit(); pipe.consumer_wait();`
// then the barrier. Once the wait returns each copy is a plain one, so pipefy stages them as any
// other: registers or its own cp.async, the pipeline's calls dropped. What that relies on, each
// attacked by a negative kernel left as written: the pipeline is the loop's alone (a helper
// after the loop waits on it), one commit and one wait an iteration (a commit inside an inner
// loop: tiles in flight across iterations, a pipeline already), and a copy's addresses aligned
// to its size (16 bytes with no cuda::aligned_size_t: 4-byte alignment only).
// Usage: sgemm_pipeline_async [M N K] (multiples of 16)
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 64 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 48 64
#include "harness.cuh"

#include <cuda/pipeline>

#define BS 16

// one element a thread; the copies in a block of their own, the wait after it (the samples'
// MatrixMulAsyncCopySingleStage)
__global__ void single_stage(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][BS][BS];
    __shared__ float Bs[2][BS][BS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto shape1 = cuda::aligned_size_t<alignof(float)>(sizeof(float));
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
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
                k0 += BS;
            if (!(k0 < K))
                return false;
            {
                pipefy_reg0 = *(const float *)(&A[row * K + k0 + tx]);
                pipefy_reg1 = *(const float *)(&B[(k0 + ty) * N + col]);
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            {
                *(float *)(&As[pipefy_dst][ty][tx]) = pipefy_reg0;
                *(float *)(&Bs[pipefy_dst][ty][tx]) = pipefy_reg1;
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
        for (int k0 = 0; k0 < K; k0 += BS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// four elements a thread for a quarter of the threads, under an if that also waits; the
// release in the compute (the samples' MatrixMulAsyncCopyLargeChunk)
__global__ void large_chunk(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(alignof(float4)) float As[2][BS][BS];
    __shared__ alignas(alignof(float4)) float Bs[2][BS][BS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    const int t4x = tx * 4;
    const auto shape4 = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0;
        float4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BS;
            if (!(k0 < K))
                return false;
            if (t4x < BS) {
                pipefy_reg0 = *(const float4 *)(&A[row * K + k0 + t4x]);
                pipefy_reg1 = *(const float4 *)(&B[(k0 + ty) * N + blockIdx.x * BS + t4x]);
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (t4x < BS) {
                *(float4 *)(&As[pipefy_dst][ty][t4x]) = pipefy_reg0;
                *(float4 *)(&Bs[pipefy_dst][ty][t4x]) = pipefy_reg1;
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
        for (int k0 = 0; k0 < K; k0 += BS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// a kernel template whose tiles its parameter sizes (the call is resolved only per
// instantiation), the size argument written out
template <int TS>
__global__ void template_stage(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
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
            pipefy_reg0 = *(const float *)(&A[row * K + k0 + tx]);
            pipefy_reg1 = *(const float *)(&B[(k0 + ty) * N + col]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            *(float *)(&As[pipefy_dst][ty][tx]) = pipefy_reg0;
            *(float *)(&Bs[pipefy_dst][ty][tx]) = pipefy_reg1;
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
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// negative: a helper waits on the pipeline after the loop (it is not the loop's alone)
__device__ void drain(cuda::pipeline<cuda::thread_scope_thread> &p) { p.consumer_wait(); }

__global__ void shared_pipe(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    for (int k0 = 0; k0 < K; k0 += BS) {
        pipe.producer_acquire();
        cuda::memcpy_async(&As[ty][tx], &A[row * K + k0 + tx], sizeof(float), pipe);
        cuda::memcpy_async(&Bs[ty][tx], &B[(k0 + ty) * N + col], sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < BS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    drain(pipe);
    C[row * N + col] = acc;
}

// negative: the copies of the next tiles committed in an inner loop, several tiles in flight
// (the samples' MatrixMulAsyncCopyMultiStage): a pipeline already
#define STAGES 2
__global__ void multi_stage(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[STAGES][BS][BS];
    __shared__ float Bs[STAGES][BS][BS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    for (int k0 = 0, i = 0, kStage = 0, iStage = 0; k0 < K; k0 += BS, ++i) {
        for (; kStage < K && kStage <= k0 + BS * (STAGES - 1); kStage += BS, ++iStage) {
            pipe.producer_acquire();
            const int j = iStage % STAGES;
            cuda::memcpy_async(&As[j][ty][tx], &A[row * K + kStage + tx], sizeof(float), pipe);
            cuda::memcpy_async(&Bs[j][ty][tx], &B[(kStage + ty) * N + col], sizeof(float), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        __syncthreads();
        const int j = i % STAGES;
        for (int k = 0; k < BS; ++k)
            acc += As[j][ty][k] * Bs[j][k][tx];
        pipe.consumer_release();
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// negative: 16-byte copies with a plain size: the addresses are only known to be 4-byte aligned
__global__ void unaligned_chunk(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    const int t4x = tx * 4;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BS) {
        if (t4x < BS) {
            pipe.producer_acquire();
            cuda::memcpy_async(&As[ty][t4x], &A[row * K + k0 + t4x], sizeof(float4), pipe);
            cuda::memcpy_async(&Bs[ty][t4x], &B[(k0 + ty) * N + blockIdx.x * BS + t4x], sizeof(float4), pipe);
            pipe.producer_commit();
            pipe.consumer_wait();
        }
        __syncthreads();
        for (int k = 0; k < BS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / BS, M / BS), block(BS, BS);
    int bad = harness_gemm<float, float>("single_stage", M, N, K, [&](const float *A, const float *B, float *C) {
        single_stage<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("large_chunk", M, N, K, [&](const float *A, const float *B, float *C) {
        large_chunk<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("template_stage", M, N, K, [&](const float *A, const float *B, float *C) {
        template_stage<BS><<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("shared_pipe", M, N, K, [&](const float *A, const float *B, float *C) {
        shared_pipe<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("multi_stage", M, N, K, [&](const float *A, const float *B, float *C) {
        multi_stage<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("unaligned_chunk", M, N, K, [&](const float *A, const float *B, float *C) {
        unaligned_chunk<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
