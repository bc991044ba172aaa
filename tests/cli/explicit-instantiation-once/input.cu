// A kernel template declared, its instantiation declared extern, then defined and explicitly
// instantiated (as a header and its .cu split them): one remark for its loop, not one per
// instantiation.
template <int TS> __global__ void k(const float *A, const float *B, float *C, int n);
extern template __global__ void k<16>(const float *, const float *, float *, int);
template <int TS>
__global__ void k(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.f;
    for (int k0 = 0; k0 < n; k0 += TS) {
        As[ty][tx] = A[ty * n + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * n + tx] = acc;
}
template __global__ void k<16>(const float *, const float *, float *, int);
template __global__ void k<32>(const float *, const float *, float *, int);
