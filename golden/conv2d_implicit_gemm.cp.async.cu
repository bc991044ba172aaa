// conv2d_implicit_gemm.cu: a 2-D convolution (NCHW input, KCRS filter, stride 1) as an
// implicit GEMM: M = N*P*Q output pixels, N = K output channels, K = C*R*S. The A tile is
// gathered from the input with padding guards; the last tile is partial when C*R*S is not a
// multiple of TS. Usage: conv2d_implicit_gemm [BATCH C H W KOUT].
// gpu-runs: 1 0 8 8 16 | 1 1 8 8 16 | 1 2 8 8 16 | 1 5 8 8 16 | 2 8 16 16 32 | 8 64 32 32 128
// gpu-sanitize: 1 5 8 8 16
#include "harness.cuh"
#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async

#define TS 16
#define R 3
#define S 3
#define PAD 1

__global__ void conv2d_implicit(const float *in, const float *filt, float *out, int Nb, int C, int H, int W,
                                int Ko)
{
    __shared__ float As[2][TS][TS];  // [pixel][c*R*S]
    __shared__ float Bs[2][TS][TS];  // [c*R*S][output channel]
    int tx = threadIdx.x, ty = threadIdx.y;
    int P = H, Q = W;  // stride 1, 'same' padding
    int GM = Nb * P * Q, GK = C * R * S;
    int m = blockIdx.y * TS + ty;
    int ko = blockIdx.x * TS + tx;
    int b = m / (P * Q), p = (m / Q) % P, q = m % Q;
    float acc = 0.0f;
    // pipefy: K-loop pipelined with cp.async, 2 stages: tile t+1 is copied while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: copy the tile at the cursor into stage pipefy_dst and advance the cursor;
        // one commit per call, an empty group once the tiles run out, keeps wait_prior exact
        auto pipefy_load = [&](int pipefy_dst) {
            int k0 = pipefy_next_k0;
            if (k0 < GK) {
                int ka = k0 + tx;
                int c = ka / (R * S), r = (ka / S) % R, s = ka % S;
                int h = p - PAD + r, w = q - PAD + s;
                __pipeline_memcpy_async(&As[pipefy_dst][ty][tx], (m < GM && ka < GK && h >= 0 && h < H && w >= 0 && w < W) ? &in[((b * C + c) * H + h) * W + w] : in, sizeof(float), (m < GM && ka < GK && h >= 0 && h < H && w >= 0 && w < W) ? 0 : sizeof(float));
                int kb = k0 + ty;
                int kf = blockIdx.x * TS + tx;
                __pipeline_memcpy_async(&Bs[pipefy_dst][ty][tx], (kb < GK && kf < Ko) ? &filt[kf * GK + kb] : filt, sizeof(float), (kb < GK && kf < Ko) ? 0 : sizeof(float));
                k0 += TS;
                pipefy_next_k0 = k0;
            }
            __pipeline_commit();
        };
        // pipefy: prologue: start copying tile 0
        pipefy_load(0);
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: wait for tile t, start tile t+1, compute tile t; the last
        // iterations find no tile left to start and only compute: that is the epilogue
        for (int k0 = 0; k0 < GK; k0 += TS) {
            __pipeline_wait_prior(0); // tile t has landed for this thread...
            __syncthreads();          // ...and for all; stage (t-1) % 2 is free again
            pipefy_load((pipefy_stage + 1) & 1);
            for (int k = 0; k < TS; ++k)
                acc += As[pipefy_stage][ty][k] * Bs[pipefy_stage][k][tx];
            pipefy_stage = (pipefy_stage + 1) & 1;
        }
        __syncthreads(); // pipefy: every thread is done with the last tile
    }
    if (m < GM && ko < Ko)
        out[((b * Ko + ko) * P + p) * Q + q] = acc;
}

int main(int argc, char **argv)
{
    int sz[5] = {2, 8, 16, 16, 32};  // BATCH C H W KOUT
    harness_sizes(argc, argv, sz, 5);
    int Nb = sz[0], C = sz[1], H = sz[2], W = sz[3], Ko = sz[4];
    size_t nin = (size_t)Nb * C * H * W, nf = (size_t)Ko * C * R * S, nout = (size_t)Nb * Ko * H * W;
    float *hin = (float *)malloc(nin * sizeof(float) + 4), *hf = (float *)malloc(nf * sizeof(float) + 4);
    float *hout = (float *)malloc(nout * sizeof(float) + 4);
    double *ref = (double *)calloc(nout + 1, sizeof(double));
    uint32_t seed = 99;
    for (size_t i = 0; i < nin; i++) hin[i] = harness_random(&seed);
    for (size_t i = 0; i < nf; i++) hf[i] = harness_random(&seed);
    for (int b = 0; b < Nb && !harness_skip_reference(); b++)
        for (int k = 0; k < Ko; k++)
            for (int p = 0; p < H; p++)
                for (int q = 0; q < W; q++) {
                    double sum = 0;
                    for (int c = 0; c < C; c++)
                        for (int r = 0; r < R; r++)
                            for (int s = 0; s < S; s++) {
                                int h = p - PAD + r, w = q - PAD + s;
                                if (h >= 0 && h < H && w >= 0 && w < W)
                                    sum += (double)hin[((b * C + c) * H + h) * W + w] * hf[((k * C + c) * R + r) * S + s];
                            }
                    ref[((b * Ko + k) * H + p) * W + q] = sum;
                }
    float *din, *df, *dout;
    CHECK(cudaMalloc(&din, nin * sizeof(float) + 4));
    CHECK(cudaMalloc(&df, nf * sizeof(float) + 4));
    CHECK(cudaMalloc(&dout, nout * sizeof(float) + 4));
    CHECK(cudaMemcpy(din, hin, nin * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(df, hf, nf * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xff, nout * sizeof(float)));
    int GM = Nb * H * W;
    auto launch = [&] {
        conv2d_implicit<<<dim3((Ko + TS - 1) / TS, (GM + TS - 1) / TS), dim3(TS, TS)>>>(din, df, dout, Nb, C, H, W, Ko);
    };
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, nout * sizeof(float), cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("conv2d_implicit_gemm: reference skipped\nchecksum %016llx\n",
               (unsigned long long)harness_checksum(hout, nout * sizeof(float)));
    else
        rc = harness_report("conv2d_implicit_gemm", hout, ref, nout, 1e-4, 1e-4);
    harness_time("conv2d_implicit_gemm", 2.0 * GM * Ko * C * R * S, launch);
    CHECK(cudaFree(din));
    CHECK(cudaFree(df));
    CHECK(cudaFree(dout));
    free(hin);
    free(hf);
    free(hout);
    free(ref);
    return rc;
}
