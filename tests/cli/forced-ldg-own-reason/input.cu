// --variant=ldg on a loop neither cp.async nor register staging can take: the remark gives
// register staging's reason (the block size it cannot count the copy loop's trips by), not
// cp.async's (the build before led with "cp.async: 'As' stores a value computed ..." and cut
// register staging's reason off at 200 characters).
#define T 32
__global__ void scaled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T * T], Bs[T * T];
    float acc = 0.f;
    for (int t = 0; t < n / T; ++t) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x) {
            As[i] = 2.0f * A[(blockIdx.y * T + i / T) * n + t * T + i % T];
            Bs[i] = B[(t * T + i / T) * n + blockIdx.x * T + i % T];
        }
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[(threadIdx.x / T) * T + k] * Bs[k * T + threadIdx.x % T];
        __syncthreads();
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
