// A loop double-buffered by hand through two indices it rotates (`write_idx = 1 - read_idx;` ..
// `read_idx = write_idx;`, xiaobx's HGEMM): its one barrier is no race, the loop swaps its own
// buffers. The build before said "only one block barrier: the next tile's copies would race".
#define BS 16
__global__ void rotated(const float *A, const float *B, float *C, int n)
{
    __shared__ float s_A[2][BS][BS], s_B[2][BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    int read_idx = 0, write_idx = 0;
    s_A[write_idx][ty][tx] = A[row * n + tx];
    s_B[write_idx][ty][tx] = B[ty * n + col];
    __syncthreads();
    float sum = 0.0f;
    for (int t = 1; t < n / BS; ++t) {
        write_idx = 1 - read_idx;
        s_A[write_idx][ty][tx] = A[row * n + t * BS + tx];
        s_B[write_idx][ty][tx] = B[(t * BS + ty) * n + col];
        for (int k = 0; k < BS; ++k)
            sum += s_A[read_idx][ty][k] * s_B[read_idx][k][tx];
        __syncthreads();
        read_idx = write_idx;
    }
    for (int k = 0; k < BS; ++k)
        sum += s_A[read_idx][ty][k] * s_B[read_idx][k][tx];
    C[row * n + col] = sum;
}
