// What a loop's calls are, named: a tile stored from a template function's call that is not
// pure (its specialization for half reads a global variable), with the function at fault; an
// asm statement whose string literals have comments between them (read as the literals alone);
// a loop whose copies go through a function wrapping asm cp.async; a tile stored from a member
// function's value (an accessor pipefy does not read as a load); a loop that waits for cp.async
// groups through a template wrapping the asm wait, its copies issued where pipefy cannot see.
#include <cuda_fp16.h>
#define BK 16
template <typename T> __device__ float to_float(T x) { return (float)x; }
__device__ float g_offset;
template <> __device__ float to_float<half>(half x) { return __half2float(x) + g_offset; }

template <typename T>
__global__ void __launch_bounds__(256) converted(const T *in, float *C, int M, int K)
{
    __shared__ float in_shared[BK * BK];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * BK + ty;
    float acc = 0.f;
    for (int k = 0; k < K; k += BK) {
        if (row < M && (k + tx) < K) {
            in_shared[ty * BK + tx] = to_float(in[row * K + k + tx]);
        } else {
            in_shared[ty * BK + tx] = 0.0f;
        }
        __syncthreads();
        for (int j = 0; j < BK; ++j)
            acc += in_shared[ty * BK + j];
        __syncthreads();
    }
    C[row] = acc;
}

__global__ void __launch_bounds__(256) commented_asm(const float *A, float *C, int K)
{
    __shared__ float As[256];
    float acc = 0.f;
    for (int k = 0; k < K; k += 256) {
        As[threadIdx.x] = A[k + threadIdx.x];
        __syncthreads();
        float v = As[(threadIdx.x + 1) % 256], r;
        asm("add.f32 %0, "  // the destination
            "%1, %2;"       // the operands
            : "=f"(r) : "f"(v), "f"(acc));
        acc = r;
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__device__ __forceinline__ void cp_async4(void *dst, const void *src)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(src));
}

__global__ void __launch_bounds__(256) wrapped_cp_async(const float *A, float *C, int K)
{
    __shared__ float As[2][256];
    float acc = 0.f;
    for (int t = 0; t < K / 256; ++t) {
        cp_async4(&As[t & 1][threadIdx.x], A + t * 256 + threadIdx.x);
        asm volatile("cp.async.wait_all;");
        __syncthreads();
        acc += As[t & 1][(threadIdx.x + 1) % 256];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

// a tile stored from a member function's value: the accessor's load is not read
struct View {
    const float *data;
    int cols;
    __device__ const float &operator()(int r, int c) const { return data[r * cols + c]; }
};

__global__ void __launch_bounds__(256) through_accessor(View A, float *C, int K)
{
    __shared__ float As[BK][BK];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.f;
    for (int k = 0; k < K; k += BK) {
        As[ty][tx] = A(blockIdx.y * BK + ty, k + tx);
        __syncthreads();
        for (int j = 0; j < BK; ++j)
            acc += As[ty][j];
        __syncthreads();
    }
    C[blockIdx.y * BK + ty] = acc;
}

// copies issued in a call pipefy cannot see into, waited for through a template wrapping the
// asm wait: already asynchronous
template <int N> __device__ void wait_copies() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
struct Copier {
    const float *src;
    __device__ void body(int k);
};

__global__ void __launch_bounds__(256) waits_for_copies(Copier cp, float *C, int K)
{
    __shared__ float red[256];
    float acc = 0.f;
    for (int k = 0; k < K; k += 256) {
        cp.body(k);
        wait_copies<0>();
        __syncthreads();
        red[threadIdx.x] = acc;
        acc += red[(threadIdx.x + 1) % 256];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
