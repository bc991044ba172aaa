// The tensor-copy variants run a copy of the kernel from a launcher: what the file does to the
// kernel under its name elsewhere, the copy would not get. Here an attribute (more dynamic
// shared memory than the default 48 KB, without which the copy's launch fails) and a pointer
// to it: both kernels are refused for tma. A declaration before the definition is no use of it.
#define TILE 32

__global__ void attributed(const float *A, const float *B, float *C, int M, int N, int K);

__global__ void attributed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    extern __shared__ float scratch[];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    scratch[ty * TILE + tx] = 1.0f;
    for (int t = 0; t < K / TILE; ++t) {
        As[ty][tx] = A[row * K + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc * scratch[ty * TILE + tx];
}

__global__ void pointed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        As[ty][tx] = A[row * K + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
    cudaFuncSetAttribute(attributed, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    attributed<<<grid, block, 64 * 1024>>>(A, B, C, M, N, K);
    void (*kernel)(const float *, const float *, float *, int, int, int) = pointed;
    kernel<<<grid, block>>>(A, B, C, M, N, K);
    pointed<<<grid, block>>>(A, B, C, M, N, K);
}
