// A copy loop whose bound is a constant but whose step is the block's size computed into a
// local (llaisys's `e += nthread`, nthread = blockDim.x * blockDim.y, no launch in the file):
// register staging cannot count its trips, and the remark names the step, not the bound.
#define TS 16

__global__ void stepped(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS * TS];
    __shared__ float Bs[TS * TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * blockDim.x + tx, nthread = blockDim.x * blockDim.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int e = tid; e < TS * TS; e += nthread)
            As[e] = A[(blockIdx.y * TS + e / TS) * K + k0 + e % TS];
        for (int e = tid; e < TS * TS; e += nthread)
            Bs[e] = B[(k0 + e / TS) * N + blockIdx.x * TS + e % TS];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty * TS + k] * Bs[k * TS + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
