// sgemm_compute_views.cu: the compute reads the tiles through pointers it declares each
// iteration (`const float *ap = &As[ty][0];`) and hands to a function taking `const float *`,
// the way tensor-core kernels hand `const half *tile_ptr = &smem[..][..]` to load_matrix_sync
// (NVIDIA's cudaTensorCoreGemm sample): declared again each iteration from the tile's name,
// which the rewrite indexes by the stage being computed, such a pointer reads that stage; so does
// a pointer (const or not) whose every use reads what it points to (`ap[k]`, `*bp`), as
// tpoisonooo's MMult_cuda_9 reads `float *ptrA = ashare + aidx0 + subk * SMEM_LDA;`. The
// negative kernels attack the facts that relies on: a pointer handed where it can write
// (`float *`), a const pointer also copied into another one that outlives the iteration (a use
// that is not a call's const argument), a store through the pointer, a reference bound to what
// it points to, a function taking `const float *` that keeps it or casts the const away and
// writes (the tile's address handed to it directly, too): all stay as written.
// Usage: sgemm_compute_views [M N K] (multiples of TS)
// gpu-runs: 16 16 0 | 32 32 32 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TS 16

// a row of A's tile against a column of B's, both read through the pointers handed in
__device__ float dot_row(const float *a, const float *b)
{
    float s = 0.0f;
    for (int k = 0; k < TS; ++k)
        s += a[k] * b[k * TS];
    return s;
}

__device__ float dot_row_mut(float *a, const float *b)
{
    float s = 0.0f;
    for (int k = 0; k < TS; ++k)
        s += a[k] * b[k * TS];
    return s;
}

__global__ void views(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
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
            const float *ap = &As[pipefy_stage][ty][0];
            const float *bp = &Bs[pipefy_stage][0][tx];
            acc += dot_row(ap, bp);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// a pointer through which the compute could write the tile (what the function does with it is
// not followed): left as written
__global__ void writable_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        float *ap = &As[ty][0];
        acc += dot_row_mut(ap, &Bs[0][tx]);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a const pointer copied into another, which the next iteration reads before it is set again: as
// written it points at the tile the copies just refilled; staged, it would point at the stage
// before. A use that is no call's const argument: left as written
__global__ void copied_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    const float *keep = nullptr;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        if (keep)
            acc += keep[0] - As[ty][0];  // (0 as written: keep points at this tile's row too)
        const float *ap = &As[ty][0];
        keep = ap;
        acc += dot_row(ap, &Bs[0][tx]);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the pointers read what they point to, by index and by `*`, one declared in the inner loop
__global__ void indexed_views(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
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
            float *ap = &As[pipefy_stage][ty][0];
            for (int k = 0; k < TS; ++k) {
                float *bp = &Bs[pipefy_stage][0][0] + k * TS + tx;
                acc += ap[k] * *bp;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// the pointers stepped along the tiles they point into (`*ap++`, `bp += TS;` as a statement of
// its own), as xzgz's matrixMul_compOpt steps `ap += BLOCK_SIZE`: a step keeps a pointer in the
// tile it was set to, so in the stage the rewrite sets it to
__global__ void stepped_views(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
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
            float *ap = &As[pipefy_stage][ty][0];
            const float *bp = &Bs[pipefy_stage][0][tx];
            for (int k = 0; k < TS; ++k) {
                acc += *ap++ * *bp;
                bp += TS;
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// a store through a stepped pointer (`*(ap += TS) = acc`, into the padding column nothing
// reads, by one thread a row), and a stepped pointer's value handed to a function that takes
// `float *`: each a write to the tile, or a way to one; left as written
__global__ void stepped_store(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS + 1];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        float *ap = &As[ty][0];
        for (int k = 0; k < TS; ++k)
            acc += ap[k] * Bs[k][tx];
        if (tx == 0)
            *(ap += TS) = acc;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void stepped_handed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        float *ap = &As[ty][0] - 1;
        acc += dot_row_mut(++ap, &Bs[0][tx]);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a store through the pointer (into the padding column nothing reads, by one thread a row):
// a write to the tile pipefy would not see as one; left as written
__global__ void stored_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS + 1];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        float *ap = &As[ty][0];
        for (int k = 0; k < TS; ++k)
            acc += ap[k] * Bs[k][tx];
        if (tx == 0)
            ap[TS] = acc;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a reference bound to an element the pointer reaches, which could write it: left as written
__global__ void referenced_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        float *ap = &As[ty][0];
        float &first = ap[0];
        acc += first * Bs[0][tx];
        for (int k = 1; k < TS; ++k)
            acc += ap[k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a const pointer handed to a function that keeps it (`keep = a;` through a reference
// parameter), read in the next iteration: as written it points at the tile refilled since;
// staged, at the stage before. The function's parameter is used other than to read: left
__device__ float dot_keep(const float *a, const float *b, const float *&keep)
{
    float s = 0.0f;
    for (int k = 0; k < TS; ++k)
        s += a[k] * b[k * TS];
    keep = a;
    return s;
}

__global__ void kept_view(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    const float *keep = nullptr;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        if (keep)
            acc += keep[0] - As[ty][0];  // (0 as written)
        const float *ap = &As[ty][0];
        acc += dot_keep(ap, &Bs[0][tx], keep);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a function taking `const float *` that casts the const away and writes the padding column
// (the tile's number, which the next tile's compute checks): it writes the tile. Handed the
// tile's address itself, not a view: left as written either way
__device__ float dot_mark(const float *a, const float *b, int k0)
{
    float s = 0.0f;
    for (int k = 0; k < TS; ++k)
        s += a[k] * b[k * TS];
    if (threadIdx.x == 0)
        const_cast<float *>(a)[TS] = (float)k0;
    return s;
}

__global__ void cast_away(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS + 1];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        if (k0 > 0 && tx == 0)
            acc += As[ty][TS] == (float)(k0 - TS) ? 0.0f : 1000.0f;
        acc += dot_mark(&As[ty][0], &Bs[0][tx], k0);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the same in a kernel template: the call of the function template waits for the instantiation,
// and pipefy follows it into the one template its name can mean; a function that only reads
// its rows is followed (pipelined), one that casts the const away and writes is not (left)
template <int T>
__device__ float dot_rows(const float (*a)[T + 1], const float (*b)[T], int r, int c)
{
    float s = 0.0f;
    for (int k = 0; k < T; ++k)
        s += a[r][k] * b[k][c];
    return s;
}

template <int T>
__device__ float dot_rows_mark(const float (*a)[T + 1], const float (*b)[T], int r, int c, int k0)
{
    float s = 0.0f;
    for (int k = 0; k < T; ++k)
        s += a[r][k] * b[k][c];
    if (c == 0)
        const_cast<float *>(a[r])[T] = (float)k0;
    return s;
}

template <int T>
__global__ void template_rows(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                              int M, int N, int K)
{
    __shared__ float As[2][T][T + 1];
    __shared__ float Bs[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            acc += dot_rows<T>(As[pipefy_stage], Bs[pipefy_stage], ty, tx);
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

template <int T>
__global__ void template_rows_mark(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int M, int N, int K)
{
    __shared__ float As[T][T + 1];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        if (k0 > 0 && tx == 0)
            acc += As[ty][T] == (float)(k0 - T) ? 0.0f : 1000.0f;
        acc += dot_rows_mark<T>(As, Bs, ty, tx, k0);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    dim3 grid(N / TS, M / TS), block(TS, TS);
    bad |= harness_gemm<float, float>("views", M, N, K, [&](const float *A, const float *B, float *C) {
        views<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("writable_view", M, N, K, [&](const float *A, const float *B, float *C) {
        writable_view<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("copied_view", M, N, K, [&](const float *A, const float *B, float *C) {
        copied_view<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("indexed_views", M, N, K, [&](const float *A, const float *B, float *C) {
        indexed_views<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("stepped_views", M, N, K, [&](const float *A, const float *B, float *C) {
        stepped_views<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("stepped_store", M, N, K, [&](const float *A, const float *B, float *C) {
        stepped_store<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("stepped_handed", M, N, K, [&](const float *A, const float *B, float *C) {
        stepped_handed<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("stored_view", M, N, K, [&](const float *A, const float *B, float *C) {
        stored_view<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("referenced_view", M, N, K, [&](const float *A, const float *B, float *C) {
        referenced_view<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("kept_view", M, N, K, [&](const float *A, const float *B, float *C) {
        kept_view<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("cast_away", M, N, K, [&](const float *A, const float *B, float *C) {
        cast_away<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("template_rows", M, N, K, [&](const float *A, const float *B, float *C) {
        template_rows<TS><<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("template_rows_mark", M, N, K, [&](const float *A, const float *B, float *C) {
        template_rows_mark<TS><<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
