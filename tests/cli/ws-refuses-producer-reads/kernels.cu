// The producer warp runs what comes before the loop too, with thread indices past the
// kernel's: `__ldg(C + c0 + threadIdx.x)` would read past what the kernel's threads read (a
// pointer moved, not subscripted: pipefy once let it through). Left as written for ws; the
// second kernel converts a value before the loop (a call of its arguments alone: taken).
#define T 32

__global__ void bias_first(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                           int K, int lda)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float bias = __ldg(C + c0 + threadIdx.x);
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j] + bias;
}

__global__ void scale_first(const float *__restrict__ S, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                            int K, int lda, float scale)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int steps = __float2int_rn(scale);
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = S[(r0 + i / T) * lda + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j] * steps;
}

void run(const float *S, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T);
    bias_first<<<grid, 256>>>(S, B, C, M, N, K, K);
    scale_first<<<grid, 256>>>(S, B, C, M, N, K, K, 2.0f);
}
