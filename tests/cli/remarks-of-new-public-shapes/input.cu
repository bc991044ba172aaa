// Shapes of public kernels first met in session 41 (a helper's probes of new repositories), each
// written here: the remark each loop gets names its real obstacle.
#include <cuda_fp16.h>

// A fill through a helper of 2-byte elements, and one barrier a tile: the race as written is
// what keeps it, not how the helper copies.
__device__ void fill_half(__half *s, const __half *g, int K, int ko)
{
    for (int i = 0; i < 4; ++i)
        s[(i * 8 + threadIdx.y) * 32 + threadIdx.x] = g[(i * 8 + threadIdx.y) * K + ko * 32 + threadIdx.x];
}
__global__ void one_barrier_helper(const __half *A, float *C, int K)
{
    __shared__ __half As[32 * 32];
    float acc = 0.f;
    for (int ko = 0; ko < K / 32; ++ko) {
        fill_half(As, A, K, ko);
        __syncthreads();
        for (int k = 0; k < 32; ++k)
            acc += __half2float(As[threadIdx.y * 32 + k]);
    }
    C[threadIdx.y * 32 + threadIdx.x] = acc;
}

// A pointer into the storage the tile is carved from is still an alias of the tile.
__global__ void storage_alias(const float *K, float *O, int N)
{
    __shared__ float sm[64 * 64 + 64];
    float *Ks = sm;
    float acc = 0.f;
    for (int t = 0; t < N; t += 64) {
        for (int i = 0; i < 64; ++i)
            Ks[i * 64 + threadIdx.x] = K[(t + i) * 64 + threadIdx.x];
        __syncthreads();
        const float *q = sm + 64 * 64;
        for (int k = 0; k < 64; ++k)
            acc += q[k] * Ks[k * 64 + threadIdx.x];
        __syncthreads();
    }
    O[blockIdx.x * 64 + threadIdx.x] = acc;
}

// The compute's own scratch between two phases of it, after the barrier.
__global__ void compute_scratch(const float *K, float *O, int n)
{
    __shared__ float Ks[32][32];
    __shared__ float S[32][32];
    float acc = 0.f;
    for (int j = 0; j < n; j += 32) {
        Ks[threadIdx.y][threadIdx.x] = K[(j + threadIdx.y) * 32 + threadIdx.x];
        __syncthreads();
        float s = 0.f;
        for (int i = 0; i < 32; ++i)
            s += Ks[threadIdx.x][i];
        S[threadIdx.y][threadIdx.x] = s;
        __syncthreads();
        for (int i = 0; i < 32; ++i)
            acc += S[threadIdx.y][i];
        __syncthreads();
    }
    O[threadIdx.y * 32 + threadIdx.x] = acc;
}

// Buffers swapped through pointers, in a template.
template <typename E>
__global__ void pointer_swap(const E *A, E *C, int K)
{
    __shared__ E s0[32];
    __shared__ E s1[32];
    E *cur = s0;
    E *nxt = s1;
    cur[threadIdx.x] = A[threadIdx.x];
    __syncthreads();
    E acc = 0;
    for (int a = 0; a < K; a += 32) {
        if (a + 32 < K)
            nxt[threadIdx.x] = A[a + 32 + threadIdx.x];
        for (int i = 0; i < 32; ++i)
            acc += cur[i];
        __syncthreads();
        E *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    C[threadIdx.x] = acc;
}

// A fill through a loader whose type the kernel template decides: a call pipefy cannot resolve.
template <int R> struct Loader {
    const float *g;
    float *s;
    __device__ void load(int k) { s[threadIdx.x] = g[k + threadIdx.x]; }
};
template <int TK>
__global__ void template_loader(const float *A, float *C, int K)
{
    __shared__ float As[TK];
    Loader<TK> L{A, As};
    float acc = 0.f;
    for (int b = 0; b < K; b += TK) {
        L.load(b);
        __syncthreads();
        for (int i = 0; i < TK; ++i)
            acc += As[i];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// A tile carved from extern __shared__, filled by a copy loop whose bound is a run-time value:
// both variants' first facts.
__global__ void launch_sized(const float *K, float *O, int N, int d)
{
    extern __shared__ float smem[];
    float *Kt = smem;
    float acc = 0.f;
    for (int tile = 0; tile < N; tile += 32) {
        for (int idx = threadIdx.x; idx < 32 * d; idx += blockDim.x)
            Kt[idx] = K[(size_t)tile * d + idx];
        __syncthreads();
        for (int k = 0; k < d; ++k)
            acc += Kt[(threadIdx.x % 32) * d + k];
        __syncthreads();
    }
    O[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A pointer that may hold a tile's address or another array's: an alias of the tile.
__global__ void mixed_alias(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[16][16], Bs[16][16];
    __shared__ float one[16];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (ty == 0)
        one[tx] = 1.0f;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + tx];
        __syncthreads();
        const float *w = (k0 & 16) ? one : &As[0][0];
        for (int k = 0; k < 16; ++k)
            acc += w[k] * As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * N + tx] = acc;
}

void run(const __half *Ah, const float *A, float *C, __half *Ch, int K, int d)
{
    one_barrier_helper<<<1, dim3(32, 8)>>>(Ah, C, K);
    storage_alias<<<1, 64>>>(A, C, K);
    compute_scratch<<<1, dim3(32, 32)>>>(A, C, K);
    pointer_swap<float><<<1, 32>>>(A, C, K);
    template_loader<128><<<1, 128>>>(A, C, K);
    launch_sized<<<1, 256, 32 * d * sizeof(float)>>>(A, C, K, d);
    mixed_alias<<<1, dim3(16, 16)>>>(A, A, C, K, K);
}
