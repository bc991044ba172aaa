// neg_tma.cu: K-loops that the other variants take but sm_90's tensor copies must not: a tile
// that is no box of its operand, a box whose row length only the kernel knows, a kernel pipefy
// cannot copy, launches it cannot route. Each remark of the tma golden names the reason.
// pipefy-golden: tma bulk ws
#include <cuda_runtime.h>

#define T 32

// transposed: thread (x, y) stores As[x][y], the box's element (y, x)
__global__ void transposed(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[tx][ty] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// a 32-row tile filled by two copies of 16 rows each
__global__ void two_copies(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
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
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + k0 + tx];
            pipefy_reg1 = A[(blockIdx.y * T + ty + 16) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            As[pipefy_dst][ty + 16][tx] = pipefy_reg1;
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
                acc += As[pipefy_stage][ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// the rows are gridDim.x * 32 apart: the host could not build the tensor map
__global__ void grid_stride(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ld = gridDim.x * T;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * ld + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// guarded copies fill zeros where the operand ends
__global__ void guarded(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    if (row < M)
        C[row * N + blockIdx.x * T + tx] = acc;
}

// rows of two floats: 8 bytes, where a tensor copy's box rows need a multiple of 16 (its loop is
// kept rolled, so that the PTX check sees one loop of it)
__global__ void narrow_tile(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][T][2];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += 2;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        #pragma unroll 1
        for (int k0 = 0; k0 < K; k0 += 2) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < 2; ++k)
                acc += As[pipefy_stage][ty][k] * B[(k0 + k) * N + blockIdx.x * 2 + tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * 2 + tx] = acc;
}

// a template: the copy pipefy would make is per instantiation
template <int TS>
__global__ void templated(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * TS + ty) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * TS + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// C linkage: a second kernel of the same name could not be told apart
extern "C" __global__ void c_linkage(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// launched only through a macro, where pipefy cannot route the launch
__global__ void macro_launched(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// 'base' takes off's value before off moves: the loader must not read off again
__global__ void stale_local(const float *A, const float *B, float *C, int N, int K, int shift)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int off = blockIdx.y * T;
    int base = off * K;
    off += shift;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[base + ty * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(off + ty) * N + blockIdx.x * T + tx] = acc;
}

// 'first' is the loop variable's value before the loop: 0, not the tile's
__global__ void stale_loop_variable(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int k0 = 0;
    int first = k0;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = k0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + first + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// A moved under a condition: how far it has moved is not one polynomial
__global__ void moved_in_branch(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (blockIdx.x > 0)
        A += K;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[(blockIdx.y * T + ty) * K + k0 + tx];
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// the bump comes before the copy, which reads the moved pointer
__global__ void bump_before_copy(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * T + ty) * K + tx - T;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (a second register stage lost to one with blocks this large)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        const float *pipefy_next_a = a;
        // pipefy: staging registers
        float pipefy_reg0;
        // pipefy: load the tile at the cursor into the staging registers and advance the
        // cursor; false once the tiles run out
        auto pipefy_fetch = [&]() {
            int k0 = pipefy_next_k0;
            const float *a = pipefy_next_a;
            if (!(k0 < K))
                return false;
            a += T;
            pipefy_reg0 = a[0];
            k0 += T;
            pipefy_next_k0 = k0;
            pipefy_next_a = a;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty][tx] = pipefy_reg0;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch())
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch();
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            a += T;
            for (int k = 0; k < T; ++k)
                acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

#define LAUNCH(kernel, grid, ...) kernel<<<grid, dim3(T, T)>>>(__VA_ARGS__)

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T), block(T, T);
    transposed<<<grid, block>>>(A, B, C, N, K);
    two_copies<<<grid, dim3(T, 16)>>>(A, B, C, N, K);
    grid_stride<<<grid, block>>>(A, B, C, N, K);
    guarded<<<grid, block>>>(A, B, C, M, N, K);
    narrow_tile<<<dim3(N / 2, M / T), dim3(2, T)>>>(A, B, C, N, K);
    templated<T><<<grid, block>>>(A, B, C, N, K);
    c_linkage<<<grid, block>>>(A, B, C, N, K);
    LAUNCH(macro_launched, grid, A, B, C, N, K);
    stale_local<<<grid, block>>>(A, B, C, N, K, 3);
    stale_loop_variable<<<grid, block>>>(A, B, C, N, K);
    moved_in_branch<<<grid, block>>>(A, B, C, N, K);
    bump_before_copy<<<grid, block>>>(A, B, C, N, K);
}
