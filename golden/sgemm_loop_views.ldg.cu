// sgemm_loop_views.cu: tiles filled through views the loop's body declares, as NVIDIA's
// globalToShmemAsyncCopy sample writes its float4 copies:
//     float4 *const A4s = reinterpret_cast<float4 *>(&As[ty][t4x]);   then   *A4s = *A4;
// The view points into the tile each iteration; pipefy stages it with the copies (its
// declaration takes the stage being filled), at the top of the body and under an if whose
// condition is the same on every tile; views of whole tiles filled through their subscripts
// (`As4[i] = ..`) by a copy loop in a block of its own. A view the compute reads too is left as
// written, with a remark that names it.
// Usage: sgemm_loop_views [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 32 32 64 | 64 32 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 32 96
#include "harness.cuh"

#define BS 32

// 8 x 32 threads: each copies a float4 of A's tile and one of B's, and computes four outputs
__global__ void sgemm_views(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(16) float As[2][BS][BS];
    __shared__ alignas(16) float Bs[2][BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y, t4x = tx * 4;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + t4x;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float4 pipefy_reg0;
        float4 pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BS;
            if (!(k0 < K))
                return false;
            const float4 *const A4 = reinterpret_cast<const float4 *>(&A[row * K + k0 + t4x]);
            pipefy_reg0 = *A4;
            const float4 *const B4 = reinterpret_cast<const float4 *>(&B[(k0 + ty) * N + col]);
            pipefy_reg1 = *B4;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            float4 *const As4 = reinterpret_cast<float4 *>(&As[pipefy_dst][ty][t4x]);
            *As4 = pipefy_reg0;
            float4 *const Bs4 = reinterpret_cast<float4 *>(&Bs[pipefy_dst][ty][t4x]);
            *Bs4 = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < BS; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][t4x + j];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int j = 0; j < 4; ++j)
        C[row * N + col + j] = acc[j];
}

// 32 x 32 threads, the sample's shape: a quarter of them copy, under `if (t4x < BS)`
__global__ void sgemm_views_if(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(16) float As[BS][BS];
    __shared__ alignas(16) float Bs[BS][BS];
    int t4x = threadIdx.x * 4;
    int row = blockIdx.y * BS + threadIdx.y, col = blockIdx.x * BS + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BS) {
        if (t4x < BS) {
            float4 *const A4s = reinterpret_cast<float4 *>(&As[threadIdx.y][t4x]);
            float4 *const B4s = reinterpret_cast<float4 *>(&Bs[threadIdx.y][t4x]);
            const float4 *const A4 = reinterpret_cast<const float4 *>(&A[row * K + k0 + t4x]);
            const float4 *const B4 = reinterpret_cast<const float4 *>(&B[(k0 + threadIdx.y) * N + blockIdx.x * BS + t4x]);
            *A4s = *A4;
            *B4s = *B4;
        }
        __syncthreads();
        for (int k = 0; k < BS; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// The compute reads its own four elements of A's tile through the copy's view: the view
// would have to point into the stage being computed there and into the one being filled in
// the copy. Left as written: "the view 'As4' (...) of tile 'As' is used at ... other than as a
// copy's destination".
__global__ void sgemm_view_read(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(16) float As[BS][BS];
    __shared__ alignas(16) float Bs[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y, t4x = tx * 4;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + t4x;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += BS) {
        float4 *const As4 = reinterpret_cast<float4 *>(&As[ty][t4x]);
        *As4 = *reinterpret_cast<const float4 *>(&A[row * K + k0 + t4x]);
        *reinterpret_cast<float4 *>(&Bs[ty][t4x]) = *reinterpret_cast<const float4 *>(&B[(k0 + ty) * N + col]);
        __syncthreads();
        for (int k = 0; k < BS; ++k) {
            float a = k >= t4x && k < t4x + 4 ? (&As4->x)[k - t4x] : As[ty][k];
            for (int j = 0; j < 4; ++j)
                acc[j] += a * Bs[k][t4x + j];
        }
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[row * N + col + j] = acc[j];
}

// 256 threads: float4 views of whole tiles, declared in a block with the copy loop that fills
// them through the views' subscripts (cp.async takes it; register staging wants the copies alone
// in their block)
__global__ void sgemm_view_subscripts(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ alignas(16) float As[BS][BS];
    __shared__ alignas(16) float Bs[BS][BS];
    int tid = threadIdx.x, tx = tid % BS, ty = tid / BS;
    int row0 = blockIdx.y * BS, col0 = blockIdx.x * BS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += BS) {
        {
            float4 *As4 = reinterpret_cast<float4 *>(&As[0][0]);
            float4 *Bs4 = reinterpret_cast<float4 *>(&Bs[0][0]);
            for (int i = tid; i < BS * BS / 4; i += 256) {
                int r = i / (BS / 4), c4 = i % (BS / 4);
                As4[i] = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c4 * 4]);
                Bs4[i] = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + col0 + c4 * 4]);
            }
        }
        __syncthreads();
        for (int k = 0; k < BS; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[ty + 8 * j][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(row0 + ty + 8 * j) * N + col0 + tx] = acc[j];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = harness_gemm<float, float>("sgemm_views", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_views<<<dim3(N / BS, M / BS), dim3(BS / 4, BS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_views_if", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_views_if<<<dim3(N / BS, M / BS), dim3(BS, BS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_view_read", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_view_read<<<dim3(N / BS, M / BS), dim3(BS / 4, BS)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("sgemm_view_subscripts", M, N, K, [&](const float *A, const float *B, float *C) {
        sgemm_view_subscripts<<<dim3(N / BS, M / BS), 256>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
