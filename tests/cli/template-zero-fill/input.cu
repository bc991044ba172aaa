// A template's zero fill, `T(0)` (albtad01's n-body tiles), under an if/else of several stores a
// branch: the remark names the constant and the if/else (the build before: "written from a
// computed value", T(0) being of a type the template decides).
template <class T>
__global__ void bodies(const T *A, const T *B, T *C, int n)
{
    __shared__ T As[256], Bs[256];
    T acc = 0;
    for (int b = 0; b < n; b += 256) {
        int g = b + threadIdx.x;
        if (g < n) {
            As[threadIdx.x] = A[g];
            Bs[threadIdx.x] = B[g];
        } else {
            As[threadIdx.x] = T(0);
            Bs[threadIdx.x] = T(0);
        }
        __syncthreads();
        for (int j = 0; j < 256; ++j)
            acc += As[j] * Bs[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc;
}

void run(const float *A, const float *B, float *C, int n)
{
    bodies<float><<<1, 256>>>(A, B, C, n);
}
