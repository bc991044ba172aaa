// dynamic_storage.cu: tiles in the launch's dynamic shared memory, in kernels of this file's own
// (static), reached by a name the loop does not stage: the tile's pointer after the loop, the
// extern array itself after the loop, a pad element written once before the loop, a helper
// that reads a tile through a file-scope `extern __shared__` array. A second stage would leave
// each of them reading the first stage's copy (the build before this program computed wrong
// results here), so pipefy keeps one stage and says which access it is. The last kernel
// reaches its tiles by their names in the loop only: two stages. Each kernel adds a term that
// is zero (or a factor that is one) when it reads what the original reads.
// Usage: dynamic_storage [M N K] (M, N multiples of 16; K any).
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 32 | 48 32 40 | 64 64 48 | 256 128 500 | 1024 1024 1024
// gpu-sanitize: 48 32 40
#include "harness.cuh"
// pipefy: tiles in a launch's dynamic shared memory get one copy of its layout per stage:
// pipefy_launch_bytes gives a launch that much (allowing it above 48 KB), pipefy_at finds a
// tile's copy at a stage
static __device__ __forceinline__ unsigned pipefy_dynamic_smem_size()
{
    unsigned bytes;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes;
}
template <class T> static __device__ __forceinline__ T *pipefy_at(T *tile, int stage, unsigned stride)
{
    return (T *)((char *)tile + stage * stride);
}
template <class K> static size_t pipefy_launch_bytes(K *kernel, size_t bytes, int stages)
{
    size_t total = (size_t)stages * ((bytes + 127) / 128 * 128);
    if (total > 48 * 1024)
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)total);
    return total;
}

#define TS 16

// the last tile read after the loop through the tile's pointer: A's element of the last tile
static __global__ void last_tile_after(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                       int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
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
            Bs[ty][tx] = pipefy_reg1;
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
                acc += As[ty * TS + k] * Bs[k][tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    if (K > 0) {
        int last = (K - 1) / TS * TS + tx;
        acc += As[ty * TS + tx] - (last < K ? A[row * K + last] : 0.0f);
    }
    C[row * N + col] = acc;
}

// the same, read through the extern array: B's element of the last tile
static __global__ void extern_after(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
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
            Bs[ty][tx] = pipefy_reg1;
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
                acc += As[ty * TS + k] * Bs[k][tx];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    if (K > 0) {
        int last = (K - 1) / TS * TS + ty;
        acc += reinterpret_cast<const float *>(smem)[TS * TS + ty * TS + tx] - (last < K ? B[last * N + col] : 0.0f);
    }
    C[row * N + col] = acc;
}

// A's tile has a pad column, set to one before the loop and never copied: every product is
// scaled by it
static __global__ void pad_before(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);                     // [TS][TS + 1]
    float *Bs = reinterpret_cast<float *>(smem) + TS * (TS + 1);     // [TS][TS]
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    if (tx == 0)
        As[ty * (TS + 1) + TS] = 1.0f;
    __syncthreads();
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
            As[ty * (TS + 1) + tx] = pipefy_reg0;
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
                acc += As[ty * (TS + 1) + k] * Bs[k * TS + tx] * As[ty * (TS + 1) + TS];
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[row * N + col] = acc;
}

// B's tile read by a helper through the file's own name for the dynamic shared memory
extern __shared__ float dyn[];

static __device__ float b_at(int k, int tx)
{
    return dyn[TS * TS + k * TS + tx];
}

static __global__ void helper_reads(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int M, int N, int K)
{
    float *As = dyn;
    float *Bs = dyn + TS * TS;
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
                acc += As[ty * TS + k] * b_at(k, tx);
            __syncthreads(); // every thread is done reading tile t
            if (pipefy_more)
                pipefy_stash();
            __syncthreads(); // tile t+1 is in place
        }
    }
    C[row * N + col] = acc;
}

// the control: the tiles are reached by their names in the loop only
static __global__ void names_only(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                  int M, int N, int K)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *As = reinterpret_cast<float *>(smem);
    float (*Bs)[TS] = reinterpret_cast<float (*)[TS]>(smem + TS * TS * sizeof(float));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the launch gives the tiles' shared memory once per stage
        const unsigned pipefy_stride = pipefy_dynamic_smem_size() / 2;
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
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            pipefy_at(As, pipefy_dst, pipefy_stride)[ty * TS + tx] = pipefy_reg0;
            pipefy_at(Bs, pipefy_dst, pipefy_stride)[ty][tx] = pipefy_reg1;
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
                acc += pipefy_at(As, pipefy_stage, pipefy_stride)[ty * TS + k] * pipefy_at(Bs, pipefy_stage, pipefy_stride)[k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 128, 500};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / TS, M / TS), block(TS, TS);
    int rc = harness_gemm<float, float>("last_tile_after", M, N, K, [&](const float *A, const float *B, float *C) {
        last_tile_after<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("extern_after", M, N, K, [&](const float *A, const float *B, float *C) {
        extern_after<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("pad_before", M, N, K, [&](const float *A, const float *B, float *C) {
        pad_before<<<grid, block, (TS * (TS + 1) + TS * TS) * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("helper_reads", M, N, K, [&](const float *A, const float *B, float *C) {
        helper_reads<<<grid, block, 2 * TS * TS * sizeof(float)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    rc |= harness_gemm<float, float>("names_only", M, N, K, [&](const float *A, const float *B, float *C) {
        names_only<<<grid, block, pipefy_launch_bytes(names_only, 2 * TS * TS * sizeof(float), 2)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return rc;
}
