// A template kernel launched with a block size held in a variable (`dim3 threads(bs, bs)`, NVIDIA's
// matrixMul sample): pipefy cannot read the block size, says which launch gives it, and assumes
// for occupancy the threads that would copy the largest instantiation's tiles (32 x 32 x 2
// floats, 8 B a thread: 1024 threads), with which a second stage costs no block.
template <int BS> __global__ void mm(float *C, const float *A, const float *B, int n)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / BS; ++t) {
        As[ty][tx] = A[row * n + t * BS + tx];
        Bs[ty][tx] = B[(t * BS + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < BS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

void launch(float *C, const float *A, const float *B, int n, int bs)
{
    dim3 threads(bs, bs), grid(n / bs, n / bs);
    if (bs == 16)
        mm<16><<<grid, threads>>>(C, A, B, n);
    else
        mm<32><<<grid, threads>>>(C, A, B, n);
}
