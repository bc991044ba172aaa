// harness.cuh: the host side every testdata program shares: checked CUDA calls, reproducible
// inputs, a CPU reference in double precision, a PASS/FAIL line, and an output checksum that
// is equal exactly when two runs' outputs are bit-identical.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#ifndef PIPEFY_CPU_MODEL  // tests/cpu/pipefy_cpu.h models the runtime on the host
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                   \
                    cudaGetErrorString(err_));                                               \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

// Deterministic inputs: the original and the rewritten program see the same numbers.
static inline float harness_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)((*state >> 8) & 0xffff) / 65536.0f - 0.5f;
}

// Sizes from the command line: argv[1..n] override the defaults.
static inline void harness_sizes(int argc, char **argv, int *sizes, int n)
{
    for (int i = 0; i < n && i + 1 < argc; i++)
        sizes[i] = atoi(argv[i + 1]);
}

static inline uint64_t harness_checksum(const void *data, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// Element conversions for the input and output types the programs use.
template <typename T> static inline T harness_make(float x) { return (T)x; }
#if !defined(PIPEFY_CPU_MODEL) || defined(PIPEFY_CPU_HALF)  // (the CPU model's -DPIPEFY_CPU_HALF)
template <> inline half harness_make<half>(float x) { return __float2half(x); }
template <> inline __nv_bfloat16 harness_make<__nv_bfloat16>(float x) { return __float2bfloat16(x); }
#endif
template <> inline signed char harness_make<signed char>(float x) { return (signed char)lrintf(x * 16.0f); }
template <> inline int harness_make<int>(float x) { return (int)lrintf(x * 16.0f); }
static inline double harness_value(float x) { return x; }
static inline double harness_value(double x) { return x; }
static inline double harness_value(int x) { return x; }
static inline double harness_value(signed char x) { return x; }
#if !defined(PIPEFY_CPU_MODEL) || defined(PIPEFY_CPU_HALF)
static inline double harness_value(half x) { return __half2float(x); }
static inline double harness_value(__nv_bfloat16 x) { return __bfloat162float(x); }
#endif

// Prints the PASS/FAIL line and the checksum line; returns the exit code.
template <typename TOut>
static inline int harness_report(const char *name, const TOut *got, const double *want, size_t n,
                                 double abs_tol, double rel_tol)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double err = fabs(harness_value(got[i]) - want[i]);
        if (!(err <= abs_tol + rel_tol * fabs(want[i]))) {
            if (!bad)
                first = i;
            bad++;
        }
    }
    if (bad)
        printf("%s: FAIL: %zu of %zu outside tolerance (first at %zu: got %g, want %g)\n", name,
               bad, n, first, harness_value(got[first]), want[first]);
    else
        printf("%s: PASS (%zu values)\n", name, n);
    printf("checksum %016llx\n", (unsigned long long)harness_checksum(got, n * sizeof *got));
    return bad ? 1 : 0;
}

// Benchmark mode, for bench/run.sh: PIPEFY_BENCH_RUNS=N times N more launches after three
// warm-ups, each between CUDA events, and prints the median; PIPEFY_SKIP_REFERENCE=1 skips
// the CPU reference at sizes where it would take minutes (the checksum is still printed).
template <typename Launch>
static void harness_time(const char *name, double flops, Launch launch)
{
    const char *env = getenv("PIPEFY_BENCH_RUNS");
    int runs = env ? atoi(env) : 0;
    if (runs <= 0)
        return;
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < 3; i++)
        launch();
    CHECK(cudaDeviceSynchronize());
    float *ms = (float *)malloc(runs * sizeof(float));
    for (int i = 0; i < runs; i++) {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms[i], start, stop));
    }
    CHECK(cudaGetLastError());
    for (int i = 1; i < runs; i++)  // insertion sort: a few dozen values
        for (int j = i; j > 0 && ms[j] < ms[j - 1]; j--) {
            float t = ms[j];
            ms[j] = ms[j - 1];
            ms[j - 1] = t;
        }
    double median = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
    printf("bench %s: median %.4f ms of %d runs, %.2f TFLOPS\n", name, median, runs, flops / (median * 1e-3) / 1e12);
    free(ms);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
}

// Stress mode: PIPEFY_REPEAT=N launches N more times, each onto a poisoned output, and compares
// every output with the first one byte for byte (a race shows as a run that differs). Returns
// whether one did; prints how many.
template <typename Launch>
static bool harness_repeat(const char *name, void *dout, const void *first, size_t bytes, Launch launch)
{
    const char *env = getenv("PIPEFY_REPEAT");
    int n = env ? atoi(env) : 0, differ = 0;
    if (n <= 0)
        return false;
    void *again = malloc(bytes);
    for (int i = 0; i < n; i++) {
        CHECK(cudaMemset(dout, 0xff, bytes));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(again, dout, bytes, cudaMemcpyDeviceToHost));
        differ += memcmp(again, first, bytes) != 0;
    }
    free(again);
    printf("repeat %s: %d of %d runs differ from the first\n", name, differ, n);
    return differ > 0;
}

static inline bool harness_skip_reference(void)
{
    const char *env = getenv("PIPEFY_SKIP_REFERENCE");
    return env && atoi(env) != 0;
}

// C[b] = A[b] (M x K) * B[b] (K x N), row-major, for `batch` independent products: fills the
// inputs, runs `launch(dA, dB, dC)` once, and checks C against a CPU reference.
template <typename TIn, typename TOut, typename Launch>
static int harness_gemm(const char *name, int M, int N, int K, Launch launch, double abs_tol,
                        double rel_tol, int batch = 1)
{
    size_t na = (size_t)batch * M * K, nb = (size_t)batch * K * N, nc = (size_t)batch * M * N;
    TIn *hA = (TIn *)malloc(na * sizeof(TIn) + 16), *hB = (TIn *)malloc(nb * sizeof(TIn) + 16);
    TOut *hC = (TOut *)malloc(nc * sizeof(TOut) + 16);
    double *ref = (double *)calloc(nc + 1, sizeof(double));
    uint32_t seed = 12345;
    for (size_t i = 0; i < na; i++) hA[i] = harness_make<TIn>(harness_random(&seed));
    for (size_t i = 0; i < nb; i++) hB[i] = harness_make<TIn>(harness_random(&seed));
    for (int b = 0; b < batch && !harness_skip_reference(); b++)
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) {
                double a = harness_value(hA[((size_t)b * M + i) * K + k]);
                const TIn *brow = hB + ((size_t)b * K + k) * N;
                double *crow = ref + ((size_t)b * M + i) * N;
                for (int j = 0; j < N; j++)
                    crow[j] += a * harness_value(brow[j]);
            }
    TIn *dA, *dB;
    TOut *dC;
    CHECK(cudaMalloc(&dA, na * sizeof(TIn) + 16));
    CHECK(cudaMalloc(&dB, nb * sizeof(TIn) + 16));
    CHECK(cudaMalloc(&dC, nc * sizeof(TOut) + 16));
    CHECK(cudaMemcpy(dA, hA, na * sizeof(TIn), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB, nb * sizeof(TIn), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dC, 0xff, nc * sizeof(TOut)));  // poison: every output must be written
    launch(dA, dB, dC);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hC, dC, nc * sizeof(TOut), cudaMemcpyDeviceToHost));
    int rc = 0;
    if (harness_skip_reference())
        printf("%s: reference skipped\nchecksum %016llx\n", name,
               (unsigned long long)harness_checksum(hC, nc * sizeof *hC));
    else
        rc = harness_report(name, hC, ref, nc, abs_tol, rel_tol);
    if (harness_repeat(name, dC, hC, nc * sizeof(TOut), [&] { launch(dA, dB, dC); }))
        rc = 1;
    harness_time(name, 2.0 * batch * M * N * K, [&] { launch(dA, dB, dC); });
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    free(hA);
    free(hB);
    free(hC);
    free(ref);
    return rc;
}

// For kernels with no CPU reference: runs `launch(dA, dB, dC)` once on inputs filled as
// harness_gemm fills them (A M x K, B K x N, floats, with 64 elements of slack each; C M x N,
// zeroed first) and prints the output's checksum. The PASS line says only that it ran: the
// check is that every rewrite's checksum equals the original's (tests/cpu_model.sh,
// tests/gpu/run.sh).
template <typename Launch>
static void harness_checksum_only(const char *name, int M, int N, int K, Launch launch)
{
    size_t na = (size_t)M * K + 64, nb = (size_t)K * N + 64, nc = (size_t)M * N + 64;
    float *hA = (float *)malloc(na * sizeof(float)), *hB = (float *)malloc(nb * sizeof(float));
    float *hC = (float *)malloc(nc * sizeof(float));
    uint32_t seed = 7;
    for (size_t i = 0; i < na; i++) hA[i] = harness_random(&seed);
    for (size_t i = 0; i < nb; i++) hB[i] = harness_random(&seed);
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, na * sizeof(float)));
    CHECK(cudaMalloc(&dB, nb * sizeof(float)));
    CHECK(cudaMalloc(&dC, nc * sizeof(float)));
    CHECK(cudaMemcpy(dA, hA, na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB, nb * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dC, 0, nc * sizeof(float)));
    launch(dA, dB, dC);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hC, dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    printf("%s: PASS (ran; no reference: its checksum must equal the original's)\nchecksum %016llx\n", name,
           (unsigned long long)harness_checksum(hC, nc * sizeof(float)));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    free(hA);
    free(hB);
    free(hC);
}
