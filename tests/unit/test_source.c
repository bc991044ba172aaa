/* test_source.c: the line table and the edit list. */
#include <stdlib.h>
#include "suites.h"

static char *apply(struct edits *e, const char *text)
{
	struct source src;
	source_init_text(&src, "t.cu", text, strlen(text));
	char *out = NULL, *err = NULL;
	bool ok = edits_apply(e, &src, &out, &err);
	source_free(&src);
	if (!ok) {
		free(err);
		return NULL;
	}
	return out;
}

START_TEST(replacements_apply_in_offset_order)
{
	struct edits e = {0};
	edits_add(&e, 6, 5, "there");
	edits_add(&e, 0, 0, "> ");
	char *out = apply(&e, "hello world");
	ck_assert_str_eq(out, "> hello there");
	free(out);
	edits_free(&e);
}
END_TEST

/* --cursor moves as clang-format moves it (Replacements::getShiftedCodePosition): past the edits
 * before it, an insertion at the cursor included; inside a replacement, kept where it lies in
 * the new text when that is long enough, else to its last character. */
START_TEST(cursor_shifts_like_clang_format)
{
	struct edits e = {0};
	edits_add(&e, 5, 0, "abc");
	edits_add(&e, 10, 4, "xy");
	edits_add(&e, 30, 2, "0123456789");
	ck_assert_uint_eq(emit_shifted_position(&e, 3), 3);
	ck_assert_uint_eq(emit_shifted_position(&e, 5), 8);
	ck_assert_uint_eq(emit_shifted_position(&e, 12), 11 + 3);
	ck_assert_uint_eq(emit_shifted_position(&e, 20), 20 + 3 - 2);
	ck_assert_uint_eq(emit_shifted_position(&e, 31), 31 + 1);
	edits_free(&e);
}
END_TEST

START_TEST(insertions_at_one_offset_keep_their_order)
{
	struct edits e = {0};
	edits_add(&e, 2, 0, "[2]");
	edits_add(&e, 2, 0, "[s]");
	char *out = apply(&e, "As[i]");
	ck_assert_str_eq(out, "As[2][s][i]");
	free(out);
	edits_free(&e);
}

END_TEST

START_TEST(overlapping_edits_are_rejected)
{
	struct edits e = {0};
	edits_add(&e, 0, 4, "x");
	edits_add(&e, 2, 4, "y");
	ck_assert_ptr_null(apply(&e, "abcdefgh"));
	edits_free(&e);
	edits_add(&e, 0, 4, "x");
	edits_add(&e, 2, 0, "inside");
	ck_assert_ptr_null(apply(&e, "abcdefgh"));
	edits_free(&e);
}
END_TEST

START_TEST(insertion_at_the_end_of_a_replacement_is_allowed)
{
	struct edits e = {0};
	edits_add(&e, 0, 2, "AB");
	edits_add(&e, 2, 0, "|");
	char *out = apply(&e, "abcd");
	ck_assert_str_eq(out, "AB|cd");
	free(out);
	edits_free(&e);
}
END_TEST

START_TEST(offsets_after_multibyte_characters)
{
	/* "é" is two bytes: columns count bytes, as clang's do, and edits land on bytes. */
	const char *text = "// é\nint x;\n";
	struct source src;
	source_init_text(&src, "t.cu", text, strlen(text));
	int line, col;
	size_t x = strstr(text, "x;") - text;
	source_line_col(&src, x, &line, &col);
	ck_assert_int_eq(line, 2);
	ck_assert_int_eq(col, 5);
	ck_assert_uint_eq(source_offset(&src, 2, 5), x);
	source_line_col(&src, 4, &line, &col); /* second byte of é */
	ck_assert_int_eq(line, 1);
	ck_assert_int_eq(col, 5);
	struct edits e = {0};
	edits_add(&e, x, 1, "y");
	char *out, *err;
	ck_assert(edits_apply(&e, &src, &out, &err));
	ck_assert_str_eq(out, "// é\nint y;\n");
	free(out);
	edits_free(&e);
	source_free(&src);
}
END_TEST

START_TEST(line_indent_is_the_leading_blanks)
{
	const char *text = "a\n\t  for (;;)\n";
	struct source src;
	source_init_text(&src, "t.cu", text, strlen(text));
	char *ind = source_line_indent(&src, 6);
	ck_assert_str_eq(ind, "\t  ");
	free(ind);
	source_free(&src);
}
END_TEST

START_TEST(empty_text_has_one_line)
{
	struct source src;
	source_init_text(&src, "t.cu", "", 0);
	ck_assert_int_eq(src.nlines, 1);
	int line, col;
	source_line_col(&src, 0, &line, &col);
	ck_assert_int_eq(line, 1);
	ck_assert_int_eq(col, 1);
	source_free(&src);
}
END_TEST

START_TEST(bytes_not_utf8_count_only_outside_comments)
{
	/* (a Windows-1252 dash, 0x96, in a line comment, a block comment, and a line comment
	 * continued by a backslash; UTF-8 in a string) */
	const char ok[] = "int a; // \x96\n/* \x96 */ const char *s = \"\xc3\xa9\"; // x \\\n \x96\nint b;\n";
	ck_assert_uint_eq(utf8_invalid_in_code(ok, sizeof ok - 1), (size_t)-1);
	/* in a string literal, a character literal and a raw string (whose slash-star starts no comment):
	 * the code's */
	const char str[] = "int a; const char *s = \"\x96\";";
	ck_assert_uint_eq(utf8_invalid_in_code(str, sizeof str - 1), 24);
	const char chr[] = "char c = '\x96';";
	ck_assert_uint_eq(utf8_invalid_in_code(chr, sizeof chr - 1), 10);
	const char raw[] = "auto r = R\"x(/* \x96 )x\";";
	ck_assert_uint_eq(utf8_invalid_in_code(raw, sizeof raw - 1), 16);
	/* a comment that ends: the code after it is read again */
	const char after[] = "/* a */ int \x96;";
	ck_assert_uint_eq(utf8_invalid_in_code(after, sizeof after - 1), 12);
}
END_TEST

START_TEST(replacements_xml_escapes_like_clang_format)
{
	struct edits e = {0};
	edits_add(&e, 10, 3, "a<b>&'\"\nc");
	edits_add(&e, 2, 0, "[2]");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	emit_replacements_xml(f, &e, -1);
	fclose(f);
	ck_assert_str_eq(buf, "<?xml version='1.0'?>\n"
			      "<replacements xml:space='preserve' incomplete_format='false'>\n"
			      "<replacement offset='2' length='0'>[2]</replacement>\n"
			      "<replacement offset='10' length='3'>a&lt;b&gt;&amp;&apos;&quot;&#10;c</replacement>\n"
			      "</replacements>\n");
	free(buf);
	edits_free(&e);
}
END_TEST

Suite *source_suite(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("edits");
	tcase_add_test(tc, replacements_apply_in_offset_order);
	tcase_add_test(tc, cursor_shifts_like_clang_format);
	tcase_add_test(tc, insertions_at_one_offset_keep_their_order);
	tcase_add_test(tc, overlapping_edits_are_rejected);
	tcase_add_test(tc, insertion_at_the_end_of_a_replacement_is_allowed);
	tcase_add_test(tc, offsets_after_multibyte_characters);
	tcase_add_test(tc, line_indent_is_the_leading_blanks);
	tcase_add_test(tc, empty_text_has_one_line);
	tcase_add_test(tc, replacements_xml_escapes_like_clang_format);
	tcase_add_test(tc, bytes_not_utf8_count_only_outside_comments);
	suite_add_tcase(s, tc);
	return s;
}
