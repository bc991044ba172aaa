// Static tiles whose two stages (64 KB) move into the launch's dynamic shared memory: the
// kernel's launch then asks for that memory, so a launch right after another on the same stream
// is not also rewritten into a dependent launch (both edits would meet in the launch: pipefy
// once stopped with "internal: overlapping edits" and left the whole file as written).
#define T 64
#define KB 64

static __global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

static __global__ void gemm_big(const float *A, const float *B, float *C, int K)
{
    __shared__ __align__(16) float As[T][KB];
    __shared__ __align__(16) float Bs[KB][T];
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += KB) {
        for (int j = 0; j < 4; ++j) {
            int i = tid + j * 256, r = i / 16, c = (i % 16) * 4;
            *reinterpret_cast<float4 *>(&As[r][c]) = *reinterpret_cast<const float4 *>(&A[r * K + k0 + c]);
            *reinterpret_cast<float4 *>(&Bs[r][c]) = *reinterpret_cast<const float4 *>(&B[(k0 + r) * 64 + c]);
        }
        __syncthreads();
        for (int k = 0; k < KB; ++k)
            acc += As[tid % 64][k] * Bs[k][tid / 4];
        __syncthreads();
    }
    C[blockIdx.x * 256 + tid] = acc;
}

void run(float *A, const float *B, float *C, int K, cudaStream_t s)
{
    scale<<<(64 * K + 255) / 256, 256, 0, s>>>(A, 64 * K);
    gemm_big<<<1, 256, 0, s>>>(A, B, C, K);
}
