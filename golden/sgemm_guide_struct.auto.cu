// sgemm_guide_struct.cu: the CUDA C++ Programming Guide's shared-memory matrix product, its
// matrices a struct handed by value: `Matrix Asub = GetSubMatrix(A, blockRow, m);` in the body
// and `As[row][col] = GetElement(Asub, row, col);`, GetElement a one-line load through the
// struct's pointer member (`return A.elements[row * A.stride + col];`). The struct is plain, so
// handing it over runs no code; GetSubMatrix writes only its own local. Register staging loads
// GetElement's value a tile early. The negative kernels attack those facts: a struct whose copy
// constructor is the program's (it counts copies in a global), and a sub-matrix function that
// also writes a global: both left as written, with a remark that names the call.
// Usage: sgemm_guide_struct [M N K] (multiples of 16)
// gpu-runs: 16 16 0 | 16 16 16 | 32 48 64 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 32 48 64
#include "harness.cuh"

#define BLOCK_SIZE 16

typedef struct {
    int width;
    int height;
    int stride;
    float *elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col)
{
    return A.elements[row * A.stride + col];
}

__device__ Matrix GetSubMatrix(Matrix A, int row, int col)
{
    Matrix Asub;
    Asub.width = BLOCK_SIZE;
    Asub.height = BLOCK_SIZE;
    Asub.stride = A.stride;
    Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
    return Asub;
}

__global__ void guide_matmul(Matrix A, Matrix B, Matrix C)
{
    int blockRow = blockIdx.y, blockCol = blockIdx.x;
    int row = threadIdx.y, col = threadIdx.x;
    float Cvalue = 0;
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        __shared__ float As[2][BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[2][BLOCK_SIZE][BLOCK_SIZE];
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_m = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int m) {
            if (pipefy_step)
                ++m;
            if (!(m < (A.width / BLOCK_SIZE)))
                return false;
            Matrix Asub = GetSubMatrix(A, blockRow, m);
            Matrix Bsub = GetSubMatrix(B, m, blockCol);
            pipefy_reg0 = GetElement(Asub, row, col);
            pipefy_reg1 = GetElement(Bsub, row, col);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][row][col] = pipefy_reg0;
            Bs[pipefy_dst][row][col] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_m))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
            bool pipefy_more = pipefy_fetch(true, m);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int e = 0; e < BLOCK_SIZE; ++e)
                Cvalue += As[pipefy_stage][row][e] * Bs[pipefy_stage][e][col];
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    C.elements[(blockRow * BLOCK_SIZE + row) * C.stride + blockCol * BLOCK_SIZE + col] = Cvalue;
}

// a matrix whose copy constructor is the program's: each copy counts itself in a global
__device__ unsigned copies;

struct CountedMatrix {
    int width, stride;
    float *elements;
    __device__ CountedMatrix(int w, int s, float *e) : width(w), stride(s), elements(e) {}
    __device__ CountedMatrix(const CountedMatrix &o) : width(o.width), stride(o.stride), elements(o.elements)
    {
        atomicAdd(&copies, 1u);
    }
};

__device__ float GetCounted(const CountedMatrix A, int row, int col)
{
    return A.elements[row * A.stride + col];
}

__global__ void counted_matmul(Matrix A, Matrix B, Matrix C)
{
    int blockRow = blockIdx.y, blockCol = blockIdx.x;
    int row = threadIdx.y, col = threadIdx.x;
    float Cvalue = 0;
    CountedMatrix Am(A.width, A.stride, A.elements), Bm(B.width, B.stride, B.elements);
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
        As[row][col] = GetCounted(Am, blockRow * BLOCK_SIZE + row, m * BLOCK_SIZE + col);
        Bs[row][col] = GetCounted(Bm, m * BLOCK_SIZE + row, blockCol * BLOCK_SIZE + col);
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += As[row][e] * Bs[e][col];
        __syncthreads();
    }
    C.elements[(blockRow * BLOCK_SIZE + row) * C.stride + blockCol * BLOCK_SIZE + col] = Cvalue;
}

// a sub-matrix function that also writes a global (how many sub-matrices were taken)
__device__ unsigned taken;

__device__ Matrix GetSubMatrixCounted(Matrix A, int row, int col)
{
    atomicAdd(&taken, 1u);
    return GetSubMatrix(A, row, col);
}

__global__ void taken_matmul(Matrix A, Matrix B, Matrix C)
{
    int blockRow = blockIdx.y, blockCol = blockIdx.x;
    int row = threadIdx.y, col = threadIdx.x;
    float Cvalue = 0;
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
        Matrix Asub = GetSubMatrixCounted(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += As[row][e] * Bs[e][col];
        __syncthreads();
    }
    C.elements[(blockRow * BLOCK_SIZE + row) * C.stride + blockCol * BLOCK_SIZE + col] = Cvalue;
}

static Matrix matrix(const float *p, int rows, int cols)
{
    Matrix m;
    m.width = cols;
    m.height = rows;
    m.stride = cols;
    m.elements = const_cast<float *>(p);
    return m;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    dim3 grid(N / BLOCK_SIZE, M / BLOCK_SIZE), block(BLOCK_SIZE, BLOCK_SIZE);
    int bad = harness_gemm<float, float>("guide_matmul", M, N, K, [&](const float *A, const float *B, float *C) {
        guide_matmul<<<grid, block>>>(matrix(A, M, K), matrix(B, K, N), matrix(C, M, N));
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("counted_matmul", M, N, K, [&](const float *A, const float *B, float *C) {
        counted_matmul<<<grid, block>>>(matrix(A, M, K), matrix(B, K, N), matrix(C, M, N));
    }, 1e-4, 1e-4);
    bad |= harness_gemm<float, float>("taken_matmul", M, N, K, [&](const float *A, const float *B, float *C) {
        taken_matmul<<<grid, block>>>(matrix(A, M, K), matrix(B, K, N), matrix(C, M, N));
    }, 1e-4, 1e-4);
    return bad;
}
