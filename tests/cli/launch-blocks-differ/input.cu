// One kernel launched with two blocks, 256 and 1024 threads. The plan is made for the file's
// first launch, and --report says another launch gives another block (it once named the first
// alone). The rewrites fit each launch at run time: a producer warp's launcher runs the kernel
// as written where the block leaves no room for it (1024 + 32 threads).
#define T 32

__global__ void strided(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                        int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i / T][i % T] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int o = 0; o * blockDim.x + threadIdx.x < T * T; ++o) {
            int e = o * blockDim.x + threadIdx.x;
            for (int k = 0; k < T; ++k)
                acc[o] += As[e / T][k] * Bs[k][e % T];
        }
        __syncthreads();
    }
    for (int o = 0; o * blockDim.x + threadIdx.x < T * T; ++o) {
        int e = o * blockDim.x + threadIdx.x;
        C[(r0 + e / T) * N + c0 + e % T] = acc[o];
    }
}

void run(const float *A, const float *B, float *C, int M, int N, int K, bool wide)
{
    if (wide)
        strided<<<dim3(N / T, M / T), 256>>>(A, B, C, M, N, K);
    else
        strided<<<dim3(N / T, M / T), 1024>>>(A, B, C, M, N, K);
}
