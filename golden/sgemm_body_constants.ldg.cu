// sgemm_body_constants.cu: copy loops bounded by constants the K-loop's body declares
// (`const int a_elems = BM * BK;` in the body, as a public kernel writes them). The value is
// the same every tile, but the name means nothing in front of the loop, where register staging
// sizes its registers: the trips take the initializer for the name, and the declaration goes
// with the copies into the fetch and the stash. body_consts strides its copies by the block's
// 128 threads; shared_count declares two in one statement and reads one in the compute.
// run_time_bound declares its bound from the tile's position (`const int left = .. K - k0 ..;`):
// one value per tile, not per program, and left as written (its copies may store on some tiles
// and not on others).
// Usage: sgemm_body_constants [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 64 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define BM 32
#define BK 8
#define NT 128

__global__ void body_consts(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][BM][BK];
    __shared__ float Bs[2][BK][BM];
    int tid = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    float acc[BM * BM / NT] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[(((BM * BK)) + (NT) - 1) / (NT)];
        float pipefy_reg1[(((BK * BM)) + (NT) - 1) / (NT)];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            const int a_elems = BM * BK;
            for (int pipefy_j = 0; pipefy_j < (((BM * BK)) + (NT) - 1) / (NT); ++pipefy_j) {
                int i = tid + pipefy_j * (NT);
                if (!(i < a_elems))
                    break;
                pipefy_reg0[pipefy_j] = A[(row0 + i / BK) * K + k0 + i % BK];
            }
            const int b_elems = BK * BM;
            for (int pipefy_j = 0; pipefy_j < (((BK * BM)) + (NT) - 1) / (NT); ++pipefy_j) {
                int i = tid + pipefy_j * (NT);
                if (!(i < b_elems))
                    break;
                pipefy_reg1[pipefy_j] = B[(k0 + i / BM) * N + col0 + i % BM];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            const int a_elems = BM * BK;
            for (int pipefy_j = 0; pipefy_j < (((BM * BK)) + (NT) - 1) / (NT); ++pipefy_j) {
                int i = tid + pipefy_j * (NT);
                if (!(i < a_elems))
                    break;
                As[pipefy_dst][i / BK][i % BK] = pipefy_reg0[pipefy_j];
            }
            const int b_elems = BK * BM;
            for (int pipefy_j = 0; pipefy_j < (((BK * BM)) + (NT) - 1) / (NT); ++pipefy_j) {
                int i = tid + pipefy_j * (NT);
                if (!(i < b_elems))
                    break;
                Bs[pipefy_dst][i / BM][i % BM] = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int r = 0; r < BM * BM / NT; ++r)
                for (int k = 0; k < BK; ++k)
                    acc[r] += As[pipefy_stage][(tid + r * NT) / BM][k] * Bs[pipefy_stage][k][(tid + r * NT) % BM];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int r = 0; r < BM * BM / NT; ++r)
        C[(row0 + (tid + r * NT) / BM) * N + col0 + (tid + r * NT) % BM] = acc[r];
}

__global__ void shared_count(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][BM][BK];
    __shared__ float Bs[2][BK][BM];
    int tid = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    float acc[BM * BM / NT] = {};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((BM * BK / NT))];
        float pipefy_reg1[((BM * BK / NT))];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += BK;
            if (!(k0 < K))
                return false;
            const int per_thread = BM * BK / NT, outputs = BM * BM / NT;
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / NT)); ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < per_thread))
                    break;
                int i = tid + j * NT;
                pipefy_reg0[pipefy_j] = A[(row0 + i / BK) * K + k0 + i % BK];
                pipefy_reg1[pipefy_j] = B[(k0 + i / BM) * N + col0 + i % BM];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            const int per_thread = BM * BK / NT, outputs = BM * BM / NT;
            for (int pipefy_j = 0; pipefy_j < ((BM * BK / NT)); ++pipefy_j) {
                int j = 0 + pipefy_j * 1;
                if (!(j < per_thread))
                    break;
                int i = tid + j * NT;
                As[pipefy_dst][i / BK][i % BK] = pipefy_reg0[pipefy_j];
                Bs[pipefy_dst][i / BM][i % BM] = pipefy_reg1[pipefy_j];
            }
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            const int per_thread = BM * BK / NT, outputs = BM * BM / NT;
            for (int r = 0; r < outputs; ++r)
                for (int k = 0; k < BK; ++k)
                    acc[r] += As[pipefy_stage][(tid + r * NT) / BM][k] * Bs[pipefy_stage][k][(tid + r * NT) % BM];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int r = 0; r < BM * BM / NT; ++r)
        C[(row0 + (tid + r * NT) / BM) * N + col0 + (tid + r * NT) % BM] = acc[r];
}

__global__ void run_time_bound(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BM];
    int tid = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    float acc[BM * BM / NT] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        const int left = (K - k0 < BK ? K - k0 : BK) * BM;
        for (int i = tid; i < left; i += NT) {
            As[i % BM][i / BM] = A[(row0 + i % BM) * K + k0 + i / BM];
            Bs[i / BM][i % BM] = B[(k0 + i / BM) * N + col0 + i % BM];
        }
        __syncthreads();
        for (int r = 0; r < BM * BM / NT; ++r)
            for (int k = 0; k < BK; ++k)
                acc[r] += As[(tid + r * NT) / BM][k] * Bs[k][(tid + r * NT) % BM];
        __syncthreads();
    }
    for (int r = 0; r < BM * BM / NT; ++r)
        C[(row0 + (tid + r * NT) / BM) * N + col0 + (tid + r * NT) % BM] = acc[r];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("body_consts", M, N, K, [&](const float *A, const float *B, float *C) {
        body_consts<<<dim3(N / BM, M / BM), NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("shared_count", M, N, K, [&](const float *A, const float *B, float *C) {
        shared_count<<<dim3(N / BM, M / BM), NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("run_time_bound", M, N, K, [&](const float *A, const float *B, float *C) {
        run_time_bound<<<dim3(N / BM, M / BM), NT>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
