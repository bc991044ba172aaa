// A `#pragma unroll` that precedes no loop (here the guarded copy's if): nvcc warns ("the
// #pragma unroll must precede a loop") and compiles on, clang stops with an error, so the build
// before said "'tiled' has parse errors". The text clang parses has the line blanked; the output
// keeps it as written, and the pragmas that do precede loops stay.
#define T 16
__global__ void tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / T; ++t) {
        #pragma unroll
        // the guard (a comment between the pragma and the if)
        if (row < n) As[ty][tx] = A[row * n + t * T + tx]; else As[ty][tx] = 0.0f;
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

void run(const float *A, const float *B, float *C, int n)
{
    tiled<<<dim3(n / T, n / T), dim3(T, T)>>>(A, B, C, n);
}
