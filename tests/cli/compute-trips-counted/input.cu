// Compute loops whose trip counts are constants written three more ways: a counter declared
// before its loop (`size_t k; for (k = 0; ..)`), a step written as an assignment (`k = (k + 1)`),
// and a start the test adds a constant to (`for (s = s0; s < s0 + 16; s += 4)`). pipefy counts
// their flops (--report's ratio) rather than taking them for loops of run-time trips, which
// auto leaves as written.
#define T 16

__global__ void counter_before(const float *A, const float *B, float *C, int K)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        size_t k;
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * T + tx];
        __syncthreads();
        for (k = 0; k < T; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * T + tx] = acc;
}

__global__ void assigned_step(const float *A, const float *B, float *C, int K)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    int k;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * T + tx];
        __syncthreads();
        for (k = 0; k < T; k = (k + 1))
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * T + tx] = acc;
}

__global__ void offset_start(const float *A, const float *B, float *C, int K)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int s0 = (tx / 4) * 0;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * T + tx];
        __syncthreads();
        for (int s = s0; s < s0 + T; s += 4)
            acc += As[ty][s] * Bs[s][tx];
        __syncthreads();
    }
    C[ty * T + tx] = acc;
}

void launch(const float *A, const float *B, float *C, int K)
{
    counter_before<<<1, dim3(T, T)>>>(A, B, C, K);
    assigned_step<<<1, dim3(T, T)>>>(A, B, C, K);
    offset_start<<<1, dim3(T, T)>>>(A, B, C, K);
}
