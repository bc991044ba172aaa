// Shapes a helper's probes found rewritten wrongly on the session's first build, each left as
// written now with the fact that stands in the way: a loop start with a side effect (run twice:
// once for the loader's cursor), a test through a function reading memory, a trip count from a
// function reading the thread index as `(threadIdx).x`, an asm template from a string macro, a
// tile's address kept in an integer across tiles, and a file-scope tile another kernel names.
#include "helpers.cuh"
#define STS_F32 "st.shared.f32 [%0], %1;"

__shared__ float Fs[32];

__global__ void k_init_side_effect(const float *A, float *C, int K, int first)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = first++; t < K; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_test_reads_memory(const float *__restrict__ A, float *__restrict__ C, int K, Ctl *__restrict__ ctl)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < tiles_of_ctl(ctl); ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        if (t == 0 && threadIdx.x == 0) ctl->ntiles = K;
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_thread_index_paren(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    const int n = tiles_paren(K);
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_asm_string_macro(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < K; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        asm volatile(STS_F32 : : "r"((unsigned)__cvta_generic_to_shared(&As[0])), "f"(acc) : "memory");
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_address_carried(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    unsigned long long a0 = 0;
    for (int t = 0; t < K; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        if (t == 0) a0 = (unsigned long long)&As[0];
        acc += ((const float *)a0)[threadIdx.x];
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_file_scope(const float *A, float *C, int K)
{
    float acc = 0;
    for (int t = 0; t < K; ++t) {
        Fs[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += Fs[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void k_names_fs(float *C)
{
    C[threadIdx.x] += (float)(sizeof(Fs) / sizeof(float)) - 32.0f;
}
