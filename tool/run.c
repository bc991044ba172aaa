/* run.c: a run over its inputs: each file in turn, or -j's worker processes, then the one report
 * of the run (to standard error or --report-file) and the summary line. */
#define _GNU_SOURCE /* memfd_create, strsignal */
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- -j: a process a file ----
 * Each file is rewritten by a child of its own (pipefy keeps process-wide state, and libclang's
 * thread safety is not bet on), its standard output and error kept in memory files; the parent
 * prints them in the files' order as each file's turn comes, and reads the outcome the child
 * wrote as JSON. A child that crashes says so in its file's place. */

struct worker {
	pid_t pid;
	int out, err, res; /* memory files: its standard output, its standard error, its outcome */
	bool done;
	int status;
};

/* The whole of a memory file, from its start. */
static char *read_all(int fd, size_t *len)
{
	struct strbuf sb = {0};
	char buf[65536];
	ssize_t n;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			sb_add(&sb, buf, (size_t)n);
	*len = sb.len;
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* In the child: the file, then its outcome: a line of numbers (exit status, loops pipelined and
 * left, failed, --Werror's errors, the lengths of the report's part and the fixes' entry) and
 * those two texts as they are (a file's name need not be UTF-8, so no JSON); it exits with the
 * file's status. */
static void work(const struct options *o, const char *path, const struct worker *w)
{
	dup2(w->out, STDOUT_FILENO);
	dup2(w->err, STDERR_FILENO);
	struct outcome oc = {0};
	oc.code = process_file(o, path, &oc);
	fflush(stdout);
	size_t nreport = oc.report ? strlen(oc.report) : 0, nfixes = oc.fixes ? strlen(oc.fixes) : 0;
	char *head = xprintf("%d %d %d %d %d %zu %zu\n", oc.code, oc.pipelined, oc.left, oc.failed, oc.werror, nreport,
			     nfixes);
	(void)write_all(w->res, head, strlen(head));
	(void)write_all(w->res, oc.report ? oc.report : "", nreport);
	(void)write_all(w->res, oc.fixes ? oc.fixes : "", nfixes);
	free(head);
	free(oc.report);
	free(oc.fixes);
	/* _exit: the child holds the parent's heap, reached from stacks of threads it does not
	 * have (main's), which LeakSanitizer would take for leaks; what process_file allocates is
	 * checked by the same file's run without -j */
	_exit(oc.code);
}

static bool start_worker(const struct options *o, const char *path, struct worker *w)
{
	*w = (struct worker){-1, memfd_create("pipefy-out", MFD_CLOEXEC), memfd_create("pipefy-err", MFD_CLOEXEC),
			     memfd_create("pipefy-outcome", MFD_CLOEXEC), false, 0};
	fflush(stdout);
	fflush(stderr);
	if (w->out >= 0 && w->err >= 0 && w->res >= 0)
		w->pid = fork();
	if (w->pid == 0)
		work(o, path, w);
	return w->pid > 0;
}

/* The outcome a child wrote; false when there is none whole (it crashed). */
static bool read_outcome(int fd, struct outcome *oc)
{
	size_t len, nreport, nfixes;
	int at = 0;
	char *text = read_all(fd, &len);
	bool ok = sscanf(text, "%d %d %d %d %d %zu %zu\n%n", &oc->code, &oc->pipelined, &oc->left, &oc->failed,
			 &oc->werror, &nreport, &nfixes, &at) == 7 &&
		  at > 0 && (size_t)at + nreport + nfixes == len;
	oc->report = ok && nreport ? xstrndup(text + at, nreport) : NULL;
	oc->fixes = ok && nfixes ? xstrndup(text + at + nreport, nfixes) : NULL;
	free(text);
	return ok;
}

/* A child's file, in its turn: what it printed, its outcome; or, crashed, a message in its
 * place (as an editor filter's, the input written back). */
static void finish_worker(const struct options *o, const char *path, struct worker *w, struct outcome *oc)
{
	size_t nout, nerr;
	char *out = read_all(w->out, &nout), *err = read_all(w->err, &nerr);
	fwrite(err, 1, nerr, stderr);
	bool whole = WIFEXITED(w->status) && read_outcome(w->res, oc);
	if (whole)
		fwrite(out, 1, nout, stdout);
	else {
		int sig = WIFSIGNALED(w->status) ? WTERMSIG(w->status) : 0;
		bool filter = strcmp(path, "-") == 0 && !o->output && !o->in_place;
		fprintf(stderr, "%s: error: internal error: pipefy crashed (%s)%s\n",
			strcmp(path, "-") == 0 ? (o->assume_filename ? o->assume_filename : "<stdin>") : path,
			sig ? strsignal(sig) : "exit before finishing",
			filter ? "; the input is written back unchanged" : "; no file was changed by the input it crashed on");
		size_t nin;
		char *in = filter ? read_all(STDIN_FILENO, &nin) : NULL;
		if (in)
			fwrite(in, 1, nin, stdout);
		free(in);
		*oc = (struct outcome){.code = 1, .failed = 1};
	}
	free(out);
	free(err);
	close(w->out);
	close(w->err);
	close(w->res);
}

/* Files in flight or done and not yet printed, at most: each holds three memory files. */
#define WINDOW(jobs) (4 * (jobs) + 8)

static void run_parallel(const struct options *o, struct outcome *v, int n)
{
	struct worker *w = xcalloc((size_t)n, sizeof *w);
	int next = 0, running = 0, printed = 0;
	while (printed < n) {
		while (running < o->jobs && next < n && next - printed < WINDOW(o->jobs)) {
			if (start_worker(o, o->files[next], &w[next]))
				running++;
			else { /* no process to be had: the file is done here */
				v[next].code = process_file(o, o->files[next], &v[next]);
				w[next].done = true, w[next].pid = -1;
			}
			next++;
		}
		int status;
		pid_t pid = running ? waitpid(-1, &status, 0) : -1;
		for (int i = printed; pid > 0 && i < next; i++)
			if (w[i].pid == pid && !w[i].done) {
				w[i].done = true, w[i].status = status;
				running--;
			}
		for (; printed < next && w[printed].done; printed++)
			if (w[printed].pid > 0)
				finish_worker(o, o->files[printed], &w[printed], &v[printed]);
		if (pid < 0 && errno != EINTR && running)
			break; /* (no child left to wait for: cannot happen) */
	}
	free(w);
}


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

/* --export-fixes: one YAML document as clang-tidy exports it: the first file as the main one,
 * then each file's entry. */
static int write_fixes(const struct options *o, const struct outcome *v, int n)
{
	const char *first = o->nfiles && strcmp(o->files[0], "-") != 0 ? o->files[0] : o->assume_filename;
	char *main_file = absolute_path(first);
	struct strbuf sb = {0};
	size_t len;
	FILE *f = open_memstream(&sb.data, &len);
	if (f) {
		emit_fixes_header(f, main_file);
		fclose(f);
		sb.len = sb.cap = len;
	}
	bool any = false;
	for (int i = 0; i < n; i++)
		if (v[i].fixes)
			sb_puts(&sb, v[i].fixes), any = true;
	if (!any && sb.len > 0)
		sb.data[sb.len - 1] = ' ', sb_puts(&sb, "[]\n");
	sb_puts(&sb, "...\n");
	char *err = NULL;
	bool ok = write_output(o->export_fixes, sb.data, sb.len, &err);
	if (!ok) {
		fprintf(stderr, "%s\n", err);
		free(err);
	}
	free(sb.data);
	free(main_file);
	return ok ? 0 : 1;
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
	if (o->jobs > 1 && n > 1)
		run_parallel(o, v, n);
	else
		for (int i = 0; i < n; i++)
			v[i].code = process_file(o, o->nfiles ? o->files[i] : "-", &v[i]);
	for (int i = 0; i < n; i++)
		if (v[i].code > code)
			code = v[i].code;
	/* (the summary ends the messages; a report on standard error follows them, whole) */
	summary(o, v, n);
	if (o->report) {
		int c = write_report(o, v, n);
		code = c > code ? c : code;
	}
	if (o->export_fixes) {
		int c = write_fixes(o, v, n);
		code = c > code ? c : code;
	}
	for (int i = 0; i < n; i++)
		free(v[i].report), free(v[i].fixes);
	free(v);
	return code;
}
