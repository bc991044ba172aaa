/* test_emit.c: a remark's text: one line, at most REMARK_MAX characters, cut where a clause ends. */
#include <stdlib.h>
#include "suites.h"

/* head, then `n` characters of filler words, then tail */
static char *padded(const char *head, int n, const char *tail)
{
	char *fill = xmalloc((size_t)n + 1);
	for (int i = 0; i < n; i++)
		fill[i] = i % 6 == 5 ? ' ' : 'w';
	fill[n] = '\0';
	char *msg = xprintf("%s%s%s", head, fill, tail);
	free(fill);
	return msg;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* head, `n` characters of filler words and tail, as a remark: at most REMARK_MAX characters,
 * and `want` followed by REMARK_MORE */
static void check_cut(const char *head, int n, const char *tail, const char *want)
{
	char *msg = padded(head, n, tail), *t = remark_text(msg, REMARK_MAX), *w = xprintf("%s%s", want, REMARK_MORE);
	ck_assert_uint_le(strlen(t), REMARK_MAX);
	ck_assert_str_eq(t, w);
	free(w);
	free(t);
	free(msg);
}

START_TEST(a_short_remark_is_kept_whole_on_one_line)
{
	char *t = remark_text("not pipelined: the callee's text\n    spans lines", REMARK_MAX);
	ck_assert_str_eq(t, "not pipelined: the callee's text spans lines");
	free(t);
}
END_TEST

START_TEST(a_long_remark_ends_at_its_last_clause_that_fits)
{
	/* the "; " is past the limit; the last clause end that fits is the ": " after "thread" */
	check_cut("K-loop not pipelined: the barrier at 4:7 is not reached by every thread: ", 150, "; more words",
		  "K-loop not pipelined: the barrier at 4:7 is not reached by every thread");
}
END_TEST

START_TEST(no_cut_inside_parentheses_or_quotes)
{
	check_cut("K-loop pipelined: ldg, 2 stages: the rule holds (see 'a: b; c' and (x; y: ", 120,
		  ")); for ever and ever and ever and ever", "K-loop pipelined: ldg, 2 stages: the rule holds");
}
END_TEST

START_TEST(no_cut_before_a_parenthesis_that_words_follow)
{
	check_cut("K-loop not pipelined: a barrier is skipped: the loop runs only where `x < n` (4:7) holds, ", 120, "",
		  "K-loop not pipelined: a barrier is skipped");
}
END_TEST

START_TEST(the_head_is_never_cut)
{
	/* a message whose only clause end is its head's: cut after the last word that fits */
	char *msg = padded("loop not pipelined: ", 300, "");
	char *t = remark_text(msg, REMARK_MAX);
	ck_assert_uint_le(strlen(t), REMARK_MAX);
	ck_assert(ends_with(t, "w" REMARK_MORE));
	ck_assert(strncmp(t, "loop not pipelined: www", 23) == 0);
	free(t);
	free(msg);
}
END_TEST

START_TEST(a_comma_ends_a_clause_where_nothing_else_does)
{
	check_cut("K-loop not pipelined: the copies read through 'A', which is '__restrict__', ", 150, " and more",
		  "K-loop not pipelined: the copies read through 'A', which is '__restrict__'");
}
END_TEST

Suite *emit_suite(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("remarks");
	tcase_add_test(tc, a_short_remark_is_kept_whole_on_one_line);
	tcase_add_test(tc, a_long_remark_ends_at_its_last_clause_that_fits);
	tcase_add_test(tc, no_cut_inside_parentheses_or_quotes);
	tcase_add_test(tc, no_cut_before_a_parenthesis_that_words_follow);
	tcase_add_test(tc, the_head_is_never_cut);
	tcase_add_test(tc, a_comma_ends_a_clause_where_nothing_else_does);
	suite_add_tcase(s, tc);
	return s;
}
