/* test_find.c: find and check on small kernels: the model's fields and the refusals. Each
 * snippet is parsed for real by libclang, without the CUDA headers (-nocudainc path). */
#include <stdlib.h>
#include "suites.h"

struct analysis {
	struct source src;
	struct parsed parsed;
	struct model model;
};

/* Parse a snippet and run find, measure and check on it. */
static void analyze(struct analysis *a, const char *code)
{
	static const char prelude[] = "extern \"C\" __device__ void __syncthreads(void);\n";
	char *text = xprintf("%s%s", prelude, code);
	source_init_text(&a->src, "snippet.cu", text, strlen(text));
	free(text);
	struct options o = {.arch = 80, .cuda_path = "/nonexistent"};
	char *err = NULL;
	ck_assert_msg(parse_source(&a->parsed, &a->src, &o, &err), "%s", err ? err : "");
	memset(&a->model, 0, sizeof a->model);
	find_kloops(&a->model, &a->parsed, &a->src);
	find_launches(&a->model, &a->parsed, &a->src);
	measure_kloops(&a->model, &a->src, &o);
	box_kloops(&a->model, &a->src);
	check_kloops(&a->model, &a->src);
}

static void release(struct analysis *a)
{
	model_free(&a->model);
	parsed_free(&a->parsed);
	source_free(&a->src);
}

static const char *first_reason(const struct kloop *l) { return l->nrefusals ? l->refusals[0].reason : ""; }

#define KERNEL_HEAD "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n" \
	"    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n"              \
	"    int tx = threadIdx.x, ty = threadIdx.y;\n    float acc = 0.0f;\n"

#define HELPER_LOOP                                                     \
	"    for (int t = 0; t < K / 16; ++t) {\n"                          \
	"        fill(As, Bs, A, B, t * 16, K);\n"                           \
	"        __syncthreads();\n"                                        \
	"        for (int k = 0; k < 16; ++k)\n"                            \
	"            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"     \
	"        __syncthreads();\n"                                        \
	"    }\n    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n"
#define HELPER_KERNEL                                                                        \
	"__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"              \
	"    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n    float acc = 0;\n"

START_TEST(a_helper_that_only_copies_fills_the_tiles)
{
	struct analysis a;
	analyze(&a, "__device__ void fill(float (*X)[16], float (*Y)[16], const float *A, const float *B, int k0, int K)\n"
		    "{\n    for (int i = 0; i < 1; ++i) {\n"
		    "        X[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + k0 + threadIdx.x];\n"
		    "        Y[threadIdx.y][threadIdx.x] = k0 < K ? B[(k0 + threadIdx.y) * 16 + threadIdx.x] : 0.0f;\n    }\n}\n"
		    HELPER_KERNEL HELPER_LOOP);
	struct kloop *l = &a.model.loops[0];
	ck_assert_str_eq(first_reason(l), "");
	ck_assert_int_eq(l->nhelpers, 1);
	ck_assert_int_ge(l->helpers[0].stmt, 0);
	ck_assert_str_eq(l->helpers[0].name, "fill");
	ck_assert_int_eq(l->helpers[0].nstores, 2);
	ck_assert_int_eq(l->helpers[0].stores[1].width, 4);
	ck_assert(l->helpers[0].stores[1].guard.end > l->helpers[0].stores[1].guard.begin);
	ck_assert_int_eq(l->ntiles, 2);
	ck_assert(l->legal[VARIANT_CP_ASYNC].ok);
	ck_assert(!l->legal[VARIANT_LDG].ok);
	release(&a);
}
END_TEST

START_TEST(a_helper_that_does_more_is_refused_with_what_it_does)
{
	struct analysis a;
	analyze(&a, "__device__ void fill(float (*X)[16], float (*Y)[16], const float *A, const float *B, int k0, int K)\n"
		    "{\n    X[threadIdx.y][threadIdx.x] = A[k0 + threadIdx.x];\n"
		    "    Y[threadIdx.y][threadIdx.x] = 2.0f * B[k0 + threadIdx.x];\n}\n" HELPER_KERNEL HELPER_LOOP);
	ck_assert_ptr_nonnull(strstr(first_reason(&a.model.loops[0]),
				     "'fill' stores '2.0f * B[k0 + threadIdx.x]' into a tile, not a load from global memory"));
	release(&a);
	analyze(&a, "__device__ float sink;\n"
		    "__device__ void fill(float (*X)[16], float (*Y)[16], const float *A, const float *B, int k0, int K)\n"
		    "{\n    X[threadIdx.y][threadIdx.x] = A[k0 + threadIdx.x];\n"
		    "    Y[threadIdx.y][threadIdx.x] = B[k0 + threadIdx.x];\n    sink = 1.0f;\n}\n" HELPER_KERNEL HELPER_LOOP);
	ck_assert_ptr_nonnull(strstr(first_reason(&a.model.loops[0]), "'fill' writes 'sink', not only the tiles"));
	release(&a);
}
END_TEST

START_TEST(template_helpers_called_in_a_row_are_the_fill)
{
	struct analysis a;
	/* two calls of a function template from a kernel template: both read, each tile once */
	analyze(&a, "template <int W>\n__device__ void fill(float (*S)[W], const float *G, int ld)\n"
		    "{\n    for (int i = threadIdx.y; i < 16; i += 16)\n"
		    "        S[i][threadIdx.x] = G[i * ld + threadIdx.x];\n}\n"
		    "template <int T>\n__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		    "    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n    float acc = 0;\n"
		    "    for (int t = 0; t < K / 16; ++t) {\n"
		    "        fill<16>(As, A + t * 16, K);\n        fill<16>(Bs, B + t * 16 * 16, 16);\n"
		    "        __syncthreads();\n        for (int k = 0; k < 16; ++k)\n"
		    "            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n        __syncthreads();\n"
		    "    }\n    C[threadIdx.y * 16 + threadIdx.x] = acc * T;\n}\n");
	struct kloop *l = &a.model.loops[0];
	ck_assert_str_eq(first_reason(l), "");
	ck_assert_int_eq(l->nhelpers, 2);
	ck_assert_str_eq(l->helpers[1].name, "fill");
	ck_assert_int_eq(l->helpers[1].nstores, 1);
	ck_assert_int_eq(l->helpers[1].stores[0].width, 4);
	ck_assert_int_eq(l->ntiles, 2);
	ck_assert(l->legal[VARIANT_CP_ASYNC].ok);
	release(&a);
	/* the same tile handed to both calls: its elements may be copied twice */
	analyze(&a, "template <int W>\n__device__ void fill(float (*S)[W], const float *G, int ld)\n"
		    "{\n    S[threadIdx.y][threadIdx.x] = G[threadIdx.y * ld + threadIdx.x];\n}\n"
		    HELPER_KERNEL
		    "    for (int t = 0; t < K / 16; ++t) {\n"
		    "        fill<16>(As, A, K);\n        fill<16>(As, A + t * 16, K);\n"
		    "        __syncthreads();\n        for (int k = 0; k < 16; ++k)\n"
		    "            acc += As[threadIdx.y][k];\n        __syncthreads();\n"
		    "    }\n    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n");
	ck_assert_ptr_nonnull(strstr(first_reason(&a.model.loops[0]), "'As' is handed to an earlier fill call too"));
	release(&a);
}
END_TEST

START_TEST(a_copy_loop_with_a_constant_bound_is_staged_per_trip)
{
	struct analysis a;
	analyze(&a, "__global__ void k(const float *A, float *C, int K, int n)\n{\n"
		    "    __shared__ float As[512];\n    float acc = 0;\n"
		    "    for (int t = 0; t < K; ++t) {\n"
		    "        for (int i = threadIdx.x; i < 512; i += blockDim.x)\n"
		    "            As[i] = A[t * 512 + i];\n"
		    "        __syncthreads();\n"
		    "        acc += As[threadIdx.x];\n"
		    "        __syncthreads();\n"
		    "    }\n    C[threadIdx.x] = acc;\n}\n");
	struct kloop *l = &a.model.loops[0];
	ck_assert_str_eq(first_reason(l), "");
	/* blockDim.x: the block size decides how many registers, and nothing says it */
	ck_assert(!l->legal[VARIANT_LDG].ok);
	ck_assert_ptr_nonnull(strstr(l->legal[VARIANT_LDG].refusal, "strides by blockDim.x and the block size is unknown"));
	ck_assert_int_eq(l->stmts[0].cl.bound, 512);
	ck_assert_int_eq(l->stmts[0].cl.stride, 0);
	release(&a);
	analyze(&a, "__global__ void __launch_bounds__(256) k(const float *A, float *C, int K, int n)\n{\n"
		    "    __shared__ float As[512];\n    float acc = 0;\n"
		    "    for (int t = 0; t < K; ++t) {\n"
		    "        for (int i = threadIdx.x; i < 512; i += blockDim.x)\n"
		    "            As[i] = A[t * 512 + i];\n"
		    "        __syncthreads();\n"
		    "        acc += As[threadIdx.x];\n"
		    "        __syncthreads();\n"
		    "    }\n    C[threadIdx.x] = acc;\n}\n");
	l = &a.model.loops[0];
	ck_assert(l->legal[VARIANT_LDG].ok);
	ck_assert_int_eq(l->block_threads, 256);
	release(&a);
	analyze(&a, "__global__ void k(const float *A, float *C, int K, int n)\n{\n"
		    "    __shared__ float As[512];\n    float acc = 0;\n"
		    "    for (int t = 0; t < K; ++t) {\n"
		    "        for (int i = threadIdx.x; i < n; i += 128)\n"
		    "            As[i] = A[t * 512 + i];\n"
		    "        __syncthreads();\n"
		    "        acc += As[threadIdx.x];\n"
		    "        __syncthreads();\n"
		    "    }\n    C[threadIdx.x] = acc;\n}\n");
	l = &a.model.loops[0];
	ck_assert(!l->legal[VARIANT_LDG].ok);
	ck_assert_ptr_nonnull(strstr(l->legal[VARIANT_LDG].refusal, "runs while `i < n`: staging registers need a trip count pipefy can compute"));
	release(&a);
}
END_TEST

/* The copy loop of k(LOOP): its statement once analyzed (a's first loop). */
static const struct body_stmt *copy_loop_of(struct analysis *a, const char *decls, const char *loop)
{
	char *text = xprintf("__global__ void __launch_bounds__(256) k(const float *A, float *C, int K, int n)\n{\n"
			     "    __shared__ float As[512];\n    float acc = 0;\n%s"
			     "    for (int t = 0; t < K; ++t) {\n"
			     "        %s\n"
			     "            As[i] = A[t * 512 + i];\n"
			     "        __syncthreads();\n"
			     "        acc += As[threadIdx.x];\n"
			     "        __syncthreads();\n"
			     "    }\n    C[threadIdx.x] = acc;\n}\n",
			     decls, loop);
	analyze(a, text);
	free(text);
	return &a->model.loops[0].stmts[0];
}

START_TEST(a_copy_loop_test_is_read_as_a_bound_in_front_of_the_loop)
{
	struct analysis a;
	/* i + C <= N: i < N - C + 1, in a type that cannot wrap */
	const struct body_stmt *st = copy_loop_of(&a, "", "for (unsigned i = threadIdx.x; i + 256 <= 512; i += 256)");
	ck_assert_int_eq(st->cl.bound, 257);
	ck_assert_str_eq(st->cl.bound_text, "(long long)(512) - (long long)(256) + 1");
	ck_assert(a.model.loops[0].legal[VARIANT_LDG].ok);
	release(&a);
	st = copy_loop_of(&a, "", "for (int i = threadIdx.x; i <= 511; i += 256)");
	ck_assert_int_eq(st->cl.bound, 512);
	ck_assert_str_eq(st->cl.bound_text, "(511) + 1");
	release(&a);
	/* a local set once stands for its value: an array's size must be a constant expression */
	st = copy_loop_of(&a, "    int threads = 2 * 128;\n    int stride = threads;\n",
			  "for (int i = threadIdx.x; i < 512; i += stride)");
	ck_assert_int_eq(st->cl.stride, -1);
	ck_assert_str_eq(st->cl.stride_text, "((2 * 128))");
	ck_assert(a.model.loops[0].legal[VARIANT_LDG].ok);
	release(&a);
	/* a test that runs more trips than `i < N` would count (seen staged for half of them) */
	st = copy_loop_of(&a, "", "for (int i = threadIdx.x; i / 2 < 256; i += 256)");
	ck_assert_int_eq(st->cl.bound, 0);
	ck_assert(!a.model.loops[0].legal[VARIANT_LDG].ok);
	release(&a);
	/* a local written again, or a name the function declares twice, is no value */
	st = copy_loop_of(&a, "    int stride = 256;\n    stride += n;\n", "for (int i = threadIdx.x; i < 512; i += stride)");
	ck_assert_int_eq(st->cl.bound, 0);
	release(&a);
	st = copy_loop_of(&a, "    int stride = 256;\n    { int stride = 2; acc += stride; }\n",
			  "for (int i = threadIdx.x; i < 512; i += stride)");
	ck_assert_int_eq(st->cl.bound, 0);
	release(&a);
}
END_TEST

START_TEST(a_loop_declaration_that_would_capture_another_name_is_not_hoisted)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD
		"    for (int t = 0; t < K / 16; ++t) {\n"
		"        As[ty][tx] = A[ty * K + t * 16 + tx];\n"
		"        __syncthreads();\n"
		"        acc += As[ty][tx];\n"
		"        __shared__ float As[16][16];\n"
		"        __syncthreads();\n"
		"    }\n    C[ty * 16 + tx] = acc;\n}\n");
	ck_assert_ptr_nonnull(strstr(first_reason(&a.model.loops[0]), "shares its name with the 'As'"));
	release(&a);
}
END_TEST

START_TEST(plain_loop_model)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD
		"    for (int t = 0; t < K / 16; ++t) {\n"
		"        As[ty][tx] = A[ty * K + t * 16 + tx];\n"
		"        Bs[ty][tx] = B[(t * 16 + ty) * 16 + tx];\n"
		"        __syncthreads();\n"
		"        for (int k = 0; k < 16; ++k)\n"
		"            acc += As[ty][k] * Bs[k][tx];\n"
		"        __syncthreads();\n"
		"    }\n    C[ty * 16 + tx] = acc;\n}\n");
	ck_assert_int_eq(a.model.nloops, 1);
	struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(l->nrefusals, 0);
	ck_assert_str_eq(l->function, "k");
	ck_assert_int_eq(l->ntiles, 2);
	ck_assert_str_eq(l->tiles[0].name, "As");
	ck_assert_int_eq(l->tiles[0].bytes, 1024);
	ck_assert_str_eq(l->tiles[0].elem_type, "float");
	ck_assert_int_eq(l->ncopies, 2);
	ck_assert_int_eq(l->copies[0].width, 4);
	ck_assert(!l->copies[0].conversion);
	ck_assert_int_eq(l->nbarriers, 2);
	ck_assert_int_eq(l->nivars, 1);
	ck_assert_str_eq(l->ivars[0].name, "t");
	ck_assert_str_eq(l->ivars[0].init, "0");
	ck_assert(l->legal[VARIANT_CP_ASYNC].ok);
	ck_assert(l->legal[VARIANT_LDG].ok);
	ck_assert_int_eq((int)l->flops_per_thread, 32); /* 16 multiply-adds */
	release(&a);
}
END_TEST

START_TEST(pointer_bumps_and_two_header_variables)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD
		"    const float *pa = A + ty * K + tx;\n"
		"    for (int i = 0, j = 0; i < K; i += 16, j++) {\n"
		"        As[ty][tx] = *pa;\n"
		"        Bs[ty][tx] = B[j * 256 + ty * 16 + tx];\n"
		"        __syncthreads();\n"
		"        pa += 16;\n"
		"        for (int k = 0; k < 16; ++k)\n"
		"            acc += As[ty][k] * Bs[k][tx];\n"
		"        __syncthreads();\n"
		"    }\n    C[ty * 16 + tx] = acc;\n}\n");
	struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(l->nrefusals, 0);
	ck_assert_int_eq(l->nivars, 3);
	ck_assert_str_eq(l->ivars[0].name, "i");
	ck_assert_str_eq(l->ivars[1].name, "j");
	ck_assert_str_eq(l->ivars[2].name, "pa");
	ck_assert_str_eq(l->ivars[2].init, "pa"); /* declared before the loop: its value there */
	ck_assert(l->copies[0].src_is_deref);
	release(&a);
}
END_TEST

START_TEST(guarded_copies_both_forms)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD
		"    for (int t = 0; t < K; t += 16) {\n"
		"        As[ty][tx] = t + tx < K ? A[ty * K + t + tx] : 0.0f;\n"
		"        if (t + ty < K)\n"
		"            Bs[ty][tx] = B[(t + ty) * 16 + tx];\n"
		"        else\n"
		"            Bs[ty][tx] = 0.0f;\n"
		"        __syncthreads();\n"
		"        for (int k = 0; k < 16; ++k)\n"
		"            acc += As[ty][k] * Bs[k][tx];\n"
		"        __syncthreads();\n"
		"    }\n    C[ty * 16 + tx] = acc;\n}\n");
	struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(l->nrefusals, 0);
	ck_assert_int_eq(l->ncopies, 2);
	ck_assert(l->copies[0].guard.end > l->copies[0].guard.begin);
	ck_assert(!l->copies[0].guard_is_if);
	ck_assert(l->copies[1].guard_is_if);
	ck_assert(l->legal[VARIANT_CP_ASYNC].ok); /* zero fill */
	release(&a);
}
END_TEST

/* Each refusal names the rule; the substring is what a user reads. */
static void expect_refusal(const char *loop, const char *reason)
{
	struct analysis a;
	char *code = xprintf(KERNEL_HEAD "%s    C[ty * 16 + tx] = acc;\n}\n", loop);
	analyze(&a, code);
	free(code);
	ck_assert_int_eq(a.model.nloops, 1);
	ck_assert_msg(strstr(first_reason(&a.model.loops[0]), reason), "wanted '%s', got '%s'", reason,
		      first_reason(&a.model.loops[0]));
	release(&a);
}

/* A division in a copy's address is a gather only when it varies per tile. */
START_TEST(a_gather_is_a_division_that_varies_per_tile)
{
	struct analysis a;
	static const char kernel[] =
		"__global__ void k(const float *__restrict__ A, float *__restrict__ C, int K)\n{\n"
		"    __shared__ float As[16][16];\n    float acc = 0;\n"
		"    for (int k0 = 0; k0 < K; k0 += 16) {\n"
		"        As[threadIdx.y][threadIdx.x] = A[%s];\n"
		"        __syncthreads();\n"
		"        acc += As[threadIdx.y][threadIdx.x];\n"
		"        __syncthreads();\n"
		"    }\n    C[threadIdx.x] = acc;\n}\n";
	char *invariant = xprintf(kernel, "(threadIdx.y / 2) * K + k0 + threadIdx.x");
	analyze(&a, invariant);
	ck_assert_int_eq(a.model.loops[0].gather_at, 0);
	release(&a);
	char *varying = xprintf(kernel, "(k0 + threadIdx.x) / 3 * K + threadIdx.y");
	analyze(&a, varying);
	ck_assert_int_ne(a.model.loops[0].gather_at, 0);
	release(&a);
	free(invariant);
	free(varying);
}
END_TEST

START_TEST(refusals)
{
	expect_refusal("    for (int t = 0; t < K; t += 16) {\n"
		       "        As[ty][tx] = 2.0f * A[t + tx] + Bs[ty][0];\n        Bs[ty][tx] = B[t + ty];\n"
		       "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        __syncthreads();\n    }\n",
		       "from a value that also reads 'Bs', which is __shared__");
	expect_refusal("    for (int t = 0; t < K; t += 16) {\n"
		       "        As[ty][tx] = A[t + tx];\n        Bs[ty][tx] = B[t + ty];\n"
		       "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n"
		       "        if (acc > 1.0f) break;\n        __syncthreads();\n    }\n",
		       "'break' at");
	expect_refusal("    int off = 0;\n    for (int t = 0; t < K; t += 16) {\n"
		       "        As[ty][tx] = A[t + tx + off];\n        Bs[ty][tx] = B[t + ty];\n"
		       "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        off = (int)acc;\n"
		       "        __syncthreads();\n    }\n",
		       "depends on 'off', which the statement at 14:9 writes");
	expect_refusal("    for (int t = 0; t < K; t += 16) {\n"
		       "        As[ty][tx] = A[t + tx];\n        Bs[ty][tx] = B[t + ty];\n"
		       "        if (tx == 0) __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        __syncthreads();\n    }\n",
		       "sits under a condition");
	expect_refusal("    float r = A[0];\n    for (int t = 0; t < K; t += 16) {\n"
		       "        As[ty][tx] = r;\n        Bs[ty][tx] = B[t + ty];\n"
		       "        __syncthreads();\n        r = A[t + 16 + tx];\n        acc += As[ty][0] * Bs[0][tx];\n"
		       "        __syncthreads();\n    }\n",
		       "register prefetch");
	expect_refusal("    for (int t = 0; t < K; t += 16) {\n"
		       "        As[ty][tx] = A[t + tx];\n        Bs[ty][tx] = B[t + ty];\n"
		       "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n    }\n",
		       "only one block barrier");
}
END_TEST

/* A static tile the code after the loop reads keeps one stage (registers), no refusal. */
START_TEST(static_tile_used_after_the_loop_keeps_one_stage)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD "    for (int t = 0; t < K; t += 16) {\n"
			       "        As[ty][tx] = A[t + tx];\n        Bs[ty][tx] = B[t + ty];\n"
			       "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        __syncthreads();\n    }\n"
			       "    acc += As[0][0];\n    C[ty * 16 + tx] = acc;\n}\n");
	const struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(l->nrefusals, 0);
	ck_assert_msg(l->one_stage && strstr(l->one_stage, "tile 'As' is also used outside the loop"), "%s",
		      l->one_stage ? l->one_stage : "(none)");
	ck_assert(!l->legal[VARIANT_CP_ASYNC].ok);
	release(&a);
}
END_TEST

START_TEST(function_with_errors_is_left_alone)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD
		"    undeclared_thing = 1;\n"
		"    for (int t = 0; t < K; t += 16) {\n"
		"        As[ty][tx] = A[t + tx];\n        Bs[ty][tx] = B[t + ty];\n"
		"        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        __syncthreads();\n"
		"    }\n    C[0] = acc;\n}\n");
	ck_assert_int_eq(a.model.nloops, 1);
	ck_assert(a.model.loops[0].function_has_errors);
	ck_assert_ptr_nonnull(strstr(first_reason(&a.model.loops[0]), "has parse errors"));
	release(&a);
}
END_TEST

/* The role of the body statement of loop l whose text starts with `text`. */
static const struct body_stmt *stmt_at(const struct analysis *a, const struct kloop *l, const char *text)
{
	for (int i = 0; i < l->nstmts; i++)
		if (strncmp(a->src.text + l->stmts[i].text.begin, text, strlen(text)) == 0)
			return &l->stmts[i];
	ck_abort_msg("no body statement starts with '%s'", text);
	return NULL;
}

#define STEP_LOOP(compute)                                                                       \
	KERNEL_HEAD "    int row = blockIdx.y * 16 + ty;\n"                                        \
		    "    for (int t = 0; t < K / 16; ++t) {\n"                                          \
		    "        int r = row - 1;\n"                                                         \
		    "        r += 1;\n"                                                                  \
		    "        int ia = r * K + t * 16 + tx;\n"                                            \
		    "        As[ty][tx] = A[ia];\n        Bs[ty][tx] = B[(t * 16 + ty) * 16 + tx];\n"  \
		    "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx]" compute ";\n"     \
		    "        __syncthreads();\n    }\n    C[0] = acc;\n}\n"

/* `r += 1;` only advances a local the copies alone read (through `ia`): a step, with them */
START_TEST(a_step_of_a_local_only_the_copies_read_goes_with_them)
{
	struct analysis a;
	analyze(&a, STEP_LOOP(""));
	const struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(l->nrefusals, 0);
	const struct body_stmt *step = stmt_at(&a, l, "r += 1");
	ck_assert_int_eq(step->role, ROLE_COPY_DECL);
	ck_assert(!clang_Cursor_isNull(step->advance));
	ck_assert(!stmt_at(&a, l, "int r = row - 1")->also_compute);
	ck_assert(l->legal[VARIANT_LDG].ok);
	ck_assert(!l->legal[VARIANT_TMA].ok);
	release(&a);
}
END_TEST

/* the compute reads r too: the step stays with it, and the copies may not run a tile early */
START_TEST(a_step_of_a_local_the_compute_reads_stays_and_refuses)
{
	struct analysis a;
	analyze(&a, STEP_LOOP(" + (float)r"));
	const struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(stmt_at(&a, l, "r += 1")->role, ROLE_COMPUTE);
	ck_assert(stmt_at(&a, l, "int r = row - 1")->also_compute);
	/* (before the barrier: "the statement", not yet the compute) */
	ck_assert_msg(strstr(first_reason(l), "the copies read 'r', which the statement at 11:9 writes") != NULL, "%s",
		      first_reason(l));
	release(&a);
}
END_TEST

/* a copy loop that steps a lane pointer declared in the body: kept; register staging's stores
 * declare it again and step it as the loader did (a pointer of the function they would step
 * twice) */
START_TEST(a_copy_loop_may_step_a_local_only_the_copies_use)
{
	struct analysis a;
	analyze(&a, KERNEL_HEAD
		"    for (int t = 0; t < K / 16; ++t) {\n"
		"        const float *p = A + ty * K + t * 16 + tx;\n"
		"        for (int i = 0; i < 2; ++i) {\n            As[ty + 8 * i][tx] = *p;\n            p += 8 * K;\n        }\n"
		"        Bs[ty][tx] = B[(t * 16 + ty) * 16 + tx];\n"
		"        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        __syncthreads();\n"
		"    }\n    C[0] = acc;\n}\n");
	const struct kloop *l = &a.model.loops[0];
	ck_assert_int_eq(l->nrefusals, 0);
	const struct body_stmt *loop = stmt_at(&a, l, "for (int i");
	ck_assert(loop->writes_locals);
	ck_assert(!clang_Cursor_isNull(loop->advance));
	ck_assert(l->legal[VARIANT_CP_ASYNC].ok);
	ck_assert(l->legal[VARIANT_LDG].ok);
	ck_assert(stmt_at(&a, l, "const float *p")->store_side);
	release(&a);
	/* a scratch local of the function, assigned in the body, that a destination reads: the
	 * stores cannot declare it again */
	analyze(&a, KERNEL_HEAD
		"    int di;\n"
		"    for (int t = 0; t < K / 16; ++t) {\n"
		"        di = ty;\n"
		"        As[di][tx] = A[ty * K + t * 16 + tx];\n"
		"        Bs[ty][tx] = B[(t * 16 + ty) * 16 + tx];\n"
		"        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx];\n        __syncthreads();\n"
		"    }\n    C[0] = acc;\n}\n");
	l = &a.model.loops[0];
	ck_assert(l->legal[VARIANT_CP_ASYNC].ok);
	ck_assert(!l->legal[VARIANT_LDG].ok);
	ck_assert_ptr_nonnull(strstr(l->legal[VARIANT_LDG].refusal, "advances 'di', which a copy's destination reads"));
	release(&a);
	/* the compute reads the lane pointer too: the loader would advance it a tile early */
	expect_refusal("    for (int t = 0; t < K / 16; ++t) {\n"
		       "        const float *p = A + ty * K + t * 16 + tx;\n"
		       "        for (int i = 0; i < 2; ++i) {\n            As[ty + 8 * i][tx] = *p;\n            p += 8 * K;\n        }\n"
		       "        Bs[ty][tx] = B[(t * 16 + ty) * 16 + tx];\n"
		       "        __syncthreads();\n        acc += As[ty][0] * Bs[0][tx] + (float)(p - A);\n        __syncthreads();\n"
		       "    }\n",
		       "the statement at 10:9 fills a tile and also writes 'p' (12:13), which the compute reads too: the loader would advance it a tile early");
}
END_TEST

/* Static tiles that may move into the launch's dynamic shared memory past the 48 KB static
 * limit (check's promote): proven for a kernel of the file's own launched here with no bytes;
 * not where the kernel declares an extern __shared__ array, or other files could launch it. */
#define LAUNCH_DECLS                                                                              \
	"# 1 \"/pipefy-compat/launch_prelude.h\" 3\n"                                               \
	"extern \"C\" __device__ void __syncthreads(void);\n" /* (as the CUDA headers give it) */       \
	"struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };\n" \
	"extern \"C\" int cudaConfigureCall(dim3, dim3, unsigned long = 0, void * = 0);\n"        \
	"extern \"C\" unsigned __cudaPushCallConfiguration(dim3, dim3, unsigned long = 0, void * = 0);\n" \
	"# 9 \"snippet.cu\"\n"
#define PROMOTE_LOOP                                                              \
	"    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n"           \
	"    float acc = 0.0f;\n"                                                        \
	"    for (int t = 0; t < K; t += 16) {\n"                                        \
	"        As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t + threadIdx.x];\n"  \
	"        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * 16 + threadIdx.x];\n" \
	"        __syncthreads();\n"                                                     \
	"        for (int k = 0; k < 16; ++k)\n"                                         \
	"            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"                  \
	"        __syncthreads();\n    }\n    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n"
#define PROMOTE_HOST "void host(const float *A, const float *B, float *C, int K) { k<<<1, dim3(16, 16)>>>(A, B, C, K); }\n"

START_TEST(static_tiles_may_move_for_a_kernel_of_the_files_own)
{
	struct analysis a;
	analyze(&a, LAUNCH_DECLS "static __global__ void k(const float *A, const float *B, float *C, int K)\n{\n" PROMOTE_LOOP
		    PROMOTE_HOST);
	ck_assert_int_eq(a.model.nloops, 1);
	const struct kloop *l = &a.model.loops[0];
	ck_assert_msg(l->promote, "not proven: %s", l->promote_refusal ? l->promote_refusal : "(no reason)");
	ck_assert_int_eq(l->nlaunch_edits, 1);
	ck_assert(l->launch_edits[0].insert);
	release(&a);
}
END_TEST

START_TEST(static_tiles_stay_where_the_kernel_declares_extern_shared)
{
	struct analysis a;
	analyze(&a, LAUNCH_DECLS "static __global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		    "    extern __shared__ float spare[];\n" PROMOTE_LOOP PROMOTE_HOST);
	const struct kloop *l = &a.model.loops[0];
	ck_assert(!l->promote);
	ck_assert_ptr_nonnull(l->promote_refusal);
	ck_assert_msg(strstr(l->promote_refusal, "'spare'") && strstr(l->promote_refusal, "extern __shared__"), "%s",
		      l->promote_refusal);
	release(&a);
}
END_TEST

START_TEST(static_tiles_stay_where_other_files_may_launch_the_kernel)
{
	struct analysis a;
	analyze(&a, LAUNCH_DECLS "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n" PROMOTE_LOOP
		    PROMOTE_HOST);
	const struct kloop *l = &a.model.loops[0];
	ck_assert(!l->promote);
	ck_assert_ptr_nonnull(l->promote_refusal);
	ck_assert_msg(strstr(l->promote_refusal, "can be launched from other files"), "%s", l->promote_refusal);
	release(&a);
}
END_TEST

Suite *find_suite(void)
{
	Suite *s = suite_create("find");
	TCase *tc = tcase_create("snippets");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, plain_loop_model);
	tcase_add_test(tc, a_helper_that_only_copies_fills_the_tiles);
	tcase_add_test(tc, template_helpers_called_in_a_row_are_the_fill);
	tcase_add_test(tc, a_copy_loop_with_a_constant_bound_is_staged_per_trip);
	tcase_add_test(tc, a_copy_loop_test_is_read_as_a_bound_in_front_of_the_loop);
	tcase_add_test(tc, a_loop_declaration_that_would_capture_another_name_is_not_hoisted);
	tcase_add_test(tc, a_helper_that_does_more_is_refused_with_what_it_does);
	tcase_add_test(tc, pointer_bumps_and_two_header_variables);
	tcase_add_test(tc, guarded_copies_both_forms);
	tcase_add_test(tc, a_gather_is_a_division_that_varies_per_tile);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, static_tile_used_after_the_loop_keeps_one_stage);
	tcase_add_test(tc, function_with_errors_is_left_alone);
	tcase_add_test(tc, a_step_of_a_local_only_the_copies_read_goes_with_them);
	tcase_add_test(tc, a_step_of_a_local_the_compute_reads_stays_and_refuses);
	tcase_add_test(tc, a_copy_loop_may_step_a_local_only_the_copies_use);
	tcase_add_test(tc, static_tiles_may_move_for_a_kernel_of_the_files_own);
	tcase_add_test(tc, static_tiles_stay_where_the_kernel_declares_extern_shared);
	tcase_add_test(tc, static_tiles_stay_where_other_files_may_launch_the_kernel);
	suite_add_tcase(s, tc);
	return s;
}
