// conv2d_implicit_gemm.cu: a 2-D convolution (NCHW input, KCRS filter, stride 1) as an
// implicit GEMM: M = N*P*Q output pixels, N = K output channels, K = C*R*S. The A tile is
// gathered from the input with padding guards; the last tile is partial when C*R*S is not a
// multiple of TS. Usage: conv2d_implicit_gemm [BATCH C H W KOUT].
// gpu-runs: 1 0 8 8 16 | 1 1 8 8 16 | 1 2 8 8 16 | 1 5 8 8 16 | 2 8 16 16 32 | 8 64 32 32 128
// gpu-sanitize: 1 5 8 8 16
#include "harness.cuh"

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
    // pipefy: K-loop pipelined with registers, 2 stages: tile t+1 is loaded into registers while tile t is computed
    {
        // pipefy: the loop variables of the next tile to load
        int pipefy_next_k0 = 0;
        // pipefy: staging registers
        float pipefy_reg0;
        float pipefy_reg1;
        // pipefy: load into the staging registers the tile after the one at these loop variables
        // (with step: the main loop's), or at them (the first); false once the tiles run out
        auto pipefy_fetch = [&](bool pipefy_step, int k0) {
            if (pipefy_step)
                k0 += TS;
            if (!(k0 < GK))
                return false;
            int ka = k0 + tx;
            int c = ka / (R * S), r = (ka / S) % R, s = ka % S;
            int h = p - PAD + r, w = q - PAD + s;
            pipefy_reg0 = (m < GM && ka < GK && h >= 0 && h < H && w >= 0 && w < W) ? in[((b * C + c) * H + h) * W + w] : 0.0f;
            int kb = k0 + ty;
            int kf = blockIdx.x * TS + tx;
            pipefy_reg1 = (kb < GK && kf < Ko) ? filt[kf * GK + kb] : 0.0f;
            return true;
        };
        // pipefy: store the staging registers into stage pipefy_dst
        auto pipefy_stash = [&](int pipefy_dst) {
            As[pipefy_dst][ty][tx] = pipefy_reg0;
            Bs[pipefy_dst][ty][tx] = pipefy_reg1;
        };
        // pipefy: prologue: tile 0 into stage 0
        if (pipefy_fetch(false, pipefy_next_k0))
            pipefy_stash(0);
        __syncthreads();
        int pipefy_stage = 0; // the stage that holds tile t
        // pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into
        // the other stage. With two stages one barrier per iteration is enough: the stage being
        // filled was last read before the previous iteration's barrier
        for (int k0 = 0; k0 < GK; k0 += TS) {
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
