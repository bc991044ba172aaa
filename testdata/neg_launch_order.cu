// neg_launch_order.cu: a launch whose configuration writes what its arguments read: a launch
// evaluates the configuration first (grid_for counts its calls, the argument reads the count),
// a function call in no fixed order (g++ reads the count first). Overlapping the launch through
// pipefy_launch_dependent would hand `check` the wrong count; pipefy leaves it as written.
// pipefy-golden: overlap
// gpu-runs: 100 | 1000
// gpu-sanitize: 100
#include "harness.cuh"

static int calls = 0;
static int grid_for(int n)
{
    calls++;
    return (n + 63) / 64;
}

__global__ void fill(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i;
}

__global__ void tag(const int *x, int *y, int n, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + 1000 * count;
}

int main(int argc, char **argv)
{
    int sz[1] = {1000};
    harness_sizes(argc, argv, sz, 1);
    int n = sz[0];
    int *dx, *dy, *hy = (int *)malloc(n * sizeof(int));
    double *ref = (double *)malloc(n * sizeof(double));
    CHECK(cudaMalloc(&dx, n * sizeof(int)));
    CHECK(cudaMalloc(&dy, n * sizeof(int)));
    CHECK(cudaMemset(dy, 0xff, n * sizeof(int)));
    calls = 0;
    fill<<<grid_for(n), 64>>>(dx, n);
    tag<<<grid_for(n), 64>>>(dx, dy, n, calls);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hy, dy, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        ref[i] = i + 1000 * 2;  // the second grid_for ran before `calls` was read
    int rc = harness_report("neg_launch_order", hy, ref, n, 0, 0);
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    free(hy);
    free(ref);
    return rc;
}
