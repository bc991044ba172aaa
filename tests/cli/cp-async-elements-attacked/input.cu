// Copy loops that two trips (or two copies) of one thread store one element through, each a
// probe a review of distinct.c wrote against its first build, which made every one cp.async
// (the CPU block model: two asynchronous copies in flight to one shared address). Each must
// be refused, naming what is not proved.
#define T 32

// renamed
// renamed: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void renamed_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 8; ++q)  // a wrong value first...
            As[ty + 4 * q][tx] = A[(row0 + ty + 4 * q) * K + k0 + (tx + 1) % T];
        for (int p = 0; p < 8; ++p)  // ...then the right one, to the same elements
            As[ty + 4 * p][tx] = A[(row0 + ty + 4 * p) * K + k0 + tx];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// shifted_pair
// shifted_pair: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void shifted_pair_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        int row = tid / 4, c0 = (tid % 4) * 8;
        for (int i = 0; i < 7; ++i) {  // copy 2 at trip i stores what copy 1 stores at trip i + 1
            As[row][c0 + i + 1] = A[(row0 + row) * K + k0 + c0 + i + 1 + (i < 6)];
            As[row][c0 + i] = A[(row0 + row) * K + k0 + c0 + i];
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// vec_scalar
// vec_scalar: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void vec_scalar_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int q = 0; q < 8; ++q)
            if (tx < 8) {  // one thread: a 16-byte copy, then 4-byte copies over the same floats
                *(float4 *)&As[ty + 4 * q][tx * 4] = *(const float4 *)&A[(row0 + ty + 4 * q) * K + k0 + (tx * 4 + 4) % T];
                for (int e = 0; e < 4; ++e)
                    As[ty + 4 * q][tx * 4 + e] = A[(row0 + ty + 4 * q) * K + k0 + tx * 4 + e];
            }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// helper_alias
// helper_alias: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64
__device__ void helper_alias_load_t(float (*S)[T], const float *G, int r0, int c0, int ld)
{
    for (int q = 0; q < 8; ++q)
        S[threadIdx.y + 4 * q][threadIdx.x] = G[(r0 + threadIdx.y + 4 * q) * ld + c0 + threadIdx.x];
}
__device__ void helper_alias_load_2(float (*S)[T], float (*S2)[T], const float *G, int r0, int c0, int ld)
{
    for (int q = 0; q < 8; ++q)  // wrong values first
        S[threadIdx.y + 4 * q][threadIdx.x] = G[(r0 + threadIdx.y + 4 * q) * ld + c0 + (threadIdx.x + 1) % T];
    for (int q = 0; q < 8; ++q)  // S2 is S: the same elements, the right values
        S2[threadIdx.y + 4 * q][threadIdx.x] = G[(r0 + threadIdx.y + 4 * q) * ld + c0 + threadIdx.x];
}


__global__ void helper_alias_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        helper_alias_load_2(As, As, A, row0, k0, K);
        helper_alias_load_t(Bs, B, k0, blockIdx.x * T, N);
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// nested_start
// nested_start: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void nested_start_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        {
            int row = tid / 4, c0 = (tid % 4) * 8;
            // even columns: j starts at i, so (i=0, j=2) and (i=1, j=1) both store column 2
            for (int i = 0; i < 2; ++i)
                for (int j = i; j < 7; j += 2)
                    As[row][c0 + j + i] = A[(row0 + row) * K + k0 + c0 + j + i + (1 - i) * (j > 0)];
            for (int j = 1; j < 8; j += 2)  // odd columns
                As[row][c0 + j] = A[(row0 + row) * K + k0 + c0 + j];
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// shadow
// shadow: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void shadow_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        {
            int row = tid / 4, c0 = (tid % 4) * 8, o = 0;
            // i = -1 and i = 7: (i + 0) / 8 is 0 for both (C truncates), (i + 1) % 8 is 0 for both
            for (int i = -1; i < 8; ++i) {
                int r = (i + o) / 8;
                {
                    int o = 1;
                    (&As[row][c0])[r * 8 + (i + o) % 8] = A[(row0 + row) * K + k0 + c0 + (i + o) % 8 + (i < 0)];
                }
            }
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// narrow_local
// narrow_local: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void narrow_local_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int m = 0; m < 4; ++m) {  // elements 0..255; c wraps: m = 0, 2 and m = 1, 3 collide
            unsigned char c = tid + 128 * m;
            (&As[0][0])[c] = A[(row0 + c / 32) * K + k0 + (c % 32 + (m < 2)) % 32];
        }
        for (int m = 0; m < 6; ++m)  // elements 256..1023
            (&As[8][0])[tid + 128 * m] = A[(row0 + 8 + (tid + 128 * m) / 32) * K + k0 + tid % 32];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// narrow_positive
// narrow_positive: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void narrow_positive_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        {
            const unsigned char S = blockDim.x * blockDim.y * 2;  // 256 -> 0
            for (int i = 0; i < 2; ++i)
                (&As[0][0])[tid + i * S] = A[(row0 + ty) * K + k0 + (tx + 1 - i) % T];
            for (int m = 1; m < 8; ++m)
                (&As[0][0])[tid + 128 * m] = A[(row0 + ty + 4 * m) * K + k0 + tx];
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// blockdim_local
// blockdim_local: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void blockdim_local_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        {
            const int S = 2 * blockDim.x;  // (64)
            for (int i = 0; i < 2; ++i)  // i * S - 2 * i * blockDim.x is 0: both trips store element tid
                (&As[0][0])[tid + i * S - 2 * i * blockDim.x] = A[(row0 + ty) * K + k0 + (tx + 1 - i) % T];
            for (int m = 1; m < 8; ++m)
                (&As[0][0])[tid + 128 * m] = A[(row0 + ty + 4 * m) * K + k0 + tx];
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// stepped_div
// stepped_div: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void stepped_div_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        int r = 0;
        for (int q = 0; q < 16; ++q) {  // r / 2 = 0, 0, 1, 1, ...: each row twice
            As[ty + 4 * (r / 2)][tx] = A[(row0 + ty + 4 * (r / 2)) * K + k0 + (tx + 1 - r % 2) % T];
            ++r;
        }
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// shl_wrap
// shl_wrap: attack probe (copy loop storing one element twice)
// gpu-runs: 64 64 64

__global__ void shl_wrap_kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = 0; i < 2; ++i)  // (unsigned)i << 16 << 16 is 0 for both trips
            As[ty][tx + ((unsigned)i << 16 << 16)] = A[(row0 + ty) * K + k0 + (tx + 1 - i) % T];
        for (int q = 1; q < 8; ++q)
            As[ty + 4 * q][tx] = A[(row0 + ty + 4 * q) * K + k0 + tx];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < T; ++k)
                acc[q] += As[ty + 4 * q][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// uchar_wrap_nested
__global__ void uchar_wrap_nested_k(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    
    for (int k0 = 0; k0 < K; k0 += T) {
        for (unsigned char c = 250; c != 251; c += 3)
            for (int j = 0; j < 5; ++j)
                (&As[0][0])[2 * c + j] = A[(row0 + ty) * K + k0 + j];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int uchar_wrap_nested_k = 0; uchar_wrap_nested_k < T; ++uchar_wrap_nested_k)
                acc[q] += As[ty + 4 * q][uchar_wrap_nested_k] * Bs[uchar_wrap_nested_k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}

// view4_overlap
__global__ void view4_overlap_k(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[T][T];
    __shared__ __align__(16) float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[8] = {};
    
    for (int k0 = 0; k0 < K; k0 += T) {
        float4 *v = reinterpret_cast<float4 *>(&As[0][0]);
        for (int q = 0; q < 2; ++q)  // float4 view: v[tid / 2 ...]
            *(float4 *)((float *)&v[tid / 4] + 4 * q * 0 + q) = reinterpret_cast<const float4 *>(A + (row0 + tid / 32) * K + k0)[(tid / 4) % 8];
        for (int q = 0; q < 8; ++q)
            Bs[ty + 4 * q][tx] = B[(k0 + ty + 4 * q) * N + col];
        __syncthreads();
        for (int q = 0; q < 8; ++q)
            for (int view4_overlap_k = 0; view4_overlap_k < T; ++view4_overlap_k)
                acc[q] += As[ty + 4 * q][view4_overlap_k] * Bs[view4_overlap_k][tx];
        __syncthreads();
    }
    for (int q = 0; q < 8; ++q)
        C[(row0 + ty + 4 * q) * N + col] = acc[q];
}
