// __restrict__ promises that nothing but pointers based on A reach A's memory; a pointer the
// kernel makes from A is based on it, so the compute's store through it may write what the next
// tile's copies read (the loader would read it first): left as written. The control stores
// through C, a pointer of its own: pipelined.
#define TS 16

__global__ void derived(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float *ahead = (float *)A + TS;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        ahead[row * K + k0 + tx] = acc;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void own_pointer(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N,
                            int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        C[row * N + col] = acc;
        __syncthreads();
    }
}
