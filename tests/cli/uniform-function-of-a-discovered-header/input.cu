// A tile count from a function of a project header that pipefy's include discovery found
// (common/util.h): its body is read, and it computes from its arguments alone.
#include "util.h"

__global__ void k(const float *A, float *C, int K)
{
    __shared__ float As[32];
    const int n = div_ceil(K, 32);
    float acc = 0;
    for (int t = 0; t < n; ++t) {
        As[threadIdx.x] = A[t * 32 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += As[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
