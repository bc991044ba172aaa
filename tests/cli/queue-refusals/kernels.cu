// Pairs of launches --launches=queue must keep as written, each for one reason, and one it
// makes a persistent launch (scale then shift: the control).
#include <cuda_runtime.h>

__device__ int tile_of_block() { return blockIdx.x; } // reads the builtin: the item would see the persistent block's

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (float)i;
}

__global__ void by_helper(float *x, int n)
{
    int i = tile_of_block() * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

__global__ void early_exit(float *x, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    s[threadIdx.x] = x[i];
    __syncthreads();
    x[i] = s[255 - threadIdx.x];
}

__global__ void read_only(const float *__restrict__ x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + 1.0f;
}

__global__ void through_ldg(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __ldg(x + i) + 1.0f;
}

__global__ void lane_asm(float *x, int n)
{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += (float)(sm & 0);
}

__global__ void shift(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] - 1.0f;
}

void run(float *x, float *y, int n, int *counter)
{
    int blocks = (n + 255) / 256;
    fill<<<blocks, 256>>>(x, n);
    by_helper<<<blocks, 256>>>(x, n);
    cudaDeviceSynchronize();
    fill<<<blocks, 256>>>(x, n);
    early_exit<<<blocks, 256>>>(x, n);
    cudaDeviceSynchronize();
    fill<<<blocks, 256>>>(x, n);
    read_only<<<blocks, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    fill<<<blocks, 256>>>(x, n);
    through_ldg<<<blocks, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    fill<<<blocks, 256>>>(x, n);
    lane_asm<<<blocks, 256>>>(x, n);
    cudaDeviceSynchronize();
    fill<<<blocks, 256>>>(x, n);
    shift<<<blocks, 256, 0, 0>>>(x, y, n++);
    cudaDeviceSynchronize();
    fill<<<blocks, 256, 1024>>>(x, n);
    shift<<<blocks, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    fill<<<blocks, 256>>>(x, n);
    shift<<<blocks, 256>>>(x, y, n);
}
