// sgemm_accessors.cu: tiles filled through one-line load and store functions,
// `st(&As[..], ld(&A[..]))`. A function whose whole body is `*p = v;` is that store, one whose
// whole body is `return *p;` that load: pipefy moves them like the plain copy they spell, also
// through a cast of the pointer to the value's type (llm.c's `ld_vec`/`st_vec`: a float4 at a
// `float *`; the store of the registers casts as the function does). Any
// other function handed a tile's element is named in the remark and the loop left as written
// (one that also counts; one that stores only under a condition).
// Usage: sgemm_accessors [M N K] (M, N multiples of 32, K of 16).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__device__ __forceinline__ float ld(const float *p) { return *p; }
__device__ __forceinline__ void st(float *p, float v) { *p = v; }
__device__ __forceinline__ float4 ld4(const float4 *p) { return p[0]; }
__device__ __forceinline__ void st4(float4 *p, float4 v) { p[0] = v; }

// one element per thread, 4-byte copies
__global__ void sgemm_ld_st(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
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
            pipefy_reg0 = ld(&A[row * K + k0 + tx]);
            pipefy_reg1 = ld(&B[(k0 + ty) * N + col]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            *(&As[pipefy_dst][ty][tx]) = pipefy_reg0;
            *(&Bs[pipefy_dst][ty][tx]) = pipefy_reg1;
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

// 32x32 outputs per block of 8x16 threads, 16-byte copies of 4 floats: a 32x16 tile of A and a
// 16x32 tile of B, one float4 of each per thread; each thread computes 2x4 outputs
__global__ void sgemm_ld4_st4(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][32][TS];
    __shared__ __align__(16) float Bs[2][TS][32];
    int tx = threadIdx.x, ty = threadIdx.y; // tx < 8, ty < 16
    int tid = ty * 8 + tx;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    float acc[2][4] = {};
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
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = ld4((const float4 *)&A[(row0 + tid / 4) * K + k0 + (tid % 4) * 4]);
            pipefy_reg1 = ld4((const float4 *)&B[(k0 + tid / 8) * N + col0 + (tid % 8) * 4]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            *((float4 *)&As[pipefy_dst][tid / 4][(tid % 4) * 4]) = pipefy_reg0;
            *((float4 *)&Bs[pipefy_dst][tid / 8][(tid % 8) * 4]) = pipefy_reg1;
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
                        acc[a][b] += As[pipefy_stage][ty * 2 + a][k] * Bs[pipefy_stage][k][tx * 4 + b];
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

__device__ float4 ld_vec(const float *address) { return *reinterpret_cast<const float4 *>(address); }
__device__ void st_vec(float *address, float4 val) { *reinterpret_cast<float4 *>(address) = val; }

// sgemm_ld4_st4's tiles through the cast accessors, each thread's float4 of A and B in a copy
// loop whose start reads a local the body declares (`int q = tid / 4;`)
__global__ void sgemm_vec_cast(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][32][TS];
    __shared__ __align__(16) float Bs[2][TS][32];
    int tx = threadIdx.x, ty = threadIdx.y; // tx < 8, ty < 16
    int tid = ty * 8 + tx;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    float acc[2][4] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0[1];
        float4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            int q = tid / 4;
            for (int pipefy_j = 0; pipefy_j < 1; ++pipefy_j) {
                int r = q + pipefy_j * 32;
                if (!(r < 32))
                    break;
                pipefy_reg0[pipefy_j] = ld_vec(&A[(row0 + r) * K + k0 + (tid % 4) * 4]);
            }
            pipefy_reg1 = ld_vec(&B[(k0 + tid / 8) * N + col0 + (tid % 8) * 4]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int q = tid / 4;
            for (int pipefy_j = 0; pipefy_j < 1; ++pipefy_j) {
                int r = q + pipefy_j * 32;
                if (!(r < 32))
                    break;
                *(float4 *)(&As[pipefy_dst][r][(tid % 4) * 4]) = pipefy_reg0[pipefy_j];
            }
            *(float4 *)(&Bs[pipefy_dst][tid / 8][(tid % 8) * 4]) = pipefy_reg1;
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
                        acc[a][b] += As[pipefy_stage][ty * 2 + a][k] * Bs[pipefy_stage][k][tx * 4 + b];
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

// a store function that does more than store: not the copy it looks like
__device__ int stores_made;
__device__ void st_counted(float *p, float v)
{
    *p = v;
    atomicAdd(&stores_made, 1);
}

__global__ void sgemm_counted(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        st_counted(&As[ty][tx], ld(&A[row * K + k0 + tx]));
        st(&Bs[ty][tx], ld(&B[(k0 + ty) * N + col]));
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// every tile written, in a copy loop, through a function that is more than a store: no copy is
// recognized, and the remark names the call
__device__ void st_if_number(float *p, float v)
{
    if (v == v)
        *p = v;
}

__global__ void sgemm_checked(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int r = 0; r < TS; r += blockDim.y) { // (one trip with this launch)
            st_if_number(&As[ty + r][tx], A[(row + r) * K + k0 + tx]);
            st_if_number(&Bs[ty + r][tx], B[(k0 + ty + r) * N + col]);
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
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
    int rc = harness_gemm<float, float>("sgemm_ld_st", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_ld_st<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_ld4_st4", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_ld4_st4<<<dim3(N / 32, M / 32), dim3(8, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_vec_cast", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_vec_cast<<<dim3(N / 32, M / 32), dim3(8, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_counted", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_counted<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_checked", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_checked<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
