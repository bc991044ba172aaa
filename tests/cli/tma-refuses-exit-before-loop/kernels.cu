// Threads that may end before a K-loop: __syncthreads() counts a thread that has ended as
// arrived, an mbarrier does not, so the tensor-copy variants' waits would never end (and where
// thread 0 has ended, no barrier is initialized and no box is copied). Where the return
// before the loop depends on the thread (the first), the tensor copies leave the loop naming
// it (registers and cp.async take it: the threads that ended are not waited for); a return in
// a loop around the K-loop (the second) ends threads between tiles, and every variant leaves
// that loop; where the return is the whole block's, only the mbarrier variants do.
#define TILE 32

// a bounds check that ends threads before the loop
__global__ void guarded(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    if (row >= M || col >= N)
        return;
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

// a persistent kernel whose threads may end after a tile, before the loop runs again
__global__ void persistent(const float *A, const float *B, float *C, int M, int N, int K, int tiles)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row = tile / (N / TILE) * TILE + ty, col = tile % (N / TILE) * TILE + tx;
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
        if (acc != acc)
            return;
    }
}

// the control: a lambda's return ends no thread
__global__ void lambda_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    auto square = [](float v) { return v * v; };
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
    C[row * N + col] = square(acc);
}

__device__ void leave_if(bool done)
{
    if (done)
        asm volatile("exit;");
}

__device__ unsigned lane()
{
    unsigned l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

// a helper of the file that may execute PTX exit
__global__ void helper_exit(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    leave_if(row >= M);
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

// the control: an asm statement that does not end the thread, in a helper
__global__ void helper_lane(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = lane() == 32 ? 1.0f : 0.0f;
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
    guarded<<<grid, block>>>(A, B, C, M, N, K);
    persistent<<<132, block>>>(A, B, C, M, N, K, (M / TILE) * (N / TILE));
    lambda_return<<<grid, block>>>(A, B, C, M, N, K);
    helper_exit<<<grid, block>>>(A, B, C, M, N, K);
    helper_lane<<<grid, block>>>(A, B, C, M, N, K);
}
