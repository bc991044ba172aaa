// A helper's parameter declared as an array (`float out[][TS]`, `float s[NY][NX]`) is a pointer to
// the caller's memory: what the helper stores through it, the call writes. The compute's
// publish() writes the B the next tile's copies read (the build before pipelined it), and a
// loop whose shared tile only a helper fills and synchronizes on gets its remark (it had none).
#define TS 16
#define NX 32
#define NY 8
__device__ void publish(float out[][TS], int r, int c, float v) { out[r][c] = v; }

__global__ void published(const float *A, float (*B)[TS], float *C, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[ty * K + k0 + tx];
        Bs[ty][tx] = B[k0 + ty][tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        publish(B, k0 + TS + ty, tx, acc);
        __syncthreads();
    }
    C[ty * TS + tx] = acc;
}
__device__ float fill_and_read(float s[NY][NX], const float *g, int y)
{
    s[threadIdx.y][threadIdx.x] = g[y * NX + threadIdx.x];
    __syncthreads();
    float v = s[threadIdx.y][threadIdx.x];
    __syncthreads();
    return v;
}
__global__ void swept(const float *g, float *out, int ny)
{
    __shared__ float bsmem[NY][NX];
    float acc = 0;
    for (int y = 0; y < ny; y++) {
        float c = fill_and_read(bsmem, g, y);
        acc += c;
    }
    out[threadIdx.x] = acc;
}
