/* test_parse.c: the preamble pipefy precompiles and caches. */
#include "suites.h"

static size_t preamble(const char *text)
{
	return preamble_length(text, strlen(text));
}

START_TEST(includes_and_comments_form_the_preamble)
{
	const char *t = "// k.cu: a kernel\n/* two\n   lines */\n#include <cstdio>\n\n#include \"h.cuh\"\n__global__ void k() {}\n";
	ck_assert_uint_eq(preamble(t), strstr(t, "__global__") - t);
}
END_TEST

START_TEST(a_define_ends_the_preamble)
{
	/* macros stay in the main file: find and check read their definitions there */
	const char *t = "#include <cstdio>\n#define TILE 32\n#include <cmath>\n";
	ck_assert_uint_eq(preamble(t), strstr(t, "#define") - t);
}
END_TEST

START_TEST(a_conditional_ends_the_preamble)
{
	const char *t = "#pragma once\n#include <a.h>\n#ifdef X\n#include <b.h>\n#endif\n";
	ck_assert_uint_eq(preamble(t), strstr(t, "#ifdef") - t);
}
END_TEST

START_TEST(no_include_no_preamble)
{
	ck_assert_uint_eq(preamble("// only a comment\n\n#pragma once\nint x;\n"), 0);
	ck_assert_uint_eq(preamble("int x;\n#include <a.h>\n"), 0);
	ck_assert_uint_eq(preamble(""), 0);
}
END_TEST

START_TEST(a_directive_that_runs_on_stops_before_it)
{
	ck_assert_uint_eq(preamble("#include <a.h>\n#include <b.h> /* open\n comment */\nint x;\n"), 15);
	ck_assert_uint_eq(preamble("#include <a.h>\n#include \\\n<b.h>\n"), 15);
	ck_assert_uint_eq(preamble("#include <a.h> // fine\nint x;\n"), 23);
}
END_TEST

START_TEST(a_last_line_without_newline_is_not_cut)
{
	/* a preamble ends at a line end; the unterminated line stays in the main file */
	ck_assert_uint_eq(preamble("#include <a.h>\n#include <b.h>"), 15);
}
END_TEST

START_TEST(an_open_comment_at_the_cut_is_not_split)
{
	ck_assert_uint_eq(preamble("#include <a.h>\n/* starts\nint x; */ int y;\n"), 15);
}
END_TEST

Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("preamble");
	tcase_add_test(tc, includes_and_comments_form_the_preamble);
	tcase_add_test(tc, a_define_ends_the_preamble);
	tcase_add_test(tc, a_conditional_ends_the_preamble);
	tcase_add_test(tc, no_include_no_preamble);
	tcase_add_test(tc, a_directive_that_runs_on_stops_before_it);
	tcase_add_test(tc, a_last_line_without_newline_is_not_cut);
	tcase_add_test(tc, an_open_comment_at_the_cut_is_not_split);
	suite_add_tcase(s, tc);
	return s;
}
