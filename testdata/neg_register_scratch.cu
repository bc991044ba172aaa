// neg_register_scratch.cu: left alone: a float4 register loaded from global memory and stored
// into the tiles, which the compute uses too, where the compute may read the loaded value (so
// the register cannot be given to the load alone, as testdata/sgemm_scratch_registers.cu's is):
// it reads it before it assigns it; assigns it in one branch of an if only; assigns one member
// only; assigns it in a loop that may run no trips and reads it after; or the kernel reads it
// after the K-loop. Each refusal names the use.
#define TILE 32

// the compute reads Av.x before it assigns Av
__global__ void reads_first(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
        Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
        As[ak][am] = Av.x;
        As[ak + 1][am] = Av.y;
        As[ak + 2][am] = Av.z;
        As[ak + 3][am] = Av.w;
        *(float4 *)&Bs[bk][bn] = Bv;
        __syncthreads();
        acc += Av.x;
        for (int k = 0; k < TILE; ++k) {
            Av = make_float4(As[k][threadIdx.y], 0.0f, 0.0f, 0.0f);
            acc += Av.x * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// Av assigned in one branch only, then read
__global__ void one_branch(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
        Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
        As[ak][am] = Av.x;
        As[ak + 1][am] = Av.y;
        As[ak + 2][am] = Av.z;
        As[ak + 3][am] = Av.w;
        *(float4 *)&Bs[bk][bn] = Bv;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            if (k > 0)
                Av = make_float4(As[k][threadIdx.y], 0.0f, 0.0f, 0.0f);
            acc += Av.x * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// one member assigned, another read
__global__ void one_member(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
        Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
        As[ak][am] = Av.x;
        As[ak + 1][am] = Av.y;
        As[ak + 2][am] = Av.z;
        As[ak + 3][am] = Av.w;
        *(float4 *)&Bs[bk][bn] = Bv;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            Av.x = As[k][threadIdx.y];
            acc += Av.x * Av.y * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// assigned in every trip of a loop that may run none, read after it
__global__ void after_trips(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
        Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
        As[ak][am] = Av.x;
        As[ak + 1][am] = Av.y;
        As[ak + 2][am] = Av.z;
        As[ak + 3][am] = Av.w;
        *(float4 *)&Bs[bk][bn] = Bv;
        __syncthreads();
        for (int k = 0; k < M; ++k) {
            Av = make_float4(As[k % TILE][threadIdx.y], 0.0f, 0.0f, 0.0f);
            acc += Av.x * Bs[k % TILE][threadIdx.x];
        }
        acc += Av.y;
        __syncthreads();
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// the scratch is read after the K-loop
__global__ void read_after_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        Av = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
        Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
        As[ak][am] = Av.x;
        As[ak + 1][am] = Av.y;
        As[ak + 2][am] = Av.z;
        As[ak + 3][am] = Av.w;
        *(float4 *)&Bs[bk][bn] = Bv;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            Av = make_float4(As[k][threadIdx.y], 0.0f, 0.0f, 0.0f);
            acc += Av.x * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc + Av.w;
}
