// cp.async stages whose copies move with the K-loop's counter (a helper's attack, session 44):
// each trip fills another part of the tile (`As[ty][tx + 8 * (t & 1)]`, a slot `As[(t + 1) & 1]`,
// `As[t % 3]`) and the compute reads what earlier trips left there, which a stage of its own
// does not hold. The build before (322a4af) pipelined the first three as cp.async x3, each
// output another result than the original in the CPU model; the last is the plain loop.

#define T 16

__global__ void slot_lag(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / T; ++t) {
        As[(t + 1) & 1][ty][tx] = A[row * K + t * T + tx];
        Bs[(t + 1) & 1][ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
        if (t > 0)
            for (int k = 0; k < T; ++k)
                acc = acc * 0.9f + As[t & 1][ty][k] * Bs[t & 1][k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void half_alternating(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][8];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * 8 + tx;
    float acc = 0.0f;
    for (int t = 0; t < 2 * (K / T); ++t) {
        As[ty][tx + 8 * (t & 1)] = A[row * K + t * 8 + tx];
        Bs[ty][tx] = B[((t / 2) * T + ty) * N + col];
        __syncthreads();
        if (t > 0)
            for (int k = 0; k < T; ++k)
                acc = acc * 0.9f + As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void slot_mod3(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / T; ++t) {
        As[t % 3][ty][tx] = A[row * K + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
        if (t >= 2)
            for (int k = 0; k < T; ++k)
                acc = acc * 0.9f + As[(t + 1) % 3][ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void base(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / T; ++t) {
        As[ty][tx] = A[row * K + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    slot_lag<<<dim3(N / T, M / T), dim3(T, T)>>>(A, B, C, M, N, K);
    half_alternating<<<dim3(N / T, M / T), dim3(8, T)>>>(A, B, C, M, N, K);
    slot_mod3<<<dim3(N / T, M / T), dim3(T, T)>>>(A, B, C, M, N, K);
    base<<<dim3(N / T, M / T), dim3(T, T)>>>(A, B, C, M, N, K);
}
