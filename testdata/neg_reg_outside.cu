// neg_reg_outside.cu: registers declared before the loop that are not a plain fetch. In the
// first kernel the last value of ra is read after the loop, in the second the compute reads
// rb, in the third the registers are stored before they are loaded (a register prefetch the
// author wrote). Moving their loads a tile ahead would change what those reads see, so every
// loop is left as written, with the use that stops it named.
#define TS 16

__global__ void after_loop(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    for (int k0 = 0; k0 < K; k0 += TS) {
        ra = A[row * K + k0 + tx];
        rb = B[(k0 + ty) * N + col];
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc + ra;
}

__global__ void compute_reads(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra, rb;
    for (int k0 = 0; k0 < K; k0 += TS) {
        ra = A[row * K + k0 + tx];
        rb = B[(k0 + ty) * N + col];
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + rb;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void prefetched(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, ra = A[row * K + tx], rb = B[ty * N + col];
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        if (k0 + TS < K) {
            ra = A[row * K + k0 + TS + tx];
            rb = B[(k0 + TS + ty) * N + col];
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
