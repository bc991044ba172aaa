#include <cuda_runtime.h>
#include "kernels.cuh"
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0f * i;
}
__global__ void copy_out(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i];
}
void run(float *x, float *y, int n, cudaStream_t s)
{
    scale<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    copy_out<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
}
