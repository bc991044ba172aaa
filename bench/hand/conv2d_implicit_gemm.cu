// conv2d_implicit_gemm.cu (hand): the expert reference for testdata/conv2d_implicit_gemm.cu:
// the next tile's gathered elements in registers during the compute, two stages.
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
    // the gathered A element and the filter element of tile k0, into registers
    auto fetch = [&](int k0, float &ra, float &rb) {
        int ka = k0 + tx;
        int c = ka / (R * S), r = (ka / S) % R, s = ka % S;
        int h = p - PAD + r, w = q - PAD + s;
        ra = (m < GM && ka < GK && h >= 0 && h < H && w >= 0 && w < W) ? in[((b * C + c) * H + h) * W + w] : 0.0f;
        int kb = k0 + ty;
        rb = (kb < GK && ko < Ko) ? filt[ko * GK + kb] : 0.0f;
    };
    float ra = 0.0f, rb = 0.0f;
    if (GK > 0) {
        fetch(0, ra, rb);
        As[0][ty][tx] = ra;
        Bs[0][ty][tx] = rb;
    }
    __syncthreads();
    int s = 0;
    for (int k0 = 0; k0 < GK; k0 += TS) {
        bool more = k0 + TS < GK;
        if (more)
            fetch(k0 + TS, ra, rb);
        for (int k = 0; k < TS; ++k)
            acc += As[s][ty][k] * Bs[s][k][tx];
        if (more) {
            As[s ^ 1][ty][tx] = ra;
            Bs[s ^ 1][ty][tx] = rb;
        }
        __syncthreads();
        s ^= 1;
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
