// Loops already pipelined by hand, or filled in ways pipefy does not read: each remark names
// what is there.
#include <cuda_pipeline.h>
#include <cuda/pipeline>

// Two buffers the loop swaps itself, one barrier an iteration: the copies store at 'slot'.
__global__ void swapped_buffers(const float *A, const float *B, float *C, int n, int K)
{
    __shared__ float As[2][16][16];
    __shared__ float Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    As[0][ty][tx] = A[ty * K + tx];
    Bs[0][ty][tx] = B[ty * n + tx];
    __syncthreads();
    int slot = 1;
    float acc = 0.f;
    for (int k0 = 16; k0 < K; k0 += 16) {
        As[slot][ty][tx] = A[ty * K + k0 + tx];
        Bs[slot][ty][tx] = B[(k0 + ty) * n + tx];
        slot ^= 1;
        for (int k = 0; k < 16; ++k)
            acc += As[slot][ty][k] * Bs[slot][k][tx];
        __syncthreads();
    }
    C[ty * n + tx] = acc;
}

// One barrier and one buffer: the next tile's copies race with this tile's readers.
__global__ void one_barrier(const float *A, const float *B, float *C, int n, int K)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + tx];
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[ty * n + tx] = acc;
}

// A three-stage cuda::pipeline whose copies go through pointers the loop computes.
__global__ void pipeline_through_pointers(const float *A, float *C, int K)
{
    __shared__ float As[3][256];
    auto pipe = cuda::make_pipeline();
    float acc = 0.f;
    int t = 0;
    for (; t < K / 256 - 2; ++t) {
        pipe.producer_acquire();
        float *dst = As[(t + 2) % 3] + threadIdx.x;
        const float *src = A + (t + 2) * 256 + threadIdx.x;
        cuda::memcpy_async(dst, src, sizeof(float), pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        acc += As[t % 3][(threadIdx.x + 1) % 256];
        __syncthreads();
        pipe.consumer_release();
    }
    C[threadIdx.x] = acc;
}

// __pipeline_memcpy_async through a pointer.
__global__ void primitives_through_pointers(const float *A, float *C, int K)
{
    __shared__ float As[2][256];
    float acc = 0.f;
    for (int t = 0; t < K / 256; ++t) {
        float *dst = &As[t & 1][threadIdx.x];
        __pipeline_memcpy_async(dst, A + t * 256 + threadIdx.x, sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        acc += As[t & 1][(threadIdx.x + 1) % 256];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// __ldg loads stored through an array of pointers into the tile.
__global__ void pointer_array(const float *A, float *C, int K)
{
    __shared__ float As[4][64];
    float *to_As[2] = {As[threadIdx.x / 64] + threadIdx.x % 64, As[2 + threadIdx.x / 64] + threadIdx.x % 64};
    float acc = 0.f;
    for (int t = 0; t < K / 256; ++t) {
        float v[2] = {__ldg(A + t * 256 + threadIdx.x), __ldg(A + t * 256 + 128 + threadIdx.x)};
        for (int i = 0; i < 2; ++i)
            to_As[i][0] = v[i];
        __syncthreads();
        acc += As[threadIdx.x % 4][(threadIdx.x + 1) % 64];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// A view the copies store through, whose array the compute reads by the array's own name.
__global__ void view_and_array(const float2 *A, float *C, int K)
{
    __shared__ float sa[512];
    float *to_sa = sa + threadIdx.x * 2;
    float acc = 0.f;
    for (int i = 0; i < K; i += 256) {
        *((float2 *)to_sa) = A[i + threadIdx.x];
        __syncthreads();
        acc += sa[(threadIdx.x + 1) % 512];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// The same through a macro that parenthesizes the pointer before its cast: `(float2 *)(M)` reads
// the view's value, which stays an address inside 'sa' (once read as a use that might change
// it); the copy, written by the macro, is what pipefy cannot stage.
#define STORE2(M, R) *((float2 *)(M)) = R
__global__ void view_in_parentheses(const float2 *A, float *C, int K)
{
    __shared__ float sa[512];
    float *to_sa = sa + threadIdx.x * 2;
    float acc = 0.f;
    for (int i = 0; i < K; i += 256) {
        float2 v = A[i + threadIdx.x];
        STORE2(to_sa, v);
        __syncthreads();
        acc += sa[(threadIdx.x + 1) % 512];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// The pointer cast to a reference to itself, in parentheses, and moved through it: no view (the
// parenthesized name is no value read here, as it is in `(float2 *)(M)`).
__global__ void view_moved_by_reference(const float2 *A, float *C, int K)
{
    __shared__ float sa[512];
    float *to_sa = sa + threadIdx.x * 2;
    float acc = 0.f;
    for (int i = 0; i < K; i += 256) {
        *((float2 *)(to_sa)) = A[i + threadIdx.x];
        __syncthreads();
        acc += to_sa[1];
        __syncthreads();
        (float *&)(to_sa) += 0;
    }
    C[threadIdx.x] = acc;
}

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define TS 16

// One barrier and a slot set to the same value each iteration: a race, not a swap.
__global__ void __launch_bounds__(256) same_slot_each_iteration(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int r;
    for (int q = 0; q < n / TS; q++) {
        r = ty;
        As[r][tx] = A[row * n + q * TS + tx];
        Bs[r][tx] = B[(q * TS + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[row * n + col] = acc;
}

// An asm that waits for cp.async groups but copies nothing.
__global__ void __launch_bounds__(256) asm_wait_only(const float *A, float *C, int n)
{
    __shared__ float s[256];
    int tid = threadIdx.x;
    float acc = 0.f;
    s[tid] = A[tid];
    for (int i = 0; i < n; i++) {
        s[tid] = s[tid] * 2.f;
        asm volatile("cp.async.wait_all;\n" ::);
        __syncthreads();
        acc += s[255 - tid];
        __syncthreads();
    }
    C[tid] = acc;
}

// A tile stored from a register the loop never changes.
__device__ int gcount;
__global__ void __launch_bounds__(256) constant_register(const float *A, const float *B, float *C, int M, int N, int K, const int *idx)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int row0 = blockIdx.y * BM + threadIdx.y * TM, col0 = blockIdx.x * BN + threadIdx.x * TN;
    float acc[TM][TN] = {};
    float4 w = make_float4(1, 2, 3, 4);
    for (int k0 = 0; k0 < K; k0 += BK) {
        As[tid % 8][tid / 8] = A[(size_t)(blockIdx.y * BM + tid / 8) * K + k0 + tid % 8];
        As[tid % 8][32 + tid / 8] = w.w;
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *reinterpret_cast<float4 *>(&Bs[row_b][col_b]) =
                reinterpret_cast<const float4 *>(&B[(size_t)(k0 + row_b) * N + blockIdx.x * BN + col_b])[0];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i)
                a[i] = As[k][threadIdx.y * TM + i];
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][threadIdx.x * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }

        __syncthreads();
    }

    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            C[(size_t)(row0 + i) * N + col0 + j] = acc[i][j];
}

// Ping-pong buffers filled on both sides of a barrier, through pointers the fills step (czn's
// pingpongbuffer): the fill after the barrier is a fill, not the compute writing a tile (once,
// with the pointers read as scratch, "the compute writes the tile").
__global__ void __launch_bounds__(256) ping_pong(const float *A, const float *B, float *C, int n, int k)
{
    __shared__ float as[2][16][16], bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + blockIdx.y * 16 * k, *b = B + blockIdx.x * 16, *end = a + k;
    float sum = 0.0f;
    as[0][ty][tx] = a[ty * k + tx];
    bs[0][ty][tx] = b[ty * n + tx];
    a += 16, b += 16 * n;
    for (; a < end;) {
        __syncthreads();
        as[1][ty][tx] = a[ty * k + tx];
        bs[1][ty][tx] = b[ty * n + tx];
        a += 16, b += 16 * n;
        for (int kk = 0; kk < 16; ++kk)
            sum += as[0][ty][kk] * bs[0][kk][tx];
        __syncthreads();
        if (a < end) {
            as[0][ty][tx] = a[ty * k + tx];
            bs[0][ty][tx] = b[ty * n + tx];
            a += 16, b += 16 * n;
        }
        for (int kk = 0; kk < 16; ++kk)
            sum += as[1][ty][kk] * bs[1][kk][tx];
    }
    C[(blockIdx.y * 16 + ty) * n + blockIdx.x * 16 + tx] = sum;
}
