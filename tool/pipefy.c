/* pipefy.c: one input through every stage, text in and text out. */
#include "pipefy.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* The parser's errors, as warnings: pipefy leaves every function that holds one as it is, and
 * the file is nvcc's to judge (nvcc takes some that clang does not), so they never fail a
 * build step. */
static void report_diags(FILE *out, const struct parsed *p, const struct source *src)
{
	for (int i = 0; i < p->ndiags && out; i++) {
		const struct diag *d = &p->diags[i];
		const char *sev = "warning";
		if (d->offset != (size_t)-1)
			emit_diagnostic(out, src, d->offset, sev, "%s", d->message);
		else
			fprintf(out, "%s:%d:%d: %s: %s\n", d->file, d->line, d->col, sev, d->message);
	}
}

/* Whether [begin, end) touches a --lines range or the --offset/--length bytes. */
static bool in_ranges(const struct source *src, const struct options *o, struct span s)
{
	int first, last, col;
	source_line_col(src, s.begin, &first, &col);
	source_line_col(src, s.end > 0 ? s.end - 1 : 0, &last, &col);
	bool touched = false;
	for (int r = 0; r < o->nlines; r++)
		touched |= o->lines[r].first <= last && o->lines[r].last >= first;
	if (o->length >= 0)
		touched |= (size_t)o->offset < s.end && (size_t)(o->offset + o->length) >= s.begin;
	return touched;
}

/* --lines and --offset/--length: loops (and launches) outside every range are left as they
 * are, silently, the way clang-format leaves lines outside --lines. */
static void restrict_to_ranges(struct model *m, const struct source *src, const struct options *o)
{
	if (o->nlines == 0 && o->length < 0)
		return;
	for (int i = 0; i < m->nloops; i++)
		m->loops[i].out_of_range = !in_ranges(src, o, m->loops[i].loop);
	for (int i = 0; i < m->npairs; i++) /* (a persistent launch rewrites the first launch too) */
		m->pairs[i].out_of_range = !in_ranges(src, o, m->pairs[i].call) ||
					   (o->launches == LAUNCHES_QUEUE && !in_ranges(src, o, m->pairs[i].first_call));
}

/* Every file the parse opened from disk (not pipefy's in-memory headers), for -MF. */
static void collect_inclusion(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	struct strbuf *sb = data;
	CXString name = clang_getFileName(included);
	const char *n = clang_getCString(name);
	/* canonical: clang says /usr/bin/../lib/gcc/.../../../../include, which build tools
	 * collapse differently */
	char *real = depth > 0 && n && strncmp(n, "/pipefy-compat", 14) != 0 ? realpath(n, NULL) : NULL;
	if (real)
		sb_printf(sb, "%s\n", real);
	free(real);
	clang_disposeString(name);
}

/* The temporary copy nvcc compiles: removed on the way out, also when interrupted. */
static volatile sig_atomic_t have_tmp;
static char tmp_path[4096];

static void remove_tmp_and_die(int sig)
{
	if (have_tmp)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run argv (no shell: the path and the arguments are passed as they are, never parsed) and
 * collect what it prints on standard output and standard error. */
static char *run_capture(char *const argv[])
{
	int fds[2];
	if (pipe(fds) != 0)
		return NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	extern char **environ;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return NULL;
	}
	struct strbuf sb = {0};
	char buf[4096];
	ssize_t n;
	while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			sb_add(&sb, buf, (size_t)n);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* Registers per thread for each kernel, from `nvcc -Xptxas -v` on the input as it is. */
static void ptxas_registers(struct model *m, const struct source *src, const struct options *o, FILE *messages)
{
	const char *cuda = cuda_find(o->cuda_path);
	if (!cuda) {
		if (messages)
			fprintf(messages, "pipefy: warning: --ptxas needs nvcc: no CUDA toolkit found\n");
		return;
	}
	/* in $TMPDIR, as other tools put their temporaries (a test, or a user, can give each run its own) */
	const char *tmpdir = getenv("TMPDIR");
	if (!tmpdir || !*tmpdir || strlen(tmpdir) > sizeof tmp_path - 32)
		tmpdir = "/tmp";
	snprintf(tmp_path, sizeof tmp_path, "%s/pipefy-ptxas-XXXXXX.cu", tmpdir);
	void (*old_int)(int) = signal(SIGINT, remove_tmp_and_die);
	void (*old_term)(int) = signal(SIGTERM, remove_tmp_and_die);
	int fd = mkstemps(tmp_path, 3);
	have_tmp = fd >= 0;
	if (fd < 0) {
		signal(SIGINT, old_int);
		signal(SIGTERM, old_term);
		return;
	}
	bool ok = write(fd, src->text, src->len) == (ssize_t)src->len;
	close(fd);
	/* the input's own directory stays on the include path */
	char *dir = xstrdup(src->path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	char *nvcc = xprintf("%s/bin/nvcc", cuda), *arch = xprintf("-arch=sm_%d", o->arch);
	char **argv = xcalloc((size_t)o->nextra + 16, sizeof *argv);
	int n = 0;
	argv[n++] = nvcc;
	argv[n++] = "-c";
	argv[n++] = "-std=c++17";
	argv[n++] = arch;
	argv[n++] = "-Xptxas";
	argv[n++] = "-v";
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	argv[n++] = "-I";
	argv[n++] = dir;
	for (int i = 0; i < o->nextra; i++)
		argv[n++] = (char *)o->extra_args[i];
	argv[n++] = tmp_path;
	argv[n] = NULL;
	char *out = ok ? run_capture(argv) : NULL;
	char entry[512] = "";
	for (char *line = out; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *e = strstr(line, "Compiling entry function '");
		char *u;
		int regs;
		if (e)
			sscanf(e + strlen("Compiling entry function '"), "%511[^']", entry);
		else if ((u = strstr(line, "Used ")) && sscanf(u, "Used %d registers", &regs) == 1 && entry[0]) {
			for (int i = 0; i < m->nloops; i++)
				if (m->loops[i].mangled && strcmp(m->loops[i].mangled, entry) == 0)
					m->loops[i].registers = regs;
			for (int i = 0; i < m->npairs; i++)
				for (int k = 0; k < 2; k++)
					if (m->pairs[i].mangled[k] && strcmp(m->pairs[i].mangled[k], entry) == 0)
						m->pairs[i].registers[k] = regs;
		}
		line = nl ? nl + 1 : line + strlen(line);
	}
	unlink(tmp_path);
	have_tmp = 0;
	signal(SIGINT, old_int);
	signal(SIGTERM, old_term);
	free(out);
	free(argv);
	free(nvcc);
	free(arch);
	free(dir);
}

struct result pipefy_transform(const struct source *src, const struct options *o, FILE *messages)
{
	struct result r = {0};
	struct parsed parsed = {0};
	/* fault injection for the test of main.c's crash handling; never set in normal use */
	if (test_break("crash"))
		raise(SIGSEGV);
	struct rules rules;
	char *err = NULL;
	if (!rules_load(&rules, o->rules_dir, &err) || !parse_source(&parsed, src, o, &err)) {
		/* nothing can be done: the input goes back unchanged */
		if (messages)
			fprintf(messages, "%s\n", err);
		free(err);
		parsed_free(&parsed);
		r.output = xstrndup(src->text, src->len);
		r.exit_code = 1;
		return r;
	}
	if (parsed.cache_warning && messages)
		fprintf(messages, "%s\n", parsed.cache_warning);
	/* from here on, the architecture is the one parsed for (the compile database may say) */
	struct options effective = *o;
	effective.arch = parsed.arch;
	o = &effective;
	if (!rules_arch(&rules, o->arch) && messages)
		fprintf(messages, "pipefy: warning: no rules for sm_%d: occupancy is not checked\n", o->arch);
	if (o->depfile) {
		struct strbuf deps = {0};
		clang_getInclusions(parsed.tu, collect_inclusion, &deps);
		/* the preamble's headers were read when its precompiled header was made */
		CXTranslationUnit preamble = parsed.pch ? clang_createTranslationUnit(parsed.index, parsed.pch) : NULL;
		if (preamble) {
			clang_getInclusions(preamble, collect_inclusion, &deps);
			clang_disposeTranslationUnit(preamble);
		}
		r.deps = deps.data ? sb_take(&deps) : xstrdup("");
	}
	struct model model = {0};
	find_kloops(&model, &parsed, src);
	find_launches(&model, &parsed, src);
	find_launch_pairs(&model, src);
	measure_kloops(&model, src, o);
	check_kloops(&model, src);
	check_launch_pairs(&model, src);
	if (o->launches == LAUNCHES_QUEUE)
		check_launch_queues(&model, src);
	if (o->ptxas)
		ptxas_registers(&model, src, o, messages);
	plan_kloops(&model, o, &rules, src);
	restrict_to_ranges(&model, src, o);
	plan_launch_pairs(&model, o, &rules); /* (a loop out of range keeps its launches) */
	struct edits edits = {0};
	bool applied = false;
	/* Rewrite, then check the output: a loop whose rewrite does not come back as its pipeline
	 * is refused and the rest rewritten again, until every rewritten loop passes. */
	for (int round = 0; round <= model.nloops + model.npairs; round++) {
		edits_free(&edits);
		free(r.output);
		r.output = NULL;
		rewrite_kloops(&model, src, &edits);
		r.nrewritten = 0;
		for (int i = 0; i < model.nloops; i++)
			r.nrewritten += model.loops[i].rewritten;
		for (int i = 0; i < model.npairs; i++)
			r.nrewritten += model.pairs[i].rewritten;
		applied = edits_apply(&edits, src, &r.output, &err);
		if (!applied || r.nrewritten == 0 || validate_rewrite(&model, src, o, &edits, r.output, parsed.ndiags) == 0)
			break;
		for (int i = 0; i < model.nloops; i++)
			model.loops[i].rewritten = false;
	}

	/* Errors block only the functions that hold them. */
	r.nerrors = parsed.ndiags;
	report_diags(messages, &parsed, src);
	if (!applied) {
		if (messages)
			fprintf(messages, "%s: error: internal: %s\n", src->path, err);
		free(err);
		free(r.output);
		r.output = xstrndup(src->text, src->len);
		r.exit_code = 1;
	}
	if (o->dry_run && messages)
		emit_dry_run(messages, &model, src, o->werror);
	else if (!o->quiet && messages)
		emit_remarks(messages, &model, src);
	if (o->report && messages)
		emit_report(messages, o->report, &model, src, o->arch);
	if (r.exit_code == 0)
		r.edits = edits;
	else
		edits_free(&edits);
	model_free(&model);
	parsed_free(&parsed);
	return r;
}
