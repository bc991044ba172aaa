// sgemm_scratch_index.cu: an index declared before the K-loop and assigned again before each
// copy (`int idx; for (..) { idx = ..; if (idx >= n * n) As[..] = 0; else As[..] = A[idx]; ..
// }`, a public tiled multiply's shape): only the loop's copies read it and every iteration
// assigns it before they do, so the loader may assign it a tile early, with the copies. The
// second kernel's compute reads the index too: a loader a tile ahead would hand it the next
// tile's index, so the loader sets an index of its own (declared in it), and the compute keeps
// setting the one it reads (it stayed as written until the loaders had their own).
// Usage: sgemm_scratch_index [N] (a multiple of TS; N x N matrices)
// gpu-runs: 16 | 32 | 48 | 256
// gpu-sanitize: 48
#include "harness.cuh"

#define TS 16

__global__ void scratch_index(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    int idx;
    for (int t = 0; t < n / TS; ++t) {
        idx = row * n + t * TS + threadIdx.x;
        if (idx >= n * n)
            As[threadIdx.y][threadIdx.x] = 0.0f;
        else
            As[threadIdx.y][threadIdx.x] = A[idx];
        idx = (t * TS + threadIdx.y) * n + col;
        if (idx >= n * n)
            Bs[threadIdx.y][threadIdx.x] = 0.0f;
        else
            Bs[threadIdx.y][threadIdx.x] = B[idx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// the index read by the compute too: the loader sets its own, the compute its
__global__ void index_in_compute(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    int idx;
    for (int t = 0; t < n / TS; ++t) {
        idx = row * n + t * TS + threadIdx.x;
        As[threadIdx.y][threadIdx.x] = A[idx];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        acc += (float)(idx - (row * n + t * TS + threadIdx.x));
        __syncthreads();
    }
    C[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[1] = {256};
    harness_sizes(argc, argv, sz, 1);
    int n = sz[0];
    int bad = 0;
    bad |= harness_gemm<float, float>("scratch_index", n, n, n, [&](const float *A, const float *B, float *C) {
        scratch_index<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(A, B, C, n);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("index_in_compute", n, n, n, [&](const float *A, const float *B, float *C) {
        index_in_compute<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(A, B, C, n);
    }, 1e-4, 1e-4);
    return bad;
}
