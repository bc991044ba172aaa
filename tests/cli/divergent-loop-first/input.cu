// A stencil sweep whose loop, barriers and all, runs only in the threads inside the grid
// (kaixih's 27-point stencil): as written it already waits at its barriers for threads that
// never come. That is its first obstacle, named before the compute's writes through 'out'
// that the next plane's copies may read.
#define TS 32

__global__ void sweep(const float *in, float *out, int nx, int ny, int nz)
{
    __shared__ float plane[TS + 2];
    int i = blockIdx.x * TS + threadIdx.x;
    if (i < nx) {
        for (int k = 1; k < nz - 1; k++) {
            plane[threadIdx.x + 1] = in[k * nx + i];
            __syncthreads();
            out[(k + 1) * nx + i] = plane[threadIdx.x] + plane[threadIdx.x + 1];
            __syncthreads();
        }
    }
}
