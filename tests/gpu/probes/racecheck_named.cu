// racecheck_named.cu: does compute-sanitizer's racecheck follow hand-offs through named
// barriers, `barrier.arrive` on one side and `barrier.sync` on the other (issue 19: the
// ws-cp.async variant's protocol)? One block: warps 0-1 consume, warp 2 produces into one
// shared buffer, ROUNDS rounds. Each mode synchronizes the same exchange differently:
//   0 named: the producer stores the buffer with ordinary stores and arrives on barrier 1;
//     the consumers sync on 1, read, and arrive on barrier 2, which the producer syncs on
//     before it refills the buffer. Correct (the PTX memory model orders a thread's accesses
//     before its barrier.arrive with those after a barrier.sync on the same barrier).
//   1 named cp.async: as 0, but the producer fills the buffer with cp.async and waits for its
//     group before arriving on 1 (what ws-cp.async does). Correct.
//   2 syncthreads: cp.async, the wait, and __syncthreads around the reads (the control).
//   3 named, late refill wait: as 0, but the producer syncs on barrier 2 after it refills
//     the buffer instead of before (a write-after-read race; the barriers' counts stay as
//     in 0).
//   4 named sync: both sides sync (barrier.sync) on 1 and on 2: correct, in lockstep.
// Each mode prints the consumers' sum and whether it matches the host's.
// Usage: racecheck_named MODE [ROUNDS]
#include <cstdio>
#include <cstdlib>
#include <cuda_pipeline.h>

#define N 64 // floats per round: each consumer thread reads two

__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

__global__ void exchange(const float *g, float *out, int mode, int rounds)
{
    __shared__ __align__(16) float buf[N];
    float acc = 0;
    for (int r = 0; r < rounds; r++) {
        const float *src = g + r * N;
        if (mode == 2) {
            if (threadIdx.x >= 64) {
                int l = threadIdx.x - 64;
                __pipeline_memcpy_async(&buf[2 * l], &src[2 * l], 8);
                __pipeline_commit();
                __pipeline_wait_prior(0);
            }
            __syncthreads();
            if (threadIdx.x < 64)
                acc += buf[threadIdx.x] * (r + 1) + buf[N - 1 - threadIdx.x];
            __syncthreads();
            continue;
        }
        if (threadIdx.x >= 64) { // the producer warp
            int l = threadIdx.x - 64;
            if (r > 0 && mode != 3)
                bar_sync(2, 96); // every consumer is done with the buffer
            if (mode == 1) {
                __pipeline_memcpy_async(&buf[2 * l], &src[2 * l], 8);
                __pipeline_commit();
                __pipeline_wait_prior(0);
            } else {
                buf[2 * l] = src[2 * l];
                buf[2 * l + 1] = src[2 * l + 1];
            }
            if (r > 0 && mode == 3)
                bar_sync(2, 96); // (too late: the refill is done)
            if (mode == 4)
                bar_sync(1, 96);
            else
                bar_arrive(1, 96); // the buffer holds round r
        } else {
            bar_sync(1, 96);
            acc += buf[threadIdx.x] * (r + 1) + buf[N - 1 - threadIdx.x];
            if (r + 1 < rounds) {
                if (mode == 4)
                    bar_sync(2, 96);
                else
                    bar_arrive(2, 96);
            }
        }
    }
    if (threadIdx.x < 64)
        out[threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0, rounds = argc > 2 ? atoi(argv[2]) : 8;
    float *h = (float *)malloc(sizeof(float) * N * rounds), o[64];
    for (int i = 0; i < N * rounds; i++)
        h[i] = (float)((i * 37) % 101);
    float *g, *out;
    cudaMalloc(&g, sizeof(float) * N * rounds);
    cudaMalloc(&out, sizeof o);
    cudaMemcpy(g, h, sizeof(float) * N * rounds, cudaMemcpyHostToDevice);
    exchange<<<1, 96>>>(g, out, mode, rounds);
    cudaError_t e = cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
    double sum = 0, want = 0;
    for (int t = 0; t < 64; t++) {
        sum += o[t];
        for (int r = 0; r < rounds; r++)
            want += h[r * N + t] * (r + 1) + h[r * N + N - 1 - t];
    }
    printf("mode %d: %s, sum %.0f, %s\n", mode, cudaGetErrorString(e), sum, sum == want ? "matches the host" : "DIFFERS from the host");
    return e != cudaSuccess;
}
