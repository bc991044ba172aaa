// sgemm_smem_helper.cu: dynamic shared memory reached the way the CUDA samples reach it, a
// SharedMemory<T> struct whose conversion to T * returns the extern __shared__ array, then
// split into A's and B's tiles. Every return of the conversion is an address inside a
// __shared__ array, so the pointers are views of shared memory: one register stage. Usage: sgemm_smem_helper [M N K] (M, N multiples of
// 16; K any).
// gpu-runs: 16 16 0 | 32 48 16 | 48 32 40 | 256 128 500 | 1024 1024 1024
// gpu-sanitize: 48 32 40
#include "harness.cuh"

#define TS 16

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

__global__ void sgemm_smem_helper(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    float *As = SharedMemory<float>();
    float *Bs = As + TS * TS;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,
    // then stored over it (the tiles' shared memory is the launch's)
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
            pipefy_reg1 = k0 + ty < K ? B[(k0 + ty) * N + col] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into the tiles
        auto pipefy_stash = [&]() {
            As[ty * TS + tx] = pipefy_reg0;
            Bs[ty * TS + tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into the tiles
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash();
        __syncthreads();
        // pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1
        // over it between two barriers
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[ty * TS + k] * Bs[k * TS + tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 500};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    return harness_gemm<float, float>("sgemm_smem_helper", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_smem_helper<<<dim3(N / TS, M / TS), dim3(TS, TS), 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
}
