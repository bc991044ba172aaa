// A flash-decoding-like loop: a helper template fills the codes' tile, a barrier, then the
// compute stores each thread's score into a __shared__ scratch and steps a local declared
// before the loop. The store is the compute's, after the barrier that follows the helper's
// fill: the remark says so, not that the statement "fills a tile" (MILLION's Kernel.cuh).
template <typename T>
__device__ void block_copy(T *dst, const T *src, int n, int nthreads, int tid)
{
    for (int i = tid; i < n; i += nthreads)
        dst[i] = src[i];
}

__global__ void scores(const int *codes, const float *lut, float *out, int L)
{
    __shared__ int local_codes[256];
    __shared__ float S[256];
    int tid = threadIdx.x;
    int offset = 0;
    float best = 0.f;
    for (int t = 0; t < L; t += 256) {
        block_copy<int>(local_codes, codes + t, 256, blockDim.x, tid);
        __syncthreads();
        if (tid < 128) {
            offset = local_codes[tid] * 4;
            S[tid] = lut[offset];
        } else {
            S[tid] = 0.f;
        }
        __syncthreads();
        best += S[(tid + 1) % 256];
    }
    out[tid] = best;
}
