// neg_scratch_aliases.cu: attacks on the scratch locals of the function (sgemm_scratch_after.cu):
// the local reached other than by its name, through a const reference read after the loop, a
// helper that keeps its address from a const reference parameter, a struct holding a reference,
// an rvalue reference, a const reference the compute or a copy reads in the loop; a class
// whose assignment reads its old state; a const reference to a local the compute steps, read by
// the copies (also wrong before this session, without any scratch); and a local both a step and
// the compute's own statement set, which the compute then steps like a loop variable (`row +=
// 5;`). A first try of the scratch rules (a helper's probes, session 38) pipelined each of
// these, wrongly (the CPU model's sums differed) or failing validation (two declarations of one
// local in the loader): all are left as written now. The last kernel, whose compute sets the
// fill's local again before it reads it, was left with a remark naming a hazard it does not
// have; it is pipelined now.
// Usage: neg_scratch_aliases [M N K] (multiples of TS)
// gpu-runs: 16 16 0 | 32 32 32 | 64 64 96
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TS 16

struct Holder { const int *p; };
__device__ void hold(Holder &h, const int &v) { h.p = &v; }
struct View { const int &r; };
struct Counted {
    int v, n;
    __device__ Counted &operator=(int x) { v = x; n++; return *this; }
};

// a const reference bound before the loop, read after it
__global__ void alias_const_ref(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + (TS - 1 - ty), col = blockIdx.x * TS + tx;
    const int &r = row;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[r * N + col] = acc;
}

// its address kept by a helper taking a const reference
__global__ void alias_helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + (TS - 1 - ty), col = blockIdx.x * TS + tx;
    Holder h;
    hold(h, row);
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[*h.p * N + col] = acc;
}

// a struct holding a reference to it
__global__ void alias_struct_ref(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + (TS - 1 - ty), col = blockIdx.x * TS + tx;
    View vw{row};
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[vw.r * N + col] = acc;
}

// an rvalue reference
__global__ void alias_rvalue_ref(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + (TS - 1 - ty), col = blockIdx.x * TS + tx;
    int &&rr = static_cast<int &&>(row);
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[rr * N + col] = acc;
}

// a const reference read by the compute (the fill sets row this trip; nothing after the loop)
__global__ void alias_ref_in_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = -1000, col = blockIdx.x * TS + tx, good = blockIdx.y * TS + ty;
    const int &r = row;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = good;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        acc += (float)(r - good);
        __syncthreads();
    }
    C[good * N + col] = acc;
}

// a step of its own (`m = k0;`) read by the copy through a const reference
__global__ void alias_ref_step(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TS + tx, good = blockIdx.y * TS + ty;
    int m = 0;
    const int &rm = m;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        m = k0;
        As[ty][tx] = A[good * K + rm + tx];
        Bs[ty][tx] = B[(m + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[good * N + col] = acc;
}

__global__ void misc_counted_assign(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TS + tx;
    int good = blockIdx.y * TS + ty;
    float acc = 0.0f;
    Counted cr;
    cr.v = 0;
    cr.n = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            cr = good;
            As[ty][tx] = A[cr.v * K + (cr.n - 1) * TS + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[good * N + col] = acc;
}

__global__ void ldgx_constref_read_direct(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TS + tx;
    int good = blockIdx.y * TS + ty;
    float acc = 0.0f;
    int off = 0;
    const int &ro = off;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[good * K + ro + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        off += TS;
        __syncthreads();
    }
    C[good * N + col] = acc;
}

__global__ void ldgx_constref_read_scratch(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TS + tx;
    int good = blockIdx.y * TS + ty;
    float acc = 0.0f;
    int off = 0, row;
    const int &ro = off;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = ro + tx;
            As[ty][tx] = A[good * K + row];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        off += TS;
        __syncthreads();
    }
    C[good * N + col] = acc;
}

__global__ void iter_step_compute_modifies(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = -1, col = blockIdx.x * TS + tx;
    int good = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        row = k0 + ty;
        Bs[ty][tx] = B[row * N + col];
        As[ty][tx] = A[good * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        row += 5;
        acc += (float)(row - k0 - ty - 5);
        __syncthreads();
    }
    C[good * N + col] = acc;
}

__global__ void iter_compute_sets_own(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = -1, col = blockIdx.x * TS + tx;
    int good = blockIdx.y * TS + ty;
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
            int row; // pipefy: the loader's own
            if (!(k0 < K))
                return false;
            if (ty < TS) {
                row = good;
                pipefy_reg0 = A[row * K + k0 + tx];
            }
            pipefy_reg1 = B[(k0 + ty) * N + col];
            row = ty;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int row; // pipefy: the loader's own
            if (ty < TS) {
                row = good;
                As[pipefy_dst][ty][tx] = pipefy_reg0;
            }
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
            row = ty;
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][row][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[good * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 64, 96};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    dim3 grid(N / TS, M / TS), block(TS, TS);
#define RUN(kernel)                                                                                         \
    bad |= harness_gemm<float, float>(#kernel, M, N, K, [&](const float *A, const float *B, float *C) {    \
        kernel<<<grid, block>>>(A, B, C, M, N, K);                                                         \
    }, 1e-4, 1e-4)
    RUN(alias_const_ref);
    RUN(alias_helper);
    RUN(alias_struct_ref);
    RUN(alias_rvalue_ref);
    RUN(alias_ref_in_compute);
    RUN(alias_ref_step);
    RUN(misc_counted_assign);
    RUN(ldgx_constref_read_direct);
    RUN(ldgx_constref_read_scratch);
    RUN(iter_step_compute_modifies);
    RUN(iter_compute_sets_own);
    return bad;
}
