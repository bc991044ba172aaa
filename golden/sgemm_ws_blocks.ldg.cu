// sgemm_ws_blocks.cu: one kernel whose copies and compute stride over the tile by blockDim.x, so
// that any whole number of warps runs it, launched with 160 threads (five warps).
// A producer warpgroup (ws and ws-cp.async on sm_90a) needs the kernel's threads to be whole
// warpgroups of 128: setmaxnreg is executed by whole warpgroups, and after 160 threads the
// producer's 128 would share a warpgroup with the kernel's last warp. pipefy keeps a one-warp
// producer for the 160-thread block (the remark says why); with that check broken
// (PIPEFY_TEST_BREAK=warpgroups) the CPU block model catches the warpgroup split.
// Usage: sgemm_ws_blocks [M N K] (multiples of 32).
// pipefy-args: --arch=sm_90
// pipefy-golden: ws ws-cp.async ws-sm90a ws-cp.async-sm90a
// gpu-runs: 32 32 0 | 32 32 32 | 64 96 64 | 256 256 256
// gpu-sanitize: 64 96 64
#include "harness.cuh"

#define T 32
#define OUTS 8 // outputs a thread at most: 1024 of the tile over 160 threads or more

__global__ void sgemm_strided(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                              int N, int K)
{
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[OUTS] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 160 threads (launch at 52:9); other block
    // sizes run the loop as written
    if (blockDim.x == 160) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 160 - 1) / 160];
        float pipefy_reg1[((T * T) + 160 - 1) / 160];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 160 - 1) / 160; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 160;
                if (!(i < T * T))
                    break;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 160 - 1) / 160; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 160;
                if (!(i < T * T))
                    break;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 160 - 1) / 160; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 160;
                if (!(i < T * T))
                    break;
                As[pipefy_dst][i / T][i % T] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 160 - 1) / 160; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 160;
                if (!(i < T * T))
                    break;
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
            for (int j = 0; j < OUTS; ++j) {
                int o = threadIdx.x + j * blockDim.x;
                if (o < T * T)
                    for (int k = 0; k < T; ++k)
                        acc[j] += As[pipefy_stage][o / T][k] * Bs[pipefy_stage][k][o % T];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i / T][i % T] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int j = 0; j < OUTS; ++j) {
                int o = threadIdx.x + j * blockDim.x;
                if (o < T * T)
                    for (int k = 0; k < T; ++k)
                        acc[j] += As[0][o / T][k] * Bs[0][k][o % T];
            }
            __syncthreads();
        }
    }
    for (int j = 0; j < OUTS; ++j) {
        int o = threadIdx.x + j * blockDim.x;
        if (o < T * T)
            C[(r0 + o / T) * N + c0 + o % T] = acc[j];
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 96, 64};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_strided", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_strided<<<dim3(N / T, M / T), 160>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
