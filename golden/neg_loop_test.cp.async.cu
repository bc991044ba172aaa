#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async
// neg_loop_test.cu: loops whose test pipefy would answer a tile early. The loader asks whether
// there is a next tile, and loads it, before this tile's compute runs; when the compute can
// change the answer, a tile the loop as written never loads would be loaded (here harmless,
// in general past the end of an array). Each is left as written, with what the test reads.
#define TS 16

// the compute lowers the bound
__global__ void bound_changes(const float *A, const float *B, float *C, int N, int K, float limit)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int kend = K;
    for (int k0 = 0; k0 < kend; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        if (As[0][0] > limit)
            kend = k0;
        __syncthreads();
    }
    C[row * N + col] = acc;
}

struct shape {
    int K;
};

// the bound is read from memory the compute may write (C may be where s points; A and B are
// __restrict__, so the copies' own loads are not the problem)
__global__ void bound_in_memory(const float *__restrict__ A, const float *__restrict__ B, float *C, int N,
                                const shape *s)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int K = s->K;
    for (int k0 = 0; k0 < s->K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        C[row * N + col] = acc;
        __syncthreads();
    }
}

// an address that reads memory the compute may write: the copies' own inputs, read a tile early
__global__ void address_in_memory(const float *__restrict__ A, const float *__restrict__ B, float *C, int N,
                                  int K, const shape *s)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * s->K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        C[row * N + col] = acc;
        __syncthreads();
    }
}

// the same bound with nothing in the body writing memory: the test means the same a tile
// early, and the loop is pipelined
__global__ void bound_in_memory_unchanged(const float *A, const float *B, float *C, int N, const shape *s)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < s->K) {
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], &A[row * s->K + k0 + tx], sizeof(float));
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < s->K; k0 += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    C[row * N + col] = acc;
}
