// Tensor copies (a helper's attack, session 44): tiles declared inside the K-loop made the
// build before (322a4af) stop with "internal: overlapping edits" (the tile's alignment and its
// hoisted declaration at one place), the whole file failing, under --variant=tma, bulk and
// auto on sm_90; rows read downward (`(T - 1 - ty) * K`) got a tensor map of a negative row
// length that no launch could make (the remark said tma, every launch ran the loop as
// written). Both are refused now; the last kernel is the plain loop.

#define T 16

__global__ void tile_in_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    
    for (int t = 0; t < K / T; ++t) {
        __shared__ float As[T][T];
        __shared__ float Bs[T][T];
        As[ty][tx] = A[row * K + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    
    C[row * N + col] = acc;
}

__global__ void row_reversed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    
    for (int t = 0; t < K / T; ++t) {
        As[ty][tx] = A[(blockIdx.y * T + T - 1 - ty) * K + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
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
    tile_in_loop<<<dim3(N / T, M / T), dim3(T, T)>>>(A, B, C, M, N, K);
    row_reversed<<<dim3(N / T, M / T), dim3(T, T)>>>(A, B, C, M, N, K);
    base<<<dim3(N / T, M / T), dim3(T, T)>>>(A, B, C, M, N, K);
}
