// neg_header_global.cu: a helper that fills the tiles and also stores to a variable declared
// in a header (include/probe_state.h), which the compute reads: moved into the prefetch, the
// store would happen a tile early. pipefy must refuse the helper and name the variable, where
// the header puts its declaration (its offsets in the header) inside the helper's offsets in this
// file, too: a variable is the helper's own only when it is declared in this file, in the helper.
#include "include/probe_state.h"

#define TS 16

__device__ void load_tiles(float (*As)[TS], float (*Bs)[TS], const float *A, const float *B, int row, int col,
                           int K, int N, int k0)
{
    probe_k = k0;
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
}

__global__ void gemm_header_global(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_tiles(As, Bs, A, B, row, col, K, N, k0);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx] + (float)probe_k;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
