// sgemm_tiled.cu (hand): the expert reference for testdata/sgemm_tiled.cu: tile t+1 loaded
// into registers during the compute of tile t, stored into the other of two stages after it,
// one barrier per iteration.
#include "harness.cuh"

#define TILE 32

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int ntiles = K / TILE;
    float acc = 0.0f;
    if (ntiles > 0) {
        As[0][ty][tx] = A[row * K + tx];
        Bs[0][ty][tx] = B[ty * N + col];
    }
    __syncthreads();
    for (int t = 0; t < ntiles; ++t) {
        float ra = 0.0f, rb = 0.0f;
        bool more = t + 1 < ntiles;
        if (more) {
            ra = A[row * K + (t + 1) * TILE + tx];
            rb = B[((t + 1) * TILE + ty) * N + col];
        }
        int s = t & 1;
        for (int k = 0; k < TILE; ++k)
            acc += As[s][ty][k] * Bs[s][k][tx];
        if (more) {
            As[s ^ 1][ty][tx] = ra;
            Bs[s ^ 1][ty][tx] = rb;
        }
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_tiled", M, N, K, [&](const float *A, const float *B, float *C) {
        dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
        sgemm_tiled<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
