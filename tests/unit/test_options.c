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

START_TEST(short_options_bundle_and_take_attached_values)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 3, "-qn", "-oout.cu", "k.cu"), 2); /* (--dry-run writes no file) */
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "-qi", "-pbuild", "k.cu"), 0);
	ck_assert(o.quiet && o.in_place);
	ck_assert_str_eq(o.compile_db, "build");
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 2, "-qoout.cu", "k.cu"), 0);
	ck_assert(o.quiet);
	ck_assert_str_eq(o.output, "out.cu");
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "-qo", "out.cu", "k.cu"), 0);
	ck_assert_str_eq(o.output, "out.cu");
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 2, "-nR", "k.cu"), 0);
	ck_assert(o.dry_run && o.remarks);
	options_free(&o);
	/* -q and -R still exclude each other, bundled or not */
	ck_assert_int_eq(parse(&o, &err, 1, "-qR"), 2);
	ck_assert_str_eq(err, "-q and -R cannot be combined");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "-qx"), 2);
	ck_assert_str_eq(err, "unknown option '-qx'");
	free(err);
	options_free(&o);
}
END_TEST

START_TEST(long_options_take_unambiguous_prefixes)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 4, "--var=ldg", "--report-f=r.json", "--dry", "k.cu"), 0);
	ck_assert_int_eq(o.variant, VARIANT_LDG);
	ck_assert_str_eq(o.report, "json");
	ck_assert_str_eq(o.report_file, "r.json");
	ck_assert(o.dry_run);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "--sta", "2", "--variant=cp.async"), 0);
	ck_assert_int_eq(o.stages, 2);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--r"), 2);
	ck_assert_str_eq(err, "option '--r' is ambiguous: --remarks, --report, --report-file, --rules");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--output-replacements"), 2);
	ck_assert_ptr_nonnull(strstr(err, "ambiguous"));
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--diff=yes"), 2);
	ck_assert_str_eq(err, "--diff takes no value");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--variant"), 2);
	ck_assert_str_eq(err, "--variant needs a value");
	free(err);
	options_free(&o);
}
END_TEST

START_TEST(unknown_options_get_a_suggestion)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 1, "--varaint=ldg"), 2);
	ck_assert_str_eq(err, "unknown option '--varaint=ldg'; did you mean '--variant=ldg'?");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--dryrun"), 2);
	ck_assert_str_eq(err, "unknown option '--dryrun'; did you mean '--dry-run'?");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "-variant=ldg"), 2);
	ck_assert_str_eq(err, "unknown option '-variant=ldg'; did you mean '--variant=ldg'?");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 1, "--bogus"), 2);
	ck_assert_str_eq(err, "unknown option '--bogus'");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 2, "-isystem", "inc"), 2);
	ck_assert_str_eq(err, "unknown option '-isystem' (a parser option: after --)");
	free(err);
	options_free(&o);
}
END_TEST

/* A usage error still says what the command line reads and writes: main writes standard input
 * back when it would have been a filter. */
START_TEST(parsing_goes_on_after_a_usage_error)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 4, "--bogus", "--variant=fast", "-o", "out.cu"), 2);
	ck_assert_str_eq(err, "unknown option '--bogus'");
	ck_assert_str_eq(o.output, "out.cu");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 2, "--stages=3", "k.cu"), 2);
	ck_assert_int_eq(o.nfiles, 1);
	free(err);
	options_free(&o);
}
END_TEST

START_TEST(depfile_targets)
{
	struct options o;
	char *err;
	ck_assert_int_eq(parse(&o, &err, 5, "-MF", "d.d", "-MT", "out.cu", "k.cu"), 0);
	ck_assert_str_eq(o.depfile, "d.d");
	ck_assert_str_eq(o.dep_target, "out.cu");
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 5, "-MF", "d.d", "-o", "out.cu", "k.cu"), 0);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "-MF", "d.d", "k.cu"), 2);
	ck_assert_str_eq(err, "-MF: standard output has no name for make to use: give -o FILE, or -MT TARGET");
	free(err);
	options_free(&o);
	ck_assert_int_eq(parse(&o, &err, 3, "-MT", "out.cu", "k.cu"), 2);
	ck_assert_str_eq(err, "-MT names the target of -MF's file: it needs -MF");
	free(err);
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
	tcase_add_test(tc, short_options_bundle_and_take_attached_values);
	tcase_add_test(tc, long_options_take_unambiguous_prefixes);
	tcase_add_test(tc, unknown_options_get_a_suggestion);
	tcase_add_test(tc, parsing_goes_on_after_a_usage_error);
	tcase_add_test(tc, depfile_targets);
	suite_add_tcase(s, tc);
	return s;
}
