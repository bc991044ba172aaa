// neg_template_elements.cu: tiles whose element is a parameter of the kernel template
// (`__shared__ T As[TS][TS]`). Stages copy elements as bytes (cp.async, the tensor copies) or
// through a register (two assignments where there was one), so pipefy needs each element's
// assignment to be plain bytes. It reads what every instantiation binds T to, from the calls
// in the file: counted_gemm is launched with Counted, whose assignment also counts (left as
// written); explicit_gemm is also instantiated explicitly, which libclang shows no cursor for
// (left: pipefy cannot read what that binds T to); plain_gemm is launched with float only
// (pipelined, with two stages: the instantiation fixes the tiles' sizes). The build before
// pipelined all three with one register stage: Counted's counter then counted every element
// twice (`pipefy_reg0 = A[...]`, then `As[ty][tx] = pipefy_reg0`).
// Usage: neg_template_elements [M N K] (multiples of 16)
// gpu-runs: 32 32 0 | 32 32 16 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"

// a value whose every assignment is counted
__device__ unsigned long long assignments;
struct Counted {
    float v;
    __device__ Counted &operator=(const Counted &o)
    {
        v = o.v;
        atomicAdd(&assignments, 1ull);
        return *this;
    }
    __device__ operator float() const { return v; }
};

template <typename T, int TS>
__global__ void counted_gemm(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += float(As[ty][k]) * float(Bs[k][tx]);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template <typename T, int TS>
__global__ void explicit_gemm(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// (other files may launch this instantiation; what else they bind T to, pipefy cannot see)
template __global__ void explicit_gemm<double, 16>(const double *, const double *, float *, int, int, int);

template <typename T, int TS>
__global__ void plain_gemm(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// (its own reference is not the harness's: launched by callers of this file)
void launch_counted(const Counted *A, const Counted *B, float *C, int M, int N, int K)
{
    counted_gemm<Counted, 16><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("explicit_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        explicit_gemm<float, 16><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("plain_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        plain_gemm<float, 16><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
