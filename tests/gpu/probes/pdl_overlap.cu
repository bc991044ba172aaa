// pdl_overlap.cu: does an overlapped launch overlap, and does pipefy's wait keep it correct?
// `produce` spins for a while in every block, then writes data[i] = i + 1; `check`, launched
// right after it on the same stream, counts the elements it finds unwritten. tests/gpu/probes/
// pdl_overlap.sh has pipefy overlap the two launches (--launches=early: produce lets check start
// at once), and builds that as pipefy writes it, without the wait in `check`, and without the
// wait for sm_80 only (PTX JIT-compiled on the GPU: pipefy_launch_dependent must launch
// ordinarily). Usage: pdl_overlap [ROUNDS]; prints the rounds in which check saw unwritten data.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void produce(int *data, int n, long long spin)
{
    long long start = clock64();
    while (clock64() - start < spin) {
    }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = i + 1;
}

__global__ void check(const int *data, int n, int *unwritten)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && data[i] != i + 1)
        atomicAdd(unwritten, 1);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 50, n = 132 * 2 * 128;
    int *data, *unwritten, racy = 0, total = 0;
    if (cudaMalloc(&data, n * sizeof(int)) != cudaSuccess || cudaMalloc(&unwritten, sizeof(int)) != cudaSuccess)
        return 2;
    for (int r = 0; r < rounds; r++) {
        cudaMemset(data, 0, n * sizeof(int));
        cudaMemset(unwritten, 0, sizeof(int));
        produce<<<n / 128, 128>>>(data, n, 200000);
        check<<<n / 128, 128>>>(data, n, unwritten);
        int h = 0;
        if (cudaMemcpy(&h, unwritten, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) {
            printf("error: %s\n", cudaGetErrorString(cudaGetLastError()));
            return 2;
        }
        racy += h > 0;
        total += h;
    }
    printf("%d of %d rounds saw unwritten data (%d elements in all)\n", racy, rounds, total);
    return 0;
}
