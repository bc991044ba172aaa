// a fill helper in a header: pipefy rewrites only the file it is given
template <int W>
__device__ void header_fill(float (*S)[W], const float *G, int ld)
{
    S[threadIdx.y][threadIdx.x] = G[threadIdx.y * ld + threadIdx.x];
}
