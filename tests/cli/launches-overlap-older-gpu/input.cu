// Two kernels back to back on one stream, --launches=overlap for sm_80: each launch says why it
// stays as written (programmatic dependent launch is sm_90's; the build before said nothing).
__global__ void scale(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

template <int STRIDE>
__global__ void shift(const float *y, float *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + STRIDE < n) z[i] = y[i + STRIDE] - y[i];
}

void run(const float *x, float *y, float *z, int n, cudaStream_t s)
{
    scale<<<(n + 255) / 256, 256, 0, s>>>(x, y, 2.0f, n);
    shift<1><<<(n + 255) / 256, 256, 0, s>>>(y, z, n);
    // a different stream: nothing to overlap with
    scale<<<(n + 255) / 256, 256>>>(z, y, 0.5f, n);
    // the default stream, spelled otherwise
    shift<1><<<(n + 255) / 256, 256, 0, nullptr>>>(y, z, n);
}
