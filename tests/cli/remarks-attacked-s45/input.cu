// Refusals whose reasons an attack found untrue (session 45): each names the real obstacle now.
// (The build before said: "sits in the loop at 14:9" of a comma expression; "may be made on some
// tiles and not on others" of an if/else that stores in both branches; a read-only __shared__
// input taken for a tile; "the compute at 20:9" of a load before the barrier; "updates a tile in
// place" of a pointer bump; "pipefy cannot read" of a load function; "a computed value" of a
// float2 loaded component by component.)
#define TS 16

// two copies joined by a comma in one statement
namespace s01 {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = A[row * K + k0 + tx], Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    C[row * N + col] = acc;
}
}

// an if/else whose branches both load (the else from a clamped address)
namespace g08 {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        if (k0 + tx < K) As[ty][tx] = A[row * K + k0 + tx]; else As[ty][tx] = A[row * K + K - 1];
        if (k0 + ty < K) Bs[ty][tx] = B[(k0 + ty) * N + col]; else Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    C[row * N + col] = acc;
}
}

// a read-only __shared__ index table handed to the fill helper
namespace a30e {
__device__ void load(float (*s)[TS], const float *g, int ld, int r, int c, const int *sh)
{
    s[threadIdx.y][threadIdx.x] = g[r * ld + c + sh[threadIdx.y * TS + threadIdx.x]];
}
__device__ void load2(float (*s)[TS], const float *g, int ld, int r, int c)
{
    s[threadIdx.y][threadIdx.x] = g[r * ld + c];
}
__device__ void poke(int *p, int i, int v)
{
    p[i] = v;
}

__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    __shared__ int sshift[TS * TS];
    sshift[ty * TS + tx] = (tx < TS - 1) ? ((ty + blockIdx.x) & 1) : 0;
    __syncthreads();
    for (int k0 = 0; k0 < K; k0 += TS) {
        load(As, A, K, row, k0 + tx, sshift);
        load2(Bs, B, N, k0 + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// one float4 local loaded for A, then again for B
namespace b07 {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * 16 + tx;
    int r4 = tid / 4, c4 = (tid % 4) * 4;
    int col = blockIdx.x * TS + tx;
    const float *Ab = A + blockIdx.y * TS * K;
    const float *Bb = B + blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += TS) {
        float4 v = reinterpret_cast<const float4 *>(Ab + r4 * K + k0)[c4 / 4];
        As[r4][c4 + 0] = v.x; As[r4][c4 + 1] = v.y; As[r4][c4 + 2] = v.z; As[r4][c4 + 3] = v.w;
        v = reinterpret_cast<const float4 *>(Bb + (k0 + r4) * N)[c4 / 4];
        Bs[r4][c4 + 0] = v.x; Bs[r4][c4 + 1] = v.y; Bs[r4][c4 + 2] = v.z; Bs[r4][c4 + 3] = v.w;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 4 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        C[(blockIdx.y * TS + ty + 4 * i) * N + col] = acc[i];
}
}

// a fill helper that moves the tile pointer it is handed
namespace a22 {
__device__ void load(float (*s)[TS], const float *g, int ld, int r, int c)
{
    s += threadIdx.y;
    (*s)[threadIdx.x] = g[r * ld + c];
}

__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        load(As, A, K, row, k0 + tx);
        load(Bs, B, N, k0 + ty, col);
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    C[row * N + col] = acc;
}
}

// a load function handed a pointer to a __shared__ scalar the compute writes
namespace v01 {
__device__ float get(const float *g, int i, const float *sc)
{
    return g[i] * sc[0];
}

__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    __shared__ float scale;
    if (tx == 0 && ty == 0) scale = 1.0f;
    __syncthreads();
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = get(A, row * K + k0 + tx, &scale);
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        if (tx == 0 && ty == 0) scale = scale * 0.5f + 1.0f;
        __syncthreads();
    }
    C[row * N + col] = acc;
}
}

// a float2 local loaded one component at a time
namespace b15 {
__global__ void kern(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * 16 + tx;
    int r4 = tid / 4, c4 = (tid % 4) * 4;
    int col = blockIdx.x * TS + tx;
    const float *Ab = A + blockIdx.y * TS * K;
    const float *Bb = B + blockIdx.x * TS;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += TS) {
        float2 p;
        p.x = Ab[r4 * K + k0 + c4];
        p.y = Ab[r4 * K + k0 + c4 + 1];
        As[r4][c4 + 0] = p.x; As[r4][c4 + 1] = p.y;
        p.x = Ab[r4 * K + k0 + c4 + 2];
        p.y = Ab[r4 * K + k0 + c4 + 3];
        As[r4][c4 + 2] = p.x; As[r4][c4 + 3] = p.y;
        float4 vb = reinterpret_cast<const float4 *>(Bb + (k0 + r4) * N)[c4 / 4];
        Bs[r4][c4 + 0] = vb.x; Bs[r4][c4 + 1] = vb.y; Bs[r4][c4 + 2] = vb.z; Bs[r4][c4 + 3] = vb.w;
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 4 * i][k] * Bs[k][tx];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        C[(blockIdx.y * TS + ty + 4 * i) * N + col] = acc[i];
}
}
