// What pipefy reads of asm written in macros and of functions in a header: a load's macro, and
// a tile count from a header function of uniform arguments, pipeline (k_ok), also called in the
// loop's own test, which the loader evaluates a tile early (k_test_call); a template handed to
// the macro, a store's macro, tile counts from a function of threadIdx or of a global, and a test
// calling a function that reads memory (k_test_memory, whose value the body could change) do not.
#include "facts.cuh"

__global__ void k_ok(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = tiles_of(K);
    float acc = 0;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j) {
            unsigned r = 0, a = (unsigned)__cvta_generic_to_shared(&As[j]);
            LD_SHARED(r, a);
            acc += __uint_as_float(r);
        }
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_template_argument(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = tiles_of(K);
    float acc = 0;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j) {
            unsigned r = 0, a = (unsigned)__cvta_generic_to_shared(&As[j]);
            ASM_OF("ld.shared.b32 %0, [%1];", r, a);
            acc += __uint_as_float(r);
        }
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_store(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = tiles_of(K);
    float acc = 0;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j) {
            unsigned r = 0, a = (unsigned)__cvta_generic_to_shared(&As[j]);
            ST_SHARED(a + 4, r);
            acc += __uint_as_float(r);
        }
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_thread_trips(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = tiles_per_thread(K);
    float acc = 0;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j) {
            unsigned r = 0, a = (unsigned)__cvta_generic_to_shared(&As[j]);
            LD_SHARED(r, a);
            acc += __uint_as_float(r);
        }
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_global_trips(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = tiles_from_global(K);
    float acc = 0;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j) {
            unsigned r = 0, a = (unsigned)__cvta_generic_to_shared(&As[j]);
            LD_SHARED(r, a);
            acc += __uint_as_float(r);
        }
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_test_call(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = K;
    float acc = 0;
    for (int t = 0; t < tiles_of(n); ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j) {
            unsigned r = 0, a = (unsigned)__cvta_generic_to_shared(&As[j]);
            LD_SHARED(r, a);
            acc += __uint_as_float(r);
        }
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_test_memory(const float *A, float *C, int K, const int *counts)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < tiles_at(counts); ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
