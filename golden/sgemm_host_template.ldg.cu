// sgemm_host_template.cu: a kernel template whose element type a host function template
// deduces at its launch (`template <typename T> void run(const T *a, ..) { gemm<<<g, b>>>(a,
// ..); }`, the kernel's `const T *` from run's own), run called in main with float and double
// pointers (a course exercise's shape: maxburian/CUDA++'s gemm). The tiles hold T: a stage is
// copied into them by assignment, which runs no user code for the types run's calls bind.
// The negatives attack that fact: a host template also called with a struct whose assignment is
// the program's (it counts its copies in a global), and a kernel template launched from a host
// template that another host template calls (its binding is not read): both left as written.
// Usage: sgemm_host_template [M N K] (multiples of 16)
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 64 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 48 64
// ptx-instances: 2
#include "harness.cuh"

#define TS 16

template <typename T>
__global__ void gemm(const T *A, const T *B, T *C, int M, int N, int K)
{
    __shared__ T As[2][TS][TS];
    __shared__ T Bs[2][TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    T acc = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        T pipefy_reg0;
        T pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            pipefy_reg0 = A[row * K + k0 + tx];
            pipefy_reg1 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
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

template <typename T>
void run(const T *A, const T *B, T *C, int M, int N, int K)
{
    dim3 grid(N / TS, M / TS), block(TS, TS);
    gemm<<<grid, block>>>(A, B, C, M, N, K);
}

// a value whose assignment is the program's: each one counts itself in a global
__device__ unsigned assigned;

struct Counted {
    float v;
    Counted() = default;
    __host__ __device__ Counted(float x) : v(x) {}
    __device__ Counted &operator=(const Counted &o)
    {
        v = o.v;
#ifdef __CUDA_ARCH__
        atomicAdd(&assigned, 1u);
#endif
        return *this;
    }
    __device__ Counted &operator+=(const Counted &o)
    {
        v += o.v;
        return *this;
    }
};
__device__ Counted operator*(const Counted &a, const Counted &b) { return Counted(a.v * b.v); }

template <typename T>
__global__ void gemm_counted(const T *A, const T *B, T *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    T acc = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template <typename T>
void run_counted(const T *A, const T *B, T *C, int M, int N, int K)
{
    dim3 grid(N / TS, M / TS), block(TS, TS);
    gemm_counted<<<grid, block>>>(A, B, C, M, N, K);
}

// launched from a host template that only another host template calls
template <typename T>
__global__ void gemm_nested(const T *A, const T *B, T *C, int M, int N, int K)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    T acc = 0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

template <typename T>
void run_nested_inner(const T *A, const T *B, T *C, int M, int N, int K)
{
    dim3 grid(N / TS, M / TS), block(TS, TS);
    gemm_nested<<<grid, block>>>(A, B, C, M, N, K);
}

template <typename T>
void run_nested(const T *A, const T *B, T *C, int M, int N, int K)
{
    run_nested_inner(A, B, C, M, N, K);
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = harness_gemm<float, float>("run<float>", M, N, K, [&](const float *A, const float *B, float *C) {
        run(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<double, double>("run<double>", M, N, K, [&](const double *A, const double *B, double *C) {
        run(A, B, C, M, N, K);
    }, 1e-9, 1e-9);
    bad |= harness_gemm<float, float>("run_counted<float>", M, N, K, [&](const float *A, const float *B, float *C) {
        run_counted(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    // (Counted holds one float: the product of its values, as the harness's floats)
    bad |= harness_gemm<float, float>("run_counted<Counted>", M, N, K, [&](const float *A, const float *B, float *C) {
        run_counted((const Counted *)A, (const Counted *)B, (Counted *)C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("run_nested<float>", M, N, K, [&](const float *A, const float *B, float *C) {
        run_nested(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
