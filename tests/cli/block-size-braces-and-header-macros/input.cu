// Block sizes written the ways real launchers write them: list-initialized dim3s (`dim3
// block{..}`, `constexpr dim3 block{..}`, `= {..}`, `<<<grid, dim3{..}>>>`) and numbers from
// macros an included header defines. Each kernel's --report block line says what pipefy read:
// a header macro whose body names another macro, or a function-like one, is left unread (its
// names belong to the header's context; --block-size sets the block then).
#include "config.h"
#define TS 16

__global__ void braces(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void constexpr_braces(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void assigned_list(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void header_macro(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void header_expression(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void header_names_macro(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void header_function_macro(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

__global__ void inline_braces(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

void run_braces(const float *A, const float *B, float *C, int N)
{
    dim3 block{TS, TS};
    braces<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_constexpr_braces(const float *A, const float *B, float *C, int N)
{
    constexpr dim3 block{TS, TS / 2};
    constexpr_braces<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_assigned_list(const float *A, const float *B, float *C, int N)
{
    dim3 block = {TS, TS};
    assigned_list<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_header_macro(const float *A, const float *B, float *C, int N)
{
    dim3 block(BLOCK_X, BLOCK_X);
    header_macro<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_header_expression(const float *A, const float *B, float *C, int N)
{
    const dim3 block(BLOCK_X, BLOCK_Y);
    header_expression<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_header_names_macro(const float *A, const float *B, float *C, int N)
{
    dim3 block(BLOCK_WIDE, 1);
    header_names_macro<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_header_function_macro(const float *A, const float *B, float *C, int N)
{
    dim3 block(BLOCK_OF(16), 16);
    header_function_macro<<<dim3(N / TS, N / TS), block>>>(A, B, C, N);
}
void run_inline_braces(const float *A, const float *B, float *C, int N)
{
    inline_braces<<<dim3(N / TS, N / TS), dim3{BLOCK_X, 8u}>>>(A, B, C, N);
}
