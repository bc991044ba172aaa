// A kernel with a default argument: the tensor-copy kernel pipefy writes for it takes a tensor
// map after that parameter, which has none ("missing default argument"), so tma's rewrite fails
// validation. auto plans the loop again without tma and registers take it (the build before left
// it as written); --variant=tma still says why it cannot.
#define TS 16
__global__ void kd(const float *A, const float *B, float *C, int M, int N, int K, float scale = 1.0f)
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
        __syncthreads();
    }
    C[row * N + col] = acc * scale;
}

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    kd<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
}
