// What a call of the program's function runs may be decided where the template is instantiated:
// `widen(v)` converts a Fixed through the program's own conversion, which counts its calls; and
// `scale(v)` of a template's element names two overloads, one of which writes global memory.
// pipefy reads the name, not the one candidate it sees here, and stages neither a tile early.
// Where overload resolution is over (a plain kernel's `scale(A[..])` of a float), the call runs
// the pure overload, and is staged.
#define TS 16

__device__ int g_calls;

struct Fixed {
    int raw;
    __device__ operator float() const { atomicAdd(&g_calls, 1); return raw / 256.0f; }
};

template <typename T> __device__ float widen(T v) { return static_cast<float>(v); }

__device__ float scale(float v) { return v * 0.5f; }
__device__ float scale(double v) { atomicAdd(&g_calls, 1); return (float)v; }

template <typename T>
__global__ void by_widen(const T *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = widen(A[row * K + k0 + tx]);
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void by_scale(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = scale(A[row * K + k0 + tx]);
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template <typename T>
__global__ void by_scale_t(const T *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = scale(A[row * K + k0 + tx]);
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template __global__ void by_scale_t<float>(const float *, const float *, float *, int, int);
template __global__ void by_widen<Fixed>(const Fixed *, const float *, float *, int, int);
