// neg_register_prefetch.cu: left alone: already pipelined through registers into a single
// buffer: tile t+1 is loaded into ra/rb while tile t is computed. The second kernel only looks
// like it: its registers are loaded as one float4 through a macro right before the stores, in the
// same iteration (once called a register prefetch too), a load pipefy now starts a tile early
// itself (ldg; testdata/sgemm_register_arrays.cu). Usage: neg_register_prefetch [M N K].
// gpu-runs: 128 128 0 | 128 128 16 | 128 128 256 | 512 512 512
// gpu-sanitize: 64 64 48
#include "harness.cuh"

#define TS 16

__global__ void prefetch_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int ntiles = K / TS;
    float ra = ntiles > 0 ? A[row * K + tx] : 0.0f;
    float rb = ntiles > 0 ? B[ty * N + col] : 0.0f;
    float acc = 0.0f;
    for (int t = 0; t < ntiles; ++t) {
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        if (t + 1 < ntiles) {
            ra = A[row * K + (t + 1) * TS + tx];
            rb = B[((t + 1) * TS + ty) * N + col];
        }
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

#define F4(x) (reinterpret_cast<float4 *>(&(x))[0])

// 4 x 16 threads, each staging four of A's elements as one float4 in a register array
__global__ void staged_gemm(float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, c0 = blockIdx.x * TS;
    float ra[4];
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float pipefy_reg0[4];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TS))
                return false;
            F4(ra[0]) = F4(A[row * K + t * TS + 4 * tx]);
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                pipefy_reg0[pipefy_j] = B[(t * TS + ty) * N + c0 + 4 * tx + j];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][4 * tx] = ra[0];
            As[pipefy_dst][ty][4 * tx + 1] = ra[1];
            As[pipefy_dst][ty][4 * tx + 2] = ra[2];
            As[pipefy_dst][ty][4 * tx + 3] = ra[3];
            for (int pipefy_j = 0; pipefy_j < 4; ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < 4))
                    break;
                Bs[pipefy_dst][ty][4 * tx + j] = pipefy_reg0[pipefy_j];
            }
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
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][4 * tx + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int j = 0; j < 4; ++j)
        C[row * N + c0 + 4 * tx + j] = acc[j];
}

int main(int argc, char **argv)
{
    int sz[3] = {128, 128, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = harness_gemm<float, float>("neg_register_prefetch", M, N, K, [&](const float *A, const float *B, float *C) {
        prefetch_gemm<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("staged_gemm", M, N, K, [&](const float *A, const float *B, float *C) {
        staged_gemm<<<dim3(N / TS, M / TS), dim3(TS / 4, TS)>>>(const_cast<float *>(A), B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
