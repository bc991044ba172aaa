// A guarded copy whose load is a macro's use: cp.async copies from the load's pointer when the
// guard fails, which the file does not name there (it once failed validation). The same copy
// written out is taken.
#define TS 16
#define B_AT(r, c) B[(size_t)(r) * N + (c)]
__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        As[ty][tx] = row < M && q * TS + tx < K ? A[(size_t)row * K + q * TS + tx] : 0.f;
        if (q * TS + ty >= K || col >= N)
            Bs[ty][tx] = 0;
        else
            Bs[ty][tx] = B_AT(q * TS + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}
__global__ void written_out(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int q = 0; q < (K - 1) / TS + 1; q++) {
        As[ty][tx] = row < M && q * TS + tx < K ? A[(size_t)row * K + q * TS + tx] : 0.f;
        if (q * TS + ty >= K || col >= N)
            Bs[ty][tx] = 0;
        else
            Bs[ty][tx] = B[(size_t)(q * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}
