// sgemm_scratch_after.cu: locals declared at the top of the kernel, the habit of C89 (`int row,
// col, k;`), that a fill sets inside its branch (`if (ty < TS) { row = ..; As[..] = A[row * K
// + ..]; }`, symphonylyh's convolution) or a statement of its own sets before a copy, and that
// the code after the loop sets again before it reads them, or never names: no iteration reads
// what another left, and nothing after the loop reads what the loop left, so the loader may set
// them a tile early with the copies, in locals of its own. Register staging, which stores the
// registers by running the copies again, takes a value that is the same on every tile; one set
// from the tile's position is cp.async's alone; one the compute reads too stays in the compute
// as well. The negative kernels attack each fact: the value read after the loop, read in an
// enclosing loop's next trip, by the loop's own test, through a lambda, through a pointer, by
// the compute.
// Usage: sgemm_scratch_after [M N K] (multiples of TS)
// gpu-runs: 16 16 0 | 32 32 32 | 64 64 96 | 256 256 256
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TS 16

__global__ void scratch_in_fill(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row, col, k;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
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
            int row; // pipefy: the loader's own
            int col; // pipefy: the loader's own
            if (!(k0 < K))
                return false;
            if (ty < TS) {
                row = blockIdx.y * TS + ty;
                pipefy_reg0 = A[row * K + k0 + tx];
            }
            col = blockIdx.x * TS + tx;
            pipefy_reg1 = B[(k0 + ty) * N + col];
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            int row; // pipefy: the loader's own
            if (ty < TS) {
                row = blockIdx.y * TS + ty;
                As[pipefy_dst][ty][tx] = pipefy_reg0;
            }
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
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
            for (k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// the index set from the tile's position inside the fill's branch: cp.async sets it a tile
// early with the copies; the registers' stores would set it again a tile later (left to cp.async)
__global__ void scratch_per_tile(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int idx, k;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (tx < TS) {
            idx = (blockIdx.y * TS + ty) * K + k0 + tx;
            As[ty][tx] = A[idx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    idx = (blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx;
    C[idx] = acc;
}

// set by a statement of its own from the tile's position and read by the copies and the compute
// (symphonylyh's `m = t * 16;`): the compute keeps its statement, the loader sets a local of
// its own; register staging, which stores a tile later through the index, leaves it to cp.async
__global__ void scratch_both_sides(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int slot;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        slot = (k0 / TS) % 2;
        As[slot][ty][tx] = A[(blockIdx.y * TS + ty) * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[slot][ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// two such locals of one declaration (`int row, slot;`: one extent for both), the fill's and
// the step's the compute reads too: each loader sets its own of each
__global__ void scratch_one_declaration(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row, slot;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        slot = (k0 / TS) % 2;
        Bs[slot][ty][tx] = B[(k0 + ty) * N + blockIdx.x * TS + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[slot][k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// set twice in one fill, the second time from the tile's position (B's rows rotated by the
// tile): register staging, which sets it again where it stores the registers, a tile later, is
// refused, for each set is read; cp.async takes it
__global__ void scratch_set_twice(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            r = ty;
            As[r][tx] = A[(blockIdx.y * TS + r) * K + k0 + tx];
            r = (ty + k0 / TS) % TS;
            Bs[r][tx] = B[(k0 + r) * N + blockIdx.x * TS + tx];
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TS + ty) * N + blockIdx.x * TS + tx] = acc;
}

// read after the loop, as the last tile's fill left it (the same value here): left as written
__global__ void scratch_read_after(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the loop inside another, whose next trip reads what the fill left (before setting it; the
// value is off by K there, which the next trip takes back): left as written
__global__ void scratch_outer_trip(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float total = 0.0f;
    for (int rep = 0; rep < 2; ++rep) {
        float acc = rep ? (float)(row - K - (int)(blockIdx.y * TS + ty)) : 0.0f;
        for (int k0 = 0; k0 < K; k0 += TS) {
            if (ty < TS) {
                row = blockIdx.y * TS + ty + K;
                As[ty][tx] = A[(row - K) * K + k0 + tx];
            }
            Bs[ty][tx] = B[(k0 + ty) * N + col];
            __syncthreads();
            for (int k = 0; k < TS; ++k)
                acc += As[ty][k] * Bs[k][tx];
            __syncthreads();
        }
        total += 0.5f * acc;
    }
    C[(blockIdx.y * TS + ty) * N + col] = total;
}

// read by the loop's own test, which runs after each trip's fill (the first test reads it
// before any fill, K further off): left as written
__global__ void scratch_in_header(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int base = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int row = base - K;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K - (row - base); k0 += TS) {
        if (ty < TS) {
            row = base;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[base * N + col] = acc;
}

// a lambda that reads it, defined before the loop and called after it: left as written
__global__ void scratch_lambda(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = 0, col = blockIdx.x * TS + tx;
    auto at = [&] { return row * N + col; };
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (K == 0)
        row = blockIdx.y * TS + ty;
    C[at()] = acc;
}

// its address kept in a pointer, read through after the loop: left as written
__global__ void scratch_address(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const int *rp = &row;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            row = blockIdx.y * TS + ty;
            As[ty][tx] = A[row * K + k0 + tx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[*rp * N + col] = acc;
}

// the compute reads it too: a loader a tile ahead would hand it the next tile's: left
__global__ void scratch_in_compute(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int idx, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (ty < TS) {
            idx = (blockIdx.y * TS + ty) * K + k0 + tx;
            As[ty][tx] = A[idx];
        }
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        acc += (float)(idx - ((blockIdx.y * TS + ty) * K + k0 + tx));
        __syncthreads();
    }
    idx = (blockIdx.y * TS + ty) * N + col;
    C[idx] = acc;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int bad = 0;
    dim3 grid(N / TS, M / TS), block(TS, TS);
#define RUN(kernel)                                                                                         \
    bad |= harness_gemm<float, float>(#kernel, M, N, K, [&](const float *A, const float *B, float *C) {    \
        kernel<<<grid, block>>>(A, B, C, M, N, K);                                                         \
    }, 1e-4, 1e-4)
    RUN(scratch_in_fill);
    RUN(scratch_per_tile);
    RUN(scratch_both_sides);
    RUN(scratch_one_declaration);
    RUN(scratch_set_twice);
    RUN(scratch_read_after);
    RUN(scratch_outer_trip);
    RUN(scratch_in_header);
    RUN(scratch_lambda);
    RUN(scratch_address);
    RUN(scratch_in_compute);
    return bad;
}
