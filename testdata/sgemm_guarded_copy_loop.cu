// sgemm_guarded_copy_loop.cu: tiled SGEMM for any M, N, K, its tiles filled by a copy loop
// whose every trip stores an element under if/else, the load where it is in range and zero
// where not (`if (g) As[r][tx] = A[..]; else As[r][tx] = 0.0f;`): one guarded copy a trip, as
// at the top of the body (registers load `g ? A[..] : 0.0f`; cp.async zero-fills). The
// negative leaves A's else out and zeroes its tile once before the loop instead, so that an
// element out of range keeps the zero (or the previous tile's value): a second stage would be
// neither. The store before the loop keeps the tiles to one stage; the remark names the store
// made on some tiles only.
// Usage: sgemm_guarded_copy_loop [M N K]
// gpu-runs: 32 32 0 | 32 32 32 | 40 72 50 | 256 256 256 | 1000 1000 1000
// gpu-sanitize: 40 72 50
#include "harness.cuh"

#define TS 32

__global__ void guarded_copy_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tid = threadIdx.x;
    int tx = tid % TS, ty = tid / TS; // 256 threads: ty in 0..7, four rows each
    int brow = blockIdx.y * TS, bcol = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        for (int i = 0; i < 4; ++i) {
            int r = ty + 8 * i;
            if (brow + r < M && t * TS + tx < K)
                As[r][tx] = A[(brow + r) * K + t * TS + tx];
            else
                As[r][tx] = 0.0f;
            if (t * TS + r < K && bcol + tx < N) {
                Bs[r][tx] = B[(t * TS + r) * N + bcol + tx];
            } else {
                Bs[r][tx] = 0.0f;
            }
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 8 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        if (brow + ty + 8 * i < M && bcol + tx < N)
            C[(brow + ty + 8 * i) * N + bcol + tx] = acc[i];
}

// negative: no else for A, its tile zeroed once before the loop (an element out of range keeps
// the zero or the previous tile's value, whose products with B's zero rows add nothing)
__global__ void partial_copy_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tid = threadIdx.x;
    int tx = tid % TS, ty = tid / TS;
    int brow = blockIdx.y * TS, bcol = blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 4; ++i)
        As[ty + 8 * i][tx] = 0.0f;
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        for (int i = 0; i < 4; ++i) {
            int r = ty + 8 * i;
            if (brow + r < M && t * TS + tx < K)
                As[r][tx] = A[(brow + r) * K + t * TS + tx];
            if (t * TS + r < K && bcol + tx < N)
                Bs[r][tx] = B[(t * TS + r) * N + bcol + tx];
            else
                Bs[r][tx] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 8 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        if (brow + ty + 8 * i < M && bcol + tx < N)
            C[(brow + ty + 8 * i) * N + bcol + tx] = acc[i];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256}; // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS), block(256);
    int bad = harness_gemm<float, float>("guarded_copy_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        guarded_copy_loop<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("partial_copy_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        partial_copy_loop<<<grid, block>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
