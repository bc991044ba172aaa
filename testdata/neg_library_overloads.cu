// neg_library_overloads.cu: left alone: in a kernel template, calls that clang leaves unresolved
// until instantiation among a library's overloads. pipefy reads such a call as the library's
// function of that name when every candidate is the library's and no other can join them; then
// what the candidates may write decides. In the first kernel `wmma::store_matrix_sync` (every
// overload writes through its pointer) stores into the tile 'As' inside the loop, so the loop
// is left as written. In the second, `max` is unqualified and not reserved to the
// implementation: argument-dependent lookup at instantiation may find a function of the
// program's, so pipefy cannot say what it calls.
#include <mma.h>
using namespace nvcuda;

template <int T>
__global__ void store_into_tile(const half *A, const half *B, float *C, int n)
{
    __shared__ half As[T][T], Bs[T][T];
    __shared__ float Cs[T][T];
    int tx = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int t = 0; t < n / T; t++) {
        As[tx / 2][(tx % 2) * 8] = A[t * T * T + tx];
        Bs[tx / 2][(tx % 2) * 8] = B[t * T * T + tx];
        __syncthreads();
        wmma::load_matrix_sync(fa, &As[0][0], T);
        wmma::load_matrix_sync(fb, &Bs[0][0], T);
        wmma::mma_sync(acc, fa, fb, acc);
        wmma::store_matrix_sync((float *)&As[0][0], acc, T / 2, wmma::mem_row_major);
        __syncthreads();
    }
    wmma::store_matrix_sync(&Cs[0][0], acc, T, wmma::mem_row_major);
    C[tx] = Cs[0][tx];
}

template <typename V, int T>
__global__ void unqualified_max(const float *A, const float *B, V *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    V best = A[0];
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[ty * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + tx];
        __syncthreads();
        for (int j = 0; j < T; j++)
            best = max(best, As[ty][j] * Bs[j][tx]);
        __syncthreads();
    }
    C[ty * n + tx] = best;
}

template __global__ void store_into_tile<16>(const half *, const half *, float *, int);
template __global__ void unqualified_max<float, 16>(const float *, const float *, float *, int);
