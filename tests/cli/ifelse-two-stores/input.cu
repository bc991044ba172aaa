// Both tiles' fills under one if/else, two stores a branch: no guarded copy pipefy reads (it
// takes one store of one element a branch); the remark names the constant store and its if.
#define TS 16

__global__ void two_stores(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        if (row < M && col < N && t * TS + tx < K && t * TS + ty < K) {
            As[ty][tx] = A[row * K + t * TS + tx];
            Bs[ty][tx] = B[(t * TS + ty) * N + col];
        } else {
            As[ty][tx] = 0.0f;
            Bs[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(TS, TS);
    two_stores<<<grid, block>>>(A, B, C, M, N, K);
}
