// dynamic_storage.cu: tiles in the launch's dynamic shared memory, in kernels of this file's own
// (static), reached by a name the loop does not stage: the tile's pointer after the loop, the
// extern array itself after the loop, a pad element written once before the loop, a helper
// that reads a tile through a file-scope `extern __shared__` array. A second stage would leave
// each of them reading the first stage's copy (the build before this program computed wrong
// results here), so pipefy keeps one stage and says which access it is. The last kernel
// reaches its tiles by their names in the loop only: two stages. Each kernel adds a term that
// is zero (or a factor that is one) when it reads what the original reads.
// Usage: dynamic_storage [M N K] (M, N multiples of 16; K any).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 40 | 64 64 48 | 256 128 500 | 1024 1024 1024
// gpu-sanitize: 48 32 40
#include "harness.cuh"

#define TS 16

// the last tile read after the loop through the tile's pointer: A's element of the last tile
static __global__ void last_tile_after(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                       int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k][tx];
        __syncthreads();
    }
    if (K > 0) {
        int last = (K - 1) / TS * TS + tx;
        acc += As[ty * TS + tx] - (last < K ? A[row * K + last] : 0.0f);
    }
    C[row * N + col] = acc;
}

// the same, read through the extern array: B's element of the last tile
static __global__ void extern_after(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k][tx];
        __syncthreads();
    }
    if (K > 0) {
        int last = (K - 1) / TS * TS + ty;
        acc += reinterpret_cast<const float *>(smem)[TS * TS + ty * TS + tx] - (last < K ? B[last * N + col] : 0.0f);
    }
    C[row * N + col] = acc;
}

// A's tile has a pad column, set to one before the loop and never copied: every product is
// scaled by it
static __global__ void pad_before(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);                     // [TS][TS + 1]
    float *Bs = reinterpret_cast<float *>(smem) + TS * (TS + 1);     // [TS][TS]
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (tx == 0)
        As[ty * (TS + 1) + TS] = 1.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * (TS + 1) + tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty * TS + tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * (TS + 1) + k] * Bs[k * TS + tx] * As[ty * (TS + 1) + TS];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// B's tile read by a helper through the file's own name for the dynamic shared memory
extern __shared__ float dyn[];

static __device__ float b_at(int k, int tx)
{
    return dyn[TS * TS + k * TS + tx];
}

static __global__ void helper_reads(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    float *As = dyn;
    float *Bs = dyn + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty * TS + tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * b_at(k, tx);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the control: the tiles are reached by their names in the loop only
static __global__ void names_only(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 500};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("last_tile_after", M, N, K, [&](const float *A, const float *B, float *C) {
        last_tile_after<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("extern_after", M, N, K, [&](const float *A, const float *B, float *C) {
        extern_after<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("pad_before", M, N, K, [&](const float *A, const float *B, float *C) {
        pad_before<<<grid, block, (TS * (TS + 1) + TS * TS) * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("helper_reads", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_reads<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("names_only", M, N, K, [&](const float *A, const float *B, float *C) {
        names_only<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
