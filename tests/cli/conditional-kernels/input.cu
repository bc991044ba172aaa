// Kernels defined in a preprocessor conditional: pipefy rewrites the definition this
// configuration compiles. A dependent launch would also run the other branch's kernel, which has
// no wait (a race in a build with -DFAST), and the tensor-copy launcher would be missing from
// that build: both are left as written. A kernel whose body starts with a conditional would run
// that code before the wait in some build: also left as written.
#define TILE 32

__global__ void produce(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i;
}

#ifdef FAST
__global__ void consume(const float *x, float *y, int n) { y[blockIdx.x * blockDim.x + threadIdx.x] = 2 * x[0]; }
#else
__global__ void consume(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + x[i];
}
#endif

__global__ void scale(float *y, int n)
{
#ifdef CLEAR
    y[0] = 0.0f;
#endif
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= 0.5f;
}

#ifndef PLAIN
__global__ void tiled(const float *A, const float *B, float *C, int M, int N, int K)
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
#endif

void run(float *x, float *y, int n, const float *A, const float *B, float *C, int M, int N, int K)
{
    produce<<<(n + 255) / 256, 256>>>(x, n);
    consume<<<(n + 255) / 256, 256>>>(x, y, n);
    scale<<<(n + 255) / 256, 256>>>(y, n);
    tiled<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
