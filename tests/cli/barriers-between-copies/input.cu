// Barriers the rewrite leaves out only where the loop's order does not rest on them: one right
// after another, or one between two groups of copies whose later copies write another tile and
// whose locals read none (the first two kernels: pipelined; the build before refused both,
// "more than two block barriers"). The others keep the barrier between the copies, which
// orders them, and the remark says which one and why: copies into one tile on both sides; a
// local after it reading a tile; a copy after it whose address reads the tile a copy before it
// fills (an index table; the build before pipelined it with cp.async, the index read before
// its copy landed); a copy through a pointer into another tile's array (the build before
// pipelined it with registers, the two stores to one element racing).
#define TS 16
// 1: A's tile, a barrier, B's tile, a barrier, the compute, a barrier (ECE408 conv style)
__global__ void between(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        __syncthreads();
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
// 2: two barriers at the end
__global__ void doubled(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        __syncthreads();
    }
    C[row * N + col] = acc;
}
// 3: the copies after the barrier overwrite the tile the copies before it wrote: refused
__global__ void same_tile(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        __syncthreads();
        As[tx][ty] = A[row * K + t * TS + ty];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
// 4: a local after the barrier reads the tile written before it: refused
__global__ void reads_before(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        __syncthreads();
        int off = (int)As[0][tx] & 0;
        Bs[ty][tx] = B[(t * TS + ty + off) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void k_gather(const float *A, const float *B, const int *idx, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    __shared__ int s_idx[TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = A[row * K + t + tx];
        s_idx[tx] = idx[t + tx];
        __syncthreads();
        Bs[ty][tx] = B[s_idx[ty] * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

__global__ void k_view2(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    float *Av = &As[0][0];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = A[row * K + t + tx];
        __syncthreads();
        Av[tx * TS + ty] = A[row * K + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
