// Tiles filled from the value of a function of this file (`As[..] = load4(A, r, c, n);`): a load
// where the function returns what it reads through its pointer parameters and writes nothing but
// its own locals; register staging calls it a tile early.
#define TS 16
__device__ float g_scale;
__device__ int g_count;

__device__ float4 load4(const float *A, int r, int c, int n)
{
    float4 v = {0.f, 0.f, 0.f, 0.f};
    int i = r * n + c;
    if (i % 4 == 0 && c + 3 < n) {
        v = reinterpret_cast<const float4 *>(&A[i])[0];
    } else {
        for (int j = 0; j < 4; j++)
            ((float *)&v)[j] = c + j < n ? A[i + j] : 0.f;
    }
    return v;
}

__device__ float4 load4_scaled(const float *A, int r, int c, int n)
{
    float4 v = reinterpret_cast<const float4 *>(&A[r * n + c])[0];
    v.x *= g_scale;
    return v;
}

__device__ float4 load4_counted(const float *A, int r, int c, int n)
{
    atomicAdd(&g_count, 1);
    return reinterpret_cast<const float4 *>(&A[r * n + c])[0];
}

__device__ float4 load4_from(const float4 *T, int i)
{
    return T[i];
}

// staged: load4 loads through A and writes its own locals only
__global__ void __launch_bounds__(256) staged(const float *A, const float *B, float *C, int n)
{
    __shared__ float4 As[TS][TS / 4];
    __shared__ float4 Bs[TS][TS / 4];
    int tx = threadIdx.x % 4, ty = threadIdx.x / 4;
    float4 acc = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < n; k0 += TS) {
        if (threadIdx.x < 64) {
            As[ty][tx] = load4(A, blockIdx.y * TS + ty, k0 + tx * 4, n);
            Bs[ty][tx] = load4(B, k0 + ty, blockIdx.x * TS + tx * 4, n);
        }
        __syncthreads();
        for (int k = 0; k < TS / 4; ++k) {
            acc.x += As[ty % TS][k].x * Bs[k][tx].x;
            acc.y += As[ty % TS][k].y * Bs[k][tx].y;
        }
        __syncthreads();
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc.x + acc.y;
}

// refused: the function reads a global the compute writes
__global__ void __launch_bounds__(256) reads_a_global(const float *A, const float *B, float *C, int n)
{
    __shared__ float4 As[TS][TS / 4];
    __shared__ float4 Bs[TS][TS / 4];
    int tx = threadIdx.x % 4, ty = threadIdx.x / 4;
    float4 acc = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < n; k0 += TS) {
        if (threadIdx.x < 64) {
            As[ty][tx] = load4_scaled(A, blockIdx.y * TS + ty, k0 + tx * 4, n);
            Bs[ty][tx] = load4(B, k0 + ty, blockIdx.x * TS + tx * 4, n);
        }
        __syncthreads();
        for (int k = 0; k < TS / 4; ++k) {
            acc.x += As[ty % TS][k].x * Bs[k][tx].x;
            acc.y += As[ty % TS][k].y * Bs[k][tx].y;
        }
        __syncthreads();
        g_scale += 1.f;
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc.x + acc.y;
}

// refused: the function counts its calls (an atomic)
__global__ void __launch_bounds__(256) writes_memory(const float *A, const float *B, float *C, int n)
{
    __shared__ float4 As[TS][TS / 4];
    __shared__ float4 Bs[TS][TS / 4];
    int tx = threadIdx.x % 4, ty = threadIdx.x / 4;
    float4 acc = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < n; k0 += TS) {
        if (threadIdx.x < 64) {
            As[ty][tx] = load4_counted(A, blockIdx.y * TS + ty, k0 + tx * 4, n);
            Bs[ty][tx] = load4(B, k0 + ty, blockIdx.x * TS + tx * 4, n);
        }
        __syncthreads();
        for (int k = 0; k < TS / 4; ++k) {
            acc.x += As[ty % TS][k].x * Bs[k][tx].x;
            acc.y += As[ty % TS][k].y * Bs[k][tx].y;
        }
        __syncthreads();
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc.x + acc.y;
}

// refused: the compute writes through C, which may be A
__global__ void __launch_bounds__(256) compute_writes_through_c(const float *A, const float *B, float *C, int n)
{
    __shared__ float4 As[TS][TS / 4];
    __shared__ float4 Bs[TS][TS / 4];
    int tx = threadIdx.x % 4, ty = threadIdx.x / 4;
    float4 acc = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < n; k0 += TS) {
        if (threadIdx.x < 64) {
            As[ty][tx] = load4(A, blockIdx.y * TS + ty, k0 + tx * 4, n);
            Bs[ty][tx] = load4(B, k0 + ty, blockIdx.x * TS + tx * 4, n);
        }
        __syncthreads();
        for (int k = 0; k < TS / 4; ++k) {
            acc.x += As[ty % TS][k].x * Bs[k][tx].x;
            acc.y += As[ty % TS][k].y * Bs[k][tx].y;
        }
        __syncthreads();
        C[threadIdx.x] = acc.x;
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc.x + acc.y;
}

// refused: handed a tile
__global__ void __launch_bounds__(256) handed_a_tile(const float *A, const float *B, float *C, int n)
{
    __shared__ float4 As[TS][TS / 4];
    __shared__ float4 Bs[TS][TS / 4];
    int tx = threadIdx.x % 4, ty = threadIdx.x / 4;
    float4 acc = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < n; k0 += TS) {
        if (threadIdx.x < 64) {
            As[ty][tx] = load4_from(&Bs[0][0], tx);
            Bs[ty][tx] = load4(B, k0 + ty, blockIdx.x * TS + tx * 4, n);
        }
        __syncthreads();
        for (int k = 0; k < TS / 4; ++k) {
            acc.x += As[ty % TS][k].x * Bs[k][tx].x;
            acc.y += As[ty % TS][k].y * Bs[k][tx].y;
        }
        __syncthreads();
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc.x + acc.y;
}
