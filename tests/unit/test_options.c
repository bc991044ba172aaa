/* test_options.c: the command line parser. */
#include <stdlib.h>
#include "suites.h"

static int parse(struct options *o, char **err, int argc, ...)
{
	char *argv[32] = {"pipefy"};
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return options_parse(o, argc + 1, argv, err);
}

START_TEST(defaults)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 0), 0);
	ck_assert_int_eq(o.nfiles, 0);
	ck_assert_int_eq(o.variant, VARIANT_AUTO);
	ck_assert_int_eq(o.arch, 80);
	ck_assert_int_eq(o.stages, 0);
	options_free(&o);
}
END_TEST

START_TEST(files_outputs_and_values)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 7, "k.cu", "-o", "out.cu", "--variant=cp.async", "--stages", "3", "--arch=sm_90"), 0);
	ck_assert_int_eq(o.nfiles, 1);
	ck_assert_str_eq(o.files[0], "k.cu");
	ck_assert_str_eq(o.output, "out.cu");
	ck_assert_int_eq(o.variant, VARIANT_CP_ASYNC);
	ck_assert_int_eq(o.stages, 3);
	ck_assert_int_eq(o.arch, 90);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "k.cu", "--variant=tma", "--arch=sm_90"), 0);
	ck_assert_int_eq(o.variant, VARIANT_TMA);
	ck_assert_str_eq(variant_name(o.variant), "tma");
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "k.cu", "--variant=bulk", "--stages=4"), 0);
	ck_assert_int_eq(o.variant, VARIANT_BULK);
	ck_assert_str_eq(variant_name(o.variant), "bulk");
	ck_assert_int_eq(o.stages, 4);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 2, "k.cu", "--variant=ws"), 0);
	ck_assert_int_eq(o.variant, VARIANT_WS);
	ck_assert_str_eq(variant_name(o.variant), "ws");
	options_free(&o);
}
END_TEST

START_TEST(dash_is_stdin_and_double_dash_ends_options)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 6, "-", "--assume-filename=x.cu", "--", "-DTILE=16", "-I", "inc"), 0);
	ck_assert_int_eq(o.nfiles, 1);
	ck_assert_str_eq(o.files[0], "-");
	ck_assert_str_eq(o.assume_filename, "x.cu");
	ck_assert_int_eq(o.nextra, 3);
	ck_assert_str_eq(o.extra_args[0], "-DTILE=16");
	options_free(&o);
}
END_TEST

START_TEST(usage_errors_exit_2)
{
	struct options o;
	char *err;
	const char *bad[][2] = {
		{"--variant=fast", NULL}, {"--stages=0", NULL}, {"--stages=1", NULL}, {"--stages=9", NULL}, {"--arch=80", NULL},
		{"--bogus", NULL},        {"-o", NULL},         {"-i", NULL},         {"-i", "-"},
		{"--report=xml", NULL},   {"--block-size=0", NULL}, {"--variant=ldg", "--stages=3"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int rc = bad[i][1] ? parse(&o, &err, 2, bad[i][0], bad[i][1]) : parse(&o, &err, 1, bad[i][0]);
		ck_assert_msg(rc == 2, "%s should be a usage error", bad[i][0]);
		ck_assert_ptr_nonnull(err);
		free(err);
		options_free(&o);
	}
	ck_assert_int_eq(parse(&o, &err, 4, "a.cu", "-i", "-o", "b.cu"), 2);
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 4, "a.cu", "b.cu", "-o", "c.cu"), 2);
	free(err);
	options_free(&o);
}
END_TEST

START_TEST(help_and_version)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 1, "--help"), 0);
	ck_assert(o.help);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--version"), 0);
	ck_assert(o.version);
	options_free(&o);
}
END_TEST

Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, files_outputs_and_values);
	tcase_add_test(tc, dash_is_stdin_and_double_dash_ends_options);
	tcase_add_test(tc, usage_errors_exit_2);
	tcase_add_test(tc, help_and_version);
	suite_add_tcase(s, tc);
	return s;
}
