/* source.c: the input text with its line table, and the edit list that rewrites it. */
#include "cursor.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

static void build_lines(struct source *src)
{
	int cap = 64;
	src->line_start = xmalloc(cap * sizeof *src->line_start);
	src->nlines = 0;
	src->line_start[src->nlines++] = 0;
	for (size_t i = 0; i < src->len; i++) {
		if (src->text[i] != '\n')
			continue;
		if (src->nlines == cap) {
			cap *= 2;
			src->line_start = xrealloc(src->line_start, cap * sizeof *src->line_start);
		}
		src->line_start[src->nlines++] = i + 1;
	}
}

void source_init_text(struct source *src, const char *display_name, const char *text, size_t len)
{
	src->path = xstrdup(display_name);
	src->text = xstrndup(text, len);
	src->len = len;
	build_lines(src);
}

static bool read_stream(FILE *f, struct strbuf *sb)
{
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(sb, buf, n);
	return !ferror(f);
}

/* Offset of the first byte that is not well-formed UTF-8, or (size_t)-1. Editors hand us
 * UTF-8; anything else is not a source file we should rewrite. */
size_t utf8_invalid_at(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		if (n == 0 || i + n > len || (n == 2 && c < 0xc2))
			return i;
		for (size_t k = 1; k < n; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
		i += n;
	}
	return (size_t)-1;
}

/* The end of the comment, string or character literal that starts at i, or i when none does:
 * a line comment (through backslash-newlines), a block comment, `".."`, `'..'` (escapes
 * skipped) and raw strings `R"d(..)d"`. */
static size_t skip_token(const char *t, size_t len, size_t i, bool *comment)
{
	*comment = false;
	if (t[i] == '/' && i + 1 < len && (t[i + 1] == '/' || t[i + 1] == '*')) {
		*comment = true;
		bool line = t[i + 1] == '/';
		for (i += 2; i < len; i++) {
			if (line && t[i] == '\n' && t[i - 1] != '\\')
				return i;
			if (!line && t[i] == '*' && i + 1 < len && t[i + 1] == '/')
				return i + 2;
		}
		return len;
	}
	if (t[i] == 'R' && i + 1 < len && t[i + 1] == '"' && (i == 0 || !(isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))) {
		size_t open = i + 2, d = open;
		while (d < len && t[d] != '(' && d - open < 16)
			d++;
		if (d < len && t[d] == '(') {
			size_t dl = d - open;
			for (size_t k = d + 1; k + dl + 1 < len; k++)
				if (t[k] == ')' && memcmp(t + k + 1, t + open, dl) == 0 && t[k + 1 + dl] == '"')
					return k + dl + 2;
			return len;
		}
	}
	if (t[i] == '"' || t[i] == '\'') {
		char q = t[i];
		for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
			if (t[i] == '\\')
				i++;
		return i < len ? i + 1 : len;
	}
	return i;
}

/* Offset of the first byte that is not well-formed UTF-8 outside comments, or (size_t)-1. A
 * byte of another encoding in a comment (a Windows-1252 dash) is the comment's alone: clang and
 * nvcc take it, and pipefy never writes inside a comment, so the bytes go out as they came. */
size_t utf8_invalid_in_code(const char *text, size_t len)
{
	size_t code = 0; /* where the text since the last comment starts */
	for (size_t i = 0; i <= len;) {
		bool comment = false;
		size_t end = i < len ? skip_token(text, len, i, &comment) : len;
		if (comment || i == len) {
			size_t bad = utf8_invalid_at(text + code, i - code);
			if (bad != (size_t)-1)
				return code + bad;
			code = end;
			if (i == len)
				break;
		}
		i = end > i ? end : i + 1;
	}
	return (size_t)-1;
}

/* By convention "-" names standard input. */
bool source_read(struct source *src, const char *path, const char *display_name, char **err)
{
	struct strbuf sb = {0};
	const char *name = display_name ? display_name : path;
	memset(src, 0, sizeof *src);
	if (strcmp(path, "-") == 0) {
		if (!read_stream(stdin, &sb)) {
			*err = xprintf("%s: error: cannot read standard input: %s", name, strerror(errno));
			free(sb.data);
			return false;
		}
	} else {
		struct stat st;
		if (stat(path, &st) != 0) {
			*err = xprintf("%s: error: %s", name, strerror(errno));
			return false;
		}
		if (S_ISDIR(st.st_mode)) {
			*err = xprintf("%s: error: is a directory", name);
			return false;
		}
		FILE *f = fopen(path, "rb");
		if (!f) {
			*err = xprintf("%s: error: %s", name, strerror(errno));
			return false;
		}
		bool ok = read_stream(f, &sb);
		fclose(f);
		if (!ok) {
			*err = xprintf("%s: error: read failed: %s", name, strerror(errno));
			free(sb.data);
			return false;
		}
	}
	if (sb.len > 0 && memchr(sb.data, '\0', sb.len)) {
		/* libclang would stop at the first NUL; a rewrite would lose the rest. */
		src->path = xstrdup(name);
		src->text = sb.data;
		src->len = sb.len;
		build_lines(src);
		*err = xprintf("%s: error: binary file (contains NUL bytes)", name);
		return false;
	}
	src->path = xstrdup(name);
	src->len = sb.len;
	src->text = sb.data ? sb.data : xstrdup("");
	build_lines(src);
	if (src->len == 0) {
		*err = xprintf("%s: error: empty file: no kernel to rewrite", name);
		return false;
	}
	size_t bad = utf8_invalid_in_code(src->text, src->len);
	if (bad != (size_t)-1) {
		int line, col;
		source_line_col(src, bad, &line, &col);
		*err = xprintf("%s:%d:%d: error: invalid UTF-8 (byte 0x%02x)", name, line, col, (unsigned char)src->text[bad]);
		return false;
	}
	return true;
}

void source_free(struct source *src)
{
	free(src->path);
	free(src->text);
	free(src->line_start);
	memset(src, 0, sizeof *src);
}

size_t source_call_word(const struct source *src, size_t offset)
{
	size_t n = 0;
	while (offset + n < src->len && (isalnum((unsigned char)src->text[offset + n]) || src->text[offset + n] == '_'))
		n++;
	return n > 0 && offset + n < src->len && src->text[offset + n] == '(' ? n : 0;
}

size_t source_call_end(const struct source *src, size_t at)
{
	size_t p = at;
	while (p < src->len && (isalnum((unsigned char)src->text[p]) || src->text[p] == '_'))
		p++;
	if (p == at)
		return 0;
	while (p < src->len && (src->text[p] == ' ' || src->text[p] == '\t'))
		p++;
	if (p >= src->len || src->text[p] != '(')
		return 0;
	for (int depth = 0; p < src->len; p++) {
		depth += src->text[p] == '(' ? 1 : src->text[p] == ')' ? -1 : 0;
		if (depth == 0)
			return p + 1;
	}
	return 0;
}

void source_line_col(const struct source *src, size_t offset, int *line, int *col)
{
	int lo = 0, hi = src->nlines - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (src->line_start[mid] <= offset)
			lo = mid;
		else
			hi = mid - 1;
	}
	*line = lo + 1;
	*col = (int)(offset - src->line_start[lo]) + 1;
}

size_t source_offset(const struct source *src, int line, int col)
{
	if (line < 1 || line > src->nlines)
		return src->len;
	size_t off = src->line_start[line - 1] + (size_t)(col - 1);
	return off > src->len ? src->len : off;
}

/* Lines the statement owns: from its line's start when only blanks precede it, through the
 * newline when only blanks (and a ';') follow. Deleting those keeps the layout clean. */
struct span source_whole_lines(const struct source *src, struct span s)
{
	size_t b = s.begin < src->len ? s.begin : src->len, e = s.end < src->len ? s.end : src->len;
	while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
		e++;
	if (e < src->len && src->text[e] == ';')
		e++;
	size_t text_end = e;
	while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
		e++;
	size_t lb = b;
	while (lb > 0 && (src->text[lb - 1] == ' ' || src->text[lb - 1] == '\t'))
		lb--;
	bool own_start = lb == 0 || src->text[lb - 1] == '\n';
	bool own_end = e >= src->len || src->text[e] == '\n';
	if (own_start && own_end)
		return (struct span){lb, e < src->len ? e + 1 : e};
	return (struct span){b, text_end};
}

char *source_line_indent(const struct source *src, size_t offset)
{
	int line, col;
	source_line_col(src, offset, &line, &col);
	size_t b = src->line_start[line - 1], e = b;
	while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
		e++;
	return xstrndup(src->text + b, e - b);
}

void edits_add(struct edits *e, size_t offset, size_t length, const char *text)
{
	struct edit *ed = VEC_PUSH(e->v, e->n, e->cap);
	ed->offset = offset;
	ed->length = length;
	ed->text = xstrdup(text);
	ed->seq = e->n;
}

void edits_free(struct edits *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof *e);
}

static int edit_order(const void *a, const void *b)
{
	const struct edit *x = *(const struct edit *const *)a, *y = *(const struct edit *const *)b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	/* At one offset, insertions go before a replacement that starts there. */
	if ((x->length == 0) != (y->length == 0))
		return x->length == 0 ? -1 : 1;
	return x->seq - y->seq;
}

bool edits_apply_range(const struct edits *e, const char *text, size_t begin, size_t end, char **out,
		       char **err)
{
	const struct edit **sorted = xmalloc((e->n ? e->n : 1) * sizeof *sorted);
	int n = 0;
	for (int i = 0; i < e->n; i++)
		if (e->v[i].offset >= begin && e->v[i].offset + e->v[i].length <= end)
			sorted[n++] = &e->v[i];
	qsort(sorted, n, sizeof *sorted, edit_order);
	struct strbuf sb = {0};
	size_t pos = begin;
	for (int i = 0; i < n; i++) {
		const struct edit *ed = sorted[i];
		if (ed->offset < pos) {
			*err = xprintf("overlapping edits at offset %zu (length %zu, after one of length %zu at %zu)", ed->offset,
				       ed->length, sorted[i - 1]->length, sorted[i - 1]->offset);
			free(sorted);
			free(sb.data);
			return false;
		}
		sb_add(&sb, text + pos, ed->offset - pos);
		sb_puts(&sb, ed->text);
		pos = ed->offset + ed->length;
	}
	sb_add(&sb, text + pos, end - pos);
	free(sorted);
	*out = sb_take(&sb);
	return true;
}

bool edits_apply(const struct edits *e, const struct source *src, char **out, char **err)
{
	return edits_apply_range(e, src->text, 0, src->len, out, err);
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

const char *source_directive(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != '#')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

const char *source_skip_noncode(const char *p, const char *end)
{
	if (p[0] == '/' && p + 1 < end && p[1] == '/') {
		while (p < end && *p != '\n')
			p++;
	} else if (p[0] == '/' && p + 1 < end && p[1] == '*') {
		const char *c = strstr(p + 2, "*/");
		p = c && c + 2 <= end ? c + 2 : end;
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;
		while (p < end && *p != q && *p != '\n')
			p += *p == '\\' ? 2 : 1;
		if (p < end)
			p++;
	}
	return p < end ? p : end;
}

int source_identifiers(const struct source *src, struct span in, const char *name, size_t *at, int max)
{
	size_t n = strlen(name);
	int count = 0;
	const char *t = src->text, *end = src->text + (in.end < src->len ? in.end : src->len);
	for (const char *p = t + in.begin; p < end;) {
		const char *q = source_skip_noncode(p, end);
		if (q != p) {
			p = q;
		} else if (ident_char(*p)) {
			const char *b = p;
			while (p < end && ident_char(*p))
				p++;
			if ((size_t)(p - b) == n && memcmp(b, name, n) == 0 && !isdigit((unsigned char)*b)) {
				if (count < max)
					at[count] = (size_t)(b - t);
				count++;
			}
		} else
			p++;
	}
	return count;
}
