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

int run_all(const struct options *o)
{
	int n = o->nfiles ? o->nfiles : 1, code = 0;
	struct outcome *v = xcalloc((size_t)n, sizeof *v);
	for (int i = 0; i < n; i++) {
		v[i].code = process_file(o, o->nfiles ? o->files[i] : "-", &v[i]);
		if (v[i].code > code)
			code = v[i].code;
	}
	if (o->report) {
		int c = write_report(o, v, n);
		code = c > code ? c : code;
	}
	for (int i = 0; i < n; i++)
		free(v[i].report);
	free(v);
	return code;
}
