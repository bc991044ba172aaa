// A file nvcc might accept but clang's CUDA mode rejects in host code: the error is a warning
// and the kernel, which parsed cleanly, is still rewritten.
#define TS 16

__global__ void gemm(const float *A, const float *B, float *C, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * TS + tx] = acc;
}

void host_setup(void)
{
    helper_nvcc_would_find_in_its_implicit_includes();
}
