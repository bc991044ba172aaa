// neg_template_elements.cu: tiles whose element is a parameter of the kernel template
// (`__shared__ T As[TS][TS]`). Stages copy elements as bytes (cp.async, the tensor copies) or
// through a register (two assignments where there was one), so pipefy needs each element's
// assignment to be plain bytes. It reads what every instantiation binds T to, from the calls
// in the file: counted_gemm is launched with Counted, whose assignment also counts (left as
// written); explicit_gemm is also instantiated explicitly, which libclang shows no cursor for
// (left: pipefy cannot read what that binds T to); plain_gemm is launched with float only
// (pipelined, with two stages: the instantiation fixes the tiles' sizes). The build before
// pipelined all three with one register stage: Counted's counter then counted every element
// twice (`pipefy_reg0 = A[...]`, then `As[ty][tx] = pipefy_reg0`).
// Usage: neg_template_elements [M N K] (multiples of 16)
// gpu-runs: 32 32 0 | 32 32 16 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"

// a value whose every assignment is counted
__device__ unsigned long long assignments;
struct Counted {
    float v;
    __device__ Counted &operator=(const Counted &o)
    {
        v = o.v;
        atomicAdd(&assignments, 1ull);
        return *this;
    }
    __device__ operator float() const { return v; }
};

template <typename T, int TS>
__global__ void counted_gemm(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += float(As[ty][k]) * float(Bs[k][tx]);
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template <typename T, int TS>
__global__ void explicit_gemm(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// (other files may launch this instantiation; what else they bind T to, pipefy cannot see)
template __global__ void explicit_gemm<double, 16>(const double *, const double *, float *, int, int, int);

template <typename T, int TS>
__global__ void plain_gemm(const T *A, const T *B, float *C, int M, int N, int K)
{
    __shared__ T As[2][TS][TS];
    __shared__ T Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        T pipefy_reg0;
        T pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TS))
                return false;
            pipefy_reg0 = A[row * K + t * TS + tx];
            pipefy_reg1 = B[(t * TS + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TS; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

// (its own reference is not the harness's: launched by callers of this file)
void launch_counted(const Counted *A, const Counted *B, float *C, int M, int N, int K)
{
    counted_gemm<Counted, 16><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("explicit_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        explicit_gemm<float, 16><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("plain_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        plain_gemm<float, 16><<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
