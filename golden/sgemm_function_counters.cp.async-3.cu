// sgemm_function_counters.cu: copy loops whose counter the kernel declares once, at its top
// (`int x; .. for (x = 0; x < 4; ++x) As[..] = ..;`), and that the compute's loops use again,
// each setting it first. shared_counter: what the copies read of x is their own, so the
// compute's writes of it do not reach them; cp.async gives its loader an x of its own, and
// register staging is refused, with the counter named (it stages copy loops that declare
// theirs). leftover_read reads the copy loop's last x in the compute, and read_after reads it
// after the loop: both are left as written (the loader would set it a tile early).
// break_before_set's compute sets y in a loop that may leave before it (`if (x >= lim) break;`,
// lim 0 at run time), then reads y: what it reads is the copy loop's last y, so that loop is
// left as written too (a gate that took a counted loop's body for run once would give the
// loader its own y, and the compute would read 0). unsigned_trips' compute sets x in a loop
// that never runs (`for (int q = -1; q < 4u; ++q)`: -1 converted to unsigned), so it reads the
// copy loop's last x: left as written too.
// Usage: sgemm_function_counters [M N K] (multiples of 32).
// gpu-runs: 32 32 0 | 32 32 32 | 64 64 64 | 64 64 96 | 256 256 256 | 512 512 512
// gpu-sanitize: 64 64 96
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define T 32

__global__ void shared_counter(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[3][T][T];
    __shared__ float Bs[3][T][T];
    int tx = threadIdx.x, ty = threadIdx.y, x;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[4] = {};
    // pipefy: K-loop pipelined with cp.async, 3 stages: tile t+2 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            int x; // pipefy: the loader's own
            if (k0 < K) {
                for (x = 0; x < 4; ++x) {
                    __pipeline_memcpy_async(&As[pipefy_dst][ty + 8 * x][tx], &A[(row0 + ty + 8 * x) * K + k0 + tx], sizeof(float));
                    __pipeline_memcpy_async(&Bs[pipefy_dst][ty + 8 * x][tx], &B[(k0 + ty + 8 * x) * N + col], sizeof(float));
                }
                k0 += T;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tiles 0..1
        for (int pipefy_s = 0; pipefy_s < 2; ++pipefy_s)
            pipefy_load(pipefy_s);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+2, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < K; k0 += T) {
            __pipeline_wait_prior(1); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 3 is free again
            pipefy_load((pipefy_stage + 2) % 3);
            for (x = 0; x < 4; ++x)
                for (int k = 0; k < T; ++k)
                    acc[x] += As[pipefy_stage][ty + 8 * x][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) % 3;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    for (x = 0; x < 4; ++x)
        C[(row0 + ty + 8 * x) * N + col] = acc[x];
}

__global__ void leftover_read(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, x;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[4] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (x = 0; x < 4 && k0 + 8 * x < K; ++x) {
            As[ty + 8 * x][tx] = A[(row0 + ty + 8 * x) * K + k0 + tx];
            Bs[ty + 8 * x][tx] = B[(k0 + ty + 8 * x) * N + col];
        }
        __syncthreads();
        int rows = x;  // the copy loop's last x
        for (x = 0; x < rows; ++x)
            for (int k = 0; k < T; ++k)
                acc[x] += As[ty + 8 * x][k] * Bs[k][tx];
        __syncthreads();
    }
    for (x = 0; x < 4; ++x)
        C[(row0 + ty + 8 * x) * N + col] = acc[x];
}

__global__ void read_after(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, x = 4;  // (4 after any tile, and with none)
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[4] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (x = 0; x < 4; ++x) {
            As[ty + 8 * x][tx] = A[(row0 + ty + 8 * x) * K + k0 + tx];
            Bs[ty + 8 * x][tx] = B[(k0 + ty + 8 * x) * N + col];
        }
        __syncthreads();
        for (int y = 0; y < 4; ++y)
            for (int k = 0; k < T; ++k)
                acc[y] += As[ty + 8 * y][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int y = 0; y < 4; ++y)
        C[(row0 + ty + 8 * y) * N + col] = acc[y] + (x - 4);
}

__global__ void break_before_set(const float *A, const float *B, float *C, int M, int N, int K, int lim)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, x, y = 0;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[4] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (x = 0; x < 4; ++x)
            for (y = 0; y < 1; ++y) {
                As[ty + 8 * x][tx] = A[(row0 + ty + 8 * x) * K + k0 + tx];
                Bs[ty + 8 * x][tx] = B[(k0 + ty + 8 * x) * N + col];
            }
        __syncthreads();
        for (x = 0; x < 4; ++x)
            for (int k = 0; k < T; ++k)
                acc[x] += As[ty + 8 * x][k] * Bs[k][tx];
        for (x = 0; x < 4; ++x) {
            if (x >= lim)
                break;
            y = 1;
        }
        acc[0] += (float)(y - 1);  // y is 1 here: the copy loop's, or this loop's
        __syncthreads();
    }
    for (x = 0; x < 4; ++x)
        C[(row0 + ty + 8 * x) * N + col] = acc[x];
}

__global__ void unsigned_trips(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, x = 7;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float acc[4] = {};
    for (int k0 = 0; k0 < K; k0 += T) {
        for (x = 0; x < 4; ++x) {
            As[ty + 8 * x][tx] = A[(row0 + ty + 8 * x) * K + k0 + tx];
            Bs[ty + 8 * x][tx] = B[(k0 + ty + 8 * x) * N + col];
        }
        __syncthreads();
        for (int y = 0; y < 4; ++y)
            for (int k = 0; k < T; ++k)
                acc[y] += As[ty + 8 * y][k] * Bs[k][tx];
        for (int q = -1; q < 4u; ++q)
            x = 0;
        acc[0] += (float)(x - 4);  // x is the copy loop's 4: the loop above never runs
        __syncthreads();
    }
    for (int y = 0; y < 4; ++y)
        C[(row0 + ty + 8 * y) * N + col] = acc[y];
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    bad |= harness_gemm<float, float>("shared_counter", M, N, K, [&](const float *A, const float *B, float *C) {
        shared_counter<<<dim3(N / T, M / T), dim3(T, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("leftover_read", M, N, K, [&](const float *A, const float *B, float *C) {
        leftover_read<<<dim3(N / T, M / T), dim3(T, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("read_after", M, N, K, [&](const float *A, const float *B, float *C) {
        read_after<<<dim3(N / T, M / T), dim3(T, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("break_before_set", M, N, K, [&](const float *A, const float *B, float *C) {
        break_before_set<<<dim3(N / T, M / T), dim3(T, 8)>>>(A, B, C, M, N, K, 0);
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("unsigned_trips", M, N, K, [&](const float *A, const float *B, float *C) {
        unsigned_trips<<<dim3(N / T, M / T), dim3(T, 8)>>>(A, B, C, M, N, K);
    }, 1e-4, 1e-4);
    return bad;
}
