// Two host functions, each with its own `dim3 dimBlock` (a public GEMM file's habit): each
// launch's block size is its own function's dimBlock, 1024 threads for the first kernel and
// 256 for the second. The third kernel's launcher writes `threads.x` after defining it: its
// block size is not read (none is assumed from the definition).
#define TS 32
__global__ void wide(float *C, const float *A, const float *B, int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < n / TS; ++t) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * n + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * n + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * n + blockIdx.x * TS + tx] = acc;
}

__global__ void narrow(float *C, const float *A, const float *B, int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < n / TS; ++t) {
        for (int r = 0; r < 4; ++r) {
            As[ty * 4 + r][tx] = A[(blockIdx.y * TS + ty * 4 + r) * n + t * TS + tx];
            Bs[ty * 4 + r][tx] = B[(t * TS + ty * 4 + r) * n + blockIdx.x * TS + tx];
        }
        __syncthreads();
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < TS; ++k)
                acc[r] += As[ty * 4 + r][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int r = 0; r < 4; ++r)
        C[(blockIdx.y * TS + ty * 4 + r) * n + blockIdx.x * TS + tx] = acc[r];
}

__global__ void later(float *C, const float *A, const float *B, int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < n / TS; ++t) {
        As[ty][tx] = A[(blockIdx.y * TS + ty) * n + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * n + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * n + blockIdx.x * TS + tx] = acc;
}

void run_wide(float *C, const float *A, const float *B, int n)
{
    dim3 dimBlock(TS, TS);
    dim3 dimGrid(n / TS, n / TS);
    wide<<<dimGrid, dimBlock>>>(C, A, B, n);
}

void run_narrow(float *C, const float *A, const float *B, int n)
{
    dim3 dimBlock(TS, TS / 4);
    dim3 dimGrid(n / TS, n / TS);
    narrow<<<dimGrid, dimBlock>>>(C, A, B, n);
}

void run_later(float *C, const float *A, const float *B, int n)
{
    dim3 threads(TS, TS);
    threads.y = TS / 2;
    later<<<dim3(n / TS, n / TS), threads>>>(C, A, B, n);
}
