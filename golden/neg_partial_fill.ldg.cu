// neg_partial_fill.cu: tile stores under a condition that changes from tile to tile, with no
// else that fills the element. On a tile the condition skips, the loop as written computes with
// the value the previous tile left there; a pipelined stage holds an older tile's value (or
// nothing yet), so the result would change. Each such loop is left as written, with the
// condition named. Loops whose conditions are the same on every tile are still pipelined.
#define TS 16

// the bounds check reads the loop variable: the last partial tile keeps the previous tile's
// values where it is not written (the shape of a public textbook kernel)
__global__ void if_without_else(const float *A, const float *B, float *C, int dim)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float prod = 0.0f;
    for (int ph = 0; ph < (dim + TS - 1) / TS; ++ph) {
        if (row < dim && ph * TS + tx < dim)
            As[ty][tx] = A[row * dim + ph * TS + tx];
        if (ph * TS + ty < dim && col < dim)
            Bs[ty][tx] = B[(ph * TS + ty) * dim + col];
        __syncthreads();
        for (int i = 0; i < TS; ++i)
            prod += As[ty][i] * Bs[i][tx];
        __syncthreads();
    }
    if (row < dim && col < dim)
        C[row * dim + col] = prod;
}

// the same through a local the body computes from the loop variable
__global__ void if_on_local(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        int ak = k0 + tx;
        if (ak < K)
            As[ty][tx] = A[row * K + ak];
        Bs[ty][tx] = (k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// a copy loop whose trip count shrinks on the last tile
__global__ void shrinking_copy_loop(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int c = tx; c < min(TS, K - k0); c += TS)
            As[ty][c] = A[row * K + k0 + c];
        Bs[ty][tx] = (k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// inside a helper, under a condition on the helper's parameter, which the loop variable moves
__device__ void load_a(float (*As)[TS], const float *A, int row, int K, int k0)
{
    int c = k0 + threadIdx.x;
    if (c < K)
        As[threadIdx.y][threadIdx.x] = A[row * K + c];
}

__global__ void helper_if(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load_a(As, A, row, K, k0);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * B[(k0 + k) * N + col];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// the same condition on every tile (which threads copy, a bound fixed before the loop): the
// same elements are written on every tile, so the loop is pipelined
__global__ void same_every_tile(const float *A, const float *B, float *C, int N, int K, int rows)
{
    __shared__ float As[2][TS][TS];
    __shared__ float Bs[2][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const bool copies = ty < rows;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        float pipefy_reg2;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < K))
                return false;
            if (copies)
                pipefy_reg0 = A[row * K + k0 + tx];
            if (ty < 8) {
                pipefy_reg1 = B[(k0 + ty) * N + col];
                pipefy_reg2 = B[(k0 + ty + 8) * N + col];
            }
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            if (copies)
                As[pipefy_dst][ty][tx] = pipefy_reg0;
            if (ty < 8) {
                Bs[pipefy_dst][ty][tx] = pipefy_reg1;
                Bs[pipefy_dst][ty + 8][tx] = pipefy_reg2;
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
        for (int k0 = 0; k0 < K; k0 += TS) {
            bool pipefy_more = pipefy_fetch(true, k0);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C[row * N + col] = acc;
}
