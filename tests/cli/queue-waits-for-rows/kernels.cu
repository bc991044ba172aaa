// Pairs --launches=queue makes one persistent launch: where pipefy bounds every access of both
// kernels, a block of the second waits for the rows of the first it may read (tile then row_sum,
// fill then shift); where it cannot, for every block of the first, and the remark names why
// (a macro, `*p`, a helper, an index read from memory, an array of pointers, a float index).
#include <cuda_runtime.h>

#define T 16
#define ROW (blockIdx.y * T + threadIdx.y) // a macro with more than a constant in it

__device__ float twice(float v) { return 2.0f * v; }

__global__ void tile(float *c, int n)
{
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    c[row * n + col] = (float)(row - col);
}

__global__ void row_sum(const float *c, float *s, int n)
{
    __shared__ float part[256];
    const float *r = c + (size_t)blockIdx.x * n;
    float v = 0.0f;
    for (int j = threadIdx.x; j < n; j += 256)
        v += r[j];
    part[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 1; k < 256; k++)
            v += part[k];
        s[blockIdx.x] = v;
    }
}

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (float)i;
}

__global__ void shift(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] - 1.0f;
}

__global__ void by_macro(float *c, int n)
{
    c[ROW * n + blockIdx.x * T + threadIdx.x] = 1.0f;
}

__global__ void by_pointer(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = *(x + i);
}

__global__ void by_helper(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = twice(x[i]);
}

__global__ void by_gather(const float *x, const int *idx, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[idx[i]];
}

__global__ void by_table(const float *x, float *y, int n)
{
    const float *half[2] = {x, x + n / 2}; // (an array of pointers: its elements point into x)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        y[i] = half[1][i];
}

__global__ void by_float(const float *x, float *y, int n, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[(int)(i * scale)];
}

void run(float *c, float *s, float *x, float *y, int *idx, int n)
{
    dim3 tiles(n / T, n / T), threads(T, T);
    tile<<<tiles, threads>>>(c, n);
    row_sum<<<n, 256>>>(c, s, n);
    cudaDeviceSynchronize();
    fill<<<(n + 255) / 256, 256>>>(x, n);
    shift<<<(n + 255) / 256, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    by_macro<<<tiles, threads>>>(c, n);
    row_sum<<<n, 256>>>(c, s, n);
    cudaDeviceSynchronize();
    fill<<<(n + 255) / 256, 256>>>(x, n);
    by_pointer<<<(n + 255) / 256, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    fill<<<(n + 255) / 256, 256>>>(x, n);
    by_helper<<<(n + 255) / 256, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    fill<<<(n + 255) / 256, 256>>>(x, n);
    by_gather<<<(n + 255) / 256, 256>>>(x, idx, y, n);
    cudaDeviceSynchronize();
    fill<<<(n + 255) / 256, 256>>>(x, n);
    by_table<<<(n + 255) / 256, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    fill<<<(n + 255) / 256, 256>>>(x, n);
    by_float<<<(n + 255) / 256, 256>>>(x, y, n, 0.5f);
}
