// A second kernel whose CUB block reduction reads threadIdx.y inside CUB's headers: in one
// persistent launch of 1-D blocks that would be 0 for every thread. pipefy follows the headers'
// functions and refuses (the build before this case queued it).
#include <cub/block/block_reduce.cuh>
__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (float)i;
}
__global__ void sums(const float *x, float *out, int n)
{
    typedef cub::BlockReduce<float, 16, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 16> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    int i = blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x;
    float s = Reduce(tmp).Sum(i < n ? x[i] : 0.0f);
    if (threadIdx.x == 0 && threadIdx.y == 0)
        out[blockIdx.x] = s;
}
void run(float *x, float *out, int n)
{
    fill<<<(n + 255) / 256, 256>>>(x, n);
    sums<<<(n + 255) / 256, dim3(16, 16)>>>(x, out, n);
}
