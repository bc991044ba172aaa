// A kernel launched twice in a row, made one persistent launch by a first run of
// --launches=queue (this file is that run's output); a second run changes nothing, and says
// why of the launcher's own launches and of the loops pipefy wrote.
__global__ void inc(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}
// pipefy: tile queues {
// pipefy: a ticket's block index in a grid; an item's counter, released and acquired
static __device__ __forceinline__ uint3 pipefy_queue_index(unsigned long long i, dim3 g)
{
    return make_uint3((unsigned)(i % g.x), (unsigned)(i / g.x % g.y), (unsigned)(i / ((unsigned long long)g.x * g.y)));
}
static __device__ __forceinline__ void pipefy_queue_done(unsigned long long *counter)
{
    __threadfence(); // (after a block barrier: the item's writes, every thread's, come first)
    atomicAdd(counter, 1ULL);
}
static __device__ __forceinline__ void pipefy_queue_wait(const unsigned long long *counter, unsigned long long n)
{
    unsigned long long done;
    for (;;) {
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(done) : "l"(counter) : "memory");
        if (done >= n)
            break;
        __nanosleep(100);
    }
}
// } pipefy: tile queues
// pipefy: 'inc' then 'inc' as one persistent launch (--launches=queue): each block takes the next
// ticket, first the blocks of 'inc', then those of 'inc'; an item of 'inc' starts once every
// item of 'inc' is done, so it reads what it read after the launch as written. The bodies are
// copied as written; their parameters blockIdx, gridDim, threadIdx and blockDim stand for
// the builtins.
static __device__ void inc_pipefy_item0(float *x, int n,
    const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}
static __device__ void inc_pipefy_item0_2(float *x, int n,
    const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}
static __global__ void pipefy_queue0_inc_inc(const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2, unsigned long long *pipefy_counters,
    float *pipefy_a0,
    int pipefy_a1,
    float *pipefy_b0,
    int pipefy_b1)
{
    __shared__ unsigned long long pipefy_ticket;
    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;
    const unsigned long long pipefy_items = pipefy_items1 + (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;
    for (;;) {
        if (threadIdx.x == 0)
            pipefy_ticket = atomicAdd(&pipefy_counters[0], 1ULL);
        __syncthreads();
        const unsigned long long pipefy_item = pipefy_ticket;
        __syncthreads(); // (every thread has its ticket, and is done with the last item)
        if (pipefy_item >= pipefy_items)
            break;
        if (pipefy_item < pipefy_items1) {
            inc_pipefy_item0(pipefy_a0, pipefy_a1, pipefy_queue_index(pipefy_item, pipefy_grid1), pipefy_grid1,
                pipefy_queue_index(threadIdx.x, pipefy_block1), pipefy_block1);
            __syncthreads(); // every thread is done with the item
            if (threadIdx.x == 0)
                pipefy_queue_done(&pipefy_counters[1]);
        } else {
            if (threadIdx.x == 0) // every item of 'inc' is done
                pipefy_queue_wait(&pipefy_counters[1], pipefy_items1);
            __syncthreads();
            inc_pipefy_item0_2(pipefy_b0, pipefy_b1, pipefy_queue_index(pipefy_item - pipefy_items1, pipefy_grid2), pipefy_grid2,
                pipefy_queue_index(threadIdx.x, pipefy_block2), pipefy_block2);
        }
    }
}
// pipefy: the launches of 'inc' and 'inc' at 9:5: as one persistent launch where both blocks have
// the same number of threads and the kernel fits an SM; as written otherwise
static void pipefy_launch_queue0(dim3 pipefy_grid1, dim3 pipefy_block1, dim3 pipefy_grid2, dim3 pipefy_block2,
    cudaStream_t pipefy_stream,
    float *pipefy_a0,
    int pipefy_a1,
    float *pipefy_b0,
    int pipefy_b1)
{
    const unsigned pipefy_threads = pipefy_block1.x * pipefy_block1.y * pipefy_block1.z;
    int pipefy_device = 0, pipefy_sms = 0, pipefy_resident = 0;
    unsigned long long *pipefy_counters = nullptr;
    if (
        pipefy_grid1.x >= 1 && pipefy_grid1.y >= 1 && pipefy_grid1.z >= 1 && pipefy_grid1.x <= 2147483647u && pipefy_grid1.y <= 65535 && pipefy_grid1.z <= 65535 &&
        pipefy_block1.x >= 1 && pipefy_block1.y >= 1 && pipefy_block1.z >= 1 && pipefy_block1.x <= 1024 && pipefy_block1.y <= 1024 && pipefy_block1.z <= 64 &&
        pipefy_grid2.x >= 1 && pipefy_grid2.y >= 1 && pipefy_grid2.z >= 1 && pipefy_grid2.x <= 2147483647u && pipefy_grid2.y <= 65535 && pipefy_grid2.z <= 65535 &&
        pipefy_block2.x >= 1 && pipefy_block2.y >= 1 && pipefy_block2.z >= 1 && pipefy_block2.x <= 1024 && pipefy_block2.y <= 1024 && pipefy_block2.z <= 64 &&
        pipefy_threads == pipefy_block2.x * pipefy_block2.y * pipefy_block2.z &&
        cudaGetDevice(&pipefy_device) == cudaSuccess &&
        cudaDeviceGetAttribute(&pipefy_sms, cudaDevAttrMultiProcessorCount, pipefy_device) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, pipefy_queue0_inc_inc, (int)pipefy_threads, 0) == cudaSuccess &&
        pipefy_resident > 0 &&
        cudaMallocAsync((void **)&pipefy_counters, 2 * sizeof *pipefy_counters, pipefy_stream) == cudaSuccess) {
        unsigned long long pipefy_blocks = (unsigned long long)pipefy_sms * pipefy_resident;
#ifdef PIPEFY_QUEUE_BLOCKS
        pipefy_blocks = PIPEFY_QUEUE_BLOCKS; // (a test's: this many persistent blocks)
#endif
        const unsigned long long pipefy_items = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z +
                                                (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;
        if (pipefy_blocks > pipefy_items)
            pipefy_blocks = pipefy_items;
        cudaMemsetAsync(pipefy_counters, 0, 2 * sizeof *pipefy_counters, pipefy_stream);
        pipefy_queue0_inc_inc<<<(unsigned)pipefy_blocks, pipefy_threads, 0, pipefy_stream>>>(pipefy_grid1, pipefy_block1, pipefy_grid2,
            pipefy_block2, pipefy_counters, pipefy_a0, pipefy_a1, pipefy_b0, pipefy_b1);
        cudaFreeAsync(pipefy_counters, pipefy_stream);
        return;
    }
    inc<<<pipefy_grid1, pipefy_block1, 0, pipefy_stream>>>(pipefy_a0, pipefy_a1);
    inc<<<pipefy_grid2, pipefy_block2, 0, pipefy_stream>>>(pipefy_b0, pipefy_b1);
}

void run(float *x, int n)
{
    pipefy_launch_queue0((n + 255) / 256, 256, (n + 255) / 256, 256, 0, x, n, x, n);
    (void)0 /* pipefy: 'inc' runs in pipefy_launch_queue0's persistent launch */;
}
