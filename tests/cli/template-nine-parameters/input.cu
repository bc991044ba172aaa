// A kernel template of nine parameters, each fixed by the one launch (tangefly's float4 and warp
// HGEMMs take nine): the build before read eight at most and said "the launches in this file do
// not fix them all", one stage; the tiles are sized from the launch now.
template <int Bm = 128, int Bk = 8, int NT = 256, int P4 = 1, int P5 = 1, int P6 = 1, int P7 = 1, int P8 = 1, int P9 = 1>
__global__ void k9(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[Bk][Bm];
    int tid = threadIdx.x;
    float acc = 0;
    for (int k = 0; k < K; k += Bk) {
        for (int i = tid; i < Bk * Bm; i += NT)
            As[i / Bm][i % Bm] = A[(blockIdx.y * Bm + i % Bm) * K + k + i / Bm];
        __syncthreads();
        for (int p = 0; p < Bk; ++p)
            acc += As[p][tid % Bm];
        __syncthreads();
    }
    C[blockIdx.y * NT + tid] = acc;
}

void run(const float *A, const float *B, float *C, int M, int K, int N)
{
    const int Bm = 128, Bk = 8, NT = 256, P4 = 1, P5 = 1, P6 = 1, P7 = 1, P8 = 1, P9 = 1;
    k9<Bm, Bk, NT, P4, P5, P6, P7, P8, P9><<<dim3(1, M / Bm), dim3(NT)>>>(A, B, C, M, K, N);
}
