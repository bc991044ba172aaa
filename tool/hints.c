/* hints.c: what the source asks of the planner, as clang-format's `// clang-format off` and
 * clang-tidy's NOLINT do: `// pipefy: off` on a loop's line or on the comment lines right above
 * it leaves that loop as written, `// pipefy: off-file` anywhere leaves every loop of the file,
 * and `// pipefy: variant=ldg stages=2` asks for that plan for the loop, as --variant and
 * --stages do for the file. A comment is a hint when the text after `pipefy:` starts with
 * `off` or holds `=` (pipefy's own comments in its output are prose, and are not read); a hint
 * pipefy cannot read leaves the loop as written, saying so. */
#include "pipefy.h"

#include <ctype.h>
#include <stdlib.h>

#define HINT_MARK "// pipefy:"

/* The text after `// pipefy:` in [b, e), or NULL. */
static const char *hint_in(const char *b, const char *e)
{
	size_t n = strlen(HINT_MARK);
	for (const char *p = b; p + n <= e; p++)
		if (memcmp(p, HINT_MARK, n) == 0)
			return p + n;
	return NULL;
}

static const char *line_end(const struct source *src, size_t at)
{
	const char *nl = memchr(src->text + at, '\n', src->len - at);
	return nl ? nl : src->text + src->len;
}

/* Whether the line starting at `at` holds only a comment or a #pragma (after blanks). */
static bool comment_or_pragma_line(const struct source *src, size_t at)
{
	const char *p = src->text + at, *e = line_end(src, at);
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return (e - p >= 2 && p[0] == '/' && (p[1] == '/' || p[1] == '*')) || (e - p >= 7 && memcmp(p, "#pragma", 7) == 0) ||
	       (p < e && *p == '*'); /* (a block comment's inner line) */
}

/* One word of a hint: `off`, `variant=V` or `stages=N`; false (with *problem) when unread. */
static bool read_word(const char *w, size_t n, struct loop_hint *h, char **problem)
{
	if (n == 3 && memcmp(w, "off", 3) == 0) {
		h->off = true;
		return true;
	}
	if (n > 8 && memcmp(w, "variant=", 8) == 0) {
		char *name = xstrndup(w + 8, n - 8);
		const struct variant_row *v = variant_named(name);
		if (v && v->id != VARIANT_AUTO && v->listed)
			h->variant = v->id;
		else
			*problem = xprintf("no variant '%s'", name);
		free(name);
		return !*problem;
	}
	if (n > 7 && memcmp(w, "stages=", 7) == 0) {
		char *end;
		long s = strtol(w + 7, &end, 10);
		if (end == w + n && s >= 1 && s <= 8)
			h->stages = (int)s;
		else
			*problem = xprintf("stages must be 1..8, not '%.*s'", (int)(n - 7), w + 7);
		return !*problem;
	}
	*problem = xprintf("'%.*s' is not a hint (off, off-file, variant=V, stages=N)", (int)n, w);
	return false;
}

/* The words of one hint comment, which starts at `text` and ends at e: `off` (or `off-file`),
 * or `key=value` words; the first other word, and all after `off`, are the user's own. */
static void read_hint(const char *text, const char *e, struct loop_hint *h)
{
	char *problem = NULL;
	for (const char *p = text; p < e && !problem && !h->off;) {
		while (p < e && isspace((unsigned char)*p))
			p++;
		const char *w = p;
		while (p < e && !isspace((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - w);
		if (n == 8 && memcmp(w, "off-file", 8) == 0)
			break; /* (file_hint_off's) */
		if (n == 0 || !((n == 3 && memcmp(w, "off", 3) == 0) || memchr(w, '=', n)))
			break;
		read_word(w, n, h, &problem);
	}
	if (!problem && h->stages && !h->variant)
		problem = xstrdup("stages=N needs variant=V (without one the planner chooses the stages)");
	if (!problem && h->variant) {
		const struct variant_row *v = variant_row(h->variant);
		if (h->stages && (h->stages < v->min_stages || (v->max_stages && h->stages > v->max_stages)))
			problem = xprintf("%s does not take %d stages", v->name, h->stages);
	}
	if (problem && !h->problem)
		h->problem = problem;
	else
		free(problem);
}

/* Whether the text after `pipefy:` is a hint, not prose: `off...`, or a word holding '='. */
static bool is_hint(const char *t, const char *e)
{
	while (t < e && (*t == ' ' || *t == '\t'))
		t++;
	if (e - t >= 3 && memcmp(t, "off", 3) == 0 && (e - t == 3 || isspace((unsigned char)t[3]) || t[3] == '-'))
		return true;
	const char *w = t;
	while (w < e && !isspace((unsigned char)*w))
		if (*w++ == '=')
			return true;
	return false;
}

bool file_hint_off(const struct source *src, size_t *at)
{
	for (int ln = 0; ln < src->nlines; ln++) {
		size_t b = src->line_start[ln];
		const char *e = line_end(src, b), *mark = hint_in(src->text + b, e), *t = mark;
		while (t && t < e && (*t == ' ' || *t == '\t'))
			t++;
		if (t && e - t >= 8 && memcmp(t, "off-file", 8) == 0 && (e - t == 8 || isspace((unsigned char)t[8]))) {
			*at = (size_t)(mark - src->text) - strlen(HINT_MARK);
			return true;
		}
	}
	return false;
}

struct loop_hint loop_hint(const struct source *src, size_t loop_begin)
{
	struct loop_hint h = {0};
	int line, col;
	source_line_col(src, loop_begin, &line, &col);
	/* the loop's own line, then the comment (and pragma) lines right above it */
	for (int ln = line - 1; ln >= 0; ln--) {
		size_t b = src->line_start[ln];
		if (ln < line - 1 && !comment_or_pragma_line(src, b))
			break;
		const char *e = line_end(src, b), *t = hint_in(src->text + b, e);
		if (t && is_hint(t, e)) {
			read_hint(t, e, &h);
			if (!h.text) {
				h.at = (size_t)(t - src->text) - strlen(HINT_MARK);
				h.text = xstrtrim(src->text + h.at, e);
			}
		}
	}
	return h;
}
