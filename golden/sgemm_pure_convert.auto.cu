// sgemm_pure_convert.cu: tiles of floats filled from the value of a conversion function of this
// file applied to a global element (llaisys's `to_float(in[k])`): a function template whose
// explicit specializations convert half and bfloat16, called from a kernel template where the
// element type is a template parameter, so the call is resolved only at instantiation; and a
// plain function that scales a value by a kernel parameter. Each is pure (by-value parameters,
// nothing named but them and its locals), so register staging computes the value a tile early.
// The fills are guarded, zero in the else branch.
// Usage: sgemm_pure_convert [M N K].
// gpu-runs: 20 24 0 | 16 16 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"

#define TS 16

template <typename T>
__device__ __forceinline__ float to_acc(T v)
{
    return static_cast<float>(v);
}

template <>
__device__ __forceinline__ float to_acc(half v)
{
    return __half2float(v);
}

template <>
__device__ __forceinline__ float to_acc(__nv_bfloat16 v)
{
    return __bfloat162float(v);
}

__device__ float scaled(float v, float s)
{
    float r = v * s;
    return r;
}

template <typename T>
__global__ void gemm_convert(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
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
            pipefy_reg0 = (row < M && k0 + tx < K) ? to_acc(A[(size_t)row * K + k0 + tx]) : 0.0f;
            pipefy_reg1 = (k0 + ty < K && col < N) ? to_acc(B[(size_t)(k0 + ty) * N + col]) : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
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
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

__global__ void sgemm_scaled(const float *A, const float *B, float *C, int M, int N, int K, float s)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
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
            pipefy_reg0 = row < M && k0 + tx < K ? scaled(A[(size_t)row * K + k0 + tx], s) : 0.0f;
            pipefy_reg1 = k0 + ty < K && col < N ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
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
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    int rc = harness_gemm<half, float>("gemm_convert<half>", M, N, K, [&](const half *A, const half *B, float *C) {
        gemm_convert<half><<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-3, 1e-3);
    rc |= harness_gemm<float, float>("sgemm_scaled", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_scaled<<<grid, block>>>(A, B, C, M, N, K, 1.0f);
    }, 1e-4, 1e-4);
    return rc;
}
