// neg_ws.cu: K-loops that tensor copies take but a producer warp must not: the producer warp
// runs the code before the loop with thread indices past the kernel's, and leaves after the
// loop. base_shape is taken (the control); each other kernel changes one thing, and the ws
// golden's remark names it.
// pipefy-golden: tma ws ws-cp.async
#include <cuda_runtime.h>

#define T 32

// 256 threads, flat A tile, both tiles copied by loops strided by blockDim.x; the words in the
// comments (a return, a goto, a sync) are not statements
__global__ void base_shape(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    // no return before the loop and no goto anywhere
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 187:5); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    // no sync after the loop either
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a store before the loop: the producer's thread indices would write past the output tile
__global__ void store_before(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    C[(r0 + ty) * N + c0 + tx] = 0.0f;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 188:5); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] += acc[j];
}

// a load indexed by the thread before the loop: the producer's would read past the bias
__global__ void read_before(const float *A, const float *B, const float *bias, float *C, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    const float b = bias[c0 + threadIdx.x % T + T * (threadIdx.x / T)];
    float acc[4] = {b, b, b, b};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 189:5); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a return before the loop: a producer that returned would copy nothing
__global__ void return_before(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    if (r0 >= M)
        return;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 190:5); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// a barrier after the loop (the epilogue goes through shared memory): the producer has left
__global__ void barrier_after(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    __shared__ float Cs[T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 256 threads (launch at 191:5); other block
    // sizes run the loop as written
    if (blockDim.x == 256) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 256 - 1) / 256];
        float pipefy_reg1[((T * T) + 256 - 1) / 256];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 256;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
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
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    // pipefy: the staging registers are sized for 1024 threads (launch at 193:5); other block
    // sizes run the loop as written
    if (blockDim.x == 1024) {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0[((T * T) + 1024 - 1) / 1024];
        float pipefy_reg1[((T * T) + 1024 - 1) / 1024];
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += T;
            if (!(k0 < K))
                return false;
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 1024 - 1) / 1024; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 1024;
                pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 1024 - 1) / 1024; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 1024;
                pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 1024 - 1) / 1024; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 1024;
                As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
            }
            for (int pipefy_j = 0; pipefy_j < ((T * T) + 1024 - 1) / 1024; ++pipefy_j) {
                int i = threadIdx.x + pipefy_j * 1024;
                Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
        for (int k0 = 0; k0 < K; k0 += T) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += T) {
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
            for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
            __syncthreads();
            for (int k = 0; k < T; ++k)
                for (int j = 0; j < 4; ++j)
                    acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
            __syncthreads();
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

// the K-loop inside another loop: a producer that left after it would miss the next pass
__global__ void nested(const float *A, const float *B, float *C, int N, int K, int passes)
{
    __shared__ float As[2][T * T];
    __shared__ float Bs[2][T][T];
    const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    const int tx = threadIdx.x % T, ty = threadIdx.x / T;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int p = 0; p < passes; ++p) {
        // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
        // pipefy: the staging registers are sized for 256 threads (launch at 192:5); other block
        // sizes run the loop as written
        if (blockDim.x == 256) {
            // pipefy: the loop variables of the next tile to load
            int pipefy_next_k0 = 0;
            // pipefy: staging registers
            float pipefy_reg0[((T * T) + 256 - 1) / 256];
            float pipefy_reg1[((T * T) + 256 - 1) / 256];
            // pipefy: load into the staging registers the tile after the one at these loop variables
            // (with step: the main loop's), or at them (the first); false once the tiles run out
            auto pipefy_fetch = [&](bool pipefy_step, int k0) {
                if (pipefy_step)
                    k0 += T;
                if (!(k0 < K))
                    return false;
                for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                    int i = threadIdx.x + pipefy_j * 256;
                    pipefy_reg0[pipefy_j] = A[(r0 + i / T) * K + k0 + i % T];
                }
                for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                    int i = threadIdx.x + pipefy_j * 256;
                    pipefy_reg1[pipefy_j] = B[(k0 + i / T) * N + c0 + i % T];
                }
                return true;
            };
            // pipefy: store the staging registers into stage pipefy_dst
            auto pipefy_stash = [&](int pipefy_dst) {
                for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                    int i = threadIdx.x + pipefy_j * 256;
                    As[pipefy_dst][i] = pipefy_reg0[pipefy_j];
                }
                for (int pipefy_j = 0; pipefy_j < ((T * T) + 256 - 1) / 256; ++pipefy_j) {
                    int i = threadIdx.x + pipefy_j * 256;
                    Bs[pipefy_dst][i / T][i % T] = pipefy_reg1[pipefy_j];
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
            for (int k0 = 0; k0 < K; k0 += T) {
                bool pipefy_more = pipefy_fetch(true, k0);
                __syncwarp(); // pipefy: the loads above stay ahead of the compute
                for (int k = 0; k < T; ++k)
                    for (int j = 0; j < 4; ++j)
                        acc[j] += As[pipefy_stage][(ty + 8 * j) * T + k] * Bs[pipefy_stage][k][tx];
                if (pipefy_more)
                    pipefy_stash(pipefy_stage ^ 1);
                __syncthreads();
                pipefy_stage ^= 1;
            }
        } else {
            for (int k0 = 0; k0 < K; k0 += T) {
                for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                    As[0][i] = A[(r0 + i / T) * K + k0 + i % T];
                for (int i = threadIdx.x; i < T * T; i += blockDim.x)
                    Bs[0][i / T][i % T] = B[(k0 + i / T) * N + c0 + i % T];
                __syncthreads();
                for (int k = 0; k < T; ++k)
                    for (int j = 0; j < 4; ++j)
                        acc[j] += As[0][(ty + 8 * j) * T + k] * Bs[0][k][tx];
                __syncthreads();
            }
        }
    }
    for (int j = 0; j < 4; ++j)
        C[(r0 + ty + 8 * j) * N + c0 + tx] = acc[j];
}

void run(const float *A, const float *B, const float *bias, float *C, int M, int N, int K)
{
    dim3 grid(N / T, M / T);
    base_shape<<<grid, 256>>>(A, B, C, N, K);
    store_before<<<grid, 256>>>(A, B, C, N, K);
    read_before<<<grid, 256>>>(A, B, bias, C, N, K);
    return_before<<<grid, 256>>>(A, B, C, M, N, K);
    barrier_after<<<grid, 256>>>(A, B, C, N, K);
    nested<<<grid, 256>>>(A, B, C, N, K, 2);
    full_block<<<grid, 1024>>>(A, B, C, N, K);
}
