// The facts a guarded fill's branch locals rest on (`if (g) { const int off = ..; As[..] = A[off];
// } else As[..] = 0;`, the copy rewritten as `As[..] = g ? A[((int)(..))] : 0`): each local set
// once, from arithmetic on locals and parameters (no load, no call, no tile), read by the load
// alone. Each kernel attacks one fact and is left as written with the fact named (the build
// before named "holds '..' besides a store" for all of them); the last two are pipelined: a
// local named like a parameter, and one that reads threadIdx.x.
#define TS 16
__device__ int counter;
__device__ int next_off(int x) { return x + counter; }

// 1: the local is written after its declaration
__global__ void written(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            int off = row * K + t * TS + tx;
            off += 1;
            As[ty][tx] = A[off - 1];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 2: the local's initializer loads global memory (an index table)
__global__ void loaded(const float *A, const int *idx, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int off = idx[row] * K + t * TS + tx;
            As[ty][tx] = A[off];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 3: the initializer calls a function
__global__ void called(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int off = next_off(row * K + t * TS + tx);
            As[ty][tx] = A[off];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 4: the local indexes the tile (the element stored depends on the branch)
__global__ void in_dst(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int c = tx;
            As[ty][c] = A[row * K + t * TS + tx];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 5: both branches declare `c` and store As[ty][c]: the same text, other elements
__global__ void same_name(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int c = tx;
            As[ty][c] = A[row * K + t * TS + tx];
        } else {
            const int c = TS - 1 - tx;
            As[ty][c] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 6: the local's address is taken
__global__ void address(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            int off = row * K + t * TS + tx;
            int *p = &off;
            As[ty][tx] = A[*p];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 7: the local reads a tile (shared memory)
__global__ void reads_tile(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    __shared__ int base[TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    if (tx == 0) base[ty] = row * K;
    __syncthreads();
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int off = base[ty] + t * TS + tx;
            As[ty][tx] = A[off];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 8: the local increments a counter the compute reads
__global__ void side_effect(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    int n = 0;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int off = row * K + t * TS + tx + (n++ - n);
            As[ty][tx] = A[off];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * n;
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 9: a local named like the parameter K (pipelined: its uses are the local's value)
__global__ void shadows(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const int K = 2 * TS;
            As[ty][tx] = A[row * K + t * TS + tx];
        } else {
            As[ty][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + tx] = acc;
}

// 10: coordinates read in the local (pipelined)
__global__ void coords(const float *A, float *C, int M, int K)
{
    __shared__ float As[TS][TS];
    int ty = threadIdx.y, row = blockIdx.y * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        if (row < M) {
            const unsigned off = row * K + t * TS + threadIdx.x;
            As[ty][threadIdx.x] = A[off];
        } else {
            As[ty][threadIdx.x] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += As[ty][k];
        __syncthreads();
    }
    C[row * TS + threadIdx.x] = acc;
}

// 11: the local set with braces (`int o{..}`): refused by name (the build before rendered
// `((int)({..}))`, which validation refused with a clang error)
__global__ void k_form(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        if (row < M && t + tx < K) {
            int o{row * K + t + tx};
            As[ty][tx] = A[o];
        } else
            As[ty][tx] = 0.0f;
        if (col < N && t + ty < K)
            Bs[ty][tx] = B[(t + ty) * N + col];
        else
            Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
