// Copies whose destination writes (`s[rr = 8 * h + r]` in a fill helper, `As[i = ..]`, `As[r++]`,
// a compound assignment): the session's second attack found cp.async wrong on each, auto on the
// first. Refused now.
#define TS 16

// h20v_float4_assign_in_target: float4 fill helpers (16-byte copies: auto picks cp.async); A's helper fills the half of
namespace h20v {
__device__ void load_half4(float (*s)[TS], const float *g, int ld, int r0, int c0, int h)
{
    int tid = threadIdx.y * 16 + threadIdx.x, r = tid / 4, c = (tid % 4) * 4, rr;
    if (tid < 32)
        *reinterpret_cast<float4 *>(&s[rr = 8 * h + r][c]) = *reinterpret_cast<const float4 *>(&g[(r0 + r) * ld + c0 + c]);
}
__device__ void load4(float (*s)[TS], const float *g, int ld, int r0, int c0)
{
    int tid = threadIdx.y * 16 + threadIdx.x, r = tid / 4, c = (tid % 4) * 4;
    *reinterpret_cast<float4 *>(&s[r][c]) = *reinterpret_cast<const float4 *>(&g[(r0 + r) * ld + c0 + c]);
}
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TS][TS];
    __shared__ __align__(16) float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_half4(As, A, K, blockIdx.y * TS + 8 * ((k0 / TS) & 1), k0, (k0 / TS) & 1);
        load4(Bs, B, N, k0, blockIdx.x * TS);
        __syncthreads();
        int h = (k0 / TS) & 1;
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 2; ++i)
                acc[i] += As[8 * h + ty + 4 * i][k] * Bs[k][tx];
        if (k0 > 0)
            for (int k = 0; k < TS; ++k)
                for (int i = 0; i < 2; ++i)
                    acc[2 + i] += As[8 - 8 * h + ty + 4 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        C[(blockIdx.y * TS + ty + 4 * i) * N + blockIdx.x * TS + tx] = acc[i];
}
}

// h20_assign_in_target: the helper stores at s[r = threadIdx.y + 8 * h][tx]: the parity h reaches the store's row only through an assignment (an 'ok' span); the load address uses r0 (already offset by the caller)
namespace h20 {
__device__ void load_half(float (*s)[TS], const float *g, int ld, int r0, int c0, int h)
{
    int r;
    s[r = threadIdx.y + 8 * h][threadIdx.x] = g[(r0 + threadIdx.y) * ld + c0 + threadIdx.x];
}
__device__ void load2(float (*s)[TS], const float *g, int ld, int r0, int c0)
{
    for (int i = 0; i < 2; ++i)
        s[threadIdx.y + i * 8][threadIdx.x] = g[(r0 + threadIdx.y + i * 8) * ld + c0 + threadIdx.x];
}
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, acc2 = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_half(As, A, K, blockIdx.y * TS + 8 * ((k0 / TS) & 1), k0, (k0 / TS) & 1);
        load2(Bs, B, N, k0, blockIdx.x * TS);
        __syncthreads();
        int hh = (k0 / TS) & 1;
        for (int k = 0; k < TS; ++k)
            acc += As[ty + 8 * hh][k] * Bs[k][tx];
        if (k0 > 0)
            for (int k = 0; k < TS; ++k)
                acc2 += As[ty + 8 - 8 * hh][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(row + 8) * N + col] = acc2;
    C[row * N + col] = acc;
}
}

// h21_postinc_in_target: the helper stores at s[threadIdx.y + 8 * (h++)][tx]: the parity reaches the row through a post-increment of the parameter
namespace h21 {
__device__ void load_half(float (*s)[TS], const float *g, int ld, int r0, int c0, int h)
{
    s[threadIdx.y + 8 * (h++)][threadIdx.x] = g[(r0 + threadIdx.y) * ld + c0 + threadIdx.x];
}
__device__ void load2(float (*s)[TS], const float *g, int ld, int r0, int c0)
{
    for (int i = 0; i < 2; ++i)
        s[threadIdx.y + i * 8][threadIdx.x] = g[(r0 + threadIdx.y + i * 8) * ld + c0 + threadIdx.x];
}
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, acc2 = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_half(As, A, K, blockIdx.y * TS + 8 * ((k0 / TS) & 1), k0, (k0 / TS) & 1);
        load2(Bs, B, N, k0, blockIdx.x * TS);
        __syncthreads();
        int hh = (k0 / TS) & 1;
        for (int k = 0; k < TS; ++k)
            acc += As[ty + 8 * hh][k] * Bs[k][tx];
        if (k0 > 0)
            for (int k = 0; k < TS; ++k)
                acc2 += As[ty + 8 - 8 * hh][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(row + 8) * N + col] = acc2;
    C[row * N + col] = acc;
}
}

// h21b_compound_assign_target: the helper keeps int r = threadIdx.y and stores at s[r += 8 * h][tx]
namespace h21b {
__device__ void load_half(float (*s)[TS], const float *g, int ld, int r0, int c0, int h)
{
    int r = threadIdx.y;
    s[r += 8 * h][threadIdx.x] = g[(r0 + threadIdx.y) * ld + c0 + threadIdx.x];
}
__device__ void load2(float (*s)[TS], const float *g, int ld, int r0, int c0)
{
    for (int i = 0; i < 2; ++i)
        s[threadIdx.y + i * 8][threadIdx.x] = g[(r0 + threadIdx.y + i * 8) * ld + c0 + threadIdx.x];
}
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f, acc2 = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_half(As, A, K, blockIdx.y * TS + 8 * ((k0 / TS) & 1), k0, (k0 / TS) & 1);
        load2(Bs, B, N, k0, blockIdx.x * TS);
        __syncthreads();
        int hh = (k0 / TS) & 1;
        for (int k = 0; k < TS; ++k)
            acc += As[ty + 8 * hh][k] * Bs[k][tx];
        if (k0 > 0)
            for (int k = 0; k < TS; ++k)
                acc2 += As[ty + 8 - 8 * hh][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(row + 8) * N + col] = acc2;
    C[row * N + col] = acc;
}
}
