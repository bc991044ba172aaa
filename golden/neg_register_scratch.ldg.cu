// neg_register_scratch.cu: a float4 register loaded from global memory and stored into the
// tiles, which the compute uses too, where the compute may read the loaded value (so the
// register cannot be given to the load alone, as testdata/sgemm_scratch_registers.cu's is):
// it reads it before it assigns it; assigns it in one branch of an if only; assigns one member
// only; assigns it in a loop that may run no trips and reads it after; or the kernel reads it
// after the K-loop. Until session 36 each was left alone, the use named; now the load takes a
// register of its own and the assignment stays where the stash stores the copies (`Av =
// pipefy_kept0;`, testdata/sgemm_kept_registers.cu), so every read sees what it saw as
// written. (after_trips is left alone for its compute loop's run-time trip count.) The host
// program runs each kernel and prints its output's checksum, which the CPU block model
// compares with the original's; no K of 0: read_after_loop then reads Av unassigned.
// Usage: neg_register_scratch [M N K] (multiples of 32).
// gpu-runs: 64 64 32 | 64 64 96 | 128 128 160
#include "harness.cuh"

#define TILE 32

// the compute reads Av.x before it assigns Av
__global__ void reads_first(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Av = pipefy_kept0;
            As[pipefy_dst][ak][am] = Av.x;
            As[pipefy_dst][ak + 1][am] = Av.y;
            As[pipefy_dst][ak + 2][am] = Av.z;
            As[pipefy_dst][ak + 3][am] = Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = Bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            acc += Av.x;
            for (int k = 0; k < TILE; ++k) {
                Av = make_float4(As[pipefy_stage][k][threadIdx.y], 0.0f, 0.0f, 0.0f);
                acc += Av.x * Bs[pipefy_stage][k][threadIdx.x];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// Av assigned in one branch only, then read
__global__ void one_branch(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Av = pipefy_kept0;
            As[pipefy_dst][ak][am] = Av.x;
            As[pipefy_dst][ak + 1][am] = Av.y;
            As[pipefy_dst][ak + 2][am] = Av.z;
            As[pipefy_dst][ak + 3][am] = Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = Bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k) {
                if (k > 0)
                    Av = make_float4(As[pipefy_stage][k][threadIdx.y], 0.0f, 0.0f, 0.0f);
                acc += Av.x * Bs[pipefy_stage][k][threadIdx.x];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// one member assigned, another read
__global__ void one_member(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Av = pipefy_kept0;
            As[pipefy_dst][ak][am] = Av.x;
            As[pipefy_dst][ak + 1][am] = Av.y;
            As[pipefy_dst][ak + 2][am] = Av.z;
            As[pipefy_dst][ak + 3][am] = Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = Bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k) {
                Av.x = As[pipefy_stage][k][threadIdx.y];
                acc += Av.x * Av.y * Bs[pipefy_stage][k][threadIdx.x];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// assigned in every trip of a loop that may run none, read after it
__global__ void after_trips(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Av = pipefy_kept0;
            As[pipefy_dst][ak][am] = Av.x;
            As[pipefy_dst][ak + 1][am] = Av.y;
            As[pipefy_dst][ak + 2][am] = Av.z;
            As[pipefy_dst][ak + 3][am] = Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = Bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < M; ++k) {
                Av = make_float4(As[pipefy_stage][k % TILE][threadIdx.y], 0.0f, 0.0f, 0.0f);
                acc += Av.x * Bs[pipefy_stage][k % TILE][threadIdx.x];
            }
            acc += Av.y;
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc;
}

// the scratch is read after the K-loop
__global__ void read_after_loop(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float4 Av, Bv;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 pipefy_kept0;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            pipefy_kept0 = *(const float4 *)&A[(row0 + am) * K + t * TILE + ak];
            Bv = *(const float4 *)&B[(t * TILE + bk) * N + col0 + bn];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Av = pipefy_kept0;
            As[pipefy_dst][ak][am] = Av.x;
            As[pipefy_dst][ak + 1][am] = Av.y;
            As[pipefy_dst][ak + 2][am] = Av.z;
            As[pipefy_dst][ak + 3][am] = Av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = Bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k) {
                Av = make_float4(As[pipefy_stage][k][threadIdx.y], 0.0f, 0.0f, 0.0f);
                acc += Av.x * Bs[pipefy_stage][k][threadIdx.x];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(row0 + threadIdx.y) * N + col0 + threadIdx.x] = acc + Av.w;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 64, 96};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    harness_checksum_only("reads_first", M, N, K, [&](const float *A, const float *B, float *C) {
        reads_first<<<dim3(N / 32, M / 32), dim3(16, 16)>>>(A, B, C, M, N, K);
    });
    harness_checksum_only("one_branch", M, N, K, [&](const float *A, const float *B, float *C) {
        one_branch<<<dim3(N / 32, M / 32), dim3(16, 16)>>>(A, B, C, M, N, K);
    });
    harness_checksum_only("one_member", M, N, K, [&](const float *A, const float *B, float *C) {
        one_member<<<dim3(N / 32, M / 32), dim3(16, 16)>>>(A, B, C, M, N, K);
    });
    harness_checksum_only("after_trips", M, N, K, [&](const float *A, const float *B, float *C) {
        after_trips<<<dim3(N / 32, M / 32), dim3(16, 16)>>>(A, B, C, M, N, K);
    });
    harness_checksum_only("read_after_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        read_after_loop<<<dim3(N / 32, M / 32), dim3(16, 16)>>>(A, B, C, M, N, K);
    });
    return 0;
}
