// A tile element must be stored once a tile, on every tile alike: a jump that skips the store on
// some tiles leaves a stage holding an older tile (the loop as written kept the last one it
// stored), and two asynchronous copies of one thread to one element land in no fixed order.
// Each kernel below breaks that, in the loop or in a fill helper, but for the last two, which
// cp.async takes. (Found by attacking template fill helpers: the first two, pipelined before,
// computed other sums than the loops as written.)
#define BM 64
#define BN 64
#define BK 16

// a break out of the copy loop on odd tiles: their last rows keep the tile before's
__global__ void break_on_odd_tiles(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK; i += 256) {
            if ((k0 / BK) % 2 && i >= 512)
                break;
            As[i / BK][i % BK] = A[(blockIdx.y * BM + i / BK) * K + k0 + i % BK];
        }
        for (int i = tid; i < BK * BN; i += 256)
            Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + blockIdx.x * BN + i % BN];
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

// a continue past every other element, alternating with the tile
__global__ void continue_by_tile(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK; i += 256) {
            if ((k0 / BK + i) % 2)
                continue;
            As[i / BK][i % BK] = A[(blockIdx.y * BM + i / BK) * K + k0 + i % BK];
        }
        for (int i = tid; i < BK * BN; i += 256)
            Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + blockIdx.x * BN + i % BN];
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

// a helper that returns early on odd tiles for half the block
template <int ROWS, int COLS>
__device__ void load_unless(float (*S)[COLS], const float *G, int ld, int k0)
{
    if ((k0 / BK) % 2 && threadIdx.y >= 8)
        return;
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS; i += 256)
        S[i / COLS][i % COLS] = G[(i / COLS) * ld + i % COLS];
}

template <int T>
__global__ void helper_returns(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_unless<BM, BK>(As, A + blockIdx.y * BM * K + k0, K, k0);
        load_unless<BK, BN>(Bs, B + k0 * N + blockIdx.x * BN, N, k0);
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

namespace q {
struct Ld {
    int v;
};
} // namespace q

template <int ROWS, int COLS>
__device__ void load(float (*S)[COLS], const float *G, q::Ld ld)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS; i += 256)
        S[i / COLS][i % COLS] = G[(i / COLS) * ld.v + i % COLS];
}

// the call in the template, its arguments' types the template's, is looked up again where it
// is instantiated, by those types too: q::load below, a better match for a float *, is the one
// found_by_argument<float> runs
template <typename F>
__global__ void found_by_argument(F *A, F *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load<BM, BK>(As, A + blockIdx.y * BM * K + k0, q::Ld{K});
        load<BK, BN>(Bs, B + k0 * N + blockIdx.x * BN, q::Ld{N});
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

namespace q {
template <int ROWS, int COLS>
__device__ void load(float (*S)[COLS], float *G, Ld ld)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS; i += 256)
        S[i / COLS][i % COLS] = G[(i / COLS) * ld.v + i % COLS] * 0.5f;
}
} // namespace q

template <int ROWS, int COLS, int REP>
__device__ void load_rep(float (*S)[COLS], const float *G, int ld)
{
    for (int j = 0; j < REP; ++j)
        for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS; i += 256)
            S[i / COLS][i % COLS] = G[(i / COLS) * ld + i % COLS];
}

// the outer loop of the helper stores the same elements again on its every trip
__global__ void helper_repeats(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_rep<BM, BK, 2>(As, A + blockIdx.y * BM * K + k0, K);
        load_rep<BK, BN, 1>(Bs, B + k0 * N + blockIdx.x * BN, N);
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

template <int ROWS, int COLS>
__device__ void load_ref(float (&S)[ROWS][COLS], const float *G, int ld)
{
    for (int i = threadIdx.y * 16 + threadIdx.x; i < ROWS * COLS; i += 256)
        S[i / COLS][i % COLS] = G[(i / COLS) * ld + i % COLS];
}

// A's tile filled twice, first from tile 0: the second call's copies must land last
__global__ void tile_filled_twice(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_ref(As, A + blockIdx.y * BM * K, K);
        load_ref(As, A + blockIdx.y * BM * K + k0, K);
        load_ref(Bs, B + k0 * N + blockIdx.x * BN, N);
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

// taken: a break the same on every tile, and a helper taking its tile by reference, its
// template arguments deduced
__global__ void same_every_tile(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < 2 * BM * BK; i += 256) {
            if (i >= BM * BK)
                break;
            As[i / BK][i % BK] = A[(blockIdx.y * BM + i / BK) * K + k0 + i % BK];
        }
        for (int i = tid; i < BK * BN; i += 256)
            Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + blockIdx.x * BN + i % BN];
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}

__global__ void reference_tiles(const float *A, const float *B, float *C, int N, int K)
{
    __shared__ float As[BM][BK], Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_ref(As, A + blockIdx.y * BM * K + k0, K);
        load_ref(Bs, B + k0 * N + blockIdx.x * BN, N);
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty * 4][k] * Bs[k][tx * 4];
        __syncthreads();
    }
    C[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx] = acc;
}
