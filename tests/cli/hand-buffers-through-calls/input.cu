// A loop double-buffered by hand through helpers handed one buffer each (`fill(As[next], ..)`,
// `dot(As[cur], ..)`, arrzhev's DBuf GEMM): the build before said "no statement of the loop
// reads the tiles it fills"; the compute does, through a call handed part of the array.
#define TS 16
__device__ void fill(float *s, const float *g, int ld, int r0, int c0)
{
    s[threadIdx.y * TS + threadIdx.x] = g[(r0 + threadIdx.y) * ld + c0 + threadIdx.x];
}
__device__ float dot(const float *a, const float *b)
{
    float acc = 0.0f;
    for (int k = 0; k < TS; ++k)
        acc += a[threadIdx.y * TS + k] * b[k * TS + threadIdx.x];
    return acc;
}
__global__ void hand_buffered(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TS * TS], Bs[2][TS * TS];
    int cur = 0, next = 1;
    float acc = 0.0f;
    fill(As[cur], A, n, blockIdx.y * TS, 0);
    fill(Bs[cur], B, n, 0, blockIdx.x * TS);
    __syncthreads();
    for (int k0 = TS; k0 < n; k0 += TS) {
        fill(As[next], A, n, blockIdx.y * TS, k0);
        fill(Bs[next], B, n, k0, blockIdx.x * TS);
        acc += dot(As[cur], Bs[cur]);
        __syncthreads();
        cur ^= 1;
        next ^= 1;
    }
    acc += dot(As[cur], Bs[cur]);
    C[(blockIdx.y * TS + threadIdx.y) * n + blockIdx.x * TS + threadIdx.x] = acc;
}
