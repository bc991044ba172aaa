// bench/public/common/pub.h: the driver every public-kernel harness shares
// (bench/public/<probe>/harness.cu includes it; bench/public/build.sh builds them).
//
// A harness links several builds of one repository file: the original and pipefy's rewrites,
// each compiled from bench/public/<probe>/wrap.cu into a namespace of its own (b_orig, b_auto,
// b_ldg1, ...), each exporting
//     void pub_launch(int kernel, const void *A, const void *B, void *C, int M, int N, int K);
// which launches kernel entry `kernel` through the repository's own launch configuration.
// The harness lists its kernel entries (struct PubKernel) and calls pub_main().
//
// Usage of a harness binary:
//   harness list                         kernel entries and builds, one a line
//   harness check [--sanitize] [--kernel NAME]
//       every build at every check size (or at the entry's one small sanitize size): C is
//       filled with the byte 0x7B before each launch, then memcmp'd against the original's;
//       the original is compared with a host model (double) at 64 places. Prints
//       "check KERNEL BUILD MxNxK PASS|FAIL" (BUILD orig-vs-host for the host model).
//   harness time --kernel NAME [--builds b1,b2,..] [--rounds R] [--size MxNxK]
//       ROUNDS rounds (default 3), the builds alternated (the order rotated each round); per
//       build and round: 3 warm-ups, then 20 launches each timed alone with CUDA events; prints
//       the median of the 20: "KERNEL BUILD MxNxK MS". The original is always timed.
// Exit status 0 when every check passed and no CUDA error happened, else 1.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

typedef void (*PubLaunch)(int kernel, const void *A, const void *B, void *C, int M, int N, int K);

struct PubBuild {
    const char *name;
    PubLaunch launch;
};

struct PubDims {
    int M, N, K;
};

enum PubLayout {
    PUB_ROW,      // A[i*K+k], B[k*N+j], C[i*N+j]
    PUB_ROW_BT,   // A[i*K+k], B[j*K+k] (B stored transposed), C[i*N+j]
    PUB_COL,      // column-major: A[k*M+i], B[j*K+k], C[j*M+i]
};

enum PubType {
    PUB_F32,      // float A, B, C
    PUB_I8,       // int8 A, B, int32 C
};

struct PubKernel {
    const char *name;           // as in bench/public/kernels.tsv
    int id;                     // passed to pub_launch
    PubType type;
    PubLayout layout;
    double tol;                 // |C - ref| <= tol * sum|a*b| + 1e-30 (0: exact)
    std::vector<PubDims> check; // check sizes
    PubDims time;               // timing size
    PubDims sanitize;           // the one size of `check --sanitize`
};

#define PUB_CUDA(call)                                                                     \
    do {                                                                                   \
        cudaError_t pub_e = (call);                                                        \
        if (pub_e != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(pub_e), __FILE__, \
                    __LINE__);                                                             \
            printf("error CUDA %s at %s:%d\n", cudaGetErrorString(pub_e), __FILE__, __LINE__); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static std::string pub_dims(PubDims d)
{
    char s[64];
    snprintf(s, sizeof s, "%dx%dx%d", d.M, d.N, d.K);
    return s;
}

static bool pub_parse_dims(const char *s, PubDims *d)
{
    return sscanf(s, "%dx%dx%d", &d->M, &d->N, &d->K) == 3;
}

// Deterministic inputs: floats are multiples of 1/64 in [-1, 1) (exact in tf32 too, their
// products exact in float); int8 values the whole range.
static void pub_fill(void *p, size_t n, PubType t, unsigned seed)
{
    unsigned s = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        unsigned r = s >> 16;
        if (t == PUB_F32)
            ((float *)p)[i] = (float)((int)(r & 127) - 64) / 64.0f;
        else
            ((int8_t *)p)[i] = (int8_t)(r & 255);
    }
}

static double pub_at(const void *p, size_t i, PubType t)
{
    return t == PUB_F32 ? (double)((const float *)p)[i] : (double)((const int8_t *)p)[i];
}

struct PubBuffers {
    void *dA = nullptr, *dB = nullptr, *dC = nullptr;
    std::vector<char> hA, hB;
    size_t a_bytes = 0, b_bytes = 0, c_bytes = 0;
    PubDims d{};
};

static void pub_setup(PubBuffers &b, const PubKernel &k, PubDims d)
{
    size_t in = k.type == PUB_F32 ? 4 : 1;
    b.d = d;
    b.a_bytes = (size_t)d.M * d.K * in;
    b.b_bytes = (size_t)d.K * d.N * in;
    b.c_bytes = (size_t)d.M * d.N * 4;
    b.hA.resize(b.a_bytes);
    b.hB.resize(b.b_bytes);
    pub_fill(b.hA.data(), (size_t)d.M * d.K, k.type, 1u + d.M * 7u + d.K * 13u);
    pub_fill(b.hB.data(), (size_t)d.K * d.N, k.type, 2u + d.N * 5u + d.K * 11u);
    PUB_CUDA(cudaMalloc(&b.dA, b.a_bytes));
    PUB_CUDA(cudaMalloc(&b.dB, b.b_bytes));
    PUB_CUDA(cudaMalloc(&b.dC, b.c_bytes));
    PUB_CUDA(cudaMemcpy(b.dA, b.hA.data(), b.a_bytes, cudaMemcpyHostToDevice));
    PUB_CUDA(cudaMemcpy(b.dB, b.hB.data(), b.b_bytes, cudaMemcpyHostToDevice));
}

static void pub_free(PubBuffers &b)
{
    PUB_CUDA(cudaFree(b.dA));
    PUB_CUDA(cudaFree(b.dB));
    PUB_CUDA(cudaFree(b.dC));
    b.dA = b.dB = b.dC = nullptr;
}

// The host model of C(i, j) and sum |a*b| (for the tolerance).
static void pub_ref(const PubKernel &k, const PubBuffers &b, int i, int j, double *ref, double *mag)
{
    const PubDims d = b.d;
    double s = 0, m = 0;
    for (int kk = 0; kk < d.K; kk++) {
        size_t ia, ib;
        if (k.layout == PUB_ROW) { ia = (size_t)i * d.K + kk; ib = (size_t)kk * d.N + j; }
        else if (k.layout == PUB_ROW_BT) { ia = (size_t)i * d.K + kk; ib = (size_t)j * d.K + kk; }
        else { ia = (size_t)kk * d.M + i; ib = (size_t)j * d.K + kk; }
        double p = pub_at(b.hA.data(), ia, k.type) * pub_at(b.hB.data(), ib, k.type);
        s += p;
        m += fabs(p);
    }
    *ref = s;
    *mag = m;
}

static double pub_c_at(const PubKernel &k, const std::vector<char> &c, PubDims d, int i, int j)
{
    size_t idx = k.layout == PUB_COL ? (size_t)j * d.M + i : (size_t)i * d.N + j;
    return k.type == PUB_F32 ? (double)((const float *)c.data())[idx]
                             : (double)((const int32_t *)c.data())[idx];
}

static bool pub_host_check(const PubKernel &k, const PubBuffers &b, const std::vector<char> &c)
{
    const PubDims d = b.d;
    unsigned s = 777u + d.M + d.N + d.K;
    bool ok = true;
    for (int p = 0; p < 64; p++) {
        int i, j;
        if (p < 4) { i = (p & 1) ? d.M - 1 : 0; j = (p & 2) ? d.N - 1 : 0; }
        else {
            s = s * 1664525u + 1013904223u; i = (int)((s >> 8) % (unsigned)d.M);
            s = s * 1664525u + 1013904223u; j = (int)((s >> 8) % (unsigned)d.N);
        }
        double ref, mag;
        pub_ref(k, b, i, j, &ref, &mag);
        double got = pub_c_at(k, c, d, i, j);
        double err = fabs(got - ref);
        if (!(err <= k.tol * mag + 1e-30)) {
            if (ok)
                fprintf(stderr, "%s %s: C(%d,%d) = %.9g, host %.9g (sum |ab| %.6g)\n", k.name,
                        pub_dims(d).c_str(), i, j, got, ref, mag);
            ok = false;
        }
    }
    return ok;
}

static void pub_launch_checked(const PubBuild &bd, const PubKernel &k, const PubBuffers &b)
{
    bd.launch(k.id, b.dA, b.dB, b.dC, b.d.M, b.d.N, b.d.K);
    PUB_CUDA(cudaGetLastError());
}

static bool pub_check(const PubKernel &k, const PubBuild *bs, int nb, PubDims d)
{
    PubBuffers b;
    pub_setup(b, k, d);
    std::vector<char> ref(b.c_bytes), got(b.c_bytes);
    bool all = true;
    for (int i = 0; i < nb; i++) {
        PUB_CUDA(cudaMemset(b.dC, 0x7B, b.c_bytes));
        pub_launch_checked(bs[i], k, b);
        PUB_CUDA(cudaDeviceSynchronize());
        PUB_CUDA(cudaMemcpy(i ? got.data() : ref.data(), b.dC, b.c_bytes, cudaMemcpyDeviceToHost));
        if (i == 0) {
            bool ok = pub_host_check(k, b, ref);
            printf("check %s orig-vs-host %s %s\n", k.name, pub_dims(d).c_str(), ok ? "PASS" : "FAIL");
            all = all && ok;
        } else {
            bool ok = memcmp(ref.data(), got.data(), b.c_bytes) == 0;
            if (!ok) {
                size_t n = 0, first = 0;
                for (size_t e = 0; e < b.c_bytes / 4; e++)
                    if (memcmp(&ref[e * 4], &got[e * 4], 4)) { if (!n) first = e; n++; }
                fprintf(stderr, "%s %s %s: %zu of %zu words differ, first at %zu\n", k.name,
                        bs[i].name, pub_dims(d).c_str(), n, b.c_bytes / 4, first);
            }
            printf("check %s %s %s %s\n", k.name, bs[i].name, pub_dims(d).c_str(), ok ? "PASS" : "FAIL");
            all = all && ok;
        }
        fflush(stdout);
    }
    pub_free(b);
    return all;
}

static float pub_time_one(const PubBuild &bd, const PubKernel &k, const PubBuffers &b, cudaEvent_t e0,
                          cudaEvent_t e1)
{
    for (int w = 0; w < 3; w++)
        pub_launch_checked(bd, k, b);
    PUB_CUDA(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 20; r++) {
        PUB_CUDA(cudaEventRecord(e0));
        bd.launch(k.id, b.dA, b.dB, b.dC, b.d.M, b.d.N, b.d.K);
        PUB_CUDA(cudaEventRecord(e1));
        PUB_CUDA(cudaEventSynchronize(e1));
        PUB_CUDA(cudaGetLastError());
        float ms;
        PUB_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return 0.5f * (t[9] + t[10]);
}

static int pub_main(int argc, char **argv, const std::vector<PubKernel> &ks, const PubBuild *bs, int nb)
{
    std::string mode = argc > 1 ? argv[1] : "list";
    std::string only, builds;
    bool sanitize = false;
    int rounds = 3;
    PubDims size{0, 0, 0};
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--sanitize") sanitize = true;
        else if (a == "--kernel" && i + 1 < argc) only = argv[++i];
        else if (a == "--builds" && i + 1 < argc) builds = argv[++i];
        else if (a == "--rounds" && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (a == "--size" && i + 1 < argc) {
            if (!pub_parse_dims(argv[++i], &size)) { fprintf(stderr, "bad --size\n"); return 2; }
        } else { fprintf(stderr, "unknown argument %s\n", a.c_str()); return 2; }
    }
    if (mode == "list") {
        for (auto &k : ks) printf("kernel %s\n", k.name);
        for (int i = 0; i < nb; i++) printf("build %s\n", bs[i].name);
        return 0;
    }
    bool found = only.empty();
    for (auto &k : ks) found = found || only == k.name;
    if (!found) { fprintf(stderr, "no kernel %s\n", only.c_str()); return 2; }
    if (mode == "check") {
        bool all = true;
        for (auto &k : ks) {
            if (!only.empty() && only != k.name) continue;
            if (sanitize) all = pub_check(k, bs, nb, k.sanitize) && all;
            else for (PubDims d : k.check) all = pub_check(k, bs, nb, d) && all;
        }
        return all ? 0 : 1;
    }
    if (mode != "time" || only.empty()) { fprintf(stderr, "usage: %s list|check|time --kernel NAME\n", argv[0]); return 2; }
    const PubKernel *k = nullptr;
    for (auto &x : ks) if (only == x.name) k = &x;
    std::vector<const PubBuild *> sel{&bs[0]};
    std::string rest = builds;
    while (!rest.empty()) {
        size_t c = rest.find(',');
        std::string n = rest.substr(0, c);
        rest = c == std::string::npos ? "" : rest.substr(c + 1);
        if (n.empty() || n == "orig") continue;
        const PubBuild *b = nullptr;
        for (int i = 0; i < nb; i++) if (n == bs[i].name) b = &bs[i];
        if (!b) { fprintf(stderr, "no build %s\n", n.c_str()); return 2; }
        sel.push_back(b);
    }
    if (builds.empty()) for (int i = 1; i < nb; i++) sel.push_back(&bs[i]);
    PubDims d = size.M ? size : k->time;
    PubBuffers b;
    pub_setup(b, *k, d);
    PUB_CUDA(cudaMemset(b.dC, 0, b.c_bytes));
    cudaEvent_t e0, e1;
    PUB_CUDA(cudaEventCreate(&e0));
    PUB_CUDA(cudaEventCreate(&e1));
    int n = (int)sel.size();
    for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < n; j++) {
            const PubBuild &bd = *sel[(j + r) % n];
            float ms = pub_time_one(bd, *k, b, e0, e1);
            printf("%s %s %s %.4f\n", k->name, bd.name, pub_dims(d).c_str(), ms);
            fflush(stdout);
        }
    }
    pub_free(b);
    return 0;
}

// The builds a harness links: OUTDIR/gen/<probe>/builds.h (written by build.sh) holds one
// PUB_BUILD(name) per build, the original first.
#define PUB_DECLARE(x) namespace b_##x { void pub_launch(int, const void *, const void *, void *, int, int, int); }
#define PUB_ENTRY(x) {#x, b_##x::pub_launch},
