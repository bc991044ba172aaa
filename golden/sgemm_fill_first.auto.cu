// sgemm_fill_first.cu: tiles filled as a constant first, then a copy under an if into the same
// element, the next statement (`As[r][c] = 0; if (g) As[r][c] = A[i];`, luckboy/unmtx-gpu's
// fill): the same values as `As[r][c] = g ? A[i] : 0`, so one guarded copy to pipefy. The
// sizes need not be multiples of the tile: the guards zero what lies outside. The second
// kernel has each thread fill four rows of A's tile and four columns of B's, each zeroed then
// copied under its own guard, and keeps a 4x4 block of C in registers. The third zeroes with a
// value that is not 0 (the padding is 1): only copies that can fill with it are legal. The
// fourth fills 1-D tiles so, its steps and the compute's trips counted by blockDim.x (luckboy's
// softmax): pipefy writes its loop twice, for the launch's block and as written for any other,
// and the copy as written keeps its zeroing store (stage 0's, like the copy under the if).
// Usage: sgemm_fill_first [M N K]
// gpu-runs: 16 16 0 | 16 16 5 | 17 33 31 | 64 64 64 | 100 70 45 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 17 33 31
#include "harness.cuh"

#define TS 16
#define RB 4 /* rows (and columns) a thread of the blocked kernel computes */

__global__ void fill_first(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
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
            pipefy_reg0 = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
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
        C[row * N + col] = acc;
}

// A block of TS x TS threads computes (TS*RB) x (TS*RB) of C.
__global__ void fill_first_blocked(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float as[2][TS * RB][TS];
    __shared__ float bs[2][TS][TS * RB];
    int ti = threadIdx.y, tj = threadIdx.x;
    int bi = ti * RB, bj = tj * RB;
    int i = blockIdx.y * TS * RB + bi, j = blockIdx.x * TS * RB + bj;
    float c[RB][RB] = {};
    int k;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        float pipefy_reg2;
        float pipefy_reg3;
        float pipefy_reg4;
        float pipefy_reg5;
        float pipefy_reg6;
        float pipefy_reg7;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k) {
            if (pipefy_step)
                k += TS;
            if (!(k < K))
                return false;
            pipefy_reg0 = (i + 0 < M && k + tj < K) ? A[K * (i + 0) + k + tj] : 0.0f;
            pipefy_reg1 = (i + 1 < M && k + tj < K) ? A[K * (i + 1) + k + tj] : 0.0f;
            pipefy_reg2 = (i + 2 < M && k + tj < K) ? A[K * (i + 2) + k + tj] : 0.0f;
            pipefy_reg3 = (i + 3 < M && k + tj < K) ? A[K * (i + 3) + k + tj] : 0.0f;
            pipefy_reg4 = (j + 0 < N && k + ti < K) ? B[N * (k + ti) + j + 0] : 0.0f;
            pipefy_reg5 = (j + 1 < N && k + ti < K) ? B[N * (k + ti) + j + 1] : 0.0f;
            pipefy_reg6 = (j + 2 < N && k + ti < K) ? B[N * (k + ti) + j + 2] : 0.0f;
            pipefy_reg7 = (j + 3 < N && k + ti < K) ? B[N * (k + ti) + j + 3] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            as[pipefy_dst][bi + 0][tj] = pipefy_reg0;
            as[pipefy_dst][bi + 1][tj] = pipefy_reg1;
            as[pipefy_dst][bi + 2][tj] = pipefy_reg2;
            as[pipefy_dst][bi + 3][tj] = pipefy_reg3;
            bs[pipefy_dst][ti][bj + 0] = pipefy_reg4;
            bs[pipefy_dst][ti][bj + 1] = pipefy_reg5;
            bs[pipefy_dst][ti][bj + 2] = pipefy_reg6;
            bs[pipefy_dst][ti][bj + 3] = pipefy_reg7;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (k = 0; k < K; k += TS) {
            bool pipefy_more = pipefy_fetch(true, k);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int tk = 0; tk < TS; tk++)
                for (int r = 0; r < RB; r++)
                    for (int s = 0; s < RB; s++)
                        c[r][s] += as[pipefy_stage][bi + r][tk] * bs[pipefy_stage][tk][bj + s];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int r = 0; r < RB; r++)
        for (int s = 0; s < RB; s++)
            if (i + r < M && j + s < N)
                C[(i + r) * N + j + s] = c[r][s];
}

// Padded with 1 instead of 0: past K each product is 1 * 1, which the kernel counts (pad)
// and takes off again, so C is A B. The fill is not 0: cp.async's zero-fill cannot give it.
__global__ void fill_first_ones(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, pad = 0.0f;
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
            pipefy_reg0 = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 1.0f;
            pipefy_reg1 = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 1.0f;
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
            for (int k = 0; k < TS; ++k) {
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
                pad += (k0 + k >= K) ? 1.0f : 0.0f;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    if (row < M && col < N)
        C[row * N + col] = acc - pad;
}

// The first kernel's fill into 1-D tiles, with the block's width for the tile's.
__global__ void fill_first_blockdim(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS * TS], Bs[2][TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y, w = blockDim.x;
    int row = blockIdx.y * w + ty, col = blockIdx.x * w + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the compute's loops over blockDim.x run a fixed number of trips in a 16x16x1
    // block (launch at 164:9), which the compiler unrolls; other blocks run the loop as written
    if (blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += w;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty * w + tx] = pipefy_reg0;
            Bs[pipefy_dst][ty * w + tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += w) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < w; ++k)
                acc += As[pipefy_stage][ty * w + k] * Bs[pipefy_stage][k * w + tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += w) {
            As[0][ty * w + tx] = 0.0f;
            if (row < M && k0 + tx < K)
                As[0][ty * w + tx] = A[row * K + k0 + tx];
            Bs[0][ty * w + tx] = 0.0f;
            if (col < N && k0 + ty < K)
                Bs[0][ty * w + tx] = B[(k0 + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < w; ++k)
                acc += As[0][ty * w + k] * Bs[0][k * w + tx];
            __syncthreads();
        }
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("fill_first", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("fill_first_blocked", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first_blocked<<<dim3((N + TS * RB - 1) / (TS * RB), (M + TS * RB - 1) / (TS * RB)), dim3(TS, TS)>>>(
            A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("fill_first_ones", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first_ones<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("fill_first_blockdim", M, N, K, [&](const float *A, const float *B, float *C) {
        fill_first_blockdim<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
