// A guarded copy whose load is a macro's use: cp.async copies from the load's pointer when the
// guard fails, which the file does not name there (it once failed validation). The same copy
// written out is taken.
#define TS 16
#define B_AT(r, c) B[(size_t)(r) * N + (c)]
__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        As[ty][tx] = row < M && q * TS + tx < K ? A[(size_t)row * K + q * TS + tx] : 0.f;
        if (q * TS + ty >= K || col >= N)
            Bs[ty][tx] = 0;
        else
            Bs[ty][tx] = B_AT(q * TS + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}
__global__ void written_out(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        As[ty][tx] = row < M && q * TS + tx < K ? A[(size_t)row * K + q * TS + tx] : 0.f;
        if (q * TS + ty >= K || col >= N)
            Bs[ty][tx] = 0;
        else
            Bs[ty][tx] = B[(size_t)(q * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

// The same through an object-like macro, which names the pointer inside its definition.
#define LOADB x[(q * TS + ty) * n + col]
__global__ void __launch_bounds__(256) object_like_macro(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;

    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n)
            Bs[ty][tx] = LOADB;
        else
            Bs[ty][tx] = 0;
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];

        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = acc;
}

// A pointer local of the kernel that the load branch sets: not read as its value (a failed
// guard would copy from the pointer, which the rewrite never sets).
__global__ void __launch_bounds__(256) pointer_set_in_branch(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    const float *p;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            p = x + (q * TS + ty) * n;
            Bs[ty][tx] = p[col];
        }
        else
            Bs[ty][tx] = 0;
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];

        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = acc;
}
