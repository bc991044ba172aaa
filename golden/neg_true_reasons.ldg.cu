// neg_true_reasons.cu: loops pipefy leaves as written (or, for registers, refuses), each for a
// reason public kernels gave it whose remark once named something else (public/MANIFEST.md):
// the remark must name the real obstacle, on one line. No host program: the goldens say what
// pipefy does with each.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define TS 16

// A copy loop that also advances a lane pointer declared before it (cudaTensorCoreGemm's
// shape): the fill writes 'p' too. Once: "a statement that fills a tile also writes other
// state", with no name and no place. The loader now replays the pointer's declaration and
// its steps with the copies, so cp.async takes it; register staging, which runs the copies
// again to store its registers, named the pointer until it declared it again there too (no
// block size here: one register stage by default, sgemm_copy_locals.cu runs the shape).
__global__ void lane_pointer(const int4 *__restrict__ G, float *out, int ktiles, int ld)
{
    __shared__ int4 tile[2][64][8];
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: the loop variables of the tile in the staging registers
        int pipefy_tile_t = 0;
        // pipefy: staging registers
        int4 pipefy_reg0[2];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            pipefy_tile_t = t;
            if (!(t < ktiles))
                return false;
            const int4 *p = G + t * 8 + (threadIdx.x / 8) * ld + threadIdx.x % 8;
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 2))
                    break;
                pipefy_reg0[pipefy_j] = *p;
                p += 32 * ld;
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int t = pipefy_tile_t;
            const int4 *p = G + t * 8 + (threadIdx.x / 8) * ld + threadIdx.x % 8;
#pragma unroll
            for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
                int i = 0 + pipefy_j * 1;
                if (!(i < 2))
                    break;
                tile[pipefy_dst][threadIdx.x / 8 + 32 * i][threadIdx.x % 8] = pipefy_reg0[pipefy_j];
                p += 32 * ld;
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
        for (int t = 0; t < ktiles; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < 8; ++k)
                acc = fmaf(__int_as_float(tile[pipefy_stage][threadIdx.x % 64][k].x), __int_as_float(tile[pipefy_stage][(threadIdx.x + k) % 64][k].y), acc);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Asynchronous copies waited for at once, before the compute: one stage, nothing in flight
// while it computes. Once: "already pipelined".
__global__ void one_stage_async(const float4 *A, float *C, int ntiles)
{
    __shared__ float4 As[256];
    float acc = 0.0f;
    for (int t = 0; t < ntiles; ++t) {
        __pipeline_memcpy_async(&As[threadIdx.x], &A[t * 256 + threadIdx.x], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        for (int i = 0; i < 256; ++i)
            acc += As[i].x * As[(i + threadIdx.x) % 256].y;
        __syncthreads();
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Copies by a subset of the threads, under an if without an else the same on every tile:
// registers load and store them under the if (sgemm_invariant_guards.cu runs the shape). Once:
// "sits in a loop or branch: ... a trip count known at compile time", then "sits under the
// branch", then pipelined.
__global__ void subset_copy(const float *A, const float *B, float *C, int N, int K)
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
        float pipefy_reg2;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            if (tx < TS / 2) {
                pipefy_reg0 = A[row * K + k0 + 2 * tx];
                pipefy_reg1 = A[row * K + k0 + 2 * tx + 1];
            }
            pipefy_reg2 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (tx < TS / 2) {
                As[pipefy_dst][ty][2 * tx] = pipefy_reg0;
                As[pipefy_dst][ty][2 * tx + 1] = pipefy_reg1;
            }
            Bs[pipefy_dst][ty][tx] = pipefy_reg2;
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

// The tiles filled through a function template (leimao's and siboehm's shape). Once: "the
// function it calls is known only at instantiation", the callee's template arguments printed
// over three lines; then "'load_tile' is a function template". pipefy now follows the fill into
// the template: cp.async calls a copy of it (sgemm_template_helpers.cu runs the shape); auto
// leaves its 4-byte copies, which register staging would need the helper split to take.
template <int BM, int BK, int NT>
__device__ void load_tile(const float *A, float (*As)[BK], int k0, int K)
{
    for (int i = threadIdx.x; i < BM * BK; i += NT)
        As[i / BK][i % BK] = A[(blockIdx.y * BM + i / BK) * K + k0 + i % BK];
}

template <int BM, int BK, int NT>
__global__ void template_fill(const float *A, float *C, int K)
{
    __shared__ float As[BM][BK];
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_tile<BM,
                  BK,
                  NT>(A, As, k0, K);
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[threadIdx.x % BM][k] * (k + 1.0f); // (an FMA: the overlap check counts it)
        __syncthreads();
    }
    C[blockIdx.y * NT + threadIdx.x] = acc;
}

// Both tiles zeroed first, then both copied under ifs: a zero and its copy are not next to each
// other, so not one guarded copy (next to each other they are: sgemm_fill_first.cu). Once:
// "'As' is set to a constant ... and then copied under the if ..., not the next statement".
__global__ void fill_first_apart(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = 0.0f;
        Bs[ty][tx] = 0.0f;
        if (row < M && k0 + tx < K)
            As[ty][tx] = A[row * K + k0 + tx];
        if (col < N && k0 + ty < K)
            Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// The tile index a copy stores at, set by a statement of its own (kaixih's 27-point stencil
// sets its ring's indices so), and read after the loop: not the loader's scratch, so the
// loader, which replays the copies a tile early, would not replay that statement. Once: "the
// load at .. depends on 'lj'", where the load reads no 'lj'; now "the copy's tile index".
__global__ void index_set_apart(const float *A, float *C, int K)
{
    __shared__ float As[10][34];
    int li, lj;
    int tx = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        li = tx % 34;
        lj = tx / 34;
        As[lj][li] = A[k * 340 + tx];
        __syncthreads();
        acc += As[tx / 34][tx % 34] * 2.0f;
        __syncthreads();
    }
    C[blockIdx.x * 256 + tx] = acc + lj;
}

void run(const float *A, const float *B, float *C, int N, int K)
{
    template_fill<64, 8, 256><<<dim3(1, N / 64), 256>>>(A, C, K);
}
