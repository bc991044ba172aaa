// A kernel of a library (no launch in the file) whose compute loop runs blockDim.x trips.
// `--block-size=32x8` gives the block's shape: pipelined under `blockDim.x == 32 &&
// blockDim.y == 8 && blockDim.z == 1`, the loop as written for other blocks; without it the
// loop is left, naming blockDim.x (tests/cli/ldg-runtime-compute).
#define T 32

__global__ void rows_of_eight(const float *a, const float *b, float *c, int n)
{
    __shared__ float s_a[8][T];
    __shared__ float s_b[T][T + 1];
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n; t += blockDim.x) {
        s_a[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        for (int r = threadIdx.y; r < T; r += 8)
            s_b[r][threadIdx.x] = b[(t + r) * n + col];
        __syncthreads();
        for (int j = 0; j < blockDim.x; ++j)
            acc += s_a[threadIdx.y][j] * s_b[j][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}
