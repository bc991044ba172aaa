// A tile loaded through an accessor handed a struct by value (the CUDA guide's GetElement(A, r, c),
// `return A.elements[..]`) while the compute writes global memory through another pointer: the
// struct's pointer may reach what the compute writes, as a load written out in the loop would.
#define TS 16
struct Matrix { int width; float *elements; };
__device__ float GetElement(const Matrix A, int row, int col) { return A.elements[row * A.width + col]; }

__global__ void k(Matrix A, const float *__restrict__ B, float *C, float *scratch, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = GetElement(A, row, k0 + tx);
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        scratch[row * K + k0 + TS + tx] = acc;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
