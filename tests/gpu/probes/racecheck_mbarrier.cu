// racecheck_mbarrier.cu: does compute-sanitizer's racecheck model mbarrier waits? (issue 19)
// One block, warp 0 the producer, warps 1-7 the consumers, two shared-memory stages used in
// turn for ROUNDS rounds. Each mode synchronizes the same exchange differently:
//   0 mbarrier: the producer's lanes store a stage with ordinary stores and arrive on its
//     `full` barrier; consumers wait on its phase, read, and arrive on its `empty` barrier,
//     which the producer waits on before refilling the stage. Correct without __syncthreads.
//   1 bulk: as 0, but lane 0 fills the stage with one cp.async.bulk completing on `full`
//     (expect_tx), and each consumer fences its reads from the copy engine before it releases
//     the stage (fence.proxy.async); correct.
//   2 syncthreads: the same exchange with __syncthreads (the control racecheck understands).
//   3 none: no synchronization at all (the control that must be reported).
//   4 no empty wait: as 0, but the producer refills a stage without waiting for the consumers
//     to release it (a write-after-read race only the empty barrier prevents).
// Each mode prints its checksum (the sum over all consumers' reads, equal for modes 0-2 on
// every run) and whether it matches the value computed on the host. The same program runs in
// the CPU block model (tests/cpu/mbarrier_self_test.sh): modes 0-2 must match there, 3 and 4
// must not.
// Usage: racecheck_mbarrier MODE [ROUNDS]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define N 1024      // floats per stage
#define CONSUMERS 224

#ifndef PIPEFY_CPU_MODEL
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(uint64_t *b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void mbar_arrive(uint64_t *b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(b)) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t *b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t *b, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(smem(b)), "r"(parity) : "memory");
}
__device__ __forceinline__ void bulk_copy(void *dst, const void *src, unsigned bytes, uint64_t *b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(b)) : "memory");
}
// the compute's reads of a stage before the copy engine's next writes to it (another proxy)
__device__ __forceinline__ void proxy_fence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
#else // the CPU block model's mbarriers (tests/cpu/pipefy_cpu.h)
inline void mbar_init(uint64_t *b, unsigned count) { pipefy_cpu::mbar_init(b, count); }
inline void mbar_init_fence() {}
inline void mbar_arrive(uint64_t *b) { pipefy_cpu::mbar_arrive(b); }
inline void mbar_expect_tx(uint64_t *b, unsigned bytes) { pipefy_cpu::mbar_expect_tx(b, bytes); }
inline void mbar_wait(uint64_t *b, unsigned parity)
{
    while (!pipefy_cpu::mbar_try_wait(b, parity))
        ;
}
inline void bulk_copy(void *dst, const void *src, unsigned bytes, uint64_t *b) { pipefy_cpu::bulk_copy(dst, src, bytes, b); }
inline void proxy_fence() { pipefy_cpu::current->unfenced = false; }
#endif

__global__ void exchange(int mode, int rounds, const float *in, float *out)
{
    __shared__ __align__(128) float data[2][N];
    __shared__ __align__(8) uint64_t full[2], empty[2];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            mbar_init(&full[s], mode == 1 ? 1 : 32);
            mbar_init(&empty[s], CONSUMERS);
        }
        mbar_init_fence();
    }
    __syncthreads();
    float acc = 0.0f;
    for (int r = 0; r < rounds; r++) {
        int s = r % 2;
        unsigned phase = (r / 2) % 2;
        const float *src = in + (size_t)r * N;
        if (mode == 2 || mode == 3) {
            if (warp == 0)
                for (int i = lane; i < N; i += 32)
                    data[s][i] = src[i];
            if (mode == 2)
                __syncthreads();
            if (warp > 0)
                for (int i = threadIdx.x - 32; i < N; i += CONSUMERS)
                    acc += data[s][i] * (float)(i % 7 + 1);
            if (mode == 2)
                __syncthreads();
            continue;
        }
        if (warp == 0) {
            if (r >= 2 && mode != 4)
                mbar_wait(&empty[s], phase ^ 1); // the consumers are done with round r - 2
            if (mode == 0 || mode == 4) {
                for (int i = lane; i < N; i += 32)
                    data[s][i] = src[i];
                mbar_arrive(&full[s]);
            } else if (lane == 0) {
                mbar_expect_tx(&full[s], N * sizeof(float));
                bulk_copy(data[s], src, N * sizeof(float), &full[s]);
            }
        } else {
            mbar_wait(&full[s], phase);
            for (int i = threadIdx.x - 32; i < N; i += CONSUMERS)
                acc += data[s][i] * (float)(i % 7 + 1);
            if (mode == 1)
                proxy_fence(); // (added after this probe's H200 run: see pipefy's proxy fence)
            mbar_arrive(&empty[s]);
        }
    }
    if (warp > 0)
        out[threadIdx.x - 32] = acc;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0, rounds = argc > 2 ? atoi(argv[2]) : 8;
    std::vector<float> in((size_t)rounds * N), out(CONSUMERS);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (float)(i % 13) - 6.0f;
    float *din, *dout;
    cudaMalloc(&din, in.size() * sizeof(float));
    cudaMalloc(&dout, CONSUMERS * sizeof(float));
    cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
    exchange<<<1, 256>>>(mode, rounds, din, dout);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(out.data(), dout, CONSUMERS * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0, want = 0;
    for (float v : out)
        sum += v;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < N; i++)
            want += in[(size_t)r * N + i] * (float)(i % 7 + 1);
    printf("mode %d rounds %d: %s, checksum %.1f, host %.1f: %s\n", mode, rounds, cudaGetErrorString(e), sum, want,
           sum == want ? "MATCH" : "DIFFERS");
    return e != cudaSuccess;
}
