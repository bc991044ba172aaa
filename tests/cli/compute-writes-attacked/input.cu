// A second attack on the compute's writes (session 45): each compute stores into memory the next
// tile's copies may read (the host hands W = A, or a pointer into the __device__ array the copies
// index with), through a pointer a value or a reference carries: a struct by value, an array of
// pointers, an integer cast back to a pointer, a reference to a pointer, a struct two calls deep,
// a lambda's parameter, a local pointer to a __device__ array. The build before pipelined each
// (CPU block model: wrong sums); every one is refused now.
#include <stddef.h>
#define TS 16

// c01_struct_byvalue: compute calls poke(View v, ..) with a struct (by value) holding float *p = W; poke writes v.p[i]
namespace c01 {
struct View { float *p; };
__device__ void poke(View v, int i, float x) { v.p[i] = x; }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    View v = {W};
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K && blockIdx.x == 0)
            poke(v, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c02_array_of_ptrs_ref: compute calls poke(float *(&w)[1], ..) with a local array of pointers {W}; poke writes w[0][i]
namespace c02 {
__device__ void poke(float *(&w)[1], int i, float x) { w[0][i] = x; }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    float *ws[1] = {W};
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K && blockIdx.x == 0)
            poke(ws, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c05b_cast_of_int_local: compute calls poke((float *)addr, ..) where size_t addr = (size_t)W before the loop
namespace c05b {
__device__ void poke(float *w, int i, float x) { w[i] = x; }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    size_t addr = (size_t)W;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K && blockIdx.x == 0)
            poke((float *)addr, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c05_int_address: compute calls poke(size_t a, ..) with (size_t)W; poke writes ((float *)a)[i]
namespace c05 {
__device__ void poke(size_t a, int i, float x) { ((float *)a)[i] = x; }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
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
        if (k0 + TS < K && blockIdx.x == 0)
            poke((size_t)W, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c07_ref_to_ptr: compute calls poke(float *&w, ..) with W; poke writes w[i]
namespace c07 {
__device__ void poke(float *&w, int i, float x) { w[i] = x; }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
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
        if (k0 + TS < K && blockIdx.x == 0)
            poke(W, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c23_struct_ref: compute calls poke(View &v, ..) with a struct holding float *p = W; poke writes v.p[i]
namespace c23 {
struct View { float *p; };
__device__ void poke(View &v, int i, float x) { v.p[i] = x; }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    View v = {W};
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K && blockIdx.x == 0)
            poke(v, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c25_two_level_struct: compute calls outer(View v, ..) which calls poke(v.p, ..)
namespace c25 {
struct View { float *p; };
__device__ void poke(float *w, int i, float x) { w[i] = x; }
__device__ void outer(View v, int i, float x) { poke(v.p, i, x); }
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    View v = {W};
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K && blockIdx.x == 0)
            outer(v, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// c03c_lambda_param: compute calls a lambda taking the pointer: poke(W, i, x) writes w[i]
namespace c03c {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K, float *W)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    auto poke = [](float *w, int i, float x) { w[i] = x; };
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (k0 + TS < K && blockIdx.x == 0)
            poke(W, row * K + k0 + TS + tx, acc);
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// h18d_direct_global_alias: direct copy reads shift[slot] (a __device__ array) in its address; the compute writes it through 'int *w = shift'
namespace h18d {
__device__ int shift[1 << 16];
__global__ void kern(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int slot = (blockIdx.y * gridDim.x + blockIdx.x) * TS * TS + ty * TS + tx;
    float acc = 0.0f;
    int *w = shift;
    w[slot] = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx + shift[slot]];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        w[slot] = (tx < TS - 1) ? ((k0 / TS) & 1) : 0;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}
