// A fetch into a local that other statements read too is staged a tile early only where every
// other reader comes after the copies (the compute) or outside the loop: the local is then
// assigned from pipefy's register where the statement stood. Each kernel below breaks that,
// but for the last two.
#define TS 16
#define LOAD(r, p) r = *(p)
#define LOAD_X(r, p) r.x = *(p)

// read before its load, at the top of the body: the previous tile's value (staged a tile
// early, it would be this tile's)
__global__ void read_before(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float a = 0.0f, acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        acc += a;
        a = A[row * K + k0 + tx];
        As[ty][tx] = a;
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// read between its load and the copies, by a statement that is no copy
__global__ void read_between(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float a = 0.0f, acc = 0.0f, sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        a = A[row * K + k0 + tx];
        sum += a;
        As[ty][tx] = a;
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc + sum;
}

// read by the loop's condition
__global__ void read_in_condition(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float a = 0.0f, acc = 0.0f;
    for (int k0 = 0; k0 < K && a < 1e30f; k0 += TS) {
        a = A[row * K + k0 + tx];
        As[ty][tx] = a;
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + a;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// loaded by one macro expansion whose left side is not the argument alone (`v.x`, the member
// the macro's body names): no two sides to write apart
__global__ void macro_member(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float2 v = {0.0f, 0.0f};
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        LOAD_X(v, &A[row * K + k0 + tx]);
        As[ty][tx] = v.x;
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + v.x;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// loaded by one macro expansion whose left side is its argument: the fetch writes the
// register as the argument, `LOAD(pipefy_kept0, ..)`, the stash `a = pipefy_kept0`
__global__ void macro_load(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float a = 0.0f, acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        LOAD(a, &A[row * K + k0 + tx]);
        As[ty][tx] = a;
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + a;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the compute reads it after the copies: staged, the statement kept in the stash
__global__ void read_after(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float a = 0.0f, acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        a = A[row * K + k0 + tx];
        As[ty][tx] = a;
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + a;
        __syncthreads();
    }
    C[row * N + col] = acc + a;
}

void launch(const float *A, const float *B, float *C, int N, int K)
{
    dim3 block(TS, TS), grid(N / TS, N / TS);
    read_before<<<grid, block>>>(A, B, C, N, K);
    read_between<<<grid, block>>>(A, B, C, N, K);
    read_in_condition<<<grid, block>>>(A, B, C, N, K);
    macro_member<<<grid, block>>>(A, B, C, N, K);
    macro_load<<<grid, block>>>(A, B, C, N, K);
    read_after<<<grid, block>>>(A, B, C, N, K);
}
