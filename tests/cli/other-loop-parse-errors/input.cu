// A loop that synchronizes and writes shared memory through what does not parse (a helper
// from a header that is not there): its remark names the parse error.
__global__ void missing_helper(const float *A, float *C, int K)
{
    __shared__ float As[256];
    float acc = 0.f;
    for (int t = 0; t < K; t += 256) {
        tile_copy(As + threadIdx.x, A + t + threadIdx.x);
        __syncthreads();
        acc += As[(threadIdx.x + 1) % 256];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
