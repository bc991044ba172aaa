/* util.c: allocation helpers that die on out-of-memory, and a growable string. */
#include "pipefy.h"

#include <unistd.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void *check_alloc(void *p)
{
	if (!p) {
		fputs("pipefy: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *xmalloc(size_t size) { return check_alloc(malloc(size ? size : 1)); }
void *xcalloc(size_t count, size_t size) { return check_alloc(calloc(count ? count : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t size) { return check_alloc(realloc(p, size ? size : 1)); }
char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

void free_each(void *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *vxprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *xprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vxprintf(fmt, ap);
	va_end(ap);
	return s;
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		sb->cap = (sb->len + n + 1) * 2;
		sb->data = xrealloc(sb->data, sb->cap);
	}
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s) { sb_add(sb, s, strlen(s)); }

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vxprintf(fmt, ap);
	va_end(ap);
	sb_puts(sb, s);
	free(s);
}

char *sb_take(struct strbuf *sb)
{
	char *s = sb->data ? sb->data : xstrdup("");
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return s;
}

char *xstrtrim(const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	return xstrndup(b, (size_t)(e - b));
}

bool test_break(const char *what)
{
	const char *v = getenv("PIPEFY_TEST_BREAK");
	return v && strcmp(v, what) == 0;
}

/* A path as the user would name it: an absolute one below the current folder loses that part
 * (clang names the headers of a precompiled preamble by absolute paths). */
const char *path_for_user(const char *path)
{
	static char cwd[4096];
	size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
	if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

char *absolute_path(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	char cwd[4096];
	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return xstrdup(path);
	return xprintf("%s/%s", cwd, path);
}

int sorted_first(const void *key, const void *v, int n, size_t size, int (*cmp)(const void *, const void *))
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cmp((const char *)v + (size_t)mid * size, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
