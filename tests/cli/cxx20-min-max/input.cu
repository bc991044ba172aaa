// -std=c++20 (a project's CMake sets it; nvcc compiles the file): min and max on ints, unsigned
// and floats, in device and host code, parse as under C++17, and the K-loop is pipelined
// (clang 19 with a precompiled preamble took each name's overloads for one function: every
// call ambiguous, the kernel left with "parse errors").
__global__ void rows(const float *A, float *C, unsigned n, int w)
{
    __shared__ float s[32];
    float acc = 0;
    unsigned end = min(64u, n);
    for (unsigned m = 0; m < end; m += 32) {
        s[threadIdx.x] = A[m + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 32; ++j)
            acc += s[j];
        __syncthreads();
    }
    C[threadIdx.x] = acc + max(1.0f, 2.0f) + min(w, 3);
}

int main()
{
    return min(2, 3) + (int)max(1.0f, 0.5f);
}
