// Probes written to break this session's new remarks (a helper's attack, session 40): loops that
// look like a hand register prefetch, a hand double buffer, a copy-only loop, a wait for cp.async
// groups issued elsewhere, a compute writing shared memory, or a fill in a helper, but are not
// quite. The first build of those remarks claimed each (a prefetch where the tile is stored
// before any compute, a moving slot where an inner loop's counter or a plain reassignment sits
// in the address, "issued outside the loop" for copies issued two calls deep in it, and so on);
// each remark below says only what holds.

// ---- do-while: the "read" between load and store is of a lookup table, not the tile; the tile is
// read only after the store and a barrier: a plain copy, no register prefetch
__global__ void k_p01(const float *__restrict__ A, float *__restrict__ out, int K)
{
    __shared__ float As[256];
    __shared__ int lut[256];
    lut[threadIdx.x] = threadIdx.x;
    __syncthreads();
    float reg;
    int t = 0, idx;
    float acc = 0.0f;
    do {
        reg = A[t + threadIdx.x];
        idx = lut[threadIdx.x];
        As[idx] = reg;
        __syncthreads();
        for (int j = 0; j < 256; ++j)
            acc += As[j];
        __syncthreads();
        t += 256;
    } while (t < K);
    out[threadIdx.x] = acc;
}

// ---- do-while: the register loaded from global memory is overwritten with 0 before the store:
// the tile is stored a constant, nothing loaded early
__global__ void k_p02(const float *__restrict__ A, float *__restrict__ out, int K)
{
    __shared__ float As[256];
    float reg;
    int t = 0;
    float acc = 0.0f;
    do {
        reg = A[t + threadIdx.x];
        acc += reg;
        for (int j = 0; j < 256; ++j)
            acc += As[j];
        reg = 0.0f;
        __syncthreads();
        As[threadIdx.x] = reg;
        __syncthreads();
        t += 256;
    } while (t < K);
    out[threadIdx.x] = acc;
}

// ---- for + macro store: the register is loaded in the same iteration, then a barrier, then stored,
// then the compute: no compute between the load and the store, no prefetch
#define ST_p10(M, R) *(M) = R
__global__ void k_p10(const float *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float s[256];
    float nxt;
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        nxt = A[t * 256 + threadIdx.x];
        __syncthreads();
        ST_p10(&s[threadIdx.x], nxt);
        __syncthreads();
        for (int j = 0; j < 256; ++j)
            acc += s[j];
    }
    out[threadIdx.x] = acc;
}

// ---- for + macro store: 'w' is computed from the counter, never loaded from global memory;
// the tile Bs next to it is loaded straight
#define ST_p11(M, R) *(M) = R
__global__ void k_p11(const float *__restrict__ B, float *__restrict__ out, int n)
{
    __shared__ float s[256];
    __shared__ float Bs[256];
    float w = 0.0f;
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        ST_p11(&s[threadIdx.x], w);
        Bs[threadIdx.x] = B[t * 256 + threadIdx.x];
        __syncthreads();
        w = t * 0.5f;
        for (int j = 0; j < 256; ++j)
            acc += s[j] * Bs[j];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

// ---- a store through a pointer at 'i', the counter of an inner copy loop declared outside:
// every iteration fills the same 512 floats, nothing moves
__device__ void f_p20(const float *A, float *C, int K, float *sh)
{
    float *p = sh;
    int i;
    float acc = 0.0f;
    for (int k_p20 = 0; k_p20 < K; k_p20 += 512) {
        for (i = 0; i < 2; i++)
            p[i * 256 + threadIdx.x] = A[k_p20 + i * 256 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 512; j++)
            acc += p[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
__global__ void kern_p20(const float *A, float *C, int K)
{
    __shared__ float sh[512];
    f_p20(A, C, K, sh);
}

// ---- the offset is set to the same value every iteration: the tile does not move
__device__ void f_p21(const float *A, float *C, int K, float *sh)
{
    float *p = sh;
    int tid;
    float acc = 0.0f;
    for (int k_p21 = 0; k_p21 < K; k_p21 += 256) {
        tid = threadIdx.x;
        p[tid] = A[k_p21 + tid];
        __syncthreads();
        for (int j = 0; j < 256; j++)
            acc += p[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
__global__ void kern_p21(const float *A, float *C, int K)
{
    __shared__ float sh[256];
    f_p21(A, C, K, sh);
}

// ---- the offset changes only right before the loop exits by break: every store sees off == 0
__device__ void f_p22(const float *A, float *C, int K, float *sh)
{
    float *p = sh;
    int off = 0;
    float acc = 0.0f;
    for (int k_p22 = 0; k_p22 < K; k_p22 += 256) {
        p[off + threadIdx.x] = A[k_p22 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; j++)
            acc += p[j];
        __syncthreads();
        if (acc > 1e30f) {
            off = 256;
            break;
        }
    }
    C[threadIdx.x] = acc + off;
}
__global__ void kern_p22(const float *A, float *C, int K)
{
    __shared__ float sh[512];
    f_p22(A, C, K, sh);
}

// ---- a copy loop; the only use of 't' after it is a write, not a read
__global__ void k_p33(const float *__restrict__ g, float *__restrict__ out)
{
    __shared__ float t[256];
    for (int i = 0; i < 16; ++i) {
        t[threadIdx.x] = g[i * 256 + threadIdx.x];
        __syncthreads();
    }
    t[threadIdx.x] = 0.0f;
    out[threadIdx.x] = 1.0f;
}

// ---- the loop waits in its asm, but the function's only cp.async is issued after the loop:
// no group is in flight while the loop waits
__global__ void k_p40(const float4 *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float4 s[128];
    __shared__ float sums[128];
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");
        __syncthreads();
        acc += s[t & 127].x;
        sums[threadIdx.x] = acc;
        __syncthreads();
    }
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(&s[threadIdx.x])),
                 "l"(&A[threadIdx.x]));
    out[threadIdx.x] = acc;
}

// ---- the loop issues its own cp.async each iteration through 'issue_p44' -> 'cp16_p44' (file-scope tile);
// the remark says the groups it waits for are issued outside the loop
__shared__ float4 s[2][128];
__device__ void cp16_p44(void *d, const void *g)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(d)), "l"(g));
}
__device__ void issue_p44(const float4 *A, int t) { cp16_p44(&s[t & 1][threadIdx.x], A + t * 128 + threadIdx.x); }
__global__ void k_p44(const float4 *__restrict__ A, float *__restrict__ out, int n)
{
    cp16_p44(&s[0][threadIdx.x], A + threadIdx.x);
    asm volatile("cp.async.commit_group;\n");
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        issue_p44(A, t + 1);
        asm volatile("cp.async.commit_group;\n");
        asm volatile("cp.async.wait_group 1;\n" ::: "memory");
        __syncthreads();
        for (int j = 0; j < 128; ++j)
            acc += s[t & 1][j].x;
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

// ---- the compute writes a __shared__ scalar (no array)
__global__ void k_p50(const float *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float As[256];
    __shared__ float total;
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 256 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j) {
            acc += As[j];
            if (threadIdx.x == 0 && j == 255)
                total = acc;
        }
        __syncthreads();
    }
    out[threadIdx.x] = acc + total;
}

// ---- the compute writes shared memory through a pointer into 'red'
__global__ void k_p53(const float *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float As[256];
    __shared__ float red[256];
    float *p = &red[threadIdx.x];
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 256 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j) {
            acc += As[j];
            *p = acc;
        }
        __syncthreads();
    }
    out[threadIdx.x] = red[threadIdx.x];
}

// ---- the helper 'fill_p62' stores a global load into a file-scope __shared__ array
__shared__ float Gs[256];
__device__ void fill_p62(const float *A, int t)
{
    Gs[threadIdx.x] = A[t * 256 + threadIdx.x];
}
__global__ void k_p62(const float *__restrict__ A, float *__restrict__ out, int n)
{
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        fill_p62(A, t);
        __syncthreads();
        for (int j = 0; j < 256; ++j)
            acc += Gs[j];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

// ---- the compute calls a helper whose toolkit calls hold asm built by macros (__hfma2), which
// pipefy cannot read: no claim that the copies are asynchronous (gravity's matmul once got one)
#include <cuda_fp16.h>
__device__ __forceinline__ void acc_h2(__half2 acc[4], const __half2 pA[4])
{
    for (int i = 0; i < 4; ++i)
        acc[i] = __hfma2(pA[i], pA[i], acc[i]);
}
__global__ void k_h2(const __half2 *__restrict__ A, __half2 *__restrict__ C, int n)
{
    __shared__ __half2 s[1024];
    __half2 *to[4] = {s + threadIdx.x, s + 256 + threadIdx.x, s + 512 + threadIdx.x, s + 768 + threadIdx.x};
    const __half2 *from = A + threadIdx.x;
    __half2 acc[4] = {}, pA[4];
    int t = 0;
    while (t++ < n) {
        __half2 tmp[4] = {__ldg(from), __ldg(from + 256), __ldg(from + 512), __ldg(from + 768)};
        for (int i = 0; i < 4; ++i)
            to[i][0] = tmp[i];
        __syncthreads();
        from += 1024;
        for (int j = 0; j < 4; ++j)
            pA[j] = s[j * 256];
        acc_h2(acc, pA);
        __syncthreads();
    }
    C[threadIdx.x] = acc[0];
}
