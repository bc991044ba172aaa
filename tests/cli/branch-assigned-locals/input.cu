// A guarded fill whose load branch sets a local of the kernel declared before the loop
// (`int i;` .. `if (g) { i = q * TS + ty; Bs[..] = B[i * n + col]; } else Bs[..] = 0;`), as
// ECE408's convolutions write it: staged when nothing else names the local.
#define TS 16
#define in_4d(i3, i2) x[(i3) * 64 + (i2)]

// the local is named only by the branch: staged
__global__ void staged(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = q * TS + ty;
            Bs[ty][tx] = x[i * n + col];
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

// through a macro, the local initialized where declared: staged
__global__ void staged_macro_initialized(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i = 0;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = q * TS + ty;
            Bs[ty][tx] = in_4d(i / 4, i % 4 + col);
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

// the local is read after the loop: refused
__global__ void read_after_loop(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i = 0;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = q * TS + ty;
            Bs[ty][tx] = x[i * n + col];
        }
        else
            Bs[ty][tx] = 0;
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc + i;
}

// the branch steps the local after setting it: refused
__global__ void stepped_again(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = q * TS;
            i += ty;
            Bs[ty][tx] = x[i * n + col];
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

// the local is set from memory: refused
__global__ void set_from_memory(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = (int)A[q];
            Bs[ty][tx] = x[i * n + col];
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

// the local is set from what the compute changes: refused
__global__ void set_from_the_compute(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K)
            As[ty][tx] = A[row * K + q * TS + tx];
        else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = q * TS + ty + (int)acc;
            Bs[ty][tx] = x[i * n + col];
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

// one local set by both fills' load branches, each before its own use: staged
__global__ void shared_by_both(const float *A, const float *x, float *C, int n, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.f;
    int i;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        if (row < n && q * TS + tx < K) {
            i = row * K + q * TS + tx;
            As[ty][tx] = A[i];
        } else
            As[ty][tx] = 0;
        if (q * TS + ty < K && col < n) {
            i = (q * TS + ty) * n + col;
            Bs[ty][tx] = x[i];
        } else
            Bs[ty][tx] = 0;
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}
