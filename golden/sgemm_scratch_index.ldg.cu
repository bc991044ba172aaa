// sgemm_scratch_index.cu: an index declared before the K-loop and assigned again before each
// copy (`int idx; for (..) { idx = ..; if (idx >= n * n) As[..] = 0; else As[..] = A[idx]; ..
// }`, a public tiled multiply's shape): only the loop's copies read it and every iteration
// assigns it before they do, so the loader may assign it a tile early, with the copies. The
// second kernel's compute reads the index too: a loader a tile ahead would hand it the next
// tile's index, so the loader sets an index of its own (declared in it), and the compute keeps
// setting the one it reads (it stayed as written until the loaders had their own).
// Usage: sgemm_scratch_index [N] (a multiple of TS; N x N matrices)
// gpu-runs: 16 | 32 | 48 | 256
// gpu-sanitize: 48
#include "harness.cuh"

#define TS 16

__global__ void scratch_index(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    int idx;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            int idx; // pipefy: the loader's own
            if (!(t < n / TS))
                return false;
            idx = row * n + t * TS + threadIdx.x;
            pipefy_reg0 = (!(idx >= n * n)) ? A[idx] : 0.0f;
            idx = (t * TS + threadIdx.y) * n + col;
            pipefy_reg1 = (!(idx >= n * n)) ? B[idx] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][threadIdx.y][threadIdx.x] = pipefy_reg0;
            Bs[pipefy_dst][threadIdx.y][threadIdx.x] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < n / TS; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][threadIdx.y][k] * Bs[pipefy_stage][k][threadIdx.x];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * n + col] = acc;
}

// the index read by the compute too: the loader sets its own, the compute its
__global__ void index_in_compute(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    int idx;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            int idx; // pipefy: the loader's own
            if (!(t < n / TS))
                return false;
            idx = row * n + t * TS + threadIdx.x;
            pipefy_reg0 = A[idx];
            pipefy_reg1 = B[(t * TS + threadIdx.y) * n + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][threadIdx.y][threadIdx.x] = pipefy_reg0;
            Bs[pipefy_dst][threadIdx.y][threadIdx.x] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < n / TS; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            idx = row * n + t * TS + threadIdx.x;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][threadIdx.y][k] * Bs[pipefy_stage][k][threadIdx.x];
            acc += (float)(idx - (row * n + t * TS + threadIdx.x));
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[1] = {256};
    harness_sizes(argc, argv, sz, 1);
    int n = sz[0];
    int bad = 0;
    bad |= harness_gemm<float, float>("scratch_index", n, n, n, [&](const float *A, const float *B, float *C) {
        scratch_index<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(A, B, C, n);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("index_in_compute", n, n, n, [&](const float *A, const float *B, float *C) {
        index_in_compute<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(A, B, C, n);
    }, 1e-4, 1e-4);
    return bad;
}
