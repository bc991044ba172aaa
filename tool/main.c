/* main.c: the pipefy command line: read each input, transform it, write it where asked. */
#define _GNU_SOURCE /* memfd_create, strsignal */
#include "pipefy.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static mode_t user_umask;

/* The temporary file a write goes to first: beside the target, with a short name (a file
 * name of 250 characters leaves no room for a suffix). */
static int make_temp_beside(const char *target, char **tmp)
{
	const char *slash = strrchr(target, '/');
	*tmp = slash ? xprintf("%.*s/.pipefy-XXXXXX", (int)(slash - target), target) : xstrdup(".pipefy-XXXXXX");
	return mkstemp(*tmp);
}

bool write_all(int fd, const char *text, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		text += n;
		len -= (size_t)n;
	}
	return true;
}

/* Plain write for standard output, devices and pipes, which cannot be renamed over. */
static bool write_plain(const char *path, FILE *f, const char *text, size_t len, char **err)
{
	bool ok = fwrite(text, 1, len, f) == len;
	ok = fflush(f) == 0 && ok;
	if (!ok)
		*err = xprintf("%s: error: write failed: %s", path, strerror(errno));
	return ok;
}

/* Write path as a user expects an editor to: a symbolic link is written through to the file
 * it names (the link stays a link); a device, a pipe or anything under /dev or /proc
 * (`-o /dev/stdout`) is written directly; a file with other hard links is rewritten in place,
 * so that every name still shows the new text; any other file is replaced by a temporary
 * written beside it, so a failed write never truncates it. A new file gets 0666 less the
 * umask; an existing one keeps its mode, and its owner and group where the user may set them. */
/* Whether following path's links leads into /dev or /proc (`/dev/stdout`, `/proc/self/fd/1`):
 * what is there is a descriptor, not a file to replace. */
static bool leads_to_descriptor(const char *path)
{
	char cur[4096], next[4096];
	snprintf(cur, sizeof cur, "%s", path);
	for (int hops = 0; hops < 40; hops++) {
		if (strncmp(cur, "/dev/", 5) == 0 || strncmp(cur, "/proc/", 6) == 0)
			return true;
		ssize_t n = readlink(cur, next, sizeof next - 1);
		if (n < 0)
			return false;
		next[n] = '\0';
		if (next[0] != '/') { /* relative to the link's folder */
			char *slash = strrchr(cur, '/');
			size_t keep = slash ? (size_t)(slash - cur + 1) : 0;
			if (keep + (size_t)n >= sizeof cur)
				return false;
			memcpy(cur + keep, next, (size_t)n + 1);
		} else
			memcpy(cur, next, (size_t)n + 1);
	}
	return false;
}

bool write_output(const char *path, const char *text, size_t len, char **err)
{
	char *target = leads_to_descriptor(path) ? xstrdup("/dev/") : realpath(path, NULL);
	if (!target)
		target = xstrdup(path); /* a new file (or a link to one: created where it points) */
	struct stat st;
	bool exists = stat(target, &st) == 0;
	bool ok;
	if ((exists && !S_ISREG(st.st_mode)) || strncmp(target, "/dev/", 5) == 0 || strncmp(target, "/proc/", 6) == 0) {
		FILE *f = fopen(path, "wb");
		if (!f) {
			*err = xprintf("%s: error: cannot open: %s", path, strerror(errno));
			free(target);
			return false;
		}
		ok = write_plain(path, f, text, len, err);
		if (fclose(f) != 0 && ok) {
			*err = xprintf("%s: error: write failed: %s", path, strerror(errno));
			ok = false;
		}
		free(target);
		return ok;
	}
	char *tmp;
	int fd = make_temp_beside(target, &tmp);
	if (fd < 0) {
		*err = xprintf("%s: error: cannot write: %s", path, strerror(errno));
		free(tmp);
		free(target);
		return false;
	}
	ok = write_all(fd, text, len);
	int saved = errno;
	if (exists && st.st_nlink > 1) {
		/* hard links: the text goes into the file itself; the temporary is the copy kept
		 * should that write fail */
		int out = ok ? open(target, O_WRONLY | O_TRUNC) : -1;
		ok = out >= 0 && write_all(out, text, len);
		saved = errno;
		if (out >= 0 && close(out) != 0 && ok)
			ok = false, saved = errno;
		close(fd);
		if (ok)
			unlink(tmp);
		else
			*err = xprintf("%s: error: write failed: %s (the new text is in %s)", path, strerror(saved), tmp);
		free(tmp);
		free(target);
		return ok;
	}
	if (ok) {
		mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~user_umask;
		ok = fchmod(fd, mode) == 0;
		if (ok && exists && (st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0)
			(void)!fchown(fd, (uid_t)-1, st.st_gid); /* not root: the group, if the user is in it */
		saved = errno;
	}
	if (close(fd) != 0 && ok)
		ok = false, saved = errno;
	if (!ok || rename(tmp, target) != 0) {
		*err = xprintf("%s: error: write failed: %s", path, strerror(ok ? errno : saved));
		unlink(tmp);
		free(tmp);
		free(target);
		return false;
	}
	free(tmp);
	free(target);
	return true;
}

/* `target: input header...`, spaces, '#' and '$' escaped as make wants them. */
static void add_escaped(struct strbuf *sb, const char *path)
{
	for (const char *p = path; *p; p++) {
		if (*p == ' ' || *p == '#')
			sb_puts(sb, "\\");
		else if (*p == '$')
			sb_puts(sb, "$");
		sb_add(sb, p, 1);
	}
}

static void add_make_path(struct strbuf *sb, const char *path)
{
	sb_puts(sb, " \\\n ");
	add_escaped(sb, path);
}

/* `target: input headers...`. The input is left out when it is the target (-i: make would drop
 * it as circular) or has no name (standard input without --assume-filename). */
static bool write_depfile(const char *depfile, const char *target, const char *input, const char *deps, char **err)
{
	struct strbuf sb = {0};
	add_escaped(&sb, target);
	sb_puts(&sb, ":");
	if (input && strcmp(input, target) != 0)
		add_make_path(&sb, input);
	for (const char *line = deps; *line;) {
		const char *nl = strchr(line, '\n');
		char *one = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
		add_make_path(&sb, one);
		free(one);
		line = nl ? nl + 1 : line + strlen(line);
	}
	sb_puts(&sb, "\n");
	bool ok = write_output(depfile, sb.data, sb.len, err);
	free(sb.data);
	return ok;
}

/* What messages call standard input: --assume-filename's name, else `<stdin>`. */
static const char *stdin_name(const struct options *o)
{
	return o->assume_filename ? o->assume_filename : "<stdin>";
}

/* The file's entry for --export-fixes: its edits, under its absolute name. */
static char *export_fixes(const struct options *o, const char *name, const struct result *r)
{
	(void)o;
	char *path = absolute_path(name), *cwd = absolute_path(".");
	char *message = xprintf("%d loop%s pipelined", r->npipelined, r->npipelined == 1 ? "" : "s");
	char *text = NULL;
	size_t n;
	FILE *f = open_memstream(&text, &n);
	if (f) {
		emit_fixes(f, path, cwd, &r->edits, message);
		fclose(f);
	}
	free(message);
	free(cwd);
	free(path);
	return text;
}

int process_file(const struct options *o, const char *path, struct outcome *out)
{
	struct source src;
	char *err = NULL;
	bool from_stdin = strcmp(path, "-") == 0;
	const char *name = from_stdin ? stdin_name(o) : path;
	bool to_stdout = !o->output && !o->in_place;
	struct stat st;
	if (o->in_place && stat(path, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0222)) {
		/* root could rename over it; clang-format -i would not write it either */
		fprintf(stderr, "%s: error: read-only file: -i will not replace it\n", path);
		out->failed = 1;
		return 1;
	}
	if (!source_read(&src, path, name, &err)) {
		fprintf(stderr, "%s\n", err);
		free(err);
		/* An editor filter must get its text back whatever happens. */
		if (from_stdin && to_stdout && src.text)
			write_plain("<stdout>", stdout, src.text, src.len, &err);
		source_free(&src);
		out->failed = 1;
		return 1;
	}
	/* Editor plugins read any stderr output as failure: from stdin, messages are kept back
	 * unless the run fails or they were asked for (-R, --dry-run, --report). */
	char *held = NULL;
	size_t nheld = 0;
	bool hold = from_stdin && !o->remarks && !o->dry_run && !(o->report && !o->report_file);
	FILE *messages = hold ? open_memstream(&held, &nheld) : stderr;
	if (!messages)
		messages = stderr, hold = false;
	struct result r = pipefy_transform(&src, o, messages);
	int code = r.exit_code;
	if (hold) {
		fclose(messages);
		if (code != 0)
			fwrite(held, 1, nheld, stderr);
		free(held);
	}
	size_t len = strlen(r.output);
	bool ok = true;
	out->failed = code != 0;
	out->pipelined = r.npipelined;
	out->left = r.nleft;
	out->report = r.report;
	if (o->dry_run) {
		if (o->werror && r.nrewritten > 0)
			code = 1, out->werror = r.nrewritten;
	} else if (o->diff) {
		if (code == 0)
			emit_unified_diff(stdout, &src, &r.edits);
		ok = fflush(stdout) == 0;
		if (!ok)
			err = xprintf("<stdout>: error: write failed: %s", strerror(errno));
	} else if (o->replacements_xml || o->replacements_json) {
		if (o->replacements_xml)
			emit_replacements_xml(stdout, &r.edits, o->cursor);
		else
			emit_replacements_json(stdout, &r.edits);
		ok = fflush(stdout) == 0;
		if (!ok)
			err = xprintf("<stdout>: error: write failed: %s", strerror(errno));
	} else if (o->in_place) {
		if (code == 0 && strcmp(r.output, src.text) != 0)
			ok = write_output(path, r.output, len, &err);
	} else if (o->output) {
		if (code == 0)
			ok = write_output(o->output, r.output, len, &err);
	} else {
		/* --cursor: clang-format's line of JSON first, which its editor plugins read */
		if (o->cursor >= 0)
			printf("{ \"Cursor\": %zu, \"IncompleteFormat\": false }\n",
			       emit_shifted_position(&r.edits, (size_t)o->cursor));
		ok = write_plain("<stdout>", stdout, r.output, len, &err);
	}
	if (ok && o->depfile && r.deps)
		ok = write_depfile(o->depfile, o->dep_target ? o->dep_target : o->output ? o->output : path,
				   from_stdin ? o->assume_filename : path, r.deps, &err);
	if (!ok) {
		fprintf(stderr, "%s\n", err);
		free(err);
		code = 1;
		out->failed = 1;
	}
	if (o->export_fixes && code == 0 && r.edits.n > 0)
		out->fixes = export_fixes(o, from_stdin ? o->assume_filename : path, &r);
	free(r.deps);
	free(r.output);
	edits_free(&r.edits);
	source_free(&src);
	return code;
}

struct work {
	const struct options *o;
	int code;
};

static void *run_inputs(void *data)
{
	struct work *w = data;
	/* libclang's crash recovery installs an alternate signal stack of its own on this thread;
	 * the thread's own is put back before it ends (AddressSanitizer unmaps the one it made) */
	stack_t own;
	bool have_own = sigaltstack(NULL, &own) == 0;
	w->code = run_all(w->o);
	if (have_own)
		sigaltstack(&own, NULL);
	return NULL;
}

/* Deeply nested code (an expression of 40,000 terms, which nvcc compiles) recurses deeper in
 * libclang and in pipefy's visitors than a default thread stack allows: the work runs on a
 * thread with a large one. */
#define WORK_STACK (1024UL << 20)

static int run_with_large_stack(const struct options *o)
{
	struct work w = {o, 1};
	pthread_attr_t attr;
	pthread_t t;
	if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, WORK_STACK) == 0 &&
	    pthread_create(&t, &attr, run_inputs, &w) == 0)
		pthread_join(t, NULL);
	else
		run_inputs(&w);
	pthread_attr_destroy(&attr);
	return w.code;
}

static bool copy_fd(int from, FILE *to)
{
	char buf[65536];
	ssize_t n;
	lseek(from, 0, SEEK_SET);
	while ((n = read(from, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && fwrite(buf, 1, (size_t)n, to) != (size_t)n)
			return false;
	return fflush(to) == 0 && n == 0;
}

static bool reads_stdin(const struct options *o)
{
	bool in = o->nfiles == 0;
	for (int i = 0; i < o->nfiles; i++)
		in |= strcmp(o->files[i], "-") == 0;
	return in;
}

/* Whether the command line reads standard input and writes the result to standard output: an
 * editor's filter, whose buffer becomes whatever pipefy prints. */
static bool is_filter(const struct options *o)
{
	return reads_stdin(o) && !o->output && !o->in_place;
}

/* The work runs in a child process whose standard output is kept aside: a crash (a signal)
 * cannot take the output with it. The parent forwards the child's output when it exits, and
 * when it crashes says so and, as an editor filter, writes the input back unchanged, so a
 * buffer is never emptied. */
static int supervise(const struct options *o)
{
	bool from_stdin = reads_stdin(o), filter = is_filter(o);
	struct strbuf input = {0};
	int in_fd = -1, out_fd = memfd_create("pipefy-stdout", MFD_CLOEXEC);
	if (from_stdin) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
			sb_add(&input, buf, n);
		in_fd = memfd_create("pipefy-stdin", MFD_CLOEXEC);
		if (in_fd >= 0 && input.len > 0 && write(in_fd, input.data, input.len) != (ssize_t)input.len) {
			close(in_fd);
			in_fd = -1;
		}
		if (in_fd >= 0)
			lseek(in_fd, 0, SEEK_SET);
	}
	fflush(stdout);
	fflush(stderr);
	/* the child says it finished by writing one byte here: a crash that a sanitizer turns
	 * into an ordinary exit is still a crash */
	int done[2] = {-1, -1};
	bool piped = pipe2(done, O_CLOEXEC) == 0;
	pid_t pid = piped && out_fd >= 0 && (!from_stdin || in_fd >= 0) ? fork() : -1;
	if (pid == 0) {
		if (in_fd >= 0)
			dup2(in_fd, 0);
		dup2(out_fd, 1);
		close(done[0]);
		int code = run_with_large_stack(o);
		fflush(stdout);
		(void)!write(done[1], "k", 1);
		exit(code); /* exit, not _exit: LeakSanitizer checks the child too */
	}
	if (piped)
		close(done[1]);
	if (pid < 0) {
		/* no child to be had: do the work here */
		free(input.data);
		if (piped)
			close(done[0]);
		return run_with_large_stack(o);
	}
	char finished = 0;
	while (read(done[0], &finished, 1) < 0 && errno == EINTR)
		;
	close(done[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int code;
	if (WIFEXITED(status) && finished == 'k') {
		code = WEXITSTATUS(status);
		if (!copy_fd(out_fd, stdout)) {
			fprintf(stderr, "<stdout>: error: write failed: %s\n", strerror(errno));
			code = 1;
		}
	} else {
		int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		char how[64];
		if (sig)
			snprintf(how, sizeof how, "%s", strsignal(sig));
		else
			snprintf(how, sizeof how, "exit %d before finishing", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		const char *name = from_stdin ? stdin_name(o) : o->files[0];
		fprintf(stderr, "%s: error: internal error: pipefy crashed (%s)%s\n", name, how,
			filter ? "; the input is written back unchanged" : "; no file was changed by the input it crashed on");
		if (filter) {
			fwrite(input.data ? input.data : "", 1, input.len, stdout);
			fflush(stdout);
		}
		code = 1;
	}
	close(out_fd);
	if (in_fd >= 0)
		close(in_fd);
	free(input.data);
	return code;
}

/* A usage error: said on standard error, and as a filter the input written back unchanged, so
 * that `:%!pipefy --bad-option` leaves the buffer as it was (a terminal is not read: nobody
 * is typing a kernel to get it back). */
static int usage_error(const struct options *o, const char *err)
{
	fprintf(stderr, "pipefy: error: %s\n%s", err, "Try 'pipefy --help'.\n");
	if (is_filter(o) && !isatty(STDIN_FILENO) && !copy_fd(STDIN_FILENO, stdout))
		fprintf(stderr, "<stdout>: error: the input could not be written back: %s\n", strerror(errno));
	return 2;
}

int main(int argc, char **argv)
{
	user_umask = umask(0);
	umask(user_umask);
	struct options o;
	char *err;
	if (options_parse(&o, argc, argv, &err) != 0) {
		int code = usage_error(&o, err);
		free(err);
		options_free(&o);
		return code;
	}
	if (o.help || o.list_variants) {
		/* (the stages a variant takes are the rules') */
		struct rules r;
		char *rerr = NULL;
		int code = rules_load(&r, o.rules_dir, &rerr) ? 0 : 1;
		if (code == 0 && o.help)
			options_usage(stdout, r.variants.max_stages);
		else if (code == 0)
			variant_list(stdout, r.variants.max_stages);
		else
			fprintf(stderr, "pipefy: error: %s\n", rerr);
		free(rerr);
		options_free(&o);
		return code;
	}
	if (o.version) {
		CXString v = clang_getClangVersion();
		printf("pipefy %s (%s)\n", PIPEFY_VERSION, clang_getCString(v));
		clang_disposeString(v);
		options_free(&o);
		return 0;
	}
	/* libclang parses on a thread of its own with an 8 MB stack unless told not to: the work
	 * thread's stack is the one that must hold deep code */
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	int code = supervise(&o);
	options_free(&o);
	return code;
}
