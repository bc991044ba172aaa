// neg_ws.cu: K-loops that tensor copies take but a producer warp must not: the producer warp
// runs the code before the loop with thread indices past the kernel's, and leaves after the
// loop. base_shape is taken (the control); each other kernel changes one thing, and the ws
// golden's remark names it.
// pipefy-golden: tma ws ws-cp.async
#include <cuda_runtime.h>
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async
// pipefy: named barriers {
static __device__ __forceinline__ void pipefy_bar_sync(unsigned id, unsigned threads)
{
    asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
static __device__ __forceinline__ void pipefy_bar_arrive(unsigned id, unsigned threads)
{
    asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// } pipefy: named barriers

#define T 32

// 256 threads, flat A tile, both tiles copied by loops strided by blockDim.x; the words in the
// comments (a return, a goto, a sync) are not statements
__global__ void base_shape(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    // no return before the loop and no goto anywhere
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    // no sync after the loop either
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: 'base_shape' with cp.async copies from a producer warp; only pipefy_launch_base_shape below launches it
static __global__ void base_shape_pipefy_ws(const float *A, const float *B, float *C, int N, int K)
{
    const dim3 pipefy_block_dim(blockDim.x - 32, blockDim.y, blockDim.z); // pipefy: the block without its producer warp
    __shared__ alignas(128) float As[2][T * T];
    __shared__ alignas(128) float Bs[2][T][T];
    // no return before the loop and no goto anywhere
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with cp.async copies from a producer warp, named barriers, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: two named barriers per stage, each of the kernel's threads and the producer warp:
        // 1 + s, the producer's signal that stage s has landed; 3 + s, the threads' that they are
        // done with it; and 5, of the kernel's threads alone
        // pipefy: the kernel's threads (a producer warp follows them)
        const unsigned pipefy_threads = pipefy_block_dim.x;
        const bool pipefy_producer = threadIdx.x >= pipefy_threads;
        unsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads % 2
        __syncthreads();
        // pipefy: the rows of 'As's operand that end within its 32-bit index
        const long long pipefy_rows_As = (long long)K > 0 ? 2147483648LL / (long long)K : 0;
        // pipefy: the rows of 'Bs's operand that end within its 32-bit index
        const long long pipefy_rows_Bs = (long long)N > 0 ? 2147483648LL / (long long)N : 0;
        // pipefy: load the tile at the cursor into stage pipefy_dst once every thread is done with
        // the tile it held, and advance the cursor: each tile is one box of its operand, its rows
        // copied by the producer warp's 32 threads in 16-byte units; where a box reaches outside its
        // operand or starts off a 16-byte boundary the kernel's threads copy as written; the
        // producer commits one group of copies a call, empty past the last tile
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < K) {
                const long long pipefy_col_As = (long long)k0, pipefy_row_As = 32LL * blockIdx.y;
                const unsigned long long pipefy_src_As = (unsigned long long)A +
                    (unsigned long long)((pipefy_row_As * (long long)K + pipefy_col_As) * 4);
                const long long pipefy_col_Bs = 32LL * blockIdx.x, pipefy_row_Bs = (long long)k0;
                const unsigned long long pipefy_src_Bs = (unsigned long long)B +
                    (unsigned long long)((pipefy_row_Bs * (long long)N + pipefy_col_Bs) * 4);
                const bool pipefy_box = pipefy_col_As >= 0 && pipefy_col_As + 32 <= (long long)K &&
                    pipefy_row_As >= 0 &&
                    pipefy_src_As % 16 == 0 && (long long)K * 4 % 16 == 0 && pipefy_row_As + 32 <= pipefy_rows_As &&
                    pipefy_col_Bs >= 0 && pipefy_col_Bs + 32 <= (long long)N &&
                    pipefy_row_Bs >= 0 &&
                    pipefy_src_Bs % 16 == 0 && (long long)N * 4 % 16 == 0 && pipefy_row_Bs + 32 <= pipefy_rows_Bs;
                if (pipefy_producer) {
                    if (pipefy_loads >= 2) // the stage's last tile, pipefy_loads - 2, is computed
                        pipefy_bar_sync(3 + pipefy_dst, pipefy_threads + 32);
                    if (pipefy_box) {
                        for (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < 256; pipefy_i += 32) {
                            const unsigned pipefy_r = pipefy_i / 8, pipefy_c = pipefy_i % 8;
                            __pipeline_memcpy_async((char *)&As[pipefy_dst] + pipefy_r * 128 + pipefy_c * 16,
                                                    (const char *)pipefy_src_As + pipefy_r * (unsigned long long)((long long)K * 4) + pipefy_c * 16, 16);
                        }
                        for (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < 256; pipefy_i += 32) {
                            const unsigned pipefy_r = pipefy_i / 8, pipefy_c = pipefy_i % 8;
                            __pipeline_memcpy_async((char *)&Bs[pipefy_dst] + pipefy_r * 128 + pipefy_c * 16,
                                                    (const char *)pipefy_src_Bs + pipefy_r * (unsigned long long)((long long)N * 4) + pipefy_c * 16, 16);
                        }
                    }
                } else if (!pipefy_box) {
                    if (pipefy_loads >= 2) // every kernel thread is done with the stage's last tile
                        pipefy_bar_sync(5, pipefy_threads);
                    for (int i = threadIdx.x; i < T * T; i += pipefy_block_dim.x)
                        As[pipefy_dst][i] = A[(r0 + i / T) * K + k0 + i % T];
                    for (int i = threadIdx.x; i < T * T; i += pipefy_block_dim.x)
                        Bs[pipefy_dst][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                }
                ++pipefy_loads;
                k0 += T;
                pipefy_next_k0 = k0;
            }
            if (pipefy_producer)
                __pipeline_commit();
        };
        // pipefy: prologue: start loading tile 0
        pipefy_load(0);
        int pipefy_stage = 0;       // the stage that holds tile t
        // pipefy: main loop: start tile t+1 into stage (t-1) % 2, wait for tile t, compute it, say
        // so; the last iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            pipefy_load((int)(pipefy_loads % 2));
            if (pipefy_producer) { // the producer warp only copies, and says when tile t has landed
                __pipeline_wait_prior(1);
                pipefy_bar_arrive(1 + pipefy_stage, pipefy_threads + 32);
                pipefy_stage = (pipefy_stage + 1) % 2;
                continue;
            }
            pipefy_bar_sync(1 + pipefy_stage, pipefy_threads + 32); // tile t has landed
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            pipefy_bar_arrive(3 + pipefy_stage, pipefy_threads + 32); // this thread is done with tile t
            pipefy_stage = (pipefy_stage + 1) % 2;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
        if (pipefy_producer) // the threads' arrivals after the last tiles, which no copy waited for
            for (unsigned pipefy_u = pipefy_loads > 2 ? pipefy_loads - 2 : 0; pipefy_u < pipefy_loads; ++pipefy_u)
                pipefy_bar_sync(3 + pipefy_u % 2, pipefy_threads + 32);
        if (pipefy_producer) // its work is done; no barrier follows the loop
            return;
    }
    // no sync after the loop either
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// pipefy: the launches of 'base_shape' in this file: from a producer warp where the block is the shape
// the copies assume, whole warps, and room for one more (the producer's), and the copy's
// registers and shared memory let a block of that size run; the kernel as written otherwise
static void pipefy_launch_base_shape(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,
    const float *A, const float *B, float *C, int N, int K)
{
    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)
    if (pipefy_block.y == 1 && pipefy_block.z == 1 && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024 &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, base_shape_pipefy_ws, (int)pipefy_block.x + 32, pipefy_smem) ==
            cudaSuccess && pipefy_resident > 0)
        base_shape_pipefy_ws<<<pipefy_grid, dim3(pipefy_block.x + 32, 1, 1), pipefy_smem, pipefy_stream>>>(A, B, C, N, K);
    else
        base_shape<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(A, B, C, N, K);
}

// a store before the loop: the producer's thread indices would write past the output tile
__global__ void store_before(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    C[(r0 + ty) * N + c0 + tx] = 0.0f;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] += acc[j];
}

// a load indexed by the thread before the loop: the producer's would read past the bias
__global__ void read_before(const float *A, const float *B, const float *bias, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    const float b = bias[c0 + threadIdx.x % T + T * (threadIdx.x / T)];
    float acc[4] = {b, b, b, b};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a return before the loop: a producer that returned would copy nothing
__global__ void return_before(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    if (r0 >= M)
        return;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a barrier after the loop (the epilogue goes through shared memory): the producer has left
__global__ void barrier_after(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    __shared__ float Cs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        Cs[ty + 8 * j][tx] = acc[j];
    __syncthreads();
    for (int i = threadIdx.x; i < T * T; i += blockDim.x)
        C[(r0 + i / T) * N + c0 + i % T] = Cs[i / T][i % T];
}

// launched with 1024 threads: no room for the producer warp
__global__ void full_block(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            As[i] = A[(r0 + i / T) * K + k0 + i % T];
        for (int i = threadIdx.x; i < T * T; i += blockDim.x)
            Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            for (int j = 0; j < 4; ++j)
                acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// the K-loop inside another loop: a producer that left after it would miss the next pass
__global__ void nested(const float *A, const float *B, float *C, int N, int K, int passes)
{
    __shared__ float As[T * T];
    __shared__ float Bs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int p = 0; p < passes; ++p) {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[(ty + 8 * j) * T + k] * Bs[k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

void run(const float *A, const float *B, const float *bias, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T);
    pipefy_launch_base_shape(grid, 256, 0, 0, A, B, C, N, K);
    store_before<<<grid, 256>>>(A, B, C, N, K);
    read_before<<<grid, 256>>>(A, B, bias, C, N, K);
    return_before<<<grid, 256>>>(A, B, C, M, N, K);
    barrier_after<<<grid, 256>>>(A, B, C, N, K);
    nested<<<grid, 256>>>(A, B, C, N, K, 2);
    full_block<<<grid, 1024>>>(A, B, C, N, K);
}
