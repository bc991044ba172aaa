// neg_tma.cu: K-loops that the other variants take but sm_90's tensor copies must not: a tile
// that is no box of its operand, a box whose row length only the kernel knows, a kernel pipefy
// cannot copy, launches it cannot route. Each remark of the tma golden names the reason.
// pipefy-golden: tma bulk ws
#include <cuda_runtime.h>
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

#define T 32

// transposed: thread (x, y) stores As[x][y], the box's element (y, x)
__global__ void transposed(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[tx][ty] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// a 32-row tile filled by two copies of 16 rows each
__global__ void two_copies(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'two_copies' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        As[ty + 16][tx] = A[(blockIdx.y * T + ty + 16) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// the rows are gridDim.x * 32 apart: the host could not build the tensor map
__global__ void grid_stride(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'grid_stride' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ld = gridDim.x * T;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * ld + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// guarded copies fill zeros where the operand ends
__global__ void guarded(const float *A, const float *B, float *C, int M, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'guarded' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    if (row < M)
        C[row * N + blockIdx.x * T + tx] = acc;
}

// rows of two floats: 8 bytes, where a tensor copy's box rows need a multiple of 16 (its loop is
// kept rolled, so that the PTX check sees one loop of it)
__global__ void narrow_tile(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'narrow_tile' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][2];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
#pragma unroll 1
    for (int k0 = 0; k0 < K; k0 += 2) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < 2; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * 2 + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * 2 + tx] = acc;
}

// a template: the copy pipefy would make is per instantiation
template <int TS>
__global__ void templated(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'templated' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * TS + tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// C linkage: a second kernel of the same name could not be told apart
extern "C" __global__ void c_linkage(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'c_linkage' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// launched only through a macro, where pipefy cannot route the launch
__global__ void macro_launched(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// 'base' takes off's value before off moves: the loader must not read off again
__global__ void stale_local(const float *A, const float *B, float *C, int N, int K, int shift)
{
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int off = blockIdx.y * T;
    int base = off * K;
    off += shift;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[base + ty * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(off + ty) * N + blockIdx.x * T + tx] = acc;
}

// 'first' is the loop variable's value before the loop: 0, not the tile's
__global__ void stale_loop_variable(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'stale_loop_variable' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int k0 = 0;
    int first = k0;
    float acc = 0.0f;
    for (; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + first + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// A moved under a condition: how far it has moved is not one polynomial
__global__ void moved_in_branch(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'moved_in_branch' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (blockIdx.x > 0)
        A += K;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[(blockIdx.y * T + ty) * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

// the bump comes before the copy, which reads the moved pointer
__global__ void bump_before_copy(const float *A, const float *B, float *C, int N, int K)
{
    pipefy_grid_wait(); // pipefy: 'bump_before_copy' may start before the kernel launched ahead of it ends: wait for it first
    __shared__ float As[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = A + (blockIdx.y * T + ty) * K + tx - T;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        a += T;
        As[ty][tx] = a[0];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + blockIdx.x * T + tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * N + blockIdx.x * T + tx] = acc;
}

#define LAUNCH(kernel, grid, ...) kernel<<<grid, dim3(T, T)>>>(__VA_ARGS__)

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T), block(T, T);
    transposed<<<grid, block>>>(A, B, C, N, K);
    pipefy_launch_dependent(two_copies, grid, dim3(T, 16), 0, 0, A, B, C, N, K);
    pipefy_launch_dependent(grid_stride, grid, block, 0, 0, A, B, C, N, K);
    pipefy_launch_dependent(guarded, grid, block, 0, 0, A, B, C, M, N, K);
    pipefy_launch_dependent(narrow_tile, dim3(N / 2, M / T), dim3(2, T), 0, 0, A, B, C, N, K);
    pipefy_launch_dependent(templated<T>, grid, block, 0, 0, A, B, C, N, K);
    pipefy_launch_dependent(c_linkage, grid, block, 0, 0, A, B, C, N, K);
    LAUNCH(macro_launched, grid, A, B, C, N, K);
    stale_local<<<grid, block>>>(A, B, C, N, K, 3);
    pipefy_launch_dependent(stale_loop_variable, grid, block, 0, 0, A, B, C, N, K);
    pipefy_launch_dependent(moved_in_branch, grid, block, 0, 0, A, B, C, N, K);
    pipefy_launch_dependent(bump_before_copy, grid, block, 0, 0, A, B, C, N, K);
}
