// A file saved in Windows-1252: its comments hold bytes that are not UTF-8 (an en dash, 0x96,
// below). clang and nvcc take them; pipefy reads the code, pipelines the loop, and writes
// the comments back byte for byte. A byte of another encoding in the code is still refused
// (invalid-utf8-stdin).
#define TW 16

__global__ void tiled(const float *__restrict__ M, const float *__restrict__ N, float *P, int Width)
{
    __shared__ float Mds[TW][TW];
    __shared__ float Nds[TW][TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TW + ty, Col = blockIdx.x * TW + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TW; ++ph) {
        // load the tiles – one element a thread
        Mds[ty][tx] = M[Row * Width + ph * TW + tx];
        Nds[ty][tx] = N[(ph * TW + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TW; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    P[Row * Width + Col] = Pvalue;
}
