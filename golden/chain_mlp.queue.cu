// chain_mlp.cu: a two-layer MLP as three launches on one stream, each kernel reading what the
// one before it wrote: H = X * W1 (tiled GEMM), G = gelu(H + b) (elementwise), Y = G * W2 (the
// same GEMM). Usage: chain_mlp [M HIDDEN FF] (HIDDEN and FF multiples of TS, M of TS).
// pipefy-golden: overlap queue
// gpu-runs: 16 64 64 | 16 16 16 | 32 64 48 | 64 128 256 | 256 256 512 | 1024 512 1024
// gpu-sanitize: 32 64 48
#include "harness.cuh"

#define TS 16

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K)
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

__global__ void bias_gelu(const float *H, const float *bias, float *G, int M, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        float x = H[i] + bias[i % N];
        G[i] = 0.5f * x * (1.0f + erff(x * 0.70710678f));
    }
}

static double gelu_ref(double x) { return 0.5 * x * (1.0 + erf(x * 0.7071067811865476)); }

// pipefy: tile queues {
// pipefy: a ticket's block index in a grid; an item's counter, released and acquired; the rows an
// item of the second kernel waits for, as a block last worked them out
struct pipefy_queue_memo {
    unsigned long long item; // (the item of the second kernel whose rows these are)
    bool all;
    long long lo, hi;
    unsigned long long pending; // the block's next item of the second kernel, ~0 when none
    bool none_left;             // every item of the second kernel is taken
};
static __device__ __forceinline__ uint3 pipefy_queue_index(unsigned long long i, dim3 g)
{
    return make_uint3((unsigned)(i % g.x), (unsigned)(i / g.x % g.y), (unsigned)(i / ((unsigned long long)g.x * g.y)));
}
static __device__ __forceinline__ void pipefy_queue_done(unsigned long long *counter)
{
    __threadfence(); // (after a block barrier: the item's writes, every thread's, come first)
    atomicAdd(counter, 1ULL);
}
// (a relaxed read, polled: once an item may start, pipefy_queue_acquire makes what the counted
// items wrote visible; an acquire on every poll would drop the SM's L1 each time)
static __device__ __forceinline__ bool pipefy_queue_met(const unsigned long long *counter, unsigned long long n)
{
    return *(const volatile unsigned long long *)counter >= n;
}
static __device__ __forceinline__ void pipefy_queue_acquire()
{
    __threadfence(); // (after the relaxed reads that saw the counts: an acquire pattern)
}
static __device__ __forceinline__ void pipefy_queue_wait(const unsigned long long *counter, unsigned long long n)
{
    while (!pipefy_queue_met(counter, n))
        __nanosleep(100);
}
// } pipefy: tile queues
// pipefy: intervals {
// pipefy: an interval [lo, hi] holding every value an index may take. Each operation clears *ok
// where it cannot bound its result within 2^52 of zero and within the type C computes it in (a
// value that may wrap is no value an interval bounds): the host checks a whole grid's intervals
// first, so a block's, inside them, cannot overflow.
#ifdef __CUDA_ARCH__
#define PIPEFY_IV_CHECK 0 // (on the GPU every interval lies inside the ones the host checked)
#else
#define PIPEFY_IV_CHECK 1
#endif
struct pipefy_iv {
    long long lo, hi;
};
__host__ __device__ inline pipefy_iv pipefy_iv_make(long long lo, long long hi)
{
    pipefy_iv v;
    v.lo = lo;
    v.hi = hi;
    return v;
}
__host__ __device__ inline pipefy_iv pipefy_iv_exact(long long v) { return pipefy_iv_make(v, v); }
__host__ __device__ inline pipefy_iv pipefy_iv_fit(pipefy_iv v, long long lo, long long hi, bool *ok)
{
    if (PIPEFY_IV_CHECK && (v.lo < lo || v.hi > hi || v.lo < -(1LL << 52) || v.hi > (1LL << 52) || v.lo > v.hi))
        *ok = false;
    return v;
}
__host__ __device__ inline pipefy_iv pipefy_iv_add(pipefy_iv a, pipefy_iv b, bool *ok)
{
    return pipefy_iv_fit(pipefy_iv_make(a.lo + b.lo, a.hi + b.hi), -(1LL << 52), 1LL << 52, ok);
}
__host__ __device__ inline pipefy_iv pipefy_iv_sub(pipefy_iv a, pipefy_iv b, bool *ok)
{
    return pipefy_iv_fit(pipefy_iv_make(a.lo - b.hi, a.hi - b.lo), -(1LL << 52), 1LL << 52, ok);
}
__host__ __device__ inline pipefy_iv pipefy_iv_neg(pipefy_iv a) { return pipefy_iv_make(-a.hi, -a.lo); }
__host__ __device__ inline pipefy_iv pipefy_iv_hull(pipefy_iv a, pipefy_iv b)
{
    return pipefy_iv_make(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}
__host__ __device__ inline long long pipefy_iv_times(long long a, long long b, bool *ok)
{
    double p = (double)a * (double)b; // (operands within 2^52: an exact product below 2^60 fits)
    if (PIPEFY_IV_CHECK && (p > 1152921504606846976.0 || p < -1152921504606846976.0)) {
        *ok = false;
        return 0;
    }
    return a * b;
}
__host__ __device__ inline pipefy_iv pipefy_iv_mul(pipefy_iv a, pipefy_iv b, bool *ok)
{
    long long p[4] = {pipefy_iv_times(a.lo, b.lo, ok), pipefy_iv_times(a.lo, b.hi, ok), pipefy_iv_times(a.hi, b.lo, ok),
                      pipefy_iv_times(a.hi, b.hi, ok)};
    pipefy_iv v = pipefy_iv_exact(p[0]);
    for (int i = 1; i < 4; i++)
        v = pipefy_iv_hull(v, pipefy_iv_exact(p[i]));
    return pipefy_iv_fit(v, -(1LL << 52), 1LL << 52, ok);
}
__host__ __device__ inline pipefy_iv pipefy_iv_div(pipefy_iv a, pipefy_iv b, bool *ok)
{
    if (PIPEFY_IV_CHECK && (a.lo < 0 || b.lo <= 0)) { // (C's quotient truncates: bounded here for a >= 0, b > 0)
        *ok = false;
        return a;
    }
    return pipefy_iv_make(a.lo / b.hi, a.hi / b.lo);
}
__host__ __device__ inline pipefy_iv pipefy_iv_rem(pipefy_iv a, pipefy_iv b, bool *ok)
{
    if (PIPEFY_IV_CHECK && (a.lo < 0 || b.lo <= 0)) {
        *ok = false;
        return a;
    }
    return a.hi < b.lo ? a : pipefy_iv_make(0, a.hi < b.hi - 1 ? a.hi : b.hi - 1);
}
__host__ __device__ inline pipefy_iv pipefy_iv_shl(pipefy_iv a, pipefy_iv b, bool *ok)
{
    if (PIPEFY_IV_CHECK && (b.lo != b.hi || b.lo < 0 || b.lo > 52)) {
        *ok = false;
        return a;
    }
    return pipefy_iv_mul(a, pipefy_iv_exact(1LL << b.lo), ok);
}
__host__ __device__ inline pipefy_iv pipefy_iv_shr(pipefy_iv a, pipefy_iv b, bool *ok)
{
    if (PIPEFY_IV_CHECK && (b.lo != b.hi || b.lo < 0 || b.lo > 62 || a.lo < 0)) {
        *ok = false;
        return a;
    }
    return pipefy_iv_make(a.lo >> b.lo, a.hi >> b.lo);
}
__host__ __device__ inline pipefy_iv pipefy_iv_and(pipefy_iv a, pipefy_iv b, bool *ok)
{
    if (PIPEFY_IV_CHECK && (a.lo < 0 || b.lo < 0)) {
        *ok = false;
        return a;
    }
    return pipefy_iv_make(0, a.hi < b.hi ? a.hi : b.hi);
}
// (`for (v = a; v < b; v += step)`: inside the body v is in [a, b - 1], when the step is positive
// and v + step cannot wrap past the largest value of v's type; with a and the step one value
// each, v's last is a + (b - 1 - a) / step * step)
__host__ __device__ inline pipefy_iv pipefy_iv_loop(pipefy_iv a, pipefy_iv b, int strict, pipefy_iv step, long long top,
                                                   bool *ok)
{
    if (PIPEFY_IV_CHECK && (step.lo <= 0 || b.hi > top - step.hi))
        *ok = false;
    long long hi = b.hi - strict;
    if (a.lo == a.hi && step.lo == step.hi && step.lo > 0 && hi > a.lo)
        hi = a.lo + (hi - a.lo) / step.lo * step.lo;
    return pipefy_iv_make(a.lo, hi < a.lo ? a.lo : hi);
}
// (the bytes an element index reaches from a pointer)
__host__ __device__ inline pipefy_iv pipefy_iv_bytes(const void *p, unsigned long long size, pipefy_iv i, bool *ok)
{
    long long base = (long long)(unsigned long long)p;
    if (PIPEFY_IV_CHECK && (size == 0 || size > 256 || base < 0 || base > (1LL << 60) || i.lo < -(1LL << 52) || i.hi > (1LL << 52))) {
        *ok = false;
        return pipefy_iv_exact(0);
    }
    return pipefy_iv_make(base + i.lo * (long long)size, base + i.hi * (long long)size + (long long)size - 1);
}
// } pipefy: intervals
// pipefy: 'gemm' then 'bias_gelu' as one persistent launch (--launches=queue). Its blocks take items: the
// blocks of both kernels, whose bodies run as written (their parameters blockIdx, gridDim,
// threadIdx and blockDim stand for the builtins). An item of 'bias_gelu' starts once the items of
// 'gemm' whose writes it may read are done: those in the rows (blockIdx.y) of 'gemm'
// whose writes meet the bytes its accesses may touch, where the launcher finds each row's writes
// after the row's before and what 'bias_gelu' writes apart from all 'gemm' touches; all of them otherwise.
static __device__ void gemm_pipefy_item0(const float *A, const float *B, float *C, int M, int N, int K,
    const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)
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
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
static __device__ void bias_gelu_pipefy_item0(const float *H, const float *bias, float *G, int M, int N,
    const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        float x = H[i] + bias[i % N];
        G[i] = 0.5f * x * (1.0f + erff(x * 0.70710678f));
    }
}
// pipefy: the bytes of global memory each access of 'gemm' may touch, for blocks whose indices lie in
// pipefy_block_x, _y and _z (*pipefy_ok false where the interval cannot be told)
static __host__ __device__ pipefy_iv pipefy_queue0_touch1(int pipefy_access, const pipefy_iv pipefy_block_x,
    const pipefy_iv pipefy_block_y, const pipefy_iv pipefy_block_z, const dim3 gridDim, const dim3 blockDim,
    const float *A, const float *B, float *C, int M, int N, int K, bool *pipefy_ok)
{
    switch (pipefy_access) {
    case 0: // A[row * K + k0 + tx]
        return pipefy_iv_bytes(A, sizeof *A, pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_y, pipefy_iv_fit(pipefy_iv_exact((long long)(TS)), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_make(0, (long long)blockDim.y - 1), -2147483648LL, 2147483647LL, pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_exact((long long)(K)), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_loop(pipefy_iv_exact((long long)(0)), pipefy_iv_exact((long long)(K)), 1, pipefy_iv_exact((long long)(TS)), 2147483647LL, pipefy_ok), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_make(0, (long long)blockDim.x - 1), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok);
    case 1: // B[(k0 + ty) * N + col]
        return pipefy_iv_bytes(B, sizeof *B, pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_loop(pipefy_iv_exact((long long)(0)), pipefy_iv_exact((long long)(K)), 1, pipefy_iv_exact((long long)(TS)), 2147483647LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_make(0, (long long)blockDim.y - 1), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_exact((long long)(N)), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_x, pipefy_iv_fit(pipefy_iv_exact((long long)(TS)), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_make(0, (long long)blockDim.x - 1), -2147483648LL, 2147483647LL, pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok);
    case 2: // C[row * N + col], written
        return pipefy_iv_bytes(C, sizeof *C, pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_y, pipefy_iv_fit(pipefy_iv_exact((long long)(TS)), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_make(0, (long long)blockDim.y - 1), -2147483648LL, 2147483647LL, pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_exact((long long)(N)), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_x, pipefy_iv_fit(pipefy_iv_exact((long long)(TS)), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_make(0, (long long)blockDim.x - 1), -2147483648LL, 2147483647LL, pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok);
    }
    *pipefy_ok = false;
    return pipefy_iv_exact(0);
}
// pipefy: the bytes of global memory each access of 'bias_gelu' may touch, for blocks whose indices lie in
// pipefy_block_x, _y and _z (*pipefy_ok false where the interval cannot be told)
static __host__ __device__ pipefy_iv pipefy_queue0_touch2(int pipefy_access, const pipefy_iv pipefy_block_x,
    const pipefy_iv pipefy_block_y, const pipefy_iv pipefy_block_z, const dim3 gridDim, const dim3 blockDim,
    const float *H, const float *bias, float *G, int M, int N, bool *pipefy_ok)
{
    switch (pipefy_access) {
    case 0: // H[i]
        return pipefy_iv_bytes(H, sizeof *H, pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_x, pipefy_iv_exact((long long)blockDim.x), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_make(0, (long long)blockDim.x - 1), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok);
    case 1: // bias[i % N]
        return pipefy_iv_bytes(bias, sizeof *bias, pipefy_iv_fit(pipefy_iv_rem(pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_x, pipefy_iv_exact((long long)blockDim.x), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_make(0, (long long)blockDim.x - 1), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_iv_exact((long long)(N)), pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok);
    case 2: // G[i], written
        return pipefy_iv_bytes(G, sizeof *G, pipefy_iv_fit(pipefy_iv_fit(pipefy_iv_add(pipefy_iv_fit(pipefy_iv_mul(pipefy_block_x, pipefy_iv_exact((long long)blockDim.x), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), pipefy_iv_make(0, (long long)blockDim.x - 1), pipefy_ok), 0LL, 4294967295LL, pipefy_ok), -2147483648LL, 2147483647LL, pipefy_ok), pipefy_ok);
    }
    *pipefy_ok = false;
    return pipefy_iv_exact(0);
}
// pipefy: the bytes the blocks of 'gemm' in row r (blockIdx.y == r) may write
static __host__ __device__ pipefy_iv pipefy_queue0_row(unsigned long long pipefy_r, const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4, bool *pipefy_ok)
{
    pipefy_iv pipefy_w = pipefy_iv_make(0, -1);
    bool pipefy_first = true;
    for (int pipefy_i = 0; pipefy_i < 3; pipefy_i++) {
        if ("rrw"[pipefy_i] != 'w')
            continue;
        const pipefy_iv pipefy_t = pipefy_queue0_touch1(pipefy_i, pipefy_iv_make(0, (long long)pipefy_grid1.x - 1), pipefy_iv_exact((long long)pipefy_r), pipefy_iv_make(0, (long long)pipefy_grid1.z - 1), pipefy_grid1, pipefy_block1, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_ok);
        pipefy_w = pipefy_first ? pipefy_t : pipefy_iv_hull(pipefy_w, pipefy_t);
        pipefy_first = false;
    }
    return pipefy_w;
}
// pipefy: the first row of 'gemm' whose writes end at or after byte v (past: begin after it); pipefy_rows
// if none. Rows' writes lie in order, so the answer for the last item read (the hint) is tried first.
static __device__ long long pipefy_queue0_first(bool pipefy_past, long long pipefy_v, long long pipefy_hint,
    const unsigned long long pipefy_rows, const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4)
{
    bool pipefy_ok = true; // (the launcher checked every row: nothing here clears it)
    long long pipefy_f = 0, pipefy_l = (long long)pipefy_rows;
    for (int pipefy_try = 0; pipefy_f < pipefy_l; pipefy_try++) {
        const long long pipefy_m = pipefy_try == 0 && pipefy_hint >= 0 && pipefy_hint < pipefy_l ? pipefy_hint
                                   : pipefy_try == 1 && pipefy_hint > pipefy_f && pipefy_hint <= pipefy_l ? pipefy_hint - 1
                                   : (pipefy_f + pipefy_l) / 2;
        const pipefy_iv pipefy_w = pipefy_queue0_row((unsigned long long)pipefy_m, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, &pipefy_ok);
        if (pipefy_past ? pipefy_w.lo > pipefy_v : pipefy_w.hi >= pipefy_v)
            pipefy_l = pipefy_m;
        else
            pipefy_f = pipefy_m + 1;
    }
    return pipefy_f;
}
// pipefy: the rows of 'gemm' whose blocks item c of 'bias_gelu' waits for: [*lo, *hi] (on entry, the last
// item's); false for all of them
static __device__ bool pipefy_queue0_rows(unsigned long long pipefy_c, const unsigned long long pipefy_rows,
    const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4, long long *pipefy_lo, long long *pipefy_hi)
{
    bool pipefy_ok = pipefy_rows > 0;
    const uint3 pipefy_b = pipefy_queue_index(pipefy_c, pipefy_grid2);
    const long long pipefy_hint_f = *pipefy_lo, pipefy_hint_s = *pipefy_hi + 1;
    *pipefy_lo = (long long)pipefy_rows;
    *pipefy_hi = -1;
    for (int pipefy_i = 0; pipefy_i < 3 && pipefy_ok; pipefy_i++) {
        const pipefy_iv pipefy_t = pipefy_queue0_touch2(pipefy_i, pipefy_iv_exact(pipefy_b.x), pipefy_iv_exact(pipefy_b.y),
            pipefy_iv_exact(pipefy_b.z), pipefy_grid2, pipefy_block2, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, &pipefy_ok);
        // rows [f, s - 1]: from the first ending at or after the access's first byte to the last
        // beginning at or before its last
        const long long pipefy_f = pipefy_queue0_first(false, pipefy_t.lo, pipefy_hint_f, pipefy_rows, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4);
        const long long pipefy_s = pipefy_queue0_first(true, pipefy_t.hi, pipefy_hint_s, pipefy_rows, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4);
        if (pipefy_f < pipefy_s) {
            *pipefy_lo = pipefy_f < *pipefy_lo ? pipefy_f : *pipefy_lo;
            *pipefy_hi = pipefy_s - 1 > *pipefy_hi ? pipefy_s - 1 : *pipefy_hi;
        }
    }
    return pipefy_ok;
}
// pipefy: whether item c of 'bias_gelu' may start (pipefy_wait: once it may): the blocks of 'gemm' in the rows
// it reads are done, all of them where pipefy_rows is 0 or the rows are not told
static __device__ bool pipefy_queue0_ready(unsigned long long pipefy_c, bool pipefy_wait,
    const unsigned long long *pipefy_counters, const unsigned long long pipefy_rows, pipefy_queue_memo *pipefy_memo,
    const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4)
{
    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;
    if (pipefy_memo->item != pipefy_c) {
        pipefy_memo->item = pipefy_c;
        pipefy_memo->all = !pipefy_queue0_rows(pipefy_c, pipefy_rows, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, &pipefy_memo->lo, &pipefy_memo->hi);
    }
    if (pipefy_memo->all) {
        if (pipefy_wait)
            pipefy_queue_wait(&pipefy_counters[2], pipefy_items1);
        return pipefy_queue_met(&pipefy_counters[2], pipefy_items1);
    }
    for (long long pipefy_r = pipefy_memo->lo; pipefy_r <= pipefy_memo->hi; pipefy_r++) {
        if (pipefy_wait)
            pipefy_queue_wait(&pipefy_counters[3 + pipefy_r], pipefy_items1 / pipefy_rows);
        else if (!pipefy_queue_met(&pipefy_counters[3 + pipefy_r], pipefy_items1 / pipefy_rows))
            return false;
    }
    return true;
}
// pipefy: a block's next item (thread 0 takes it). A block holds the next item of 'bias_gelu' it took
// (a ticket of its own: taking one is one atomic add) and runs items of 'gemm' until that one may
// start; once every item of 'gemm' is taken, it waits for it. Every item a wait depends on was then
// taken by a running block and waits for nothing: no wait outlasts its blocks at any grid size
// or occupancy. A ticket past both kernels' items says there is none left.
static __device__ unsigned long long pipefy_queue0_take(unsigned long long *pipefy_counters,
    const unsigned long long pipefy_rows, pipefy_queue_memo *pipefy_memo, const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4)
{
    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;
    const unsigned long long pipefy_items2 = (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;
    if (pipefy_memo->pending == ~0ULL && !pipefy_memo->none_left) {
        const unsigned long long pipefy_c = atomicAdd(&pipefy_counters[1], 1ULL);
        if (pipefy_c < pipefy_items2)
            pipefy_memo->pending = pipefy_c;
        else
            pipefy_memo->none_left = true;
    }
    const unsigned long long pipefy_c = pipefy_memo->pending;
    if (pipefy_c != ~0ULL && pipefy_queue0_ready(pipefy_c, false, pipefy_counters, pipefy_rows, pipefy_memo, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4)) {
        pipefy_queue_acquire();
        pipefy_memo->pending = ~0ULL;
        return pipefy_items1 + pipefy_c;
    }
    const unsigned long long pipefy_p = atomicAdd(&pipefy_counters[0], 1ULL);
    if (pipefy_p < pipefy_items1)
        return pipefy_p;
    if (pipefy_c == ~0ULL)
        return pipefy_items1 + pipefy_items2;
    pipefy_queue0_ready(pipefy_c, true, pipefy_counters, pipefy_rows, pipefy_memo, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4); // (every item of 'gemm' is taken)
    pipefy_queue_acquire();
    pipefy_memo->pending = ~0ULL;
    return pipefy_items1 + pipefy_c;
}
static __global__ void pipefy_queue0_gemm_bias_gelu(const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4, unsigned long long *pipefy_counters,
    const unsigned long long pipefy_rows)
{
    __shared__ unsigned long long pipefy_ticket;
    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;
    const unsigned long long pipefy_items = pipefy_items1 + (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;
    pipefy_queue_memo pipefy_memo = {~0ULL, false, 0, -1, ~0ULL, false};
    for (;;) {
        if (threadIdx.x == 0)
            pipefy_ticket = pipefy_queue0_take(pipefy_counters, pipefy_rows, &pipefy_memo, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4);
        __syncthreads();
        const unsigned long long pipefy_item = pipefy_ticket;
        __syncthreads(); // (every thread has its item, and is done with the last)
        if (pipefy_item >= pipefy_items)
            break;
        if (pipefy_item < pipefy_items1) {
            const uint3 pipefy_b = pipefy_queue_index(pipefy_item, pipefy_grid1);
            gemm_pipefy_item0(pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b, pipefy_grid1, pipefy_queue_index(threadIdx.x, pipefy_block1), pipefy_block1);
            __syncthreads(); // every thread is done with the item
            if (threadIdx.x == 0)
                pipefy_queue_done(&pipefy_counters[pipefy_rows ? 3 + pipefy_b.y : 2]);
        } else // (thread 0 took it once what it reads was done: the barrier above orders the rest after)
            bias_gelu_pipefy_item0(pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, pipefy_queue_index(pipefy_item - pipefy_items1, pipefy_grid2), pipefy_grid2,
                pipefy_queue_index(threadIdx.x, pipefy_block2), pipefy_block2);
    }
}
// pipefy: how many rows of 'gemm' the items of 'bias_gelu' wait for one by one: its grid's rows (blockIdx.y)
// where every access of both kernels is bounded, what 'bias_gelu' writes lies apart from all 'gemm' may
// touch, and each row's writes lie after the row's before; 0 otherwise (they wait for all)
static unsigned long long pipefy_queue0_exact(const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4)
{
    bool pipefy_ok = true;
    const unsigned long long pipefy_rows = pipefy_grid1.y;
    if (pipefy_rows > 65536)
        return 0;
    for (int pipefy_j = 0; pipefy_j < 3; pipefy_j++) {
        const pipefy_iv pipefy_t2 = pipefy_queue0_touch2(pipefy_j, pipefy_iv_make(0, (long long)pipefy_grid2.x - 1), pipefy_iv_make(0, (long long)pipefy_grid2.y - 1), pipefy_iv_make(0, (long long)pipefy_grid2.z - 1), pipefy_grid2, pipefy_block2, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, &pipefy_ok);
        for (int pipefy_i = 0; pipefy_i < 3 && "rrw"[pipefy_j] == 'w'; pipefy_i++) {
            const pipefy_iv pipefy_t1 = pipefy_queue0_touch1(pipefy_i, pipefy_iv_make(0, (long long)pipefy_grid1.x - 1), pipefy_iv_make(0, (long long)pipefy_grid1.y - 1), pipefy_iv_make(0, (long long)pipefy_grid1.z - 1), pipefy_grid1, pipefy_block1, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, &pipefy_ok);
            if (pipefy_t2.lo <= pipefy_t1.hi && pipefy_t1.lo <= pipefy_t2.hi)
                return 0;
        }
    }
    pipefy_iv pipefy_last = pipefy_iv_exact(0);
    for (unsigned long long pipefy_r = 0; pipefy_r < pipefy_rows && pipefy_ok; pipefy_r++) {
        const pipefy_iv pipefy_w = pipefy_queue0_row(pipefy_r, pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, &pipefy_ok);
        if (pipefy_r > 0 && pipefy_w.lo <= pipefy_last.hi)
            return 0;
        pipefy_last = pipefy_w;
    }
    return pipefy_ok ? pipefy_rows : 0;
}
// pipefy: the launches of 'gemm' and 'bias_gelu' at 79:9: as one persistent launch where both blocks have
// the same number of threads and the kernel fits an SM; as written otherwise
static void pipefy_launch_queue0(dim3 pipefy_grid1, dim3 pipefy_block1, dim3 pipefy_grid2, dim3 pipefy_block2,
    cudaStream_t pipefy_stream,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    const float *pipefy_b0,
    const float *pipefy_b1,
    float *pipefy_b2,
    int pipefy_b3,
    int pipefy_b4)
{
    // (the SMs, and how many blocks of the persistent kernel one holds: asked once per host
    // thread, device and block size)
    static thread_local int pipefy_known_device = -1, pipefy_sms = 0, pipefy_resident = 0;
    static thread_local unsigned pipefy_known_threads = 0;
    const unsigned pipefy_threads = pipefy_block1.x * pipefy_block1.y * pipefy_block1.z;
    int pipefy_device = 0;
    unsigned long long *pipefy_counters = nullptr;
    const bool pipefy_valid =
        pipefy_grid1.x >= 1 && pipefy_grid1.y >= 1 && pipefy_grid1.z >= 1 && pipefy_grid1.x <= 2147483647u && pipefy_grid1.y <= 65535 && pipefy_grid1.z <= 65535 &&
        pipefy_block1.x >= 1 && pipefy_block1.y >= 1 && pipefy_block1.z >= 1 && pipefy_block1.x <= 1024 && pipefy_block1.y <= 1024 && pipefy_block1.z <= 64 &&
        pipefy_grid2.x >= 1 && pipefy_grid2.y >= 1 && pipefy_grid2.z >= 1 && pipefy_grid2.x <= 2147483647u && pipefy_grid2.y <= 65535 && pipefy_grid2.z <= 65535 &&
        pipefy_block2.x >= 1 && pipefy_block2.y >= 1 && pipefy_block2.z >= 1 && pipefy_block2.x <= 1024 && pipefy_block2.y <= 1024 && pipefy_block2.z <= 64 &&
        pipefy_threads == pipefy_block2.x * pipefy_block2.y * pipefy_block2.z &&
        cudaGetDevice(&pipefy_device) == cudaSuccess;
    if (pipefy_valid && (pipefy_device != pipefy_known_device || pipefy_threads != pipefy_known_threads)) {
        pipefy_known_device = -1;
        if (cudaDeviceGetAttribute(&pipefy_sms, cudaDevAttrMultiProcessorCount, pipefy_device) == cudaSuccess &&
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, pipefy_queue0_gemm_bias_gelu, (int)pipefy_threads, 0) == cudaSuccess) {
            pipefy_known_device = pipefy_device;
            pipefy_known_threads = pipefy_threads;
        }
    }
    const bool pipefy_fits = pipefy_valid && pipefy_known_device == pipefy_device && pipefy_resident > 0;
    unsigned long long pipefy_rows = pipefy_fits ? pipefy_queue0_exact(pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4) : 0;
#ifdef PIPEFY_QUEUE_ALL
    pipefy_rows = 0; // (a benchmark's: every item of the second waits for all of the first)
#endif
    if (pipefy_fits &&
        cudaMallocAsync((void **)&pipefy_counters, (3 + pipefy_rows) * sizeof *pipefy_counters, pipefy_stream) == cudaSuccess) {
        unsigned long long pipefy_blocks = (unsigned long long)pipefy_sms * pipefy_resident;
#ifdef PIPEFY_QUEUE_BLOCKS
        pipefy_blocks = PIPEFY_QUEUE_BLOCKS; // (a test's: this many persistent blocks)
#endif
        const unsigned long long pipefy_items = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z +
                                                (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;
        if (pipefy_blocks > pipefy_items)
            pipefy_blocks = pipefy_items;
        cudaMemsetAsync(pipefy_counters, 0, (3 + pipefy_rows) * sizeof *pipefy_counters, pipefy_stream);
        pipefy_queue0_gemm_bias_gelu<<<(unsigned)pipefy_blocks, pipefy_threads, 0, pipefy_stream>>>(pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4, pipefy_counters, pipefy_rows);
        cudaFreeAsync(pipefy_counters, pipefy_stream);
        return;
    }
    gemm<<<pipefy_grid1, pipefy_block1, 0, pipefy_stream>>>(pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5);
    bias_gelu<<<pipefy_grid2, pipefy_block2, 0, pipefy_stream>>>(pipefy_b0, pipefy_b1, pipefy_b2, pipefy_b3, pipefy_b4);
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 256};  // M HIDDEN FF
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], D = sz[1], F = sz[2];
    size_t nx = (size_t)M * D, nw1 = (size_t)D * F, nh = (size_t)M * F, nw2 = (size_t)F * D;
    float *hX = (float *)malloc(nx * 4), *hW1 = (float *)malloc(nw1 * 4), *hb = (float *)malloc(F * 4);
    float *hW2 = (float *)malloc(nw2 * 4), *hY = (float *)malloc(nx * 4);
    uint32_t seed = 777;
    for (size_t i = 0; i < nx; i++) hX[i] = harness_random(&seed);
    for (size_t i = 0; i < nw1; i++) hW1[i] = harness_random(&seed) * 0.25f;
    for (int i = 0; i < F; i++) hb[i] = harness_random(&seed);
    for (size_t i = 0; i < nw2; i++) hW2[i] = harness_random(&seed) * 0.25f;
    double *g = (double *)calloc(nh + 1, sizeof(double)), *ref = (double *)calloc(nx + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++) {
        for (int k = 0; k < D; k++)
            for (int j = 0; j < F; j++)
                g[(size_t)i * F + j] += (double)hX[(size_t)i * D + k] * hW1[(size_t)k * F + j];
        for (int j = 0; j < F; j++)
            g[(size_t)i * F + j] = gelu_ref(g[(size_t)i * F + j] + hb[j]);
        for (int k = 0; k < F; k++)
            for (int j = 0; j < D; j++)
                ref[(size_t)i * D + j] += g[(size_t)i * F + k] * hW2[(size_t)k * D + j];
    }
    float *dX, *dW1, *db, *dH, *dG, *dW2, *dY;
    CHECK(cudaMalloc(&dX, nx * 4));
    CHECK(cudaMalloc(&dW1, nw1 * 4));
    CHECK(cudaMalloc(&db, F * 4));
    CHECK(cudaMalloc(&dH, nh * 4));
    CHECK(cudaMalloc(&dG, nh * 4));
    CHECK(cudaMalloc(&dW2, nw2 * 4));
    CHECK(cudaMalloc(&dY, nx * 4));
    CHECK(cudaMemcpy(dX, hX, nx * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW1, hW1, nw1 * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, F * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dW2, hW2, nw2 * 4, cudaMemcpyHostToDevice));
    dim3 block(TS, TS), up(F / TS, M / TS), down(D / TS, M / TS);
    int threads = 256, blocks = (int)((nh + threads - 1) / threads);
    auto chain = [&] {
        pipefy_launch_queue0(up, block, blocks, threads, 0, dX, dW1, dH, M, F, D, dH, db, dG, M, F);
        (void)0 /* pipefy: 'bias_gelu' runs in pipefy_launch_queue0's persistent launch */;
        gemm<<<down, block>>>(dG, dW2, dY, M, D, F);
    };
    // every buffer a kernel writes poisoned first: a kernel that reads one before the kernel
    // ahead of it has written it reads NaNs
    auto poisoned = [&] {
        CHECK(cudaMemset(dH, 0xff, nh * 4));
        CHECK(cudaMemset(dG, 0xff, nh * 4));
        CHECK(cudaMemset(dY, 0xff, nx * 4));
        chain();
    };
    poisoned();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hY, dY, nx * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_mlp: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hY, nx * 4));
    else
        rc = harness_report("chain_mlp", hY, ref, nx, 1e-3, 1e-3);
    if (harness_repeat("chain_mlp", dY, hY, nx * 4, poisoned))
        rc = 1;
    harness_time("chain_mlp", 2.0 * M * D * F * 2, chain);
    CHECK(cudaFree(dX));
    CHECK(cudaFree(dW1));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dH));
    CHECK(cudaFree(dG));
    CHECK(cudaFree(dW2));
    CHECK(cudaFree(dY));
    free(hX);
    free(hW1);
    free(hb);
    free(hW2);
    free(hY);
    free(g);
    free(ref);
    return rc;
}
