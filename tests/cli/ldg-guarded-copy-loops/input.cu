// Guarded copies (`if (g) X = load; else X = 0;`) inside copy loops whose trips register staging
// cannot count: each must be refused, not staged in one register a thread (which would store
// the last trip's value on every trip). The fourth kernel's loop is counted: one register a
// trip; the last one's guarded copy sits in a plain if, with a local set in the branch (as
// symphony's layer_1_half_local_shmem fills W_shared): one register, the branch run again.
#define TS 16

// a nested copy loop stepping by the block's sizes (wat3rblastor's sgemm_v3 fills so)
__global__ void two_steps(const float *A, float *C, int K)
{
    __shared__ float As[64][TS];
    float acc = 0.f;
    for (int t = 0; t < K / TS; ++t) {
        for (int r = threadIdx.y; r < 64; r += blockDim.y)
            for (int c = threadIdx.x; c < TS; c += blockDim.x)
                if (c < K) As[r][c] = A[r * K + t * TS + c]; else As[r][c] = 0.f;
        __syncthreads();
        for (int j = 0; j < TS; ++j)
            acc += As[threadIdx.y][j] * As[threadIdx.x][j];
        __syncthreads();
    }
    C[threadIdx.y * TS + threadIdx.x] = acc;
}

// a copy loop whose bound is no constant
__global__ void runtime_bound(const float *A, float *C, int K)
{
    __shared__ float As[64][TS];
    float acc = 0.f;
    int tid = threadIdx.y * TS + threadIdx.x;
    for (int t = 0; t < K / TS; ++t) {
        for (int i = tid; i < 64 * K / K * TS; i += 256)
            if (i % TS < K) As[i / TS][i % TS] = A[(i / TS) * K + t * TS + i % TS]; else As[i / TS][i % TS] = 0.f;
        __syncthreads();
        for (int j = 0; j < TS; ++j)
            acc += As[threadIdx.y][j] * As[threadIdx.x][j];
        __syncthreads();
    }
    C[tid] = acc;
}

// a counted copy loop under a branch
__global__ void loop_in_branch(const float *A, float *C, int K)
{
    __shared__ float As[64][TS];
    float acc = 0.f;
    int tid = threadIdx.y * TS + threadIdx.x;
    for (int t = 0; t < K / TS; ++t) {
        if (K > 0)
            for (int i = tid; i < 1024; i += 256)
                if (i % TS < K) As[i / TS][i % TS] = A[(i / TS) * K + t * TS + i % TS]; else As[i / TS][i % TS] = 0.f;
        __syncthreads();
        for (int j = 0; j < TS; ++j)
            acc += As[threadIdx.y][j] * As[threadIdx.x][j];
        __syncthreads();
    }
    C[tid] = acc;
}

// the counted copy loop as a statement of the body: four registers a thread
__global__ void counted(const float *A, float *C, int K)
{
    __shared__ float As[64][TS];
    float acc = 0.f;
    int tid = threadIdx.y * TS + threadIdx.x;
    for (int t = 0; t < K / TS; ++t) {
        for (int i = tid; i < 1024; i += 256)
            if (i % TS < K) As[i / TS][i % TS] = A[(i / TS) * K + t * TS + i % TS]; else As[i / TS][i % TS] = 0.f;
        __syncthreads();
        for (int j = 0; j < TS; ++j)
            acc += As[threadIdx.y][j] * As[threadIdx.x][j];
        __syncthreads();
    }
    C[tid] = acc;
}

// a guarded copy under a plain if that sets a local first
__global__ void in_plain_if(const float *A, float *C, int K)
{
    __shared__ float As[8][TS];
    float acc = 0.f;
    int row;
    for (int t = 0; t < K / TS; ++t) {
        if (threadIdx.y < 8) {
            row = threadIdx.y;
            if (t * TS + threadIdx.x < K) As[row][threadIdx.x] = A[row * K + t * TS + threadIdx.x]; else As[row][threadIdx.x] = 0.f;
        }
        __syncthreads();
        for (int j = 0; j < TS; ++j)
            acc += As[threadIdx.y % 8][j] * As[threadIdx.x % 8][j];
        __syncthreads();
    }
    C[threadIdx.y * TS + threadIdx.x] = acc;
}

void run(const float *A, float *C, int K)
{
    two_steps<<<1, dim3(TS, TS)>>>(A, C, K);
    runtime_bound<<<1, dim3(TS, TS)>>>(A, C, K);
    loop_in_branch<<<1, dim3(TS, TS)>>>(A, C, K);
    counted<<<1, dim3(TS, TS)>>>(A, C, K);
    in_plain_if<<<1, dim3(TS, TS)>>>(A, C, K);
}
