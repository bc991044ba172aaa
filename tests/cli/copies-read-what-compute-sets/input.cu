// Copies whose guard or address reads what this tile leaves behind (session 45's second attack;
// the build before pipelined each, auto the first three, wrong in the CPU block model): a guard
// reading the other tile this thread just filled, a shift read through a pointer to a local the
// compute sets, or through a lambda capturing it by reference. The loader evaluates them a tile
// early; each is refused now.
#define TS 16

// g26_auto_guard_reads_other_tile: as g21 (A's if/else __ldg copy guarded by this thread's just-filled Bs element), and Bs is read once after the loop, so auto plans ldg with 1 stage
namespace g26 {
#ifdef PIPEFY_CPU_MODEL
template <typename T> inline T __ldcg(const T *p) { return *p; }
template <typename T> inline T __ldca(const T *p) { return *p; }
template <typename T> inline T __ldcs(const T *p) { return *p; }
template <typename T> inline T __ldlu(const T *p) { return *p; }
#endif

__global__ void kern(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (k0 + ty < K) Bs[ty][tx] = __ldg(&B[(k0 + ty) * N + col]);
        else Bs[ty][tx] = 0.0f;
        if (k0 + tx < K && Bs[ty][tx] > -0.3f) As[ty][tx] = __ldg(&A[row * K + k0 + tx]);
        else As[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (Bs[ty][tx] == 12345.0f) acc += 1.0f;
    C[row * N + col] = acc;
}
}

// g21t_ternary_guard_reads_other_tile: (ternary form of g21) As = (k0+tx<K && Bs[ty][tx] > -0.3f) ? A[..] : 0
namespace g21t {
#ifdef PIPEFY_CPU_MODEL
template <typename T> inline T __ldcg(const T *p) { return *p; }
template <typename T> inline T __ldca(const T *p) { return *p; }
template <typename T> inline T __ldcs(const T *p) { return *p; }
template <typename T> inline T __ldlu(const T *p) { return *p; }
#endif

__global__ void kern(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (k0 + ty < K) Bs[ty][tx] = __ldg(&B[(k0 + ty) * N + col]);
        else Bs[ty][tx] = 0.0f;
        As[ty][tx] = (k0 + tx < K && Bs[ty][tx] > -0.3f) ? A[row * K + k0 + tx] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// h29d_direct_ptr_to_local: (direct copy) A's copy reads its column shift as *psh, psh = &sh (a kernel local) set before the loop; the compute sets sh each tile
namespace h29d {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int sh = 0;
    const int *psh = &sh;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx + *psh];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        sh = (tx < TS - 1) ? ((k0 / TS) & 1) : 0;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// h29l_direct_lambda_local: (direct copy) A's copy reads its column shift through a lambda getsh() capturing the local sh by reference; the compute sets sh each tile
namespace h29l {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int sh = 0;
    auto getsh = [&]() { return sh; };
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx + getsh()];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        sh = (tx < TS - 1) ? ((k0 / TS) & 1) : 0;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// h29_helper_ptr_to_local: the helper reads its column shift through 'const int *psh', which points at the kernel local 'sh' (int *psh = &sh before the loop); the compute sets sh each tile (sh = parity, not through the pointer)
namespace h29 {
__device__ void load(float (*s)[TS], const float *g, int ld, int r, int c, const int *psh)
{
    s[threadIdx.y][threadIdx.x] = g[r * ld + c + *psh];
}
__device__ void loadb(float (*s)[TS], const float *g, int ld, int r, int c)
{
    s[threadIdx.y][threadIdx.x] = g[r * ld + c];
}
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    int sh = 0;
    const int *psh = &sh;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load(As, A, K, row, k0 + tx, psh);
        loadb(Bs, B, N, k0 + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        sh = (tx < TS - 1) ? ((k0 / TS) & 1) : 0;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}
