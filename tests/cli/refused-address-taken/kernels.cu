// The copies read a local that the compute may change through another name: a reference bound
// to it, a function's reference parameter given it. The loader reads it a tile early, so the
// loop is left as written; a const reference writes nothing (the control: pipelined).
#define TS 16

__device__ void advance(int &k) { k += TS; }

__global__ void by_reference(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N,
                             int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int k0 = 0;
    int &column = k0;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        column += TS;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void by_parameter(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N,
                             int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int k0 = 0;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        advance(k0);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void const_reference(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N,
                                int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const int &rows = N;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * rows + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
