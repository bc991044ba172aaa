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
    __shared__ __align__(16) float As[2][TILE][TILE]; // As[k][m]: A's tile transposed
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4; // A: row am of the tile, columns ak..ak+3
    int bk = tid / 8, bn = (tid % 8) * 4; // B: row bk, columns bn..bn+3
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int ia = ((row0 + am) * K + ak) / 4, ib = (bk * N + col0 + bn) / 4; // in float4s
    float4 av, bv;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        int pipefy_next_ia = ia;
        int pipefy_next_ib = ib;
        // pipefy: staging registers
        // pipefy: load the tile at the cursor into the staging registers and advance the
        // cursor; false once the tiles run out
        auto pipefy_fetch = [&]() {
            int t = pipefy_next_t;
            int ia = pipefy_next_ia;
            int ib = pipefy_next_ib;
            if (!(t < K / TILE))
                return false;
            av = tex1Dfetch<float4>(A, ia);
            bv = tex1Dfetch<float4>(B, ib);
            ia += TILE / 4;
            ib += TILE * N / 4;
            ++t;
            pipefy_next_t = t;
            pipefy_next_ia = ia;
            pipefy_next_ib = ib;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = av.x;
            As[pipefy_dst][ak + 1][am] = av.y;
            As[pipefy_dst][ak + 2][am] = av.z;
            As[pipefy_dst][ak + 3][am] = av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch())
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch();
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            ia += TILE / 4;
            ib += TILE * N / 4;
            for (int k = 0; k < TILE; ++k) {
                acc[0][0] += As[pipefy_stage][k][threadIdx.y * 2] * Bs[pipefy_stage][k][threadIdx.x * 2];
                acc[0][1] += As[pipefy_stage][k][threadIdx.y * 2] * Bs[pipefy_stage][k][threadIdx.x * 2 + 1];
                acc[1][0] += As[pipefy_stage][k][threadIdx.y * 2 + 1] * Bs[pipefy_stage][k][threadIdx.x * 2];
                acc[1][1] += As[pipefy_stage][k][threadIdx.y * 2 + 1] * Bs[pipefy_stage][k][threadIdx.x * 2 + 1];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            C[(row0 + threadIdx.y * 2 + i) * N + col0 + threadIdx.x * 2 + j] = acc[i][j];
}

// the same, the fetched float4s declared in the body
__global__ void sgemm_texture_decls(cudaTextureObject_t A, cudaTextureObject_t B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int am = tid / 8, ak = (tid % 8) * 4;
    int bk = tid / 8, bn = (tid % 8) * 4;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_t = 0;
        // pipefy: staging registers
        float4 av;
        float4 bv;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int t) {
            if (pipefy_step)
                ++t;
            if (!(t < K / TILE))
                return false;
            av = tex1Dfetch<float4>(A, ((row0 + am) * K + t * TILE + ak) / 4);
            bv = tex1Dfetch<float4>(B, ((t * TILE + bk) * N + col0 + bn) / 4);
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ak][am] = av.x;
            As[pipefy_dst][ak + 1][am] = av.y;
            As[pipefy_dst][ak + 2][am] = av.z;
            As[pipefy_dst][ak + 3][am] = av.w;
            *(float4 *)&Bs[pipefy_dst][bk][bn] = bv;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_t))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int t = 0; t < K / TILE; ++t) {
            bool pipefy_more = pipefy_fetch(true, t);
            __syncwarp(); // pipefy: the loads above stay ahead of the compute
            for (int k = 0; k < TILE; ++k) {
                acc[0][0] += As[pipefy_stage][k][threadIdx.y * 2] * Bs[pipefy_stage][k][threadIdx.x * 2];
                acc[0][1] += As[pipefy_stage][k][threadIdx.y * 2] * Bs[pipefy_stage][k][threadIdx.x * 2 + 1];
                acc[1][0] += As[pipefy_stage][k][threadIdx.y * 2 + 1] * Bs[pipefy_stage][k][threadIdx.x * 2];
                acc[1][1] += As[pipefy_stage][k][threadIdx.y * 2 + 1] * Bs[pipefy_stage][k][threadIdx.x * 2 + 1];
            }
            if (pipefy_more)
                pipefy_stash(pipefy_stage ^ 1);
            __syncthreads();
            pipefy_stage ^= 1;
        }
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
