// A file pipefy has overlapped launches in already, with a new pair: the helpers are not added
// again, and the new pair's kernel gets its wait.
// pipefy: overlapped launches {
// A kernel launched by pipefy_launch_dependent may start while the kernel before it in its
// stream is finishing (programmatic dependent launch, sm_90); pipefy_grid_wait, first in its
// body, waits until that kernel has completed and its writes are visible (griddepcontrol.wait).
// Below sm_90, or where the kernel's code was compiled for less (and so does not wait), the
// launch is an ordinary one.
static __device__ __forceinline__ void pipefy_grid_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
static bool pipefy_kernel_waits(const void *kernel)
{
    static thread_local const void *known[8];
    static thread_local int known_device[8], next;
    static thread_local bool waits[8];
    int device;
    if (cudaGetDevice(&device) != cudaSuccess)
        return false;
    for (int i = 0; i < 8; i++)
        if (known[i] == kernel && known_device[i] == device)
            return waits[i];
    int major = 0;
    cudaFuncAttributes attr;
    bool w = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9 &&
             cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;
    known[next] = kernel;
    known_device[next] = device;
    waits[next] = w;
    next = (next + 1) % 8;
    return w;
}
// (the arguments become the kernel's parameter types where they are passed, as in a launch:
// P is deduced from the kernel alone, so `0` or NULL for a pointer is a null pointer)
template <class T>
struct pipefy_parameter {
    typedef T type;
};
template <class... P>
static cudaError_t pipefy_launch_dependent(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                                           typename pipefy_parameter<P>::type... args)
{
    cudaLaunchAttribute overlap;
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = &overlap;
    config.numAttrs = pipefy_kernel_waits((const void *)kernel) ? 1 : 0;
    return cudaLaunchKernelEx(&config, kernel, args...);
}
// } pipefy: overlapped launches
// Two kernels back to back on one stream: the second reads what the first writes.
__global__ void scale(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

template <int STRIDE>
__global__ void shift(const float *y, float *z, int n)
{
    pipefy_grid_wait(); // pipefy: 'shift' may start before the kernel launched ahead of it ends: wait for it first
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + STRIDE < n) z[i] = y[i + STRIDE] - y[i];
}

void run(const float *x, float *y, float *z, int n, cudaStream_t s)
{
    scale<<<(n + 255) / 256, 256, 0, s>>>(x, y, 2.0f, n);
    pipefy_launch_dependent(shift<1>, (n + 255) / 256, 256, 0, s, y, z, n);
    // a different stream: nothing to overlap with
    scale<<<(n + 255) / 256, 256>>>(z, y, 0.5f, n);
}
void again(const float *x, float *y, float *z, int n, cudaStream_t s)
{
    scale<<<(n + 255) / 256, 256, 0, s>>>(x, y, 2.0f, n);
    pipefy_launch_dependent(shift<2>, (n + 255) / 256, 256, 0, s, y, z, n);
}
void third(const float *x, float *y, float *z, int n, cudaStream_t s)
{
    shift<3><<<(n + 255) / 256, 256, 0, s>>>(y, z, n);
    scale<<<(n + 255) / 256, 256, 0, s>>>(z, y, 0.5f, n);
}
