// Launches with error checks between them stay back to back (a helper that only reports counts);
// a call that waits for the stream does not. One-line kernels: the wait goes on a line of its own.
#include <cstdio>
#include <cstdlib>
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
static void check_at(cudaError_t e, const char *file, int line) { if (e != cudaSuccess) { printf("%s:%d %s\n", file, line, cudaGetErrorString(e)); exit(1); } }
#define cudaCheck(e) (check_at(e, __FILE__, __LINE__))
static void busy(cudaStream_t s) { cudaStreamSynchronize(s); }
__global__ void a(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = i; }
__global__ void b(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
void run(float *x, float *y, int n)
{
    a<<<(n + 255) / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    b<<<(n + 255) / 256, 256>>>(x, y, n);
    cudaCheck(cudaGetLastError());
    a<<<(n + 255) / 256, 256>>>(y, n);
    busy(0);
    b<<<(n + 255) / 256, 256>>>(y, x, n);
}
