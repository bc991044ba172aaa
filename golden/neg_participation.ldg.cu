// neg_participation.cu: K-loops that not every thread of a block may reach. The first is the
// textbook kernel whose K-loop sits inside its bounds check: where N is not a multiple of the
// tile, the edge blocks hold threads that never reach the barriers (the loop as written reads
// elements no thread wrote that tile; the build before this program gave it tensor copies
// whose mbarriers wait for the whole block: it hung): left as written, for every variant, with
// the condition named. The second leaves through a return under the same test: the threads
// that return have ended, and __syncthreads() waits only for the others, so registers and
// cp.async pipeline it; tensor copies, whose mbarriers count every thread, must refuse it,
// naming the return. The last two put the loop under conditions every thread of a block shares
// (the block's index, the arguments): pipelined.
// pipefy-args: --arch=sm_90
// pipefy-golden: tma ws ws-cp.async
// Usage: neg_participation [M N K] (multiples of 16, as the kernels as written need).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 48 | 256 128 512 | 1024 1024 1024
// gpu-sanitize: 48 32 48
#include "harness.cuh"

#define TS 16

__global__ void bounds_check(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row < M && col < N) {
        float t = 0;
        for (int i = 0; i < K / TS; i++) {
            As[ty][tx] = A[row * K + i * TS + tx];
            Bs[ty][tx] = B[(i * TS + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; k++)
                t += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        C[row * N + col] = t;
    }
}

__global__ void early_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (row >= M || col >= N)
        return;
    float t = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_i = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int i) {
            if (pipefy_step)
                i++;
            if (!(i < K / TS))
                return false;
            pipefy_reg0 = A[row * K + i * TS + tx];
            pipefy_reg1 = B[(i * TS + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_i))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int i = 0; i < K / TS; i++) {
            bool pipefy_more = pipefy_fetch(true, i);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; k++)
                t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = t;
}

// the block's own bounds: every thread of a block takes the branch alike
__global__ void block_guard(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const int tiles = K / TS;
    if (blockIdx.y * TS < M && blockIdx.x * TS < N && tiles > 0) {
        float t = 0;
        // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
        {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_i = 0;
            // pipefy: staging registers
            float pipefy_reg0;
            float pipefy_reg1;
            // pipefy: load into the staging registers the tile after the one at these loop variables
            // (with step: the main loop's), or at them (the first); false once the tiles run out
            auto pipefy_fetch = [&](bool pipefy_step, int i) {
                if (pipefy_step)
                    i++;
                if (!(i < tiles))
                    return false;
                pipefy_reg0 = A[row * K + i * TS + tx];
                pipefy_reg1 = B[(i * TS + ty) * N + col];
                return true;
            };
            // pipefy: store the staging registers into stage pipefy_dst
            auto pipefy_stash = [&](int pipefy_dst) {
                As[pipefy_dst][ty][tx] = pipefy_reg0;
                Bs[pipefy_dst][ty][tx] = pipefy_reg1;
            };
            // pipefy: prologue: tile 0 into stage 0
            if (pipefy_fetch(false, pipefy_next_i))
                pipefy_stash(0);
            __syncthreads();
            int pipefy_stage = 0; // the stage that holds tile t
            // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
            // the other stage. With two stages one barrier per iteration is enough: the stage being
            // filled was last read before the previous iteration's barrier
            for (int i = 0; i < tiles; i++) {
                bool pipefy_more = pipefy_fetch(true, i);
                __syncwarp(); // pipefy: the loads above stay ahead of the compute
                for (int k = 0; k < TS; k++)
                    t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
                if (pipefy_more)
                    pipefy_stash(pipefy_stage ^ 1);
                __syncthreads();
                pipefy_stage ^= 1;
            }
        }
        C[row * N + col] = t;
    } else if (row < M && col < N) {
        C[row * N + col] = 0.0f;
    }
}

// a return every thread of a block takes or none does
__global__ void block_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    if (blockIdx.y * TS >= M || blockIdx.x * TS >= N)
        return;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float t = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_i = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int i) {
            if (pipefy_step)
                i++;
            if (!(i < K / TS))
                return false;
            pipefy_reg0 = A[row * K + i * TS + tx];
            pipefy_reg1 = B[(i * TS + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_i))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int i = 0; i < K / TS; i++) {
            bool pipefy_more = pipefy_fetch(true, i);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; k++)
                t += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = t;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 512};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    // (blocks over the whole output, as such code launches them: at sizes that are not multiples
    // of the tile the kernels as written read elements no thread wrote, and fail the reference)
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("bounds_check", M, N, K, [&](const float *A, const float *B, float *C) {
        bounds_check<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("early_return", M, N, K, [&](const float *A, const float *B, float *C) {
        early_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("block_guard", M, N, K, [&](const float *A, const float *B, float *C) {
        block_guard<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("block_return", M, N, K, [&](const float *A, const float *B, float *C) {
        block_return<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
