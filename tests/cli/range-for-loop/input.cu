// A range-based for over the tiles (hemi's n-body: `for (auto tile : grid_stride_range(..))`) is
// no counted loop: it says so (the build before said nothing of it); the same loop written as a
// counted for is pipelined.
struct R { unsigned b, e; struct It { unsigned v; __device__ unsigned operator*() const { return v; } __device__ It &operator++() { ++v; return *this; } __device__ bool operator!=(const It &o) const { return v != o.v; } };
  __device__ It begin() const { return {b}; } __device__ It end() const { return {e}; } };
__device__ R range(unsigned b, unsigned e) { return {b, e}; }

__global__ void k_rangefor(float *out, const float *in, int N)
{
    __shared__ float t[256];
    float acc = 0;
    for (auto tile : range(0u, N / blockDim.x)) {
        t[threadIdx.x] = in[tile * blockDim.x + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; j++)
            acc += t[j];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void k_counted(float *out, const float *in, int N)
{
    __shared__ float t[256];
    float acc = 0;
    for (unsigned tile = 0; tile < N / blockDim.x; tile++) {
        t[threadIdx.x] = in[tile * blockDim.x + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; j++)
            acc += t[j];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
