/* test_validate.c: validation's readers (validate.c, region.c and the families' readings) on
 * a real rewrite of a small kernel, then on the same output with one thing broken in place (a
 * span replaced by text of the same length, so the rewrite's offsets still hold): each break
 * must fail the loop's validation, naming what is wrong, and leave every other loop alone. */
#include <stdlib.h>
#include "suites.h"

/* __syncthreads from a system header, as the CUDA headers give it */
#define PRELUDE \
	"# 1 \"/pipefy-compat/validate_prelude.h\" 3\nextern \"C\" __device__ void __syncthreads(void);\n# 3 \"snippet.cu\"\n"

#define KERNEL(name)                                                                             \
	"__global__ void __attribute__((launch_bounds(256))) " name "(const float *A, const float *B, float *C, int K)\n" \
	"{\n"                                                                                    \
	"    __shared__ float As[16][16];\n"                                                     \
	"    __shared__ float Bs[16][16];\n"                                                     \
	"    int tx = threadIdx.x, ty = threadIdx.y;\n"                                          \
	"    float acc = 0.0f;\n"                                                                \
	"    for (int t = 0; t < K / 16; ++t) {\n"                                               \
	"        As[ty][tx] = A[ty * K + t * 16 + tx];\n"                                        \
	"        Bs[ty][tx] = B[(t * 16 + ty) * 16 + tx];\n"                                     \
	"        __syncthreads();\n"                                                             \
	"        for (int k = 0; k < 16; ++k)\n"                                                 \
	"            acc += As[ty][k] * Bs[k][tx];\n"                                            \
	"        __syncthreads();\n"                                                             \
	"    }\n"                                                                                \
	"    C[ty * 16 + tx] = acc;\n"                                                           \
	"}\n"

/* The same in a block of one dimension (a producer warp is added to such a block alone), each
 * thread copying its elements of the tiles in loops over the block, and its launch: the tensor
 * copies need it (the host makes the tensor maps, or checks the boxes). */
#define FLAT_KERNEL(name)                                                                        \
	"__global__ void __attribute__((launch_bounds(256))) " name "(const float *A, const float *B, float *C, int K)\n" \
	"{\n"                                                                                    \
	"    __shared__ float As[16][16];\n"                                                     \
	"    __shared__ float Bs[16][16];\n"                                                     \
	"    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;\n"                                \
	"    float acc = 0.0f;\n"                                                                \
	"    for (int t = 0; t < K / 16; ++t) {\n"                                               \
	"        for (int i = threadIdx.x; i < 256; i += blockDim.x)\n"                          \
	"            As[i / 16][i % 16] = A[i / 16 * K + t * 16 + i % 16];\n"                    \
	"        for (int i = threadIdx.x; i < 256; i += blockDim.x)\n"                          \
	"            Bs[i / 16][i % 16] = B[(t * 16 + i / 16) * 16 + i % 16];\n"                 \
	"        __syncthreads();\n"                                                             \
	"        for (int k = 0; k < 16; ++k)\n"                                                 \
	"            acc += As[ty][k] * Bs[k][tx];\n"                                            \
	"        __syncthreads();\n"                                                             \
	"    }\n"                                                                                \
	"    C[threadIdx.x] = acc;\n"                                                            \
	"}\n"
#define LAUNCHES                                                                                 \
	"void run(const float *A, const float *B, float *C, int K)\n"                             \
	"{\n"                                                                                    \
	"    k<<<1, 256>>>(A, B, C, K);\n"                                                       \
	"    other<<<1, 256>>>(A, B, C, K);\n"                                                   \
	"}\n"

struct rewritten {
	struct source src;
	struct parsed parsed;
	struct model model;
	struct options o;
	struct edits edits;
	char *output;
};

/* Two kernels, k and other, rewritten with one variant, their output as pipefy writes it: for
 * sm_80, or for sm_90 where the variant needs it (tma, bulk, ws: the tensor copies). */
static void rewrite_with(struct rewritten *w, enum variant v)
{
	static const char code[] = PRELUDE KERNEL("k") KERNEL("other");
	static const char launched[] = PRELUDE FLAT_KERNEL("k") FLAT_KERNEL("other") LAUNCHES;
	bool tensor = v == VARIANT_TMA || v == VARIANT_BULK || v == VARIANT_WS || v == VARIANT_WS_CP_ASYNC;
	memset(w, 0, sizeof *w);
	source_init_text(&w->src, "snippet.cu", tensor ? launched : code, strlen(tensor ? launched : code));
	/* (cp.async's output includes cuda_pipeline.h: the toolkit's headers, as a user's run) */
	int arch = v == VARIANT_TMA || v == VARIANT_BULK || v == VARIANT_WS ? 90 : 80;
	w->o = (struct options){.arch = arch, .variant = v, .length = -1, .cuda_path = v == VARIANT_LDG ? "/nonexistent" : NULL};
	char *err = NULL;
	ck_assert_msg(parse_source(&w->parsed, &w->src, &w->o, &err), "%s", err ? err : "");
	ck_assert_msg(w->parsed.ndiags == 0, "%d:%d: %s", w->parsed.diags[0].line, w->parsed.diags[0].col, w->parsed.diags[0].message);
	struct rules rules;
	ck_assert_msg(rules_load(&rules, NULL, &err), "%s", err ? err : "");
	find_kloops(&w->model, &w->parsed, &w->src);
	find_launches(&w->model, &w->parsed, &w->src);
	measure_kloops(&w->model, &w->src, &w->o);
	box_kloops(&w->model, &w->src);
	check_kloops(&w->model, &w->src);
	plan_kloops(&w->model, &w->o, &rules, &w->src);
	plan_launch_stages(&w->model);
	rewrite_kloops(&w->model, &w->src, &w->edits);
	ck_assert_int_eq(w->model.nloops, 2);
	for (int i = 0; i < 2; i++)
		ck_assert_msg(w->model.loops[i].rewritten, "loop %d not rewritten: %s; %s", i,
			      w->model.loops[i].nrefusals ? w->model.loops[i].refusals[0].reason : "-",
			      w->model.loops[i].declined ? w->model.loops[i].declined : "-");
	ck_assert_msg(edits_apply(&w->edits, &w->src, &w->output, &err), "%s", err ? err : "");
}

static void release(struct rewritten *w)
{
	free(w->output);
	edits_free(&w->edits);
	model_free(&w->model);
	parsed_free(&w->parsed);
	source_free(&w->src);
}

/* The output with the first occurrence of `was` after the start of the first kernel's main
 * loop (at `after`, text that starts it) replaced by `now`, of the same length; with `now` NULL,
 * the statement `was` made an empty one (blanks, then its ';': an if's body stays one). */
static char *broken(const char *output, const char *after, const char *was, const char *now)
{
	size_t n = strlen(was);
	char *empty = NULL;
	if (!now) {
		ck_assert_msg(n > 1 && was[n - 1] == ';', "'%s' is not a statement", was);
		empty = xmalloc(n + 1);
		memset(empty, ' ', n - 1);
		memcpy(empty + n - 1, ";", 2);
		now = empty;
	}
	ck_assert_uint_eq(n, strlen(now));
	ck_assert_str_ne(was, now);
	char *out = xstrdup(output);
	char *from = strstr(out, after);
	ck_assert_msg(from != NULL, "no '%s' in the output", after);
	char *at = strstr(from, was);
	ck_assert_msg(at != NULL, "no '%s' after '%s'", was, after);
	memcpy(at, now, n);
	ck_assert_str_ne(out, output);
	free(empty);
	return out;
}

/* Validation of output: how many loops failed, the first loop's reason in *why. */
static int validate(struct rewritten *w, const char *output, const char **why)
{
	for (int i = 0; i < w->model.nloops; i++) {
		free(w->model.loops[i].invalid);
		w->model.loops[i].invalid = NULL;
	}
	int failed = validate_rewrite(&w->model, &w->src, &w->o, &w->edits, output, w->parsed.ndiags, w->parsed.pch_reused);
	*why = w->model.loops[0].invalid ? w->model.loops[0].invalid : "";
	ck_assert_msg(w->model.loops[1].invalid == NULL, "the other loop failed too: %s", w->model.loops[1].invalid);
	return failed;
}

#define LDG_MAIN "for (int t = 0; t < K / 16; ++t) {\n            bool pipefy_more"
#define FAILED "the rewrite failed validation: "

/* The variant's output, with `was` after `after` made `now`, must fail the first loop alone,
 * its reason a validation failure that says want. */
static void expect_failure(enum variant v, const char *after, const char *was, const char *now, const char *want)
{
	struct rewritten w;
	rewrite_with(&w, v);
	char *out = broken(w.output, after, was, now);
	const char *why;
	ck_assert_int_eq(validate(&w, out, &why), 1);
	ck_assert_msg(strncmp(why, FAILED, strlen(FAILED)) == 0 && strstr(why, want) != NULL, "%s", why);
	free(out);
	release(&w);
}

static void expect_pass(enum variant v)
{
	struct rewritten w;
	rewrite_with(&w, v);
	const char *why;
	ck_assert_int_eq(validate(&w, w.output, &why), 0);
	release(&w);
}

START_TEST(registers_output_as_written_passes) { expect_pass(VARIANT_LDG); }
END_TEST

START_TEST(registers_main_loop_without_its_barrier_fails)
{
	expect_failure(VARIANT_LDG, LDG_MAIN, "__syncthreads();", "__syncwarp();   ", FAILED);
}
END_TEST

START_TEST(registers_stash_into_the_stage_being_read_fails)
{
	expect_failure(VARIANT_LDG, LDG_MAIN, "pipefy_stash(pipefy_stage ^ 1)", "pipefy_stash(pipefy_stage ^ 0)", FAILED);
}
END_TEST

START_TEST(registers_compute_of_another_stage_fails)
{
	expect_failure(VARIANT_LDG, LDG_MAIN, "As[pipefy_stage][ty][k]", "As[0           ][ty][k]", FAILED);
}
END_TEST

START_TEST(cp_async_output_as_written_passes) { expect_pass(VARIANT_CP_ASYNC); }
END_TEST

START_TEST(cp_async_main_loop_without_its_wait_fails)
{
	expect_failure(VARIANT_CP_ASYNC, "// pipefy: main loop", "__pipeline_wait_prior(0);", "                         ",
		       FAILED);
}
END_TEST

START_TEST(a_clang_error_inside_a_loop_fails_that_loop_alone)
{
	expect_failure(VARIANT_LDG, LDG_MAIN, "pipefy_stage ^= 1;", "pipefy_stage ^= x;", "its replacement has a clang error");
}
END_TEST

/* ---- the tensor family (tensor.c's readers: validate_tensor, validate_ws_cp_async) ---- */

#define LOADER "auto pipefy_load = [&]"
#define MAIN "// pipefy: main loop"
#define LOOP_SHAPE "the main loop does not start the next copy, wait for its tile, and release the stage"
#define UNFENCED "the copy engine may write a stage before the threads' reads of it are fenced from it"

START_TEST(tma_output_as_written_passes) { expect_pass(VARIANT_TMA); }
END_TEST

START_TEST(tma_copy_without_the_proxy_fence_fails)
{
	expect_failure(VARIANT_TMA, LOADER, "pipefy_fence_proxy_async();", NULL, UNFENCED);
}
END_TEST

/* (the fence orders the reads the wait saw end: a fence without the wait orders nothing) */
START_TEST(tma_copy_without_the_wait_for_the_stage_to_empty_fails)
{
	expect_failure(VARIANT_TMA, LOADER, "pipefy_mbar_wait(&pipefy_empty[pipefy_dst], (pipefy_loads / 2 - 1) & 1);", NULL,
		       UNFENCED);
}
END_TEST

START_TEST(tma_main_loop_without_the_wait_for_its_tile_fails)
{
	expect_failure(VARIANT_TMA, MAIN, "pipefy_mbar_wait(&pipefy_full[pipefy_stage], pipefy_phase);", NULL, LOOP_SHAPE);
}
END_TEST

START_TEST(tma_main_loop_without_the_release_of_the_stage_fails)
{
	expect_failure(VARIANT_TMA, MAIN, "pipefy_mbar_arrive(&pipefy_empty[pipefy_stage], 1);", NULL, LOOP_SHAPE);
}
END_TEST

START_TEST(bulk_output_as_written_passes) { expect_pass(VARIANT_BULK); }
END_TEST

START_TEST(bulk_copy_without_the_proxy_fence_fails)
{
	expect_failure(VARIANT_BULK, LOADER, "pipefy_fence_proxy_async();", NULL, UNFENCED);
}
END_TEST

START_TEST(ws_output_as_written_passes) { expect_pass(VARIANT_WS); }
END_TEST

START_TEST(ws_copy_without_the_proxy_fence_fails)
{
	expect_failure(VARIANT_WS, LOADER, "pipefy_fence_proxy_async();", NULL, UNFENCED);
}
END_TEST

START_TEST(ws_producer_warp_staying_for_the_compute_fails)
{
	expect_failure(VARIANT_WS, MAIN, "if (pipefy_producer) continue;", NULL, LOOP_SHAPE);
}
END_TEST

START_TEST(ws_cp_async_output_as_written_passes) { expect_pass(VARIANT_WS_CP_ASYNC); }
END_TEST

START_TEST(ws_cp_async_producer_copy_without_its_wait_for_the_stage_fails)
{
	expect_failure(VARIANT_WS_CP_ASYNC, LOADER, "pipefy_bar_sync(3 + pipefy_dst, pipefy_threads + 32);", NULL,
		       "the producer warp may copy into a stage before the kernel's threads are done with it");
}
END_TEST

START_TEST(ws_cp_async_main_loop_without_the_wait_for_its_tile_fails)
{
	expect_failure(VARIANT_WS_CP_ASYNC, MAIN, "pipefy_bar_sync(1 + pipefy_stage, pipefy_threads + 32);", NULL, LOOP_SHAPE);
}
END_TEST

START_TEST(ws_cp_async_producer_not_waiting_for_its_copies_fails)
{
	expect_failure(VARIANT_WS_CP_ASYNC, MAIN, "__pipeline_wait_prior(1);", NULL, LOOP_SHAPE);
}
END_TEST

Suite *validate_suite(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("readers");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, registers_output_as_written_passes);
	tcase_add_test(tc, registers_main_loop_without_its_barrier_fails);
	tcase_add_test(tc, registers_stash_into_the_stage_being_read_fails);
	tcase_add_test(tc, registers_compute_of_another_stage_fails);
	tcase_add_test(tc, cp_async_output_as_written_passes);
	tcase_add_test(tc, cp_async_main_loop_without_its_wait_fails);
	tcase_add_test(tc, a_clang_error_inside_a_loop_fails_that_loop_alone);
	tcase_add_test(tc, tma_output_as_written_passes);
	tcase_add_test(tc, tma_copy_without_the_proxy_fence_fails);
	tcase_add_test(tc, tma_copy_without_the_wait_for_the_stage_to_empty_fails);
	tcase_add_test(tc, tma_main_loop_without_the_wait_for_its_tile_fails);
	tcase_add_test(tc, tma_main_loop_without_the_release_of_the_stage_fails);
	tcase_add_test(tc, bulk_output_as_written_passes);
	tcase_add_test(tc, bulk_copy_without_the_proxy_fence_fails);
	tcase_add_test(tc, ws_output_as_written_passes);
	tcase_add_test(tc, ws_copy_without_the_proxy_fence_fails);
	tcase_add_test(tc, ws_producer_warp_staying_for_the_compute_fails);
	tcase_add_test(tc, ws_cp_async_output_as_written_passes);
	tcase_add_test(tc, ws_cp_async_producer_copy_without_its_wait_for_the_stage_fails);
	tcase_add_test(tc, ws_cp_async_main_loop_without_the_wait_for_its_tile_fails);
	tcase_add_test(tc, ws_cp_async_producer_not_waiting_for_its_copies_fails);
	suite_add_tcase(s, tc);
	return s;
}
