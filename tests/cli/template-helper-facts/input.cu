// Fill helpers that are function templates, or several calls of helpers in a row: pipefy reads
// the template's definition and makes an asynchronous copy of it, so every fact it reads there
// must hold for each call the instantiation makes. Each kernel below breaks one, but for the
// last, which cp.async takes.
#define TS 16
#include "fill.cuh"

template <int N>
__device__ void fill(float (*S)[N], const float *G, int ld)
{
    S[threadIdx.y][threadIdx.x] = G[threadIdx.y * ld + threadIdx.x];
}

// a specialization written for 16: the call reaches it, not the template
template <>
__device__ void fill<16>(float (*S)[16], const float *G, int ld)
{
    S[threadIdx.x][threadIdx.y] = G[threadIdx.y * ld + threadIdx.x];
}

__global__ void specialized(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        fill<TS>(As, A + blockIdx.y * TS * K + k0, K);
        fill<TS>(Bs, B + k0 * N + blockIdx.x * TS, N);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

template <int R, int W>
__device__ void copy_rows(float (*S)[W], const float *G, int ld, float scale)
{
    for (int i = threadIdx.y; i < R; i += TS)
        S[i][threadIdx.x] = G[i * ld + threadIdx.x];
}

// the second call is handed a value of the first call's tile: loaded a tile early, it
// would read the stage being filled
__global__ void reads_tile(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        copy_rows<TS, TS>(As, A + blockIdx.y * TS * K + k0, K, 1.0f);
        copy_rows<TS, TS>(Bs, B + k0 * N + blockIdx.x * TS, N, As[0][0]);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

template <int R, int W>
__device__ void first_rows(float (*S)[W], const float *G, int ld, int k0)
{
    if (k0 == 0)
        S[threadIdx.y][threadIdx.x] = G[threadIdx.y * ld + threadIdx.x];
}

// the second helper stores on the first tile only (staged, the other stage keeps nothing)
__global__ void partial_second(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        copy_rows<TS, TS>(As, A + blockIdx.y * TS * K + k0, K, 1.0f);
        first_rows<TS, TS>(Bs, B + k0 * N + blockIdx.x * TS, N, k0);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

template <typename T, int W>
__device__ void typed(T (*S)[W], const T *G, int ld)
{
    S[threadIdx.y][threadIdx.x] = G[threadIdx.y * ld + threadIdx.x];
}

// the element type is the template's: its size is the instantiation's
template <typename T>
__global__ void typed_elements(const T *A, const T *B, T *C, int N, int K)
{
    __shared__ T As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    T acc = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        typed<T, TS>(As, A + blockIdx.y * TS * K + k0, K);
        typed<T, TS>(Bs, B + k0 * N + blockIdx.x * TS, N);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

struct Loader {
    template <int W>
    static __device__ void load(float (*S)[W], const float *G, int ld)
    {
        S[threadIdx.y][threadIdx.x] = G[threadIdx.y * ld + threadIdx.x];
    }
};

// a member template: its copy would have to go inside the class
__global__ void member(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        Loader::load<TS>(As, A + blockIdx.y * TS * K + k0, K);
        Loader::load<TS>(Bs, B + k0 * N + blockIdx.x * TS, N);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

template <int W>
__device__ void row_of(float (*S)[W], const float *G, int ld)
{
    S[threadIdx.y][threadIdx.x] = threadIdx.x < W ? G[threadIdx.y * ld + threadIdx.x] : 0.0f;
}

// two calls of one template, then a different one: all three are the fill
__global__ void three_calls(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS], Ds[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        copy_rows<TS, TS>(As, A + blockIdx.y * TS * K + k0, K, 1.0f);
        copy_rows<TS, TS>(Bs, B + k0 * N + blockIdx.x * TS, N, 2.0f);
        row_of<TS>(Ds, B + k0 * N + blockIdx.x * TS, N);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * (Bs[k][tx] + Ds[k][tx]);
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// the helper is the header's: its asynchronous copy would have to go there
__global__ void from_header(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        header_fill<TS>(As, A + blockIdx.y * TS * K + k0, K);
        header_fill<TS>(Bs, B + k0 * N + blockIdx.x * TS, N);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}
