/* main.c: the pipefy command line: read each input, transform it, write it where asked. */
#include "pipefy.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Write to a temporary file beside path, then rename: a failed write never truncates the
 * destination. mode < 0 keeps the default permissions. */
static bool write_atomically(const char *path, const char *text, size_t len, int mode, char **err)
{
	char *tmp = xprintf("%s.pipefy-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		*err = xprintf("%s: error: cannot write: %s", path, strerror(errno));
		free(tmp);
		return false;
	}
	FILE *f = fdopen(fd, "wb");
	bool ok = f && fwrite(text, 1, len, f) == len;
	ok = f && fflush(f) == 0 && ok;
	int saved = errno;
	if (f)
		ok = fclose(f) == 0 && ok;
	else
		close(fd);
	if (ok && mode >= 0)
		ok = chmod(tmp, (mode_t)mode) == 0;
	if (!ok || rename(tmp, path) != 0) {
		*err = xprintf("%s: error: write failed: %s", path, strerror(ok ? errno : saved));
		unlink(tmp);
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}

/* Plain write for things like /dev/stdout or /dev/null that cannot be renamed over. */
static bool write_plain(const char *path, FILE *f, const char *text, size_t len, char **err)
{
	bool ok = fwrite(text, 1, len, f) == len;
	ok = fflush(f) == 0 && ok;
	if (!ok)
		*err = xprintf("%s: error: write failed: %s", path, strerror(errno));
	return ok;
}

static bool write_output(const char *path, const char *text, size_t len, char **err)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "wb");
		if (!f) {
			*err = xprintf("%s: error: cannot open: %s", path, strerror(errno));
			return false;
		}
		bool ok = write_plain(path, f, text, len, err);
		if (fclose(f) != 0 && ok) {
			*err = xprintf("%s: error: write failed: %s", path, strerror(errno));
			ok = false;
		}
		return ok;
	}
	return write_atomically(path, text, len, -1, err);
}

/* `target: input header...`, spaces escaped as make wants them. */
static void add_make_path(struct strbuf *sb, const char *path)
{
	sb_puts(sb, " \\\n ");
	for (const char *p = path; *p; p++) {
		if (*p == ' ' || *p == '#')
			sb_puts(sb, "\\");
		else if (*p == '$')
			sb_puts(sb, "$");
		sb_add(sb, p, 1);
	}
}

static bool write_depfile(const char *depfile, const char *target, const char *input, const char *deps, char **err)
{
	struct strbuf sb = {0};
	sb_puts(&sb, target);
	sb_puts(&sb, ":");
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

static int process(const struct options *o, const char *path)
{
	struct source src;
	char *err = NULL;
	bool from_stdin = strcmp(path, "-") == 0;
	const char *name = from_stdin ? (o->assume_filename ? o->assume_filename : "<stdin>.cu") : path;
	bool to_stdout = !o->output && !o->in_place;
	struct stat st;
	if (o->in_place && stat(path, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0222)) {
		/* root could rename over it; clang-format -i would not write it either */
		fprintf(stderr, "%s: error: read-only file: -i will not replace it\n", path);
		return 1;
	}
	if (!source_read(&src, path, name, &err)) {
		fprintf(stderr, "%s\n", err);
		free(err);
		/* An editor filter must get its text back whatever happens. */
		if (from_stdin && to_stdout && src.text)
			write_plain("<stdout>", stdout, src.text, src.len, &err);
		source_free(&src);
		return 1;
	}
	/* Editor plugins read any stderr output as failure: from stdin, messages are kept back
	 * unless the run fails or they were asked for (-R, --dry-run, --report). */
	char *held = NULL;
	size_t nheld = 0;
	bool hold = from_stdin && !o->remarks && !o->dry_run && !o->report;
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
	if (o->dry_run) {
		if (o->werror && r.nrewritten > 0)
			code = 1;
	} else if (o->diff) {
		if (code == 0)
			emit_unified_diff(stdout, &src, &r.edits);
		ok = fflush(stdout) == 0;
		if (!ok)
			err = xprintf("<stdout>: error: write failed: %s", strerror(errno));
	} else if (o->replacements_xml || o->replacements_json) {
		if (o->replacements_xml)
			emit_replacements_xml(stdout, &r.edits);
		else
			emit_replacements_json(stdout, &r.edits);
		ok = fflush(stdout) == 0;
		if (!ok)
			err = xprintf("<stdout>: error: write failed: %s", strerror(errno));
	} else if (o->in_place) {
		struct stat st;
		int mode = stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
		if (code == 0 && strcmp(r.output, src.text) != 0)
			ok = write_atomically(path, r.output, len, mode, &err);
	} else if (o->output) {
		if (code == 0)
			ok = write_output(o->output, r.output, len, &err);
	} else {
		ok = write_plain("<stdout>", stdout, r.output, len, &err);
	}
	if (ok && o->depfile && r.deps)
		ok = write_depfile(o->depfile, o->output ? o->output : path, path, r.deps, &err);
	if (!ok) {
		fprintf(stderr, "%s\n", err);
		free(err);
		code = 1;
	}
	free(r.deps);
	free(r.output);
	edits_free(&r.edits);
	source_free(&src);
	return code;
}

int main(int argc, char **argv)
{
	struct options o;
	char *err;
	if (options_parse(&o, argc, argv, &err) != 0) {
		fprintf(stderr, "pipefy: error: %s\n%s", err, "Try 'pipefy --help'.\n");
		free(err);
		options_free(&o);
		return 2;
	}
	if (o.help) {
		fputs(options_usage, stdout);
		options_free(&o);
		return 0;
	}
	if (o.version) {
		CXString v = clang_getClangVersion();
		printf("pipefy %s (%s)\n", PIPEFY_VERSION, clang_getCString(v));
		clang_disposeString(v);
		options_free(&o);
		return 0;
	}
	int code = 0;
	if (o.nfiles == 0)
		code = process(&o, "-");
	for (int i = 0; i < o.nfiles; i++) {
		int c = process(&o, o.files[i]);
		if (c > code)
			code = c;
	}
	options_free(&o);
	return code;
}
