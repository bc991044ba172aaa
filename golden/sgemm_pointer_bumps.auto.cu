// sgemm_pointer_bumps.cu: the induction carried by pointer bumps (A += TS; B += TS * N;)
// placed before the first barrier, between the barrier and the compute, and after the
// second barrier, one kernel each. Usage: sgemm_pointer_bumps [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 128 128 256 | 512 512 512
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

__global__ void bump_before_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    A += (blockIdx.y * TS + ty) * K + tx;
    B += ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        const float *pipefy_next_A = A;
        const float *pipefy_next_B = B;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load the tile at the cursor into the staging registers and advance the
        // cursor; false once the tiles run out
        auto pipefy_fetch = [&]() {
            int k0 = pipefy_next_k0;
            const float *A = pipefy_next_A;
            const float *B = pipefy_next_B;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = *A;
            pipefy_reg1 = *B;
            A += TS;
            B += TS * N;
            k0 += TS;
            pipefy_next_k0 = k0;
            pipefy_next_A = A;
            pipefy_next_B = B;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch())
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch();
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            A += TS;
            B += TS * N;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void bump_after_first_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        const float *pipefy_next_a = a;
        const float *pipefy_next_b = b;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load the tile at the cursor into the staging registers and advance the
        // cursor; false once the tiles run out
        auto pipefy_fetch = [&]() {
            int t = pipefy_next_t;
            const float *a = pipefy_next_a;
            const float *b = pipefy_next_b;
            if (!(t < K / TS))
                return false;
            pipefy_reg0 = a[0];
            pipefy_reg1 = b[0];
            a += TS;
            b += TS * N;
            ++t;
            pipefy_next_t = t;
            pipefy_next_a = a;
            pipefy_next_b = b;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch())
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TS; ++t) {
            bool pipefy_more = pipefy_fetch();
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            a += TS;
            b += TS * N;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void bump_after_second_barrier(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * TS + ty) * K + tx;
    const float *b = B + ty * N + blockIdx.x * TS + tx;
    float acc = 0.0f;
    int k0 = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        const float *pipefy_next_a = a;
        const float *pipefy_next_b = b;
        int pipefy_next_k0 = k0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load the tile at the cursor into the staging registers and advance the
        // cursor; false once the tiles run out
        auto pipefy_fetch = [&]() {
            const float *a = pipefy_next_a;
            const float *b = pipefy_next_b;
            int k0 = pipefy_next_k0;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = a[0];
            pipefy_reg1 = b[0];
            a += TS;
            b += TS * N;
            k0 += TS;
            pipefy_next_a = a;
            pipefy_next_b = b;
            pipefy_next_k0 = k0;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch())
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (; k0 < K; ) {
            bool pipefy_more = pipefy_fetch();
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            a += TS;
            b += TS * N;
            k0 += TS;
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = 0;
    rc |= harness_gemm<float, float>("bump_before_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_before_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_first_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_after_first_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("bump_after_second_barrier", M, N, K, [&](const float *A, const float *B, float *C) {
        bump_after_second_barrier<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
// pipefy-golden: tma bulk ws
