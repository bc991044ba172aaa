// Tiled products whose compute loop's trip count is not a constant. blockDim.x trips, the file's
// launch a dim3(T, T): pipelined under `blockDim.x == 32 && blockDim.y == 32 && blockDim.z == 1`,
// where the compiler unrolls it (one register stage for its 1024-thread blocks,
// ldg_one_stage_from_...). The same kernel with no launch in the file, and one whose trip count
// is a parameter: known only at run time, auto leaves them (rules/variants.json,
// leave_unknown_compute), the first with the blockDim it waits on named. The same loop with a
// constant trip count is pipelined. One with a blockDim loop and a parameter's: known only at
// run time (the build before named blockDim alone, which a shape would not fix).
#define N 1024
#define T 32

__global__ void runtime_trips(const int *a, const int *b, int *c)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int s_a[T * T];
    __shared__ int s_b[T * T];
    int tmp = 0;
    for (int i = 0; i < N; i += blockDim.x) {
        s_a[threadIdx.y * blockDim.x + threadIdx.x] = a[row * N + i + threadIdx.x];
        s_b[threadIdx.y * blockDim.x + threadIdx.x] = b[i * N + threadIdx.y * N + col];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++)
            tmp += s_a[threadIdx.y * blockDim.x + j] * s_b[j * blockDim.x + threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = tmp;
}

__global__ void unlaunched_trips(const int *a, const int *b, int *c)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int s_a[T * T];
    __shared__ int s_b[T * T];
    int tmp = 0;
    for (int i = 0; i < N; i += blockDim.x) {
        s_a[threadIdx.y * blockDim.x + threadIdx.x] = a[row * N + i + threadIdx.x];
        s_b[threadIdx.y * blockDim.x + threadIdx.x] = b[i * N + threadIdx.y * N + col];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++)
            tmp += s_a[threadIdx.y * blockDim.x + j] * s_b[j * blockDim.x + threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = tmp;
}

__global__ void parameter_trips(const int *a, const int *b, int *c, int w)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int s_a[T * T];
    __shared__ int s_b[T * T];
    int tmp = 0;
    for (int i = 0; i < N; i += blockDim.x) {
        s_a[threadIdx.y * blockDim.x + threadIdx.x] = a[row * N + i + threadIdx.x];
        s_b[threadIdx.y * blockDim.x + threadIdx.x] = b[i * N + threadIdx.y * N + col];
        __syncthreads();
        for (int j = 0; j < w; j++)
            tmp += s_a[threadIdx.y * blockDim.x + j] * s_b[j * blockDim.x + threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = tmp;
}

__global__ void mixed_trips(const int *a, const int *b, int *c, int w)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int s_a[T * T];
    __shared__ int s_b[T * T];
    int tmp = 0;
    for (int i = 0; i < N; i += blockDim.x) {
        s_a[threadIdx.y * blockDim.x + threadIdx.x] = a[row * N + i + threadIdx.x];
        s_b[threadIdx.y * blockDim.x + threadIdx.x] = b[i * N + threadIdx.y * N + col];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++)
            tmp += s_a[threadIdx.y * blockDim.x + j] * s_b[j * blockDim.x + threadIdx.x];
        for (int j = 0; j < w; j++)
            tmp += s_a[j];
        __syncthreads();
    }
    c[row * N + col] = tmp;
}

__global__ void constant_trips(const int *a, const int *b, int *c)
{
    int row = blockIdx.y * T + threadIdx.y;
    int col = blockIdx.x * T + threadIdx.x;
    __shared__ int s_a[T * T];
    __shared__ int s_b[T * T];
    int tmp = 0;
    for (int i = 0; i < N; i += T) {
        s_a[threadIdx.y * T + threadIdx.x] = a[row * N + i + threadIdx.x];
        s_b[threadIdx.y * T + threadIdx.x] = b[i * N + threadIdx.y * N + col];
        __syncthreads();
        for (int j = 0; j < T; j++)
            tmp += s_a[threadIdx.y * T + j] * s_b[j * T + threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = tmp;
}

void run(const int *a, const int *b, int *c)
{
    dim3 threads(T, T), blocks(N / T, N / T);
    runtime_trips<<<blocks, threads>>>(a, b, c);
    constant_trips<<<blocks, threads>>>(a, b, c);
}
