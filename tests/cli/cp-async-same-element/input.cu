// One thread copies one tile element twice (the second copy wins in the loop as written): as
// cp.async the two copies would land in no fixed order, so cp.async is refused and register
// staging, which stores in order, takes the loop. A copy loop whose copy stores the same element
// on every trip likewise; one of a single trip does not. Two copies at `As[slot]`, with slot
// set again between them, are taken for one element: the remark says so, not that they are one.
#define TS 16

__global__ void twice(const float *A, const float *B, const float *B2, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        Bs[ty][tx] = B2[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void every_trip(const float *A, const float *B, float *C, int N, int K, int reps)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int r = 0; r < reps; ++r)
            As[ty][tx] = A[(row + r) * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void one_trip(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int r = 0; r < 1; ++r)
            As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// Two copies whose destinations are written alike, `As[slot]`, with 'slot' set again between
// them: two elements, which pipefy does not tell apart. The remark once said they "store the
// same element"; it says pipefy takes them for one.
__global__ void index_set_between(const float *A, float *C, int K)
{
    __shared__ float As[128];
    int slot;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 128) {
        slot = threadIdx.x;
        As[slot] = A[blockIdx.x * K + k0 + threadIdx.x];
        slot = threadIdx.x + 64;
        As[slot] = A[blockIdx.x * K + k0 + threadIdx.x + 64];
        __syncthreads();
        acc += As[threadIdx.x] * 2.0f;
        __syncthreads();
    }
    C[blockIdx.x * 64 + threadIdx.x] = acc;
}
