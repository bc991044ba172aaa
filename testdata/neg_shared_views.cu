// neg_shared_views.cu: pointers into shared memory that are not fixed views, so pipefy cannot
// prove what a tile store writes or when: each loop is left as written, with the pointer named.
#define TS 16

// the pointers swap each iteration (a double buffer written by hand)
__global__ void swapped(const float *A, const float *B, float *C, int N, int K)
{
    extern __shared__ float sm[];
    float *As = sm, *Bs = sm + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = A[row * K + k0 + tx];
        Bs[ty * TS + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
        float *t = As;
        As = Bs;
        Bs = t;
    }
    C[row * N + col] = acc;
}

// declared in the loop: a fresh pointer each iteration, here into the other half each time
__global__ void per_iteration(const float *A, const float *B, float *C, int N, int K)
{
    extern __shared__ float sm[];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        float *As = sm + (k0 / TS % 2) * 2 * TS * TS, *Bs = As + TS * TS;
        As[ty * TS + tx] = A[row * K + k0 + tx];
        Bs[ty * TS + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a pointer kept in shared memory may point anywhere, global memory included
__global__ void pointer_in_shared(const float *A, const float *B, float *C, float *scratch, int N, int K)
{
    __shared__ float *tiles;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        tiles = scratch + blockIdx.x * 2 * TS * TS;
    __syncthreads();
    float *As = tiles, *Bs = tiles + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = A[row * K + k0 + tx];
        Bs[ty * TS + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the address is taken: what the pointer holds may change behind pipefy's back
__device__ void advance(float **p, int n) { *p += n; }

__global__ void address_taken(const float *A, const float *B, float *C, int N, int K)
{
    extern __shared__ float sm[];
    float *As = sm, *Bs = sm + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = A[row * K + k0 + tx];
        Bs[ty * TS + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
        advance(&Bs, 0);
    }
    C[row * N + col] = acc;
}

// in a kernel template the call is resolved only at instantiation; the helper takes the
// pointer by reference, so it may move it
template <int T>
__device__ void skip(float *&p)
{
    p += 0 * T;
}

template <int T>
__global__ void by_reference(const float *A, const float *B, float *C, int N, int K)
{
    extern __shared__ float sm[];
    float *As = sm, *Bs = sm + T * T;
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty * T + tx] = A[row * K + k0 + tx];
        Bs[ty * T + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty * T + k] * Bs[k * T + tx];
        __syncthreads();
        skip<T>(Bs);
    }
    C[row * N + col] = acc;
}

// a store through a pointer parameter before the barrier, read by other threads after it: it
// stays in the compute, and the barrier it needed must stay too (pipefy 2026-11-30 and before
// pipelined this loop with the store and its readers in one barrier-free stretch: a race)
__global__ void param_before_barrier(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                     float *Bs, int N, int K)
{
    __shared__ float As[TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = A[row * K + k0 + tx];
        Bs[ty * TS + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a helper that returns what it is handed: pipefy does not follow the argument, so it cannot
// tell that Bs points into shared memory (and the store through it stays in the compute,
// before the barrier, which keeps the loop as written)
__device__ float *after(float *tile, int n)
{
    return tile + n;
}

__global__ void returned_parameter(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int N, int K)
{
    extern __shared__ float sm[];
    float *As = sm, *Bs = after(sm, TS * TS);
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty * TS + tx] = A[row * K + k0 + tx];
        Bs[ty * TS + tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
