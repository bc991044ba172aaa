/* parse.c: libclang parses the input as CUDA device code on the installed toolkit. */
#include "pipefy.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* "file not found" says where pipefy looked, so a missing -I is easy to spot. */
static void add_diag(struct parsed *p, CXDiagnostic d, const char *dir, const char *searched)
{
	enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
	if (sev < CXDiagnostic_Error)
		return;
	CXSourceLocation loc = clang_getDiagnosticLocation(d);
	CXFile file;
	unsigned line, col, offset;
	clang_getExpansionLocation(loc, &file, &line, &col, &offset);
	struct diag *g = VEC_PUSH(p->diags, p->ndiags, p->capdiags);
	g->is_error = true;
	g->line = (int)line;
	g->col = (int)col;
	g->offset = clang_Location_isFromMainFile(loc) ? offset : (size_t)-1;
	CXString fname = clang_getFileName(file);
	g->file = xstrdup(clang_getCString(fname) ? clang_getCString(fname) : "<unknown>");
	clang_disposeString(fname);
	CXString msg = clang_getDiagnosticSpelling(d);
	const char *m = clang_getCString(msg);
	size_t len = strlen(m);
	if (len > 14 && strcmp(m + len - 14, "file not found") == 0)
		g->message = xprintf("%s (searched %s%s%s, then the toolkit's and the system's)", m, dir,
				     *searched ? ", " : "", searched);
	else
		g->message = xstrdup(m);
	clang_disposeString(msg);
}

static bool line_opens_comment(const char *s, size_t n)
{
	bool open = false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!open && s[i] == '/' && s[i + 1] == '/')
			return false;
		else if (s[i] == '/' && s[i + 1] == '*')
			open = true, i++;
		else if (open && s[i] == '*' && s[i + 1] == '/')
			open = false, i++;
	return open;
}

/* The file's preamble: its leading comments, blank lines, #include and #pragma once lines,
 * the part clang would precompile. It ends before anything else (a #define, an #if) so the
 * macros and conditionals pipefy reads stay in the main file. Returns its byte length. */
size_t preamble_length(const char *text, size_t len)
{
	size_t at = 0, end = 0;
	bool any_include = false, in_comment = false;
	while (at < len) {
		size_t eol = at;
		while (eol < len && text[eol] != '\n')
			eol++;
		size_t i = at;
		bool ok = true;
		while (i < eol) {
			if (in_comment) {
				if (text[i] == '*' && i + 1 < eol && text[i + 1] == '/')
					in_comment = false, i++;
				i++;
			} else if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
				i++;
			} else if (text[i] == '/' && i + 1 < eol && text[i + 1] == '/') {
				break;
			} else if (text[i] == '/' && i + 1 < eol && text[i + 1] == '*') {
				in_comment = true, i += 2;
			} else if (text[i] == '#') {
				size_t d = i + 1;
				while (d < eol && (text[d] == ' ' || text[d] == '\t'))
					d++;
				bool include = strncmp(text + d, "include", 7) == 0 && strncmp(text + d, "include_next", 12) != 0;
				ok = include || strncmp(text + d, "pragma once", 11) == 0;
				any_include |= include;
				/* a continued line or an opened comment would carry the directive onward */
				ok = ok && !memchr(text + d, '\\', eol - d) && !line_opens_comment(text + d, eol - d);
				break;
			} else {
				ok = false;
				break;
			}
		}
		if (!ok || eol >= len)
			break;
		at = eol + 1;
		if (!in_comment)
			end = at;
	}
	return any_include ? end : 0;
}

/* 64-bit FNV-1a: the cache key only has to tell inputs apart, not resist anyone. */
static unsigned long long fnv1a(unsigned long long h, const void *data, size_t n)
{
	const unsigned char *b = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* The same over 8-byte words, for the entries' checksums: an 11 MB header hashed a byte at a
 * time cost an eighth of a cached run. */
static unsigned long long word_hash(unsigned long long h, const void *data, size_t n)
{
	const unsigned char *b = data;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		unsigned long long w;
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return fnv1a(h, b + i, n - i);
}

/* Only the user's own, private files are trusted: a cache another user can write could hand
 * pipefy a precompiled header that changes what the file's macros mean. */
static bool private_to_user(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & 022);
}

/* $PIPEFY_CACHE_DIR, else $XDG_CACHE_HOME/pipefy, else ~/.cache/pipefy; created on demand,
 * mode 0700. NULL when there is none to be had, or when it is not private to the user (then
 * *warning says so): pipefy parses without a preamble. */
static char *cache_dir(char **warning)
{
	const char *env = getenv("PIPEFY_CACHE_DIR");
	char *dir;
	if (env && *env)
		dir = xstrdup(env);
	else if ((env = getenv("XDG_CACHE_HOME")) && *env)
		dir = xprintf("%s/pipefy", env);
	else if ((env = getenv("HOME")) && *env)
		dir = xprintf("%s/.cache/pipefy", env);
	else
		return NULL;
	for (char *s = dir + 1;; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			mkdir(dir, 0700);
			*s = c;
			if (!c)
				break;
		}
	}
	struct stat link, st;
	bool ok = lstat(dir, &link) == 0 && (!S_ISLNK(link.st_mode) || link.st_uid == geteuid()) && stat(dir, &st) == 0 &&
		  S_ISDIR(st.st_mode) && private_to_user(&st);
	if (!ok && lstat(dir, &link) == 0) {
		*warning = xprintf("pipefy: warning: the cache folder %s is not private to you (its owner, its mode or a "
				   "link to it); parsing without the cache",
				   dir);
		free(dir);
		return NULL;
	}
	if (!ok || access(dir, W_OK | X_OK) != 0) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* The preamble's directives alone, one per line: files whose comments differ but whose
 * includes agree share one precompiled header. #pragma once means nothing there. */
static char *preamble_directives(const struct source *src, size_t preamble)
{
	struct strbuf sb = {0};
	bool in_comment = false;
	for (size_t at = 0; at < preamble;) {
		size_t eol = at;
		while (eol < preamble && src->text[eol] != '\n')
			eol++;
		size_t i = at;
		while (i < eol && (in_comment || src->text[i] == ' ' || src->text[i] == '\t')) {
			if (in_comment && src->text[i] == '*' && i + 1 < eol && src->text[i + 1] == '/')
				in_comment = false, i++;
			i++;
		}
		size_t d = i + 1;
		while (d < eol && (src->text[d] == ' ' || src->text[d] == '\t'))
			d++;
		if (i < eol && src->text[i] == '#' && strncmp(src->text + d, "pragma", 6) != 0) {
			sb_add(&sb, src->text + i, eol - i);
			sb_puts(&sb, "\n");
		} else if (i + 1 < eol && src->text[i] == '/' && src->text[i + 1] == '*' &&
			   line_opens_comment(src->text + i, eol - i)) {
			in_comment = true;
		}
		at = eol + 1;
	}
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* The directory quoted includes start from: the input's own folder, absolute. The input
 * itself need not exist (standard input with --assume-filename). */
static char *source_directory(const struct source *src)
{
	const char *slash = strrchr(src->path, '/');
	char *dir = slash ? xstrndup(src->path, slash == src->path ? 1 : (size_t)(slash - src->path)) : xstrdup(".");
	char *abs = realpath(dir, NULL);
	if (!abs) {
		char cwd[4096];
		abs = dir[0] == '/' ? xstrdup(dir) : xprintf("%s/%s", getcwd(cwd, sizeof cwd) ? cwd : "", dir);
	}
	free(dir);
	return abs;
}

/* Keyed by everything that shapes the header: clang's version, the arguments, the folder, the
 * directives and the files pipefy hands clang itself (its prelude of nvcc's overloads: a header
 * built by another pipefy is not read). Headers changed since are caught by clang itself (the
 * load fails and the header is rebuilt). */
/* How the header is built (and part of its name, so a header built otherwise is not read):
 * the headers' templates are instantiated into it, not by every parse that reads it, which
 * otherwise spent half its time (115 functions of the CUDA headers, about 40 ms a parse). */
static const char *const pch_flags[] = {"-Xclang", "-fpch-instantiate-templates"};

static char *preamble_pch_path(const char *cache, const char *const *args, int nargs, const char *dir,
			       const char *directives, const struct CXUnsavedFile *unsaved, int nunsaved)
{
	unsigned long long h = 14695981039346656037ULL;
	CXString v = clang_getClangVersion();
	const char *vs = clang_getCString(v);
	h = fnv1a(h, vs, strlen(vs) + 1);
	clang_disposeString(v);
	for (int i = 0; i < nargs; i++)
		h = fnv1a(h, args[i], strlen(args[i]) + 1);
	for (size_t i = 0; i < sizeof pch_flags / sizeof *pch_flags; i++)
		h = fnv1a(h, pch_flags[i], strlen(pch_flags[i]) + 1);
	h = fnv1a(h, dir, strlen(dir) + 1);
	h = fnv1a(h, directives, strlen(directives));
	for (int i = 1; i < nunsaved; i++) { /* (the first is the input) */
		h = fnv1a(h, unsaved[i].Filename, strlen(unsaved[i].Filename) + 1);
		h = fnv1a(h, unsaved[i].Contents, unsaved[i].Length);
	}
	return xprintf("%s/preamble-%016llx.pch", cache, h);
}

/* A cache entry comes with PCH.sum: the entry's size and checksum, written after it. An entry
 * is used only when it is a private regular file (not reached through a link) whose contents
 * still match: a truncated or corrupted one (a full disk, a crash) is rebuilt, never loaded,
 * since a damaged precompiled header can crash the parse. */
/* Processes that share the cache (-j's workers, a parallel build) may build one entry at once:
 * each writes a temporary of its own (PCH.PID.tmp) and renames it over the name, so a reader
 * only ever opens a whole header; two builders' .sum files can end up crossed (one's sum, the
 * other's header), which the check above sees, and the next run builds the entry again. */
static bool file_sum(const char *path, unsigned long long *sum, long long *size)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !private_to_user(&st)) {
		close(fd);
		return false;
	}
	/* (mapped, not read, and two sums over its words that need no word's result before the
	 * next: an add, and a multiply-xor of each word with its place, so that words moved
	 * count too. A chained hash cost 5 ms of a 130 ms run for each of the two headers a run
	 * may check) */
	size_t n = (size_t)st.st_size;
	const unsigned char *b = n ? mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (b == MAP_FAILED)
		return false;
	unsigned long long add = 0, mix = 0;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		unsigned long long w;
		memcpy(&w, b + i, 8);
		add += w;
		mix ^= (w ^ i) * 0x9e3779b97f4a7c15ULL;
	}
	unsigned long long h = word_hash(fnv1a(add, &mix, sizeof mix), b + i, n - i);
	if (n)
		munmap((void *)b, n);
	*sum = h;
	*size = (long long)n;
	return true;
}

/* Where each of the preamble's includes could resolve: for every `#include "name"` or
 * <name> in the preamble and the headers it reads, the includer's folder and every folder of
 * the search path joined with the name, and whether a file is there. Saved with the entry and
 * compared on use, so a header that appears earlier in the search path than the one the entry
 * read (shadowing it) makes the entry stale; clang itself only notices files it read change. */
struct resolution {
	const char **dirs;
	int ndirs;
	struct strbuf out;
};

static bool regular_file_at(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static void record_candidate(struct resolution *r, const char *dir, const char *name)
{
	char *path = xprintf("%s/%s", dir, name);
	if (!strchr(path, '\n'))
		sb_printf(&r->out, "%d %s\n", regular_file_at(path), path);
	free(path);
}

static enum CXChildVisitResult scan_inclusions(CXCursor c, void *data)
{
	struct resolution *r = data;
	if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
		return CXChildVisit_Continue;
	CXString name = clang_getCursorSpelling(c);
	const char *n = clang_getCString(name);
	if (n && *n && n[0] != '/') {
		CXFile file;
		clang_getSpellingLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
		CXString includer = clang_getFileName(file);
		const char *inc = clang_getCString(includer);
		const char *slash = inc ? strrchr(inc, '/') : NULL;
		if (slash) {
			char *dir = xstrndup(inc, slash == inc ? 1 : (size_t)(slash - inc));
			record_candidate(r, dir, n);
			free(dir);
		}
		clang_disposeString(includer);
		for (int i = 0; i < r->ndirs; i++)
			record_candidate(r, r->dirs[i], n);
	}
	clang_disposeString(name);
	return CXChildVisit_Continue;
}

static char *include_resolution(CXTranslationUnit tu, const char *const *args, int nargs)
{
	struct resolution r = {.dirs = xcalloc((size_t)nargs + 1, sizeof *r.dirs)};
	static const char *const dir_options[] = {"-I", "-isystem", "-iquote", "-idirafter"};
	for (int i = 0; i < nargs; i++)
		for (size_t k = 0; k < sizeof dir_options / sizeof *dir_options; k++) {
			size_t len = strlen(dir_options[k]);
			if (strcmp(args[i], dir_options[k]) == 0 && i + 1 < nargs)
				r.dirs[r.ndirs++] = args[++i];
			else if (strncmp(args[i], dir_options[k], len) == 0 && args[i][len] && k == 0)
				r.dirs[r.ndirs++] = args[i] + len;
			else
				continue;
			break;
		}
	cursor_visit(clang_getTranslationUnitCursor(tu), scan_inclusions, &r);
	free(r.dirs);
	return r.out.data ? sb_take(&r.out) : xstrdup("");
}

/* "sec.nsec size" of a file, or "- -" when there is none. */
static char *file_stamp(const char *path)
{
	static char buf[64];
	struct stat st;
	if (stat(path, &st) != 0)
		return strcpy(buf, "- -");
	snprintf(buf, sizeof buf, "%lld.%09ld %lld", (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		 (long long)st.st_size);
	return buf;
}

/* Lines that say what the files were when an entry was made: "0 path" / "1 path" (whether a
 * file is there), "F stamp path" (file_stamp). True when every one still holds. */
/* The lines found to hold in this run: the header that validation's parse reads names mostly
 * the files the input's did (4 ms of stat calls each). Open addressing; 0 is an empty slot. */
static struct {
	unsigned long long *v;
	size_t cap, n;
} held;

static bool held_has(unsigned long long h, bool add)
{
	if (add && (held.n + 1) * 2 > held.cap) {
		unsigned long long *old = held.v;
		size_t oldcap = held.cap;
		held.cap = held.cap ? held.cap * 2 : 8192;
		held.v = xcalloc(held.cap, sizeof *held.v);
		held.n = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				held_has(old[i], true);
		free(old);
	}
	for (size_t i = held.cap ? h & (held.cap - 1) : 0; held.cap; i = (i + 1) & (held.cap - 1)) {
		if (held.v[i] == h)
			return true;
		if (!held.v[i]) {
			if (add)
				held.v[i] = h, held.n++;
			return false;
		}
	}
	return false;
}

static bool lines_hold(char *text)
{
	bool ok = true;
	for (char *line = text; ok && *line; line++) {
		char *eol = strchr(line, '\n');
		if (!eol)
			return false;
		*eol = '\0';
		unsigned long long h = fnv1a(14695981039346656037ULL, line, (size_t)(eol - line)) | 1;
		if (held_has(h, false)) {
			*eol = '\n';
			line = eol;
			continue;
		}
		if ((line[0] == '0' || line[0] == '1') && line[1] == ' ') {
			ok = regular_file_at(line + 2) == (line[0] == '1');
		} else if (line[0] == 'F' && line[1] == ' ') {
			char *path = strchr(line + 2, ' ');
			path = path ? strchr(path + 1, ' ') : NULL;
			ok = path && strncmp(line + 2, file_stamp(path + 1), (size_t)(path - line - 2)) == 0 &&
			     file_stamp(path + 1)[path - line - 2] == '\0';
		} else {
			ok = false;
		}
		if (ok)
			held_has(h, true);
		*eol = '\n';
		line = eol;
	}
	return ok;
}

/* The whole of a cache file that is the user's own and private, or NULL. */
static char *read_private(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && private_to_user(&st) &&
		  st.st_size < (1 << 24);
	char *text = ok ? xmalloc((size_t)st.st_size + 1) : NULL;
	ok = ok && read(fd, text, (size_t)st.st_size) == st.st_size;
	if (fd >= 0)
		close(fd);
	if (!ok) {
		free(text);
		return NULL;
	}
	text[st.st_size] = '\0';
	return text;
}

/* The entry's checksum line, then the resolution lines; each must still hold. A run reads the
 * same entry for its input and for validation's parse of its output: checked once a process
 * (hashing 12 MB and stat'ing thousands of paths took a tenth of a run, twice). */
static char *intact_memo;

static bool entry_intact(const char *pch)
{
	if (intact_memo && strcmp(intact_memo, pch) == 0)
		return true;
	unsigned long long sum, want;
	long long size, want_size;
	char *sumfile = xprintf("%s.sum", pch);
	char *text = read_private(sumfile);
	free(sumfile);
	bool ok = text != NULL;
	ok = ok && sscanf(text, "%llx %lld", &want, &want_size) == 2 && lines_hold(strchr(text, '\n') + 1);
	free(text);
	ok = ok && file_sum(pch, &sum, &size) && sum == want && size == want_size;
	if (ok) {
		free(intact_memo);
		intact_memo = xstrdup(pch);
	}
	return ok;
}

/* A preamble whose headers have errors is not saved, and would be built again by every run
 * only to be thrown away: PCH.failed says it failed, with the resolution lines and, per file
 * the attempt read, "F mtime size path". It holds while none of those has changed. */
static void record_file_read(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack, (void)depth;
	CXString name = clang_getFileName(file);
	const char *path = clang_getCString(name);
	if (path && !strchr(path, '\n'))
		sb_printf(data, "F %s %s\n", file_stamp(path), path);
	clang_disposeString(name);
}

static bool failure_holds(const char *pch)
{
	char *marker = xprintf("%s.failed", pch);
	char *text = read_private(marker);
	bool holds = text && strncmp(text, "failed\n", 7) == 0 && lines_hold(text + 7);
	free(text);
	free(marker);
	return holds;
}

/* A cache file written whole or not at all: a private temporary, renamed over the name. */
static bool write_private(const char *path, const char *text)
{
	char *tmp = xprintf("%s.%ld.tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0)
		ok = close(fd) == 0 && ok;
	ok = ok && rename(tmp, path) == 0;
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok;
}

static bool write_entry_sum(const char *pch, const char *resolution)
{
	unsigned long long sum;
	long long size;
	if (!file_sum(pch, &sum, &size))
		return false;
	char *sumfile = xprintf("%s.sum", pch), *text = xprintf("%016llx %lld\n%s", sum, size, resolution);
	bool ok = write_private(sumfile, text);
	free(text);
	free(sumfile);
	return ok;
}

/* The cache is bounded: headers unused for a month go, and beyond CACHE_ENTRIES the least
 * recently used (a use touches the file's time). */
#define CACHE_ENTRIES 64
static void prune_cache(const char *cache)
{
	DIR *d = opendir(cache);
	struct dirent *e;
	struct entry {
		char *path;
		time_t used;
	} *entries = NULL;
	int n = 0, cap = 0;
	time_t month_ago = time(NULL) - 30 * 24 * 3600;
	time_t hour_ago = time(NULL) - 3600;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "preamble-", 9) != 0)
			continue;
		char *path = xprintf("%s/%s", cache, e->d_name);
		struct stat st;
		bool got = lstat(path, &st) == 0;
		if (len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0) {
			/* left by a run that was interrupted while writing: not an entry */
			if (got && st.st_mtime < hour_ago)
				unlink(path);
		} else if (len > 7 && strcmp(e->d_name + len - 7, ".failed") == 0) {
			if (got && st.st_mtime < month_ago)
				unlink(path);
		} else if (len > 4 && strcmp(e->d_name + len - 4, ".pch") == 0) {
			if (got && st.st_mtime < month_ago) {
				char *sum = xprintf("%s.sum", path);
				unlink(path);
				unlink(sum);
				free(sum);
			} else {
				*VEC_PUSH(entries, n, cap) = (struct entry){xstrdup(path), got ? st.st_mtime : 0};
			}
		}
		free(path);
	}
	if (d)
		closedir(d);
	for (int kept = n; kept > CACHE_ENTRIES; kept--) {
		int oldest = -1;
		for (int i = 0; i < n; i++)
			if (entries[i].path && (oldest < 0 || entries[i].used < entries[oldest].used))
				oldest = i;
		char *sum = xprintf("%s.sum", entries[oldest].path);
		unlink(entries[oldest].path);
		unlink(sum);
		free(sum);
		free(entries[oldest].path);
		entries[oldest].path = NULL;
	}
	for (int i = 0; i < n; i++)
		free(entries[i].path);
	free(entries);
}

/* Precompile the directives under a name in the input's folder, so quoted includes resolve as
 * they do for the input. Written to a temporary name and renamed: concurrent runs from
 * `make -j` each write their own and the last rename wins. Not saved when it has errors. */
static bool build_preamble_pch(const char *pch, const char *const *args, int nargs,
			       const struct CXUnsavedFile *unsaved, int nunsaved, const char *dir,
			       const char *directives)
{
	char *name = xprintf("%s/pipefy-preamble.cu", dir);
	struct CXUnsavedFile *files = xcalloc((size_t)nunsaved, sizeof *files);
	memcpy(files, unsaved, (size_t)nunsaved * sizeof *files);
	files[0] = (struct CXUnsavedFile){name, directives, (unsigned long)strlen(directives)};
	size_t nflags = sizeof pch_flags / sizeof *pch_flags;
	const char **all = xmalloc(((size_t)nargs + nflags) * sizeof *all);
	memcpy(all, args, (size_t)nargs * sizeof *all);
	memcpy(all + nargs, pch_flags, sizeof pch_flags);
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	bool ok = clang_parseTranslationUnit2(index, name, all, nargs + (int)nflags, files, (unsigned)nunsaved,
					      CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization |
						      CXTranslationUnit_DetailedPreprocessingRecord,
					      &tu) == CXError_Success;
	for (unsigned i = 0; ok && i < clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		ok = clang_getDiagnosticSeverity(d) < CXDiagnostic_Error;
		clang_disposeDiagnostic(d);
	}
	char *tmp = xprintf("%s.%ld.tmp", pch, (long)getpid());
	char *resolution = tu ? include_resolution(tu, args, nargs) : NULL;
	char *marker = xprintf("%s.failed", pch);
	if (tu && !ok) { /* the headers have errors: remember it until one of them changes */
		struct strbuf sb = {0};
		sb_printf(&sb, "failed\n%s", resolution);
		clang_getInclusions(tu, record_file_read, &sb);
		write_private(marker, sb.data);
		free(sb.data);
	}
	ok = ok && clang_saveTranslationUnit(tu, tmp, 0) == CXSaveError_None && chmod(tmp, 0600) == 0 &&
	     rename(tmp, pch) == 0 && write_entry_sum(pch, resolution);
	if (ok)
		unlink(marker);
	free(marker);
	free(resolution);
	if (!ok)
		unlink(tmp);
	free(tmp);
	free(name);
	free(files);
	free(all);
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	return ok;
}

/* Parse with the preamble's precompiled header: the preamble is blanked (newlines kept, so
 * every offset, line and column stays the same) and its declarations come from the header. */
static bool parse_with_pch(struct parsed *p, const char *pch, const char **args, int nargs,
			   struct CXUnsavedFile *unsaved, int nunsaved, const struct source *src, size_t preamble,
			   unsigned flags)
{
	char *blanked = xstrndup(unsaved[0].Contents, src->len); /* (the text clang parses: args.c) */
	for (size_t i = 0; i < preamble; i++)
		if (blanked[i] != '\n')
			blanked[i] = ' ';
	args[nargs] = "-include-pch";
	args[nargs + 1] = pch;
	struct CXUnsavedFile main_file = unsaved[0];
	unsaved[0].Contents = blanked;
	/* (excluding the header's declarations from walks of the file: a walk of the translation unit
	 * then visits the file's own, instead of loading each of the headers' thousands from the
	 * precompiled header only to skip it; a quarter of a run went there. Whoever needs the
	 * headers' declarations reads them from the header: check.c's overloads.) */
	p->index = clang_createIndex(1, 0);
	enum CXErrorCode ec = clang_parseTranslationUnit2(p->index, unsaved[0].Filename, args, nargs + 2, unsaved,
							  (unsigned)nunsaved, flags, &p->tu);
	unsaved[0] = main_file;
	p->blanked = blanked;
	if (ec == CXError_Success && p->tu) {
		p->pch = xstrdup(pch);
		return true;
	}
	clang_disposeIndex(p->index);
	p->index = NULL;
	p->tu = NULL;
	p->blanked = NULL;
	free(blanked);
	return false;
}

/* Parse through the cached precompiled header of the text's first `preamble` bytes: used when
 * the entry is intact, else built first when `build` allows (once: a later run finds it). */
static bool parse_cached(struct parsed *p, const struct source *src, const char **args, int n,
			 struct CXUnsavedFile *unsaved, int nunsaved, const char *dir, const char *cache, size_t preamble,
			 bool build, unsigned flags)
{
	char *directives = preamble_directives(src, preamble);
	char *pch = preamble_pch_path(cache, args, n, dir, directives, unsaved, nunsaved);
	bool parsed = entry_intact(pch) && parse_with_pch(p, pch, args, n, unsaved, nunsaved, src, preamble, flags);
	if (parsed) {
		p->pch_reused = true;
		utimensat(AT_FDCWD, pch, NULL, 0); /* most recently used, for prune_cache */
	}
	/* absent, or stale (a header changed since): build it once and try again */
	if (!parsed && build && !failure_holds(pch) && build_preamble_pch(pch, args, n, unsaved, nunsaved, dir, directives)) {
		prune_cache(cache);
		parsed = parse_with_pch(p, pch, args, n, unsaved, nunsaved, src, preamble, flags);
	}
	free(pch);
	free(directives);
	return parsed;
}

static bool parse_within(struct parsed *p, const struct source *src, const struct options *o, size_t wish,
			 bool build_wish, size_t max_preamble, char **err);

/* Whether the parse's language is C++20 or later: the last -std= says. */
static bool cxx20_or_later(const char *const *args, int n)
{
	const char *std = NULL;
	for (int i = 0; i < n; i++)
		if (strncmp(args[i], "-std=", 5) == 0)
			std = args[i] + 5;
	if (!std)
		return false;
	const char *v = strstr(std, "++");
	return v && (strcmp(v + 2, "20") == 0 || strcmp(v + 2, "2a") == 0 || strcmp(v + 2, "23") == 0 ||
		     strcmp(v + 2, "2b") == 0 || strcmp(v + 2, "26") == 0 || strcmp(v + 2, "2c") == 0);
}

bool parse_source(struct parsed *p, const struct source *src, const struct options *o, char **err)
{
	return parse_within(p, src, o, 0, false, (size_t)-1, err);
}

/* Validation's parse of the rewritten file. Its preamble is the input's and, where the rewrite
 * adds an #include after the input's last (cuda_pipeline.h: 16 of a repeated run's 130 ms),
 * that line too. Through a precompiled header of that whole preamble when one is cached, or
 * when the input's came from the cache (a repeated run: it is built once, then read); else (a
 * first run: one header to precompile, not two) through the input's, the output's lines up to
 * its first change in whole lines, the added include parsed with the rest. */
bool parse_rewritten(struct parsed *p, const struct source *out, const struct source *in, const struct options *o,
		     bool warm, char **err)
{
	size_t preamble = preamble_length(in->text, in->len), same = 0;
	while (same < preamble && same < out->len && out->text[same] == in->text[same])
		same++;
	if (same < preamble)
		while (same > 0 && out->text[same - 1] != '\n')
			same--;
	size_t whole = preamble_length(out->text, out->len);
	return parse_within(p, out, o, whole > same ? whole : 0, warm, same, err);
}

/* Parse src through a cached precompiled preamble of at most max_preamble bytes; first, when
 * wish is not 0, through one of wish bytes where it is cached (or may be built: build_wish). */
static bool parse_within(struct parsed *p, const struct source *src, const struct options *o, size_t wish,
			 bool build_wish, size_t max_preamble, char **err)
{
	memset(p, 0, sizeof *p);
	char *dir = source_directory(src);
	struct clang_args a = {0};
	if (!args_build(&a, src, o, dir, err)) {
		free(dir);
		args_free(&a);
		p->fatal = true;
		return false;
	}
	p->arch = a.arch;
	p->other_files = a.other_files;
	const char **args = xmalloc((size_t)(a.n + 2) * sizeof *args); /* room for -include-pch */
	memcpy(args, a.v, (size_t)a.n * sizeof *args);
	int n = a.n, nunsaved = a.nfiles;
	struct CXUnsavedFile *unsaved = a.files;
	unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
	/* (C++20 and later parse without a precompiled preamble: clang 19 reads the overloads of one
	 * name such a header holds, the `static` ones of CUDA's math_functions.hpp, as one function
	 * defined twice, and says so on standard error at every run, past any -W option) */
	bool cache_ok = !o->no_cache && !cxx20_or_later(args, n);
	size_t preamble = cache_ok ? preamble_length(src->text, src->len) : 0;
	if (preamble > max_preamble)
		preamble = max_preamble;
	/* (a file with no #include line still has CUDA's own headers, which clang includes by
	 * itself: an empty preamble's precompiled header holds them, 375 ms a run saved to 90) */
	char *cache = cache_ok ? cache_dir(&p->cache_warning) : NULL;
	bool parsed = false;
	if (cache && wish)
		parsed = parse_cached(p, src, args, n, unsaved, nunsaved, dir, cache, wish, build_wish, flags);
	if (cache && !parsed)
		parsed = parse_cached(p, src, args, n, unsaved, nunsaved, dir, cache, preamble, true, flags);
	free(cache);
	enum CXErrorCode ec = CXError_Success;
	if (!parsed) {
		p->index = clang_createIndex(0, 0);
		ec = clang_parseTranslationUnit2(p->index, unsaved[0].Filename, args, n, unsaved, (unsigned)nunsaved, flags,
						 &p->tu);
	}
	if (ec != CXError_Success || !p->tu) {
		p->fatal = true;
		*err = xprintf("%s: error: libclang could not parse the file (error %d)", src->path, (int)ec);
		free(dir);
		free(args);
		args_free(&a);
		return false;
	}
	char *searched = args_searched(&a);
	unsigned nd = clang_getNumDiagnostics(p->tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(p->tu, i);
		add_diag(p, d, dir, searched);
		clang_disposeDiagnostic(d);
	}
	free(searched);
	free(dir);
	free(args);
	args_free(&a);
	return true;
}

void parsed_free(struct parsed *p)
{
	for (int i = 0; i < p->ndiags; i++) {
		free(p->diags[i].file);
		free(p->diags[i].message);
	}
	free(p->diags);
	if (p->tu)
		clang_disposeTranslationUnit(p->tu);
	if (p->index)
		clang_disposeIndex(p->index);
	free(p->blanked);
	free(p->pch);
	free(p->cache_warning);
	memset(p, 0, sizeof *p);
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

char *parse_inclusions(const struct parsed *p)
{
	struct strbuf deps = {0};
	clang_getInclusions(p->tu, collect_inclusion, &deps);
	/* the preamble's headers were read when its precompiled header was made */
	CXTranslationUnit preamble = p->pch ? clang_createTranslationUnit(p->index, p->pch) : NULL;
	if (preamble) {
		clang_getInclusions(preamble, collect_inclusion, &deps);
		clang_disposeTranslationUnit(preamble);
	}
	return deps.data ? sb_take(&deps) : xstrdup("");
}
