// neg_member_alias.cu: left alone: the copies load through p->A and the compute stores through
// `out`; `__restrict__` on p promises only that the struct is not aliased, nothing about what
// p->A and out point at (pipefy once took the struct's restrict for the member's and
// pipelined it). The kernel stores the running sum to C through out every tile, so a load
// moved a tile early would also be wrong if out were A.
// Usage: neg_member_alias [M N K] (multiples of TS).
// gpu-runs: 32 32 0 | 32 32 16 | 32 32 32 | 32 32 48 | 256 256 256
// gpu-sanitize: 32 32 48
#include "harness.cuh"

#define TS 16

struct Operands {
    const float *A, *B;
    int M, N, K;
};

__global__ void member_alias(const Operands *__restrict__ p, float *out)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < p->K; k0 += TS) {
        As[ty][tx] = p->A[row * p->K + k0 + tx];
        Bs[ty][tx] = p->B[(k0 + ty) * p->N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        out[row * p->N + col] = acc;
        __syncthreads();
    }
    out[row * p->N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    Operands *dp = nullptr;
    CHECK(cudaMalloc(&dp, sizeof *dp));
    int rc = harness_gemm<float, float>("neg_member_alias", M, N, K, [&](const float *A, const float *B, float *C) {
        Operands p = {A, B, M, N, K};
        CHECK(cudaMemcpy(dp, &p, sizeof p, cudaMemcpyHostToDevice));
        member_alias<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(dp, C);
    }, 1e-4, 1e-4);
    CHECK(cudaFree(dp));
    return rc;
}
