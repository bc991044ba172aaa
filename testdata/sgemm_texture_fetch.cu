// sgemm_texture_fetch.cu: the tiles' loads read A and B through texture objects over linear
// memory (`CO[0] = tex1Dfetch<float4>(A, ia);`, HackGiter's mulMatrixKernelTV): a fetch pipefy's
// register staging starts a tile early. Within a kernel the texture cache is not kept coherent
// with the kernel's own global stores, so a texture fetch that is defined as written reads
// memory the kernel does not write, and reads the same a tile early. cp.async and the tensor
// copies move memory, not a texel: they refuse it. The first kernel fetches into float4 locals
// declared before the loop, the second declares them in the body.
// Usage: sgemm_texture_fetch [M N K] (multiples of TILE).
// gpu-runs: 64 64 0 | 64 64 32 | 64 64 64 | 64 64 96 | 256 256 256 | 1024 1024 1024
// gpu-sanitize: 64 64 96
#include "harness.cuh"

#define TILE 32

// a 16 x 16 block: each thread fetches one float4 of A and one of B per tile (A's transposed
// into As) and computes 2 x 2; ia and ib step by a tile's float4s each trip
__global__ void sgemm_texture_locals(cudaTextureObject_t A, cudaTextureObject_t B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int ia = ((row0 + am) * K + ak) / 4, ib = (bk * N + col0 + bn) / 4; // in float4s
    float4 av, bv;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    for (int t = 0; t < K / TILE; ++t) {
        av = tex1Dfetch<float4>(A, ia);
        bv = tex1Dfetch<float4>(B, ib);
        As[ak][am] = av.x;
        As[ak + 1][am] = av.y;
        As[ak + 2][am] = av.z;
        As[ak + 3][am] = av.w;
        *(float4 *)&Bs[bk][bn] = bv;
        ia += TILE / 4;
        ib += TILE * N / 4;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            acc[0][0] += As[k][threadIdx.y * 2] * Bs[k][threadIdx.x * 2];
            acc[0][1] += As[k][threadIdx.y * 2] * Bs[k][threadIdx.x * 2 + 1];
            acc[1][0] += As[k][threadIdx.y * 2 + 1] * Bs[k][threadIdx.x * 2];
            acc[1][1] += As[k][threadIdx.y * 2 + 1] * Bs[k][threadIdx.x * 2 + 1];
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

// the same, the fetched float4s declared in the body
__global__ void sgemm_texture_decls(cudaTextureObject_t A, cudaTextureObject_t B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[TILE][TILE];
    __shared__ __align__(16) float Bs[TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    for (int t = 0; t < K / TILE; ++t) {
        float4 av = tex1Dfetch<float4>(A, ((row0 + am) * K + t * TILE + ak) / 4);
        float4 bv = tex1Dfetch<float4>(B, ((t * TILE + bk) * N + col0 + bn) / 4);
        As[ak][am] = av.x;
        As[ak + 1][am] = av.y;
        As[ak + 2][am] = av.z;
        As[ak + 3][am] = av.w;
        *(float4 *)&Bs[bk][bn] = bv;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            acc[0][0] += As[k][threadIdx.y * 2] * Bs[k][threadIdx.x * 2];
            acc[0][1] += As[k][threadIdx.y * 2] * Bs[k][threadIdx.x * 2 + 1];
            acc[1][0] += As[k][threadIdx.y * 2 + 1] * Bs[k][threadIdx.x * 2];
            acc[1][1] += As[k][threadIdx.y * 2 + 1] * Bs[k][threadIdx.x * 2 + 1];
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

// A texture object over n floats at p, read as float4s.
static cudaTextureObject_t float4_texture(const float *p, size_t n)
{
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = (void *)p;
    res.res.linear.sizeInBytes = n * sizeof(float);
    res.res.linear.desc = cudaCreateChannelDesc<float4>();
    cudaTextureDesc tex = {};
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &tex, NULL));
    return t;
}

int main(int argc, char **argv)
{
    int sz[3] = {256, 256, 256};  // M N K
    harness_sizes(argc, argv, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    int rc = 0;
    for (int kernel = 0; kernel < 2; kernel++)
        rc |= harness_gemm<float, float>(kernel ? "sgemm_texture_decls" : "sgemm_texture_locals", M, N, K,
                                         [&](const float *A, const float *B, float *C) {
            cudaTextureObject_t ta = float4_texture(A, (size_t)M * K + 4), tb = float4_texture(B, (size_t)K * N + 4);
            dim3 block(16, 16), grid(N / TILE, M / TILE);
            if (kernel)
                sgemm_texture_decls<<<grid, block>>>(ta, tb, C, M, N, K);
            else
                sgemm_texture_locals<<<grid, block>>>(ta, tb, C, M, N, K);
            CHECK(cudaDestroyTextureObject(ta));
            CHECK(cudaDestroyTextureObject(tb));
        }, 1e-4, 1e-4);
    return rc;
}
