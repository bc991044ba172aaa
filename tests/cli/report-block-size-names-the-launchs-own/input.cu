// The block size a launch names is the constant its own function declares, not another
// function's of the same name, also through a dim3 variable (`dim3 block(WIDTH)`); a local
// nothing writes after its declaration (`int THREADS = 16;`) is its initializer; a variable
// that may change gives none: a parameter (even one named as a file-scope dim3), a dim3 written
// after its declaration.
constexpr int BS = 32;
dim3 pblock(512);

template <int N>
__global__ void k(const float *A, float *C, int K)
{
    __shared__ float As[N];
    float acc = 0;
    for (int t = 0; t < K; t += N) {
        As[threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < N; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void g(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < K; t += 32) {
        As[threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void h(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < K; t += 32) {
        As[threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void c(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < K; t += 32) {
        As[threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void p(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < K; t += 32) {
        As[threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

__global__ void m(const float *A, float *C, int K)
{
    __shared__ float As[32];
    float acc = 0;
    for (int t = 0; t < K; t += 32) {
        As[threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

void launch_small(const float *A, float *C, int K)
{
    constexpr int BLOCK_SIZE = 32;
    (void)BLOCK_SIZE;
}

void launch_k(const float *A, float *C, int K)
{
    const int BLOCK_SIZE = 256;
    k<BLOCK_SIZE><<<1, BLOCK_SIZE>>>(A, C, K);
}

void launch_g(const float *A, float *C, int K, int n)
{
    int BS = n;
    g<<<1, BS>>>(A, C, K);
}

void launch_h_small(const float *A, float *C, int K)
{
    const int WIDTH = 64;
    dim3 block(WIDTH);
    (void)block;
}

void launch_h(const float *A, float *C, int K)
{
    const int WIDTH = 128;
    dim3 block(WIDTH);
    h<<<1, block>>>(A, C, K);
}

void launch_c(const float *A, float *C, int K)
{
    int THREADS = 16;
    dim3 threads(THREADS, THREADS);
    c<<<1, threads>>>(A, C, K);
}

void launch_p(const float *A, float *C, int K, dim3 pblock)
{
    p<<<1, pblock>>>(A, C, K);
}

void launch_m(const float *A, float *C, int K)
{
    dim3 mblock(64);
    mblock.x = 128;
    m<<<1, mblock>>>(A, C, K);
}
