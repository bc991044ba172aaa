/* run.c: a run over its inputs: each file in turn, then the one report of the run (to standard
 * error or --report-file) and the summary line. */
#include "run.h"

#include <stdlib.h>

/* The report of the whole run, where it goes: exit status 1 if it could not be written. */
static int write_report(const struct options *o, struct outcome *v, int n)
{
	const char **parts = xcalloc((size_t)n, sizeof *parts);
	for (int i = 0; i < n; i++)
		parts[i] = v[i].report;
	char *doc = report_join(o->report, (const char *const *)parts, n);
	free(parts);
	int code = 0;
	char *err = NULL;
	if (!o->report_file)
		fputs(doc, stderr);
	else if (!write_output(o->report_file, doc, strlen(doc), &err)) {
		fprintf(stderr, "%s\n", err);
		free(err);
		code = 1;
	}
	free(doc);
	return code;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* `pipefy: 3 files: 12 loops pipelined, 5 left as written, 0 errors` at the end of a run over
 * several files or a --dry-run (not under -q). Errors are the files that failed (could not be
 * read, transformed or written: exit status 1) and --dry-run --Werror's errors; clang's parse
 * errors are warnings and not counted. */
static void summary(const struct options *o, const struct outcome *v, int n)
{
	if (o->quiet || (n < 2 && !o->dry_run))
		return;
	int pipelined = 0, left = 0, errors = 0;
	for (int i = 0; i < n; i++) {
		pipelined += v[i].pipelined;
		left += v[i].left;
		errors += v[i].failed + v[i].werror;
	}
	fprintf(stderr, "pipefy: %d file%s: %d loop%s %s, %d left as written, %d error%s\n", n, plural(n), pipelined,
		plural(pipelined), o->dry_run ? "can be pipelined" : "pipelined", left, errors, plural(errors));
}

int run_all(const struct options *o)
{
	int n = o->nfiles ? o->nfiles : 1, code = 0;
	struct outcome *v = xcalloc((size_t)n, sizeof *v);
	for (int i = 0; i < n; i++) {
		v[i].code = process_file(o, o->nfiles ? o->files[i] : "-", &v[i]);
		if (v[i].code > code)
			code = v[i].code;
	}
	/* (the summary ends the messages; a report on standard error follows them, whole) */
	summary(o, v, n);
	if (o->report) {
		int c = write_report(o, v, n);
		code = c > code ? c : code;
	}
	for (int i = 0; i < n; i++)
		free(v[i].report);
	free(v);
	return code;
}
