/* test_variant.c: the variant table (variant.c), the source's hints (hints.c) and validation's
 * reading of the statements pipefy writes (names.h, validate.c's code_is / code_starts). */
#include <stdlib.h>
#include "suites.h"
#include "region.h"

START_TEST(table_names_and_limits)
{
	ck_assert_int_eq(variant_named("cpasync")->id, VARIANT_CP_ASYNC);
	ck_assert_int_eq(variant_named("ws-cp.async")->id, VARIANT_WS_CP_ASYNC);
	ck_assert_ptr_null(variant_named("fast"));
	ck_assert_str_eq(variant_name(VARIANT_LDG), "ldg");
	/* ws-cp.async's named barriers allow 7 stages under the rules' 8; ldg takes 2 */
	ck_assert_int_eq(variant_max_stages(variant_row(VARIANT_WS_CP_ASYNC), 8), 7);
	ck_assert_int_eq(variant_max_stages(variant_row(VARIANT_LDG), 8), 2);
	ck_assert_int_eq(variant_max_stages(variant_row(VARIANT_TMA), 8), 8);
	ck_assert(variant_is_tensor(VARIANT_WS_CP_ASYNC) && !variant_is_tensor(VARIANT_CP_ASYNC));
	/* every pipeline has a rewrite and a validation, and the tensor family's stages are aligned */
	int n;
	const struct variant_row *rows = variant_rows(&n);
	for (int i = 0; i < n; i++) {
		if (rows[i].listed && rows[i].id != VARIANT_AUTO)
			ck_assert_msg(rows[i].rewrite && rows[i].validate, "%s", rows[i].name);
		if (rows[i].family == FAMILY_TENSOR)
			ck_assert_int_eq(rows[i].tile_align, 128);
	}
}
END_TEST

static struct loop_hint hint_of(const char *text, const char *loop_line, size_t *file_at, bool *file_off)
{
	static struct source src;
	source_free(&src);
	source_init_text(&src, "h.cu", text, strlen(text));
	*file_off = file_hint_off(&src, file_at);
	return loop_hint(&src, (size_t)(strstr(text, loop_line) - text));
}

START_TEST(hints_read_in_the_source)
{
	size_t at;
	bool file_off;
	struct loop_hint h = hint_of("x;\n  // pipefy: off -- slower here\n  #pragma unroll 1\n  for (;;) {}\n", "for", &at, &file_off);
	ck_assert(h.off && !h.problem && !file_off);
	ck_assert_uint_eq(h.at, 5);
	free(h.text);
	h = hint_of("for (;;) { // pipefy: variant=ldg stages=1\n}\n", "for", &at, &file_off);
	ck_assert(!h.off && h.variant == VARIANT_LDG && h.stages == 1 && !h.problem);
	free(h.text);
	/* a line of code between the comment and the loop: the hint is not the loop's */
	h = hint_of("// pipefy: off\nint a;\nfor (;;) {}\n", "for", &at, &file_off);
	ck_assert(!h.off && !h.text);
	/* pipefy's own comments are prose, not hints */
	h = hint_of("// pipefy: main loop: wait for tile t\nfor (;;) {}\n", "for", &at, &file_off);
	ck_assert(!h.off && !h.problem && !h.text);
	h = hint_of("// pipefy: variant=fast\nfor (;;) {}\n", "for", &at, &file_off);
	ck_assert_ptr_nonnull(h.problem);
	ck_assert_str_eq(h.problem, "no variant 'fast'");
	free(h.problem);
	free(h.text);
	h = hint_of("// pipefy: stages=3\nfor (;;) {}\n", "for", &at, &file_off);
	ck_assert_ptr_nonnull(h.problem);
	free(h.problem);
	free(h.text);
	h = hint_of("// pipefy: variant=ws-cp.async stages=8\nfor (;;) {}\n", "for", &at, &file_off);
	ck_assert_str_eq(h.problem, "ws-cp.async does not take 8 stages");
	free(h.problem);
	free(h.text);
	h = hint_of("int a;\n// pipefy: off-file\nfor (;;) {}\n", "for", &at, &file_off);
	ck_assert(file_off && !h.off);
	ck_assert_uint_eq(at, 7);
	free(h.text);
}
END_TEST

START_TEST(written_statements_read_back)
{
	/* validation squeezes the blanks out of the output's statements; names.h has them as written */
	ck_assert(code_is("pipefy_bar_sync(0,pipefy_threads+128)", SNIP_WARPGROUP_DONE));
	ck_assert(!code_is("pipefy_bar_sync(0,pipefy_threads+12)", SNIP_WARPGROUP_DONE));
	ck_assert(!code_is("pipefy_bar_sync(0,pipefy_threads+1280)", SNIP_WARPGROUP_DONE));
	ck_assert(code_starts("pipefy_mbar_wait(&pipefy_full[pipefy_stage],pipefy_phase)", SNIP_WAIT_FULL));
	ck_assert(!code_starts("pipefy_mbar_wait(&pipefy_empty[pipefy_stage],pipefy_phase)", SNIP_WAIT_FULL));
	ck_assert(code_starts("boolpipefy_more=pipefy_fetch(true,k0)", SNIP_FETCH_FIRST));
	ck_assert(!code_starts("bool", SNIP_FETCH_FIRST));
	ck_assert(code_starts("if(pipefy_producer)continue", SNIP_PRODUCER_SKIPS));
}
END_TEST

Suite *variant_suite(void)
{
	Suite *s = suite_create("variant");
	TCase *t = tcase_create("variant");
	tcase_add_test(t, table_names_and_limits);
	tcase_add_test(t, hints_read_in_the_source);
	tcase_add_test(t, written_statements_read_back);
	suite_add_tcase(s, t);
	return s;
}
