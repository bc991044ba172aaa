/* run.h: a run over its inputs (run.c) and the one-file step it repeats (main.c). */
#ifndef RUN_H
#define RUN_H

#include "pipefy.h"

/* What one input left for the end of the run: its exit status, its loops, its part of the
 * report. */
struct outcome {
	int code;      /* the file's exit status */
	int pipelined; /* loops pipelined (--dry-run: that can be) */
	int left;      /* loops left as written, with a remark saying why */
	int failed;    /* 1: the file could not be read, transformed or written */
	int werror;    /* --dry-run --Werror: its errors */
	char *report;  /* --report: its part (emit_report's text), or NULL */
	char *fixes;   /* --export-fixes: its entry of the Diagnostics (emit_fixes'), or NULL */
};

/* main.c: one input ("-": standard input) read, transformed and written; returns its exit status. */
int process_file(const struct options *o, const char *path, struct outcome *out);
/* main.c: path written as an editor writes it (a temporary renamed over it where it can be). */
bool write_output(const char *path, const char *text, size_t len, char **err);
/* main.c: all of text written to fd, through interrupted and partial writes; false on an error. */
bool write_all(int fd, const char *text, size_t len);

/* run.c: every input in order (or -j's workers), then the report and the summary line; returns
 * the run's exit status, the largest of the files'. */
int run_all(const struct options *o);

#endif
