// The compute stores through a helper handed a pointer to a pointer (`poke2(&wp, ..)` writes
// `w[0][i]`) or to a struct holding one (`poke3(&o, ..)` writes `o->p[i]`): memory the next tile's
// copies of A may read (W may be A). The build before took both for writes of the locals wp and o
// and pipelined them; a helper accumulating into a local array (`acc4(acc, ..)`) stays a local's.
struct Out { float *p; };
__device__ void poke2(float **w, int i, float v) { w[0][i] = v; }
__device__ void poke3(Out *o, int i, float v) { o->p[i] = v; }
__device__ void acc4(float *a, float v) { a[0] += v; }
__global__ void kern(const float *A, float *C, int K, float *W)
{
    __shared__ float As[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc[2] = {0.0f, 0.0f};
    float *wp = W;
    Out o = {W};
    for (int k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = A[ty * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            acc4(acc, As[ty][k]);
        poke2(&wp, ty * K + k0 + 16 + tx, acc[0]);
        __syncthreads();
    }
    C[ty * 16 + tx] = acc[0];
}
__global__ void kern3(const float *A, float *C, int K, float *W)
{
    __shared__ float As[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc[2] = {0.0f, 0.0f};
    Out o = {W};
    for (int k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = A[ty * K + k0 + tx];
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            acc4(acc, As[ty][k]);
        poke3(&o, ty * K + k0 + 16 + tx, acc[0]);
        __syncthreads();
    }
    C[ty * 16 + tx] = acc[0];
}
