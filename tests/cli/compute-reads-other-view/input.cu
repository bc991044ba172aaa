// The copies store through one pointer into a __shared__ array and the compute reads it through
// another (HackGiter's ldisma and ldosma): the remark names both, not "no statement reads the tiles".
__global__ void k(float *A, float *B, float *C, int K, int M)
{
    __shared__ float sa[1024];
    __shared__ float sb[1024];
    float CV = 0, AV, BV;
    int tx = threadIdx.x;
    float *ldisma = sa + tx, *ldismb = sb + tx, *ldosma = sa + (tx >> 5), *ldosmb = sb + (tx & 31);
    for (int i = 0; i < K; i += 32) {
        AV = A[i + tx];
        BV = B[i + tx];
        *ldisma = AV;
        *ldismb = BV;
        __syncthreads();
        for (int j = 0; j < 32; j++) {
            AV = ldosma[j * 32];
            BV = ldosmb[j * 32];
            CV += AV * BV;
        }
        __syncthreads();
    }
    C[tx] = CV;
}
