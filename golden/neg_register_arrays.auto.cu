// neg_register_arrays.cu: loads into register arrays that pipefy must not start a tile early
// (testdata/sgemm_register_arrays.cu is the shape it does): each kernel breaks one fact the
// early load relies on — only the copies after the last load into the array read it, the
// array is a register and not memory a pointer reaches, and nothing reads it after the loop.
// Two of them, the compute reading the array and a read after the loop, are pipelined since
// session 36: the load takes a register of its own and the assignment stays where the stash
// stores the copies (`FLOAT4(ra[0]) = pipefy_kept0;`), so those reads see what they saw. The
// host program runs those two and prints their output's checksum for the CPU block model.
// Usage: neg_register_arrays [M N K] (M a multiple of 32, K of 32).
// gpu-runs: 64 64 32 | 64 64 96 | 128 128 160
#include "harness.cuh"

#define TILE 32
#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])
#define CONST_FLOAT4(value) (reinterpret_cast<const float4 *>(&(value))[0])

// The compute reads the array too: loaded a tile early, it would see the next tile's values.
__global__ void compute_reads_array(const float *A, float *C, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    int k4 = (threadIdx.x % 8) * 4, m = threadIdx.x / 8;
    float ra[4];
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
            pipefy_kept0 = CONST_FLOAT4(A[m * K + t * TILE + k4]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            FLOAT4(ra[0]) = pipefy_kept0;
            As[pipefy_dst][k4][m] = ra[0];
            As[pipefy_dst][k4 + 1][m] = ra[1];
            As[pipefy_dst][k4 + 2][m] = ra[2];
            As[pipefy_dst][k4 + 3][m] = ra[3];
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
            for (int k = 0; k < TILE; ++k)
                acc += As[pipefy_stage][k][threadIdx.x % TILE] * ra[k % 4];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A copy between two loads into the same array reads the half the second load writes: the
// previous tile's, which starting both loads a tile early would change.
__global__ void copy_between_loads(const float *A, float *C, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    int k4 = (threadIdx.x % 8) * 4, m = threadIdx.x / 8;
    float ra[4];
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        *reinterpret_cast<float2 *>(&ra[0]) = *reinterpret_cast<const float2 *>(&A[m * K + t * TILE + k4]);
        As[k4 + 2][m] = ra[2];
        *reinterpret_cast<float2 *>(&ra[2]) = *reinterpret_cast<const float2 *>(&A[m * K + t * TILE + k4 + 2]);
        As[k4][m] = ra[0];
        As[k4 + 1][m] = ra[1];
        As[k4 + 3][m] = ra[3];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[k][threadIdx.x % TILE];
        __syncthreads();
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The "register" is a pointer into global memory: the load writes memory, not a local.
__global__ void through_pointer(const float *A, float *scratch, float *C, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    int k4 = (threadIdx.x % 8) * 4, m = threadIdx.x / 8;
    float *ra = scratch + 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        FLOAT4(ra[0]) = CONST_FLOAT4(A[m * K + t * TILE + k4]);
        As[k4][m] = ra[0];
        As[k4 + 1][m] = ra[1];
        As[k4 + 2][m] = ra[2];
        As[k4 + 3][m] = ra[3];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[k][threadIdx.x % TILE];
        __syncthreads();
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The array is read after the loop: its last value must be the last tile's.
__global__ void read_after_loop(const float *A, float *C, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    int k4 = (threadIdx.x % 8) * 4, m = threadIdx.x / 8;
    float ra[4] = {0.0f, 0.0f, 0.0f, 0.0f};
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
            pipefy_kept0 = CONST_FLOAT4(A[m * K + t * TILE + k4]);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            FLOAT4(ra[0]) = pipefy_kept0;
            As[pipefy_dst][k4][m] = ra[0];
            As[pipefy_dst][k4 + 1][m] = ra[1];
            As[pipefy_dst][k4 + 2][m] = ra[2];
            As[pipefy_dst][k4 + 3][m] = ra[3];
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
            for (int k = 0; k < TILE; ++k)
                acc += As[pipefy_stage][k][threadIdx.x % TILE] * 1.5f;
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc + ra[3];
}

// An array of pointers: `rp[0][0] = ..` stores through the pointer the array holds.
__global__ void array_of_pointers(const float *A, float *scratch, float *C, int K)
{
    __shared__ float As[TILE][TILE];
    int k = threadIdx.x % TILE, m = threadIdx.x / TILE;
    float *rp[1] = {scratch + blockIdx.x * blockDim.x + threadIdx.x};
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        rp[0][0] = A[m * K + t * TILE + k];
        As[k][m] = rp[0][0];
        __syncthreads();
        for (int j = 0; j < TILE; ++j)
            acc += As[j][threadIdx.x % TILE];
        __syncthreads();
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 64, 96};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    harness_checksum_only("compute_reads_array", M, N, K, [&](const float *A, const float *B, float *C) {
        (void)B;
        compute_reads_array<<<dim3(M / 32), dim3(256)>>>(A, C, K);
    });
    harness_checksum_only("read_after_loop", M, N, K, [&](const float *A, const float *B, float *C) {
        (void)B;
        read_after_loop<<<dim3(M / 32), dim3(256)>>>(A, C, K);
    });
    return 0;
}
