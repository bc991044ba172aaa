// neg_ws_barriers.cu: K-loops that tensor copies take but a producer warp (ws, ws-cp.async) must
// not: the producer warp runs the code before the loop with thread indices past the kernel's,
// and arrives only at the barriers pipefy writes. The build before this program gave each of
// these kernels a producer warp: the first trapped in it (a test that is never true for the
// kernel's threads is true for the producer's), the second and third waited forever at a
// barrier of the compute the producer never reaches (a helper's __syncthreads(), a
// __syncthreads_or). Each ws remark names the statement; the last kernel is the control.
// pipefy-args: --arch=sm_90
// pipefy-golden: tma ws ws-cp.async
// Usage: neg_ws_barriers [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 32 64 | 32 64 96 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 64 32 64
#include "harness.cuh"

#define T 32

// a thread past the block's size would be a launch error: the kernel stops it
__global__ void trap_guard(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    if (threadIdx.x >= blockDim.x)
        __trap();
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 127:9); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// the compute's helper synchronizes the block halfway through the tile
__device__ void half_tile(float *acc, const float *As, const float (*Bs)[T], int tx, int ty, int k_begin)
{
    for (int k = k_begin; k < k_begin + T / 2; ++k)
        for (int j = 0; j < 4; ++j)
            acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
    __syncthreads();
}

__global__ void helper_sync(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 130:9); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            half_tile(acc, As[pipefy_stage], Bs[pipefy_stage], tx, ty, 0);
            half_tile(acc, As[pipefy_stage], Bs[pipefy_stage], tx, ty, T / 2);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            half_tile(acc, As[0], Bs[0], tx, ty, 0);
            half_tile(acc, As[0], Bs[0], tx, ty, T / 2);
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// the compute asks the block whether any thread saw a zero product sum (and uses the answer)
__global__ void vote_in_compute(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int votes = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 133:9); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            votes += __syncthreads_or(acc[0] != acc[0]);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            votes += __syncthreads_or(acc[0] != acc[0]); // (a NaN: never, for these operands)
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j] + (float)votes;
}

// the control: nothing a producer warp could trip on
__global__ void plain(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 136:9); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / T, M / T);
    int rc = harness_gemm<float, float>("trap_guard", M, N, K, [&](const float *A, const float *B, float *C) {
        trap_guard<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("helper_sync", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_sync<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("vote_in_compute", M, N, K, [&](const float *A, const float *B, float *C) {
        vote_in_compute<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("plain", M, N, K, [&](const float *A, const float *B, float *C) {
        plain<<<grid, 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
