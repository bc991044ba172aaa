// A dependent launch passes its arguments as the launch would: `0` and NULL for a pointer are
// null pointers, 2.5 for an int is 2 (the helper's parameters are the kernel's own types; when
// it deduced them from the arguments, `0` became an int no pointer takes, and validation left
// both launches as written).
#include <cuda_runtime.h>
#include <cstddef>

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i;
}

__global__ void shift(float *x, const float *bias, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += bias ? bias[i] : 1.0f;
}

void run(float *x, int n)
{
    fill<<<(n + 255) / 256, 256>>>(x, n);
    shift<<<(n + 255) / 256, 256>>>(x, 0, n);
    shift<<<(n + 255) / 256, 256>>>(x, NULL, 2.5);
}
