// chain_softmax.cu: attention's first two steps as two launches on one stream: S = Q K^T / sqrt(D)
// (a tiled GEMM reading K's rows as B's columns), then P = softmax of each row of S (one block a
// row, reductions in shared memory). Usage: chain_softmax [M N D] (multiples of TS).
// pipefy-golden: overlap queue
// gpu-runs: 16 64 64 | 16 16 16 | 32 48 32 | 64 128 64 | 256 256 64 | 1024 1024 64 | 2048 2048 128
// gpu-sanitize: 32 48 32
#include "harness.cuh"

#define TS 16
#define ROW_THREADS 256

__global__ void qk(const float *Q, const float *Km, float *S, int M, int N, int D, float scale)
{
    __shared__ float Qs[2][TS][TS];
    __shared__ float Ks[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load the tile at the cursor into the staging registers and advance the
        // cursor; false once the tiles run out
        auto pipefy_fetch = [&]() {
            int k0 = pipefy_next_k0;
            if (!(k0 < D))
                return false;
            pipefy_reg0 = Q[row * D + k0 + tx];
            pipefy_reg1 = Km[(blockIdx.x * TS + ty) * D + k0 + tx];
            k0 += TS;
            pipefy_next_k0 = k0;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            Qs[pipefy_dst][ty][tx] = pipefy_reg0;
            Ks[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch())
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < D; k0 += TS) {
            bool pipefy_more = pipefy_fetch();
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += Qs[pipefy_stage][ty][k] * Ks[pipefy_stage][tx][k];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    S[row * N + col] = acc * scale;
}

__global__ void row_softmax(const float *S, float *P, int N)
{
    __shared__ float red[ROW_THREADS];
    const float *s = S + (size_t)blockIdx.x * N;
    float *p = P + (size_t)blockIdx.x * N;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int j = t; j < N; j += ROW_THREADS)
        m = fmaxf(m, s[j]);
    red[t] = m;
    __syncthreads();
    for (int half = ROW_THREADS / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] = fmaxf(red[t], red[t + half]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int j = t; j < N; j += ROW_THREADS)
        sum += expf(s[j] - m);
    red[t] = sum;
    __syncthreads();
    for (int half = ROW_THREADS / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] += red[t + half];
        __syncthreads();
    }
    sum = red[0];
    for (int j = t; j < N; j += ROW_THREADS)
        p[j] = expf(s[j] - m) / sum;
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
// pipefy: 'qk' then 'row_softmax' as one persistent launch (--launches=queue): each block takes the next
// ticket, first the blocks of 'qk', then those of 'row_softmax'; an item of 'row_softmax' starts once every
// item of 'qk' is done, so it reads what it read after the launch as written. The bodies are
// copied as written; their parameters blockIdx, gridDim, threadIdx and blockDim stand for
// the builtins.
static __device__ void qk_pipefy_item0(const float *Q, const float *Km, float *S, int M, int N, int D, float scale,
    const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)
{
    __shared__ float Qs[TS][TS];
    __shared__ float Ks[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < D; k0 += TS) {
        Qs[ty][tx] = Q[row * D + k0 + tx];
        Ks[ty][tx] = Km[(blockIdx.x * TS + ty) * D + k0 + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += Qs[ty][k] * Ks[tx][k];
        __syncthreads();
    }
    S[row * N + col] = acc * scale;
}
static __device__ void row_softmax_pipefy_item0(const float *S, float *P, int N,
    const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)
{
    __shared__ float red[ROW_THREADS];
    const float *s = S + (size_t)blockIdx.x * N;
    float *p = P + (size_t)blockIdx.x * N;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int j = t; j < N; j += ROW_THREADS)
        m = fmaxf(m, s[j]);
    red[t] = m;
    __syncthreads();
    for (int half = ROW_THREADS / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] = fmaxf(red[t], red[t + half]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int j = t; j < N; j += ROW_THREADS)
        sum += expf(s[j] - m);
    red[t] = sum;
    __syncthreads();
    for (int half = ROW_THREADS / 2; half > 0; half /= 2) {
        if (t < half)
            red[t] += red[t + half];
        __syncthreads();
    }
    sum = red[0];
    for (int j = t; j < N; j += ROW_THREADS)
        p[j] = expf(s[j] - m) / sum;
}
static __global__ void pipefy_queue0_qk_row_softmax(const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,
    const dim3 pipefy_block2, unsigned long long *pipefy_counters,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    float pipefy_a6,
    const float *pipefy_b0,
    float *pipefy_b1,
    int pipefy_b2)
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
            qk_pipefy_item0(pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_a6, pipefy_queue_index(pipefy_item, pipefy_grid1), pipefy_grid1,
                pipefy_queue_index(threadIdx.x, pipefy_block1), pipefy_block1);
            __syncthreads(); // every thread is done with the item
            if (threadIdx.x == 0)
                pipefy_queue_done(&pipefy_counters[1]);
        } else {
            if (threadIdx.x == 0) // every item of 'qk' is done
                pipefy_queue_wait(&pipefy_counters[1], pipefy_items1);
            __syncthreads();
            row_softmax_pipefy_item0(pipefy_b0, pipefy_b1, pipefy_b2, pipefy_queue_index(pipefy_item - pipefy_items1, pipefy_grid2), pipefy_grid2,
                pipefy_queue_index(threadIdx.x, pipefy_block2), pipefy_block2);
        }
    }
}
// pipefy: the launches of 'qk' and 'row_softmax' at 97:9: as one persistent launch where both blocks have
// the same number of threads and the kernel fits an SM; as written otherwise
static void pipefy_launch_queue0(dim3 pipefy_grid1, dim3 pipefy_block1, dim3 pipefy_grid2, dim3 pipefy_block2,
    cudaStream_t pipefy_stream,
    const float *pipefy_a0,
    const float *pipefy_a1,
    float *pipefy_a2,
    int pipefy_a3,
    int pipefy_a4,
    int pipefy_a5,
    float pipefy_a6,
    const float *pipefy_b0,
    float *pipefy_b1,
    int pipefy_b2)
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
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, pipefy_queue0_qk_row_softmax, (int)pipefy_threads, 0) == cudaSuccess &&
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
        pipefy_queue0_qk_row_softmax<<<(unsigned)pipefy_blocks, pipefy_threads, 0, pipefy_stream>>>(pipefy_grid1, pipefy_block1, pipefy_grid2,
            pipefy_block2, pipefy_counters, pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_a6, pipefy_b0, pipefy_b1, pipefy_b2);
        cudaFreeAsync(pipefy_counters, pipefy_stream);
        return;
    }
    qk<<<pipefy_grid1, pipefy_block1, 0, pipefy_stream>>>(pipefy_a0, pipefy_a1, pipefy_a2, pipefy_a3, pipefy_a4, pipefy_a5, pipefy_a6);
    row_softmax<<<pipefy_grid2, pipefy_block2, 0, pipefy_stream>>>(pipefy_b0, pipefy_b1, pipefy_b2);
}

int main(int argc, char **argv)
{
    int sz[3] = {64, 128, 64};  // M N D
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], D = sz[2];
    size_t nq = (size_t)M * D, nk = (size_t)N * D, ns = (size_t)M * N;
    float *hQ = (float *)malloc(nq * 4), *hK = (float *)malloc(nk * 4), *hP = (float *)malloc(ns * 4 + 4);
    uint32_t seed = 4242;
    for (size_t i = 0; i < nq; i++) hQ[i] = harness_random(&seed) * 4.0f;
    for (size_t i = 0; i < nk; i++) hK[i] = harness_random(&seed) * 4.0f;
    float scale = 1.0f / sqrtf((float)D);
    double *ref = (double *)calloc(ns + 1, sizeof(double));
    for (int i = 0; i < M && !harness_skip_reference(); i++) {
        double *r = ref + (size_t)i * N, m = -INFINITY, sum = 0;
        for (int j = 0; j < N; j++) {
            for (int k = 0; k < D; k++)
                r[j] += (double)hQ[(size_t)i * D + k] * hK[(size_t)j * D + k];
            r[j] *= scale;
            m = r[j] > m ? r[j] : m;
        }
        for (int j = 0; j < N; j++)
            sum += exp(r[j] - m);
        for (int j = 0; j < N; j++)
            r[j] = exp(r[j] - m) / sum;
    }
    float *dQ, *dK, *dS, *dP;
    CHECK(cudaMalloc(&dQ, nq * 4));
    CHECK(cudaMalloc(&dK, nk * 4));
    CHECK(cudaMalloc(&dS, ns * 4));
    CHECK(cudaMalloc(&dP, ns * 4));
    CHECK(cudaMemcpy(dQ, hQ, nq * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dK, hK, nk * 4, cudaMemcpyHostToDevice));
    dim3 block(TS, TS), grid(N / TS, M / TS);
    auto chain = [&] {
        pipefy_launch_queue0(grid, block, M, ROW_THREADS, 0, dQ, dK, dS, M, N, D, scale, dS, dP, N);
        (void)0 /* pipefy: 'row_softmax' runs in pipefy_launch_queue0's persistent launch */;
    };
    // S and P poisoned first: a softmax that reads S before qk has written it reads NaNs
    auto poisoned = [&] {
        CHECK(cudaMemset(dS, 0xff, ns * 4));
        CHECK(cudaMemset(dP, 0xff, ns * 4));
        chain();
    };
    poisoned();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hP, dP, ns * 4, cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("chain_softmax: reference skipped\nchecksum %016llx\n", (unsigned long long)harness_checksum(hP, ns * 4));
    else
        rc = harness_report("chain_softmax", hP, ref, ns, 1e-6, 1e-4);
    if (harness_repeat("chain_softmax", dP, hP, ns * 4, poisoned))
        rc = 1;
    harness_time("chain_softmax", 2.0 * M * N * D, chain);
    CHECK(cudaFree(dQ));
    CHECK(cudaFree(dK));
    CHECK(cudaFree(dS));
    CHECK(cudaFree(dP));
    free(hQ);
    free(hK);
    free(hP);
    free(ref);
    return rc;
}
