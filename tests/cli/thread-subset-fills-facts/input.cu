// Copies under a branch with no else that only some threads take, with the locals the
// branch declares: what register staging needs of them (--variant=ldg).
#define BK 8
#define BM 64
#define BN 64

// the branch's locals are arithmetic on the thread's index: staged
__global__ void __launch_bounds__(256) locals_pipelined(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK) { int r = tid / 8; int c = tid % 8; As[c][r] = A[(blockIdx.y * BM + r) * K + k0 + c]; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// a local reads the loop variable for the load alone: staged (the store reads the fetched tile's)
__global__ void __launch_bounds__(256) local_reads_loop_variable(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK) { int gc = k0 + tid % 8; As[tid % 8][tid / 8] = A[(blockIdx.y * BM + tid / 8) * K + gc]; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// a float4 fetched in the branch, its lanes stored under a nested if: staged
__global__ void __launch_bounds__(256) fetch_in_nested_branch(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK / 4) { int row_a = tid / 2; int col_a = (tid % 2) * 4; float4 v = reinterpret_cast<const float4 *>(&A[(blockIdx.y * BM + row_a) * K + k0 + col_a])[0]; if (tid < 64) { As[col_a + 0][row_a] = v.x; As[col_a + 1][row_a] = v.y; As[col_a + 2][row_a] = v.z; As[col_a + 3][row_a] = v.w; } }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// the destination reads a local that reads the loop variable: it moves
__global__ void __launch_bounds__(256) destination_reads_loop_variable(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK) { int c = k0 % 8 + tid % 8; As[c % 8][tid / 8] = A[(blockIdx.y * BM + tid / 8) * K + k0 + tid % 8]; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// a local of the branch reads memory: computed again by the stash, it could differ
__global__ void __launch_bounds__(256) local_from_memory(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK) { int r = A[0] > 0.f ? tid / 8 : 0; As[tid % 8][r] = A[(blockIdx.y * BM + tid / 8) * K + k0 + tid % 8]; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// a local of the branch is written after its declaration
__global__ void __launch_bounds__(256) local_written_again(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK) { int r = tid / 8; r += 0; As[tid % 8][r] = A[(blockIdx.y * BM + tid / 8) * K + k0 + tid % 8]; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// the fetched float4 is changed before its lanes are stored: a computed value
__global__ void __launch_bounds__(256) fetch_changed(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK / 4) { int row_a = tid / 2; int col_a = (tid % 2) * 4; float4 v = reinterpret_cast<const float4 *>(&A[(blockIdx.y * BM + row_a) * K + k0 + col_a])[0]; v.x += 1.f; As[col_a + 0][row_a] = v.x; As[col_a + 1][row_a] = v.y; As[col_a + 2][row_a] = v.z; As[col_a + 3][row_a] = v.w; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// the fetched float4 is also written to global memory
__global__ void __launch_bounds__(256) fetch_also_stored_to_global(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < BM * BK / 4) { int row_a = tid / 2; int col_a = (tid % 2) * 4; float4 v = reinterpret_cast<const float4 *>(&A[(blockIdx.y * BM + row_a) * K + k0 + col_a])[0]; As[col_a + 0][row_a] = v.x; As[col_a + 1][row_a] = v.y; As[col_a + 2][row_a] = v.z; As[col_a + 3][row_a] = v.w; C[tid] = v.x; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}

// the branch's test reads the loop variable: the tile is filled on some tiles only
__global__ void __launch_bounds__(256) guard_reads_loop_variable(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (k0 + 8 <= K) { int r = tid / 8; As[tid % 8][r] = A[(blockIdx.y * BM + tid / 8) * K + k0 + tid % 8]; }
        if (tid < BK * BN / 4) {
            int row_b = tid / 16, col_b = (tid % 16) * 4;
            *(float4 *)&Bs[row_b][col_b] = *(const float4 *)&B[(k0 + row_b) * N + blockIdx.x * BN + col_b];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(blockIdx.y * BM + threadIdx.y) * N + blockIdx.x * BN + threadIdx.x] = acc;
}
