// A fill helper that loads into a local first and stores the local (as Mustafa-cuda-dev's int8
// load_tile does): the remark says it is a load, into a local (the build before: "not a load
// from global memory").
__device__ void load_tile(const int *A, int *dst, int k)
{
    const int v = A[k + threadIdx.x];
    dst[threadIdx.x] = v;
}

__global__ void through_a_local(const int *A, int *C, int K)
{
    __shared__ int s[32];
    int acc = 0;
    for (int k = 0; k < K; k += 32) {
        load_tile(A, s, k);
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += s[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}
