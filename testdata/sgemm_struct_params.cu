// sgemm_struct_params.cu: the global pointers and sizes in a struct passed by value, as many
// libraries pass a kernel's arguments; the copies read p.A[...] and p.B[...], guarded (a
// partial last tile), so cp.async's fallback address is the member p.A, not the struct.
// Usage: sgemm_struct_params [M N K].
// gpu-runs: 20 24 0 | 20 24 16 | 33 17 32 | 40 40 41 | 200 136 250 | 1000 1000 1000
// gpu-sanitize: 40 40 41
#include "harness.cuh"

#define TS 16

struct GemmArgs {
    const float *A, *B;
    float *C;
    int M, N, K;
};

__global__ void sgemm_struct_params(GemmArgs p)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < p.K; k0 += TS) {
        As[ty][tx] = (row < p.M && k0 + tx < p.K) ? p.A[row * p.K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < p.K && col < p.N) ? p.B[(k0 + ty) * p.N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < p.M && col < p.N)
        p.C[row * p.N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {200, 136, 250};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_struct_params", M, N, K, [&](const float *A, const float *B, float *C) {
        GemmArgs p = {A, B, C, M, N, K};
        sgemm_struct_params<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(p);
    }, 1e-4, 1e-4);
}
