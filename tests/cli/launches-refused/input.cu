// Launches back to back whose second pipefy leaves as written, each for its reason.
#include <cuda_runtime.h>

__global__ void produce(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = (float)i;
}

__global__ void elsewhere(const float *y, float *z, int n); // defined in another file

__global__ void twice(const float *y, float *z, int n);
__global__ void twice(const double *y, double *z, int n) {}
__global__ void twice(const float *y, float *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = 2 * y[i];
}

__global__ void scaled(const float *y, float *z, int n, float a = 3.0f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = a * y[i];
}

template <class T>
__global__ void copy(const T *y, T *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i];
}

__global__ void waits_itself(const float *y, float *z, int n)
{
    cudaGridDependencySynchronize();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1;
}

__global__ void plain(const float *y, float *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] - 1;
}

static int blocks_for(int n) { return (n + 255) / 256; }
static float *next(float **p) { return (*p)++; }
template <class T> static T *next_of(T **p) { return (*p)++; }

void run(float *y, float *z, float **zs, int n)
{
    produce<<<blocks_for(n), 256>>>(y, n);
    elsewhere<<<blocks_for(n), 256>>>(y, z, n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    twice<<<blocks_for(n), 256>>>(y, z, n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    scaled<<<blocks_for(n), 256>>>(y, z, n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    copy<<<blocks_for(n), 256>>>(y, z, n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    waits_itself<<<blocks_for(n), 256>>>(y, z, n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    plain<<<blocks_for(n), 256>>>(y, next(zs), n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    plain<<<blocks_for(n), 256>>>(y, next_of<float>(zs), n);
    cudaDeviceSynchronize(); // (no pair with the launch before)
    produce<<<blocks_for(n), 256>>>(y, n);
    plain<<<blocks_for(n), 256>>>(y,
#ifdef SHIFTED
                                  z + 1,
#else
                                  z,
#endif
                                  n);
}

template <class T>
void run_typed(T *y, T *z, int n)
{
    produce<<<blocks_for(n), 256>>>((float *)y, n);
    copy<<<blocks_for(n), 256>>>(y, z, n);
}
