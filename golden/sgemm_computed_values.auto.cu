// sgemm_computed_values.cu: tiles stored from values computed from their loads (`As[..] =
// A[..] * scale`, `fmaxf(B[..], lo)`; guarded by a constant stored first, by a ternary; a public
// softmax's `es[..] = expf(a[..])` shape): register staging computes the value a tile early in
// its fetch, which reads nothing the compute writes; cp.async and tensor copies, which move
// bytes as they are, refuse. The negative kernel attacks a fact that relies on: a value that
// reads a tile (the loader would read it a tile early) stays as written. A value from a function
// of the file that is pure (by-value parameters, nothing named but them and its locals) is
// computed a tile early like a library's: value_from_function. A function whose whole body
// returns an element its pointer parameter indexes, reading nothing but its parameters (a public
// kernel's `GetValue(A, K, r, c)`), is a load: load_function, guarded by ternaries.
// Usage: sgemm_computed_values [M N K] (multiples of TS; K may be ragged for the guarded kernel)
// gpu-runs: 16 16 0 | 16 16 16 | 32 32 48 | 64 64 40 | 256 256 256
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void scaled_values(const float *A, const float *B, float *C, int M, int N, int K, float scale, float lo)
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
            if (!(k0 + TS <= K))
                return false;
            pipefy_reg0 = A[row * K + k0 + tx] * scale;
            pipefy_reg1 = fmaxf(B[(k0 + ty) * N + col], lo);
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
        for (int k0 = 0; k0 + TS <= K; k0 += TS) {
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

// guarded: a constant first, then the computed value under an if; and a ternary
__global__ void guarded_values(const float *A, const float *B, float *C, int M, int N, int K, float scale, float lo)
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
            pipefy_reg0 = (k0 + tx < K) ? A[row * K + k0 + tx] * scale : 0.0f;
            pipefy_reg1 = k0 + ty < K ? fmaxf(B[(k0 + ty) * N + col], lo) : 0.0f;
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
    C[row * N + col] = acc;
}

// the value reads a tile, this tile's B (stored just before; its rounding shows which B): left
// as written
__global__ void value_reads_tile(const float *A, const float *B, float *C, int M, int N, int K, float scale, float lo)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 + TS <= K; k0 += TS) {
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        As[ty][tx] = A[row * K + k0 + tx] + Bs[ty][tx] - Bs[ty][tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__device__ float scaled(float x, float s) { return x * s; }

// the value from a pure function of this file: staged like a library function's
__global__ void value_from_function(const float *A, const float *B, float *C, int M, int N, int K, float scale, float lo)
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
            if (!(k0 + TS <= K))
                return false;
            pipefy_reg0 = scaled(A[row * K + k0 + tx], scale);
            pipefy_reg1 = B[(k0 + ty) * N + col];
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
        for (int k0 = 0; k0 + TS <= K; k0 += TS) {
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

__device__ __forceinline__ float get_value(const float *m, int ld, int r, int c) { return m[r * ld + c]; }

__global__ void load_function(const float *A, const float *B, float *C, int M, int N, int K)
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
            pipefy_reg0 = k0 + tx < K ? get_value(A, K, row, k0 + tx) : 0.0f;
            pipefy_reg1 = k0 + ty < K ? get_value(B, N, k0 + ty, col) : 0.0f;
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
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int Kfull = K / TS * TS;  // (the unguarded kernels compute the whole tiles only)
    int bad = 0;
    dim3 grid(N / TS, M / TS), block(TS, TS);
    bad |= harness_gemm<float, float>("scaled_values", M, N, Kfull, [&](const float *A, const float *B, float *C) {
        scaled_values<<<grid, block>>>(A, B, C, M, N, Kfull, 1.0f, -1e30f);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("guarded_values", M, N, K, [&](const float *A, const float *B, float *C) {
        guarded_values<<<grid, block>>>(A, B, C, M, N, K, 1.0f, -1e30f);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("value_reads_tile", M, N, Kfull, [&](const float *A, const float *B, float *C) {
        value_reads_tile<<<grid, block>>>(A, B, C, M, N, Kfull, 1.0f, -1e30f);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("value_from_function", M, N, Kfull, [&](const float *A, const float *B, float *C) {
        value_from_function<<<grid, block>>>(A, B, C, M, N, Kfull, 1.0f, -1e30f);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("load_function", M, N, K, [&](const float *A, const float *B, float *C) {
        load_function<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
