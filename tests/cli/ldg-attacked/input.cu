// Attacks on register staging (a helper's probes, session 44): each kernel but the last two was
// pipelined as ldg by the build before (d3eb56a), and each of those computed another result
// than the loop as written (the CPU block model: an eighth to a half of C differs):
// - a copy loop whose body is another loop without braces, stepping by blockDim.y, running to
//   a bound known at run time, or starting at the outer counter: registers counted by the
//   outer loop alone, every inner trip writing the same one;
// - three counted loops deep, the third the second's body without braces: likewise;
// - one local loaded twice, once for each copy (declared in the body, or before the loop):
//   one register, both copies storing the second value.
// The last two (nested counted loops, a float4's parts) are staged, and right.
#define T 32

__global__ void k_p64_inner_blockdimy(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};

    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 4; ++q)
            for (int c = ty; c < 8; c += blockDim.y)
                if (k0 + tx < K) As[8 * q + c][tx] = A[(row0 + 8 * q + c) * K + k0 + tx]; else As[8 * q + c][tx] = 0.f;
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p63_inner_runtime_bound(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};
    int two = M / M + 1;
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int a = 0; a < 4; ++a)
            for (int w = 0; w < two; ++w)
                if (k0 + tx < K) As[ty + 4 * (2 * a + w)][tx] = A[(row0 + ty + 4 * (2 * a + w)) * K + k0 + tx]; else As[ty + 4 * (2 * a + w)][tx] = 0.f;
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p62_inner_start_outer(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};

    for (int k0 = 0; k0 < K; k0 += T) {
        for (int a = 0; a < 4; ++a)
            for (int w = a; w < 8; w += 4)
                if (k0 + tx < K) As[ty + 4 * w][tx] = A[(row0 + ty + 4 * w) * K + k0 + tx]; else As[ty + 4 * w][tx] = 0.f;
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p10_three_deep(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};

    for (int k0 = 0; k0 < K; k0 += T) {
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 2; ++c)
                    As[ty + 4 * (4 * a + 2 * b + c)][tx] = (k0 + tx < K) ? A[(row0 + ty + 4 * (4 * a + 2 * b + c)) * K + k0 + tx] : 0.f;
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p45_local_reused(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};

    for (int k0 = 0; k0 < K; k0 += T) {
        float v = A[(row0 + ty) * K + k0 + tx];
        As[ty][tx] = v;
        v = A[(row0 + ty + 4) * K + k0 + tx];
        As[ty + 4][tx] = v;
        for (int q = 2; q < 8; ++q)
            As[ty + 4 * q][tx] = A[(row0 + ty + 4 * q) * K + k0 + tx];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p45x_outer_reused(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};
    float v;

    for (int k0 = 0; k0 < K; k0 += T) {
        v = A[(row0 + ty) * K + k0 + tx];
        As[ty][tx] = v;
        v = A[(row0 + ty + 4) * K + k0 + tx];
        As[ty + 4][tx] = v;
        for (int q = 2; q < 8; ++q)
            As[ty + 4 * q][tx] = A[(row0 + ty + 4 * q) * K + k0 + tx];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p54_le_inner_pair(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};

    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q <= 3; ++q)
            for (int w = 0; w + 1 <= 2; ++w)
                if (k0 + tx < K) As[ty + 4 * (2 * q + w)][tx] = A[(row0 + ty + 4 * (2 * q + w)) * K + k0 + tx]; else As[ty + 4 * (2 * q + w)][tx] = 0.f;
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

__global__ void k_p43_float4(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, col = col0 + tx;
    float acc[8] = {};

    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = tid; i < T * T / 4; i += 128) {
            int r = i / (T / 4), c = (i % (T / 4)) * 4;
            float4 v = *(const float4 *)&A[(row0 + r) * K + k0 + c];
            As[r][c] = v.x; As[r][c + 1] = v.y; As[r][c + 2] = v.z; As[r][c + 3] = v.w;
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = (k0 + ty + 4 * q < K) ? B[(k0 + ty + 4 * q) * N + col] : 0.f;
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();

    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

void run(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T), block(T, 4);
    k_p64_inner_blockdimy<<<grid, block>>>(A, B, C, M, N, K);
    k_p63_inner_runtime_bound<<<grid, block>>>(A, B, C, M, N, K);
    k_p62_inner_start_outer<<<grid, block>>>(A, B, C, M, N, K);
    k_p10_three_deep<<<grid, block>>>(A, B, C, M, N, K);
    k_p45_local_reused<<<grid, block>>>(A, B, C, M, N, K);
    k_p45x_outer_reused<<<grid, block>>>(A, B, C, M, N, K);
    k_p54_le_inner_pair<<<grid, block>>>(A, B, C, M, N, K);
    k_p43_float4<<<grid, block>>>(A, B, C, M, N, K);
}
