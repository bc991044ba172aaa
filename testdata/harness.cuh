// harness.cuh: what every testdata program shares on the host side: checked CUDA calls,
// reproducible inputs, a tolerance check against a CPU reference, and an output checksum
// that is equal exactly when two runs' outputs are bit-identical.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

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

// Prints the PASS/FAIL line and the checksum line; returns the exit code.
static inline int harness_report(const char *name, const float *got, const double *want, size_t n,
                                 double abs_tol, double rel_tol)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double err = fabs((double)got[i] - want[i]);
        if (!(err <= abs_tol + rel_tol * fabs(want[i]))) {
            if (!bad)
                first = i;
            bad++;
        }
    }
    if (bad)
        printf("%s: FAIL: %zu of %zu outside tolerance (first at %zu: got %g, want %g)\n", name,
               bad, n, first, got[first], want[first]);
    else
        printf("%s: PASS (%zu values)\n", name, n);
    printf("checksum %016llx\n", (unsigned long long)harness_checksum(got, n * sizeof *got));
    return bad ? 1 : 0;
}
