// Tiles filled by a macro whose body holds its own loop: the remark names the macro, whose body
// pipefy cannot rewrite (it named the macro's loop counter as a variable "declared outside").
#define TS 16
#define LOAD(K0)                                   \
    for (int i = 0; i < 1; ++i) {                  \
        As[ty][tx] = A[ty * K + (K0) + tx];        \
        Bs[ty][tx] = B[((K0) + ty) * TS + tx];     \
    }

__global__ void k(const float *A, const float *B, float *C, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        LOAD(t)
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * TS + tx] = acc;
}
