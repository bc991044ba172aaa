// sgemm_guarded_copy_loop.cu: tiled SGEMM for any M, N, K, its tiles filled by a copy loop
// whose every trip stores an element under if/else, the load where it is in range and zero
// where not (`if (g) As[r][tx] = A[..]; else As[r][tx] = 0.0f;`): one guarded copy a trip, as
// at the top of the body (registers load `g ? A[..] : 0.0f`; cp.async zero-fills). The
// negative leaves A's else out and zeroes its tile once before the loop instead, so that an
// element out of range keeps the zero (or the previous tile's value): a second stage would be
// neither. The store before the loop keeps the tiles to one stage; the remark names the store
// made on some tiles only.
// Usage: sgemm_guarded_copy_loop [M N K]
// gpu-runs: 32 32 0 | 32 32 32 | 40 72 50 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 40 72 50
#include "harness.cuh"

#define TS 32

__global__ void guarded_copy_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tid = threadIdx.x;
    int tx = tid % TS, ty = tid / TS; // 256 threads: ty in 0..7, four rows each
    int brow = blockIdx.y * TS, bcol = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_reg0[4];
        float pipefy_reg1[4];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < (K + TS - 1) / TS))
                return false;
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 4))
                    break;
                int r = ty + 8 * i;
                pipefy_reg0[pipefy_j] = (brow + r < M && t * TS + tx < K) ? A[(brow + r) * K + t * TS + tx] : 0.0f;
                pipefy_reg1[pipefy_j] = (t * TS + r < K && bcol + tx < N) ? B[(t * TS + r) * N + bcol + tx] : 0.0f;
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 4))
                    break;
                int r = ty + 8 * i;
                As[pipefy_dst][r][tx] = pipefy_reg0[pipefy_j];
                Bs[pipefy_dst][r][tx] = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < (K + TS - 1) / TS; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                for (int i = 0; i < 4; ++i)
                    acc[i] += As[pipefy_stage][ty + 8 * i][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 4; ++i)
        if (brow + ty + 8 * i < M && bcol + tx < N)
            C[(brow + ty + 8 * i) * N + bcol + tx] = acc[i];
}

// negative: no else for A, its tile zeroed once before the loop (an element out of range keeps
// the zero or the previous tile's value, whose products with B's zero rows add nothing)
__global__ void partial_copy_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tid = threadIdx.x;
    int tx = tid % TS, ty = tid / TS;
    int brow = blockIdx.y * TS, bcol = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 4; ++i)
        As[ty + 8 * i][tx] = 0.0f;
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        for (int i = 0; i < 4; ++i) {
            int r = ty + 8 * i;
            if (brow + r < M && t * TS + tx < K)
                As[r][tx] = A[(brow + r) * K + t * TS + tx];
            if (t * TS + r < K && bcol + tx < N)
                Bs[r][tx] = B[(t * TS + r) * N + bcol + tx];
            else
                Bs[r][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 8 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        if (brow + ty + 8 * i < M && bcol + tx < N)
            C[(brow + ty + 8 * i) * N + bcol + tx] = acc[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256}; // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(256);
    int bad = harness_gemm<float, float>("guarded_copy_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        guarded_copy_loop<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("partial_copy_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        partial_copy_loop<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
