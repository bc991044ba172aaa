// Writes through lambdas that capture by reference, called in the compute: the copies, their
// guards and their branch locals read what the lambda changes (the build before pipelined both).
#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define TS 16

__global__ void __launch_bounds__(256) lambda_changes_index(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BM];
    const int tid = threadIdx.x;
    float acc = 0.f;
    int sh = 0;
    auto upd = [&]() { sh += 1; };
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BK * BM; i += 256)
            As[i % BK][i / BK] = A[(size_t)(blockIdx.y * BM + (i / BK + sh) % BM) * K + k0 + i % BK];
        for (int i = tid; i < BK * BM; i += 256)
            Bs[i / BM][i % BM] = B[(size_t)(k0 + i / BM) * N + blockIdx.x * BM + i % BM];
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][tid % BM] * Bs[k][tid / 4];
        upd();
        __syncthreads();
    }
    C[(size_t)blockIdx.x * 256 + tid] = acc;
}

__device__ int gcount;
__global__ void __launch_bounds__(256) lambda_changes_guard(const float *A, const float *B, float *C, int M, int N, int K, const int *idx)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int row0 = blockIdx.y * BM + threadIdx.y * TM, col0 = blockIdx.x * BN + threadIdx.x * TN;
    float acc[TM][TN] = {};
    int lim = 64;
    auto upd = [&]() { lim += 2; };

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < lim) {
            int row_a = tid / 2;
            int col_a = (tid % 2) * 4;
            float4 v = reinterpret_cast<const float4 *>(&A[(size_t)(blockIdx.y * BM + row_a) * K + k0 + col_a])[0];
            As[col_a + 0][row_a] = v.x;
            As[col_a + 1][row_a] = v.y;
            As[col_a + 2][row_a] = v.z;
            As[col_a + 3][row_a] = v.w;
        }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *reinterpret_cast<float4 *>(&Bs[row_b][col_b]) =
                reinterpret_cast<const float4 *>(&B[(size_t)(k0 + row_b) * N + blockIdx.x * BN + col_b])[0];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i)
                a[i] = As[k][threadIdx.y * TM + i];
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][threadIdx.x * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }

        upd();
        __syncthreads();
    }

    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            C[(size_t)(row0 + i) * N + col0 + j] = acc[i][j];
}
