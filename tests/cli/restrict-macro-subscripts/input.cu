// The copies read through '__restrict__' pointers by a macro that subscripts them (a stencil's
// `IN(r, c)` for `in[(r) * ld + (c)]`), while the compute writes through another: a subscript
// makes no other pointer, whether the text shows the `[` or a macro hides it, so the promise
// holds. (The build before read the text after the name and took the macro for a new pointer.)
// A macro that does make another pointer from one (`ROW_OF(in, r)`, `in + r * ld`) is read so
// too: the compute's writes through that pointer may reach the next tile's copies, and the loop
// stays as written.
#define TS 16
#define IN(r, c) in[(r) * ld + (c)]
#define W(r, c) w[(r) * ld + (c)]

__global__ void sweep(const float *__restrict__ in, const float *__restrict__ w, float *__restrict__ out,
                      int ld, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = IN(row, k0 + tx);
        Bs[ty][tx] = W(k0 + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        out[(size_t)k0 / TS * ld + row] = acc;
        __syncthreads();
    }
}

#define ROW_OF(p, r) ((float *)(p) + (size_t)(r) * ld)

__global__ void sweep_in_place(const float *__restrict__ in, const float *__restrict__ w, int ld, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    float *in_row = ROW_OF(in, row);
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = IN(row, k0 + tx);
        Bs[ty][tx] = W(k0 + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        in_row[k0 + TS + tx] = acc; /* (the next tile's IN(row, ..) reads it) */
        __syncthreads();
    }
}
