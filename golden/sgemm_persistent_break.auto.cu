// sgemm_persistent_break.cu: a persistent kernel whose blocks take output tiles in turn and
// leave their loop with a `break` once none is left (`for (pos = blockIdx.x;; pos +=
// gridDim.x) { ti = pos / tiles_x; if (ti >= tiles_y) break; .. }`, NVIDIA's
// cudaTensorCoreGemm sample's shape). The break's test reads the loop's own counter, the same in
// every thread while all are still in the loop: by induction every thread leaves it together,
// so the K-loop inside is reached by every thread of the block (the build before read the
// counter as varying and left the K-loop as written). The negative kernel's test also reads the
// thread's index (`+ threadIdx.x * 0`, zero when it runs, but not a fact pipefy reads): left as
// written.
// Usage: sgemm_persistent_break [M N K] (multiples of TS)
// gpu-runs: 16 16 0 | 32 32 32 | 64 48 96 | 256 256 256
// gpu-sanitize: 64 48 96
#include "harness.cuh"

#define TS 16

__global__ void persistent_break(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_x = N / TS, tiles_y = M / TS;
    for (unsigned int pos = blockIdx.x;; pos += gridDim.x) {
        const unsigned int ti = pos / tiles_x, tj = pos % tiles_x;
        if (ti >= tiles_y) {
            break;
        }
        int row = ti * TS + ty, col = tj * TS + tx;
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
                pipefy_reg0 = A[row * K + k0 + tx];
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
}

// the same, the break's test also reading the thread's index: left as written
__global__ void thread_break(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_x = N / TS, tiles_y = M / TS;
    for (unsigned int pos = blockIdx.x;; pos += gridDim.x) {
        const unsigned int ti = pos / tiles_x, tj = pos % tiles_x;
        if (ti + threadIdx.x * 0 >= tiles_y) {
            break;
        }
        int row = ti * TS + ty, col = tj * TS + tx;
        float acc = 0.0f;
        for (int k0 = 0; k0 < K; k0 += TS) {
            As[ty][tx] = A[row * K + k0 + tx];
            Bs[ty][tx] = B[(k0 + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; ++k)
                acc += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        C[row * N + col] = acc;
    }
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    int blocks = (M / TS) * (N / TS) / 3 + 1;  // (fewer blocks than tiles: each takes several)
    bad |= harness_gemm<float, float>("persistent_break", M, N, K, [&](const float *A, const float *B, float *C) {
        persistent_break<<<blocks, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("thread_break", M, N, K, [&](const float *A, const float *B, float *C) {
        thread_break<<<blocks, dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
