// The block size of the launch is a dim3 of a constexpr whose initializer goes on over two
// lines, with a comment (DefTruth's HGEMM launchers): 4 * 2 * 32 = 256 threads.
#define WARP_SIZE 32
#define TS 16

__global__ void sgemm(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x % TS, ty = threadIdx.x / TS;
    float acc = 0.0f;
    for (int t = 0; t < n / TS; ++t) {
        As[ty][tx] = A[ty * n + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * n + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * n + tx] = acc;
}

void run(const float *A, const float *B, float *C, int n)
{
    constexpr int TILE_M = 4;
    constexpr int TILE_N = 2;
    constexpr int NUM_THREADS= (
        TILE_M * TILE_N * WARP_SIZE); // 4 * 2 * 32 = 256
    dim3 block(NUM_THREADS);
    sgemm<<<n / TS, block>>>(A, B, C, n);
}
