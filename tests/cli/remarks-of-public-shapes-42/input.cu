// Shapes of public kernels first met in session 42 (a helper's probes of new repositories), each
// written here: the remark each loop gets names its real obstacle.
#include "wrappers.cuh"
#define T 128
#define BM 64
#define BK 16
#define NT 256

// Buffers swapped through a pointer to a whole __shared__ array, `(*sO)[i] = ..`: the loop
// moves its tiles itself (was: "no tile is filled from global memory in the loop").
__global__ void __launch_bounds__(T) pointer_to_array_swap(const float *__restrict__ in, float *__restrict__ out,
                                                           int batches)
{
    __shared__ float sa[T];
    __shared__ float sb[T];
    float (*sO)[T] = &sa;
    int tx = threadIdx.x;
    for (int batch = 0; batch < batches; batch++) {
        (*sO)[tx] = in[batch * T + tx];
        __syncthreads();
        out[batch * T + tx] = (*sO)[(tx + 1) % T] - (*sO)[tx];
        sO = (sO == &sa) ? &sb : &sa;
    }
}

// A copy loop over a counter the kernel declares once, and one barrier a tile: the race as
// written is the obstacle (was: "an iteration may read 'x' as the one before left it").
__global__ void __launch_bounds__(T) one_barrier_counter(const float *__restrict__ img, float *__restrict__ out,
                                                         int batches)
{
    __shared__ float s[8][32];
    int tx = threadIdx.x;
    int x, batch;
    float acc = 0.0f;
    for (batch = 0; batch < batches; batch++) {
        for (x = 0; x < 8; x += 4)
            s[x + tx / 32][tx % 32] = img[batch * 256 + (x + tx / 32) * 32 + tx % 32];
        __syncthreads();
        for (x = 0; x < 8; x++)
            acc += s[x][tx % 32];
    }
    out[blockIdx.x * T + tx] = acc;
}

// A float4 loaded into a local that the copy's own branch declares, its parts stored: a load,
// not a computed value (was: "'sA' is written from a computed value").
__global__ void __launch_bounds__(NT) branch_vector_local(const float *__restrict__ a, const float *__restrict__ b,
                                                          float *__restrict__ c, int M, int K)
{
    __shared__ float sA[BK][BM];
    __shared__ float sB[BK][BM];
    int tid = threadIdx.x;
    int r = tid / (BK / 4), col = (tid % (BK / 4)) * 4;
    int row = blockIdx.y * BM + r;
    float acc = 0.0f;
    for (int t = 0; t < K / BK; ++t) {
        if (row < M) {
            float4 v = *reinterpret_cast<const float4 *>(&a[row * K + t * BK + col]);
            sA[col + 0][r] = v.x;
            sA[col + 1][r] = v.y;
            sA[col + 2][r] = v.z;
            sA[col + 3][r] = v.w;
        } else {
            for (int i = 0; i < 4; ++i)
                sA[col + i][r] = 0.0f;
        }
        sB[tid / BM][tid % BM] = b[(t * BK + tid / BM) * BM + tid % BM];
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += sA[k][tid % BM] * sB[k][tid % BM];
        __syncthreads();
    }
    c[blockIdx.y * NT + tid] = acc;
}

// Already pipelined with cp.async through wrappers another file defines (wrappers.cuh): said so
// (was: "no copy from global memory into the tiles is recognized").
__global__ void __launch_bounds__(128) header_cp_async(const half *__restrict__ A, float *__restrict__ C, int K)
{
    __shared__ __align__(16) half As[2][128 * 8];
    int tid = threadIdx.x;
    float acc = 0.0f;
    cp_async<16>(&As[1][tid * 8], &A[tid * 8]);
    cp_async_group_commit();
    for (int k = 1; k < K; k++) {
        const int phase = k % 2;
        for (int a = 0; a < 2; a++)
            cp_async<16>(&As[1 - phase][(a * 64 + tid / 2) * 8], &A[k * 128 * 8 + (a * 64 + tid / 2) * 8]);
        cp_async_group_commit();
        cp_async_wait_group<1>();
        __syncthreads();
        for (int i = 0; i < 8; i++)
            acc += __half2float(As[phase][((tid + i) % 128) * 8 + i]);
        __syncthreads();
    }
    C[blockIdx.x * 128 + tid] = acc;
}

// The same swap through a pointer to a two-dimensional array, `(*sO)[i][j] = ..`.
__global__ void __launch_bounds__(T) pointer_to_2d_swap(const float *__restrict__ in, float *__restrict__ out,
                                                        int batches)
{
    __shared__ float sa[4][32];
    __shared__ float sb[4][32];
    float (*sO)[4][32] = &sa;
    int tx = threadIdx.x;
    for (int batch = 0; batch < batches; batch++) {
        (*sO)[tx / 32][tx % 32] = in[batch * T + tx];
        __syncthreads();
        out[batch * T + tx] = (*sO)[(tx / 32 + 1) % 4][tx % 32] - (*sO)[tx / 32][tx % 32];
        sO = (sO == &sa) ? &sb : &sa;
    }
}

// Nested copy loops over two counters the kernel declares once, the compute's loops setting
// them again, its output written through a pointer the copies may read, one barrier a tile: the
// race as written comes first (was: "also writes 'y', which the compute reads too").
__global__ void __launch_bounds__(T) nested_counters(const float *img, float *out, int batches)
{
    __shared__ float s[8][8][2];
    int tx = threadIdx.x, x, y, batch;
    float acc = 0.0f;
    for (batch = 0; batch < batches; batch++) {
        for (x = 0; x < 8; x += 4)
            for (y = 0; y < 8; y += 4)
                s[x + tx / 32][y + (tx / 8) % 4][tx % 2] = img[batch * 128 + (x + tx / 32) * 16 + (y + (tx / 8) % 4) * 2 + tx % 2];
        __syncthreads();
        for (x = 0; x < 2; x++)
            for (y = 0; y < 2; y++)
                acc += s[x][y][tx % 2];
        out[batch * T + tx] = acc;
    }
}

// A register prefetch by hand whose loads and stores are macros, the stores through a cast of
// the register array: said to be one (was: "fills a tile inside the expansion of
// 'STORE_SHARED', whose body pipefy cannot rewrite").
#define LOAD_GLOBAL(_K) { buf[0] = reinterpret_cast<const float4 *>(A)[(_K) * 256 + tid]; }
#define STORE_SHARED(W)                                                        \
    {                                                                          \
        for (int e = 0; e < 8; e++)                                            \
            smem[(W)][e * 256 + tid] = reinterpret_cast<half *>(&buf[0])[e];   \
    }
__global__ void __launch_bounds__(256) macro_prefetch(const half *__restrict__ A, float *__restrict__ C, int K)
{
    __shared__ half smem[2][8 * 256];
    int tid = threadIdx.x;
    float4 buf[1];
    float acc = 0.0f;
    bool w = 0;
    LOAD_GLOBAL(0)
    STORE_SHARED(0)
    __syncthreads();
    for (int k = 1; k < K / (8 * 256); k++) {
        w = !w;
        LOAD_GLOBAL(k)
        for (int i = 0; i < 32; i++)
            acc += __half2float(smem[!w][(tid + i) % (8 * 256)]);
        STORE_SHARED(w)
        __syncthreads();
    }
    C[blockIdx.x * 256 + tid] = acc;
}
