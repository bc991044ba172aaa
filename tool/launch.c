/* launch.c: the file's kernel launches `k<<<grid, block, bytes, stream>>>(args)`, read from its
 * text once (host code is not in the device-side parse's codegen, but its text is the user's),
 * and the function definitions that say which of them are host code. measure.c reads them for
 * block sizes, template instantiations and launchers; find_launch_pairs for launches that run
 * back to back on one stream. */
#include "pipefy.h"
#include "cursor.h"

#include <ctype.h>
#include <stdlib.h>

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* struct launches' order: by kernel name, then by place. */
static int by_kernel(const void *a, const void *b)
{
	return strcmp(((const struct launch *)a)->kernel, ((const struct launch *)b)->kernel);
}

static int by_kernel_then_place(const void *a, const void *b)
{
	const struct launch *x = a, *y = b;
	int c = by_kernel(a, b);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The launch whose chevrons start at q, added to ls (nothing when q starts none). */
static void add_launch(struct launches *ls, const char *text, const char *q)
{
	const char *p = q, *targs_end = NULL, *targs = NULL;
	while (p > text && isspace((unsigned char)p[-1]))
		p--;
	if (p > text && p[-1] == '>') { /* template arguments: back to their '<' */
		targs_end = p - 1;
		int depth = 0;
		while (p > text) {
			p--;
			depth += *p == '>' ? 1 : *p == '<' ? -1 : 0;
			if (depth == 0)
				break;
		}
		targs = p + 1;
		while (p > text && isspace((unsigned char)p[-1]))
			p--;
	}
	const char *end = p;
	while (p > text && ident_char(p[-1]))
		p--;
	const char *close = strstr(q + 3, ">>>");
	if (p == end || !close)
		return;
	struct launch *l = VEC_PUSH(ls->v, ls->n, ls->cap);
	l->kernel = xstrndup(p, (size_t)(end - p));
	l->at = (size_t)(p - text);
	l->targs = targs && targs_end >= targs ? xstrtrim(targs, targs_end) : NULL;
	/* the configuration arguments, split at top-level commas */
	const char *cut[5] = {q + 3};
	int n = 1, depth = 0;
	for (const char *c = q + 3; c < close && n < 4; c++) {
		depth += *c == '(' || *c == '{' || *c == '[' ? 1 : *c == ')' || *c == '}' || *c == ']' ? -1 : 0;
		if (*c == ',' && depth == 0)
			cut[n++] = c + 1;
	}
	cut[n] = close + 1;
	for (int i = 0; i < n; i++)
		l->config[i] = xstrtrim(cut[i], cut[i + 1] - 1);
	if (n > 2) {
		const char *b = cut[2], *e = cut[3] - 1;
		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		l->shared_span = (struct span){(size_t)(b - text), (size_t)(e - text)};
	}
	l->chevrons_end = (size_t)(close + 3 - text);
}

struct launches launches_index(const struct source *src)
{
	struct launches ls = {0};
	const char *text = src->text;
	/* (in code only: a launch written in a comment or a string is none) */
	const char *end = text + src->len;
	for (const char *q = text; q < end;) {
		const char *past = source_skip_noncode(q, end);
		if (past != q) {
			q = past;
		} else if (strncmp(q, "<<<", 3) == 0) {
			add_launch(&ls, text, q);
			q += 3;
		} else
			q++;
	}
	if (ls.n)
		qsort(ls.v, (size_t)ls.n, sizeof *ls.v, by_kernel_then_place);
	return ls;
}

const struct launch *launches_first(const struct launches *ls, const char *kernel)
{
	struct launch key = {.kernel = (char *)kernel};
	int lo = sorted_first(&key, ls->v, ls->n, sizeof *ls->v, by_kernel);
	return lo < ls->n && strcmp(ls->v[lo].kernel, kernel) == 0 ? &ls->v[lo] : NULL;
}

void launches_free(struct launches *ls)
{
	for (int i = 0; i < ls->n; i++) {
		free(ls->v[i].kernel);
		for (int k = 0; k < 4; k++)
			free(ls->v[i].config[k]);
		free(ls->v[i].targs);
	}
	free(ls->v);
}


static enum CXChildVisitResult collect_functions(CXCursor c, void *data)
{
	struct functions *f = data;
	if (!cursor_in_main_file(c))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod) {
		if (f->n == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 32;
			f->fn = xrealloc(f->fn, (size_t)f->cap * sizeof *f->fn);
			f->at = xrealloc(f->at, (size_t)f->cap * sizeof *f->at);
		}
		f->fn[f->n] = c;
		f->at[f->n++] = cursor_span(c);
	}
	return CXChildVisit_Continue;
}

CXCursor functions_enclosing(const struct functions *f, size_t at)
{
	for (int i = 0; i < f->n; i++)
		if (at >= f->at[i].begin && at < f->at[i].end)
			return f->fn[i];
	return clang_getNullCursor();
}

bool launch_args(const struct source *src, size_t after, struct span *args)
{
	const char *t = src->text, *p = t + after;
	while (*p && isspace((unsigned char)*p))
		p++;
	if (*p != '(')
		return false;
	int depth = 0;
	for (const char *q = p; *q; q++) {
		if (*q == '"' || *q == '\'') {
			char quote = *q++;
			while (*q && *q != quote)
				q += *q == '\\' && q[1] ? 2 : 1;
			if (!*q)
				return false;
			continue;
		}
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if (depth == 0) {
			*args = (struct span){(size_t)(p + 1 - t), (size_t)(q - t)};
			return true;
		}
	}
	return false;
}

void functions_collect(struct functions *f, CXTranslationUnit tu)
{
	cursor_visit_file(tu, collect_functions, f);
}

void functions_free(struct functions *f)
{
	free(f->fn);
	free(f->at);
	memset(f, 0, sizeof *f);
}

/* ---- launches one stream runs back to back ---- */

struct pair_scan {
	struct model *m;
	const struct source *src;
	const struct launch **by_place; /* the index, ordered by offset */
	int n;
	CXCursor host; /* the host function scanned */
};

static int by_place(const void *a, const void *b)
{
	const struct launch *x = *(const struct launch *const *)a, *y = *(const struct launch *const *)b;
	return (x->at > y->at) - (x->at < y->at);
}

/* The launch a statement is, whole (`k<<<g, b>>>(args);` and nothing around it), or NULL. */
static const struct launch *launch_statement(const struct pair_scan *s, CXCursor stmt, struct span *args)
{
	if (clang_getCursorKind(stmt) != CXCursor_CallExpr || cursor_from_macro(stmt))
		return NULL;
	struct span sp = cursor_span(stmt);
	struct launch place = {.at = sp.begin};
	const struct launch *key = &place;
	int lo = sorted_first(&key, s->by_place, s->n, sizeof *s->by_place, by_place);
	if (lo == s->n || s->by_place[lo]->at != sp.begin)
		return NULL;
	const struct launch *l = s->by_place[lo];
	if (!launch_args(s->src, l->chevrons_end, args) || args->end + 1 != sp.end)
		return NULL;
	return l;
}

/* The stream as written; the default one however it is spelled (none, 0, NULL, nullptr). */
static const char *stream_of(const struct launch *l)
{
	const char *s = l->config[3];
	return !s || strcmp(s, "0") == 0 || strcmp(s, "NULL") == 0 || strcmp(s, "nullptr") == 0 ? "0" : s;
}

static bool same_stream(const struct launch *a, const struct launch *b)
{
	return strcmp(stream_of(a), stream_of(b)) == 0;
}

/* The arguments the launch writes out (default arguments clang fills in have no place there). */
static int count_args(CXCursor call, struct span args)
{
	int n = 0, all = clang_Cursor_getNumArguments(call);
	for (int i = 0; i < all; i++) {
		struct span a = cursor_span(clang_Cursor_getArgument(call, (unsigned)i));
		n += a.begin >= args.begin && a.end <= args.end && a.end > a.begin;
	}
	return n;
}

/* The definition in this file of the kernel a launch statement names (a template's for a
 * specialization), with its body's '{'; null when there is none. */
static CXCursor launched_kernel(CXCursor stmt, size_t at, CXCursor *ref, size_t *body_open)
{
	*ref = clang_getNullCursor();
	struct cursors kids = cursor_children(stmt);
	for (int i = 0; i < kids.n && clang_Cursor_isNull(*ref); i++) {
		CXCursor c = cursor_strip(kids.v[i]);
		if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && cursor_offset(c) == at) {
			CXCursor r = clang_getCursorReferenced(c);
			if (clang_getCursorKind(r) == CXCursor_FunctionDecl)
				*ref = r;
		}
	}
	free(kids.v);
	if (clang_Cursor_isNull(*ref))
		return clang_getNullCursor();
	CXCursor def = clang_getCursorDefinition(*ref);
	CXCursor tmpl = clang_getSpecializedCursorTemplate(*ref);
	if (!clang_Cursor_isNull(tmpl))
		def = tmpl; /* a template's body is where the wait goes */
	if (clang_Cursor_isNull(def) || !cursor_in_main_file(def) || !clang_isCursorDefinition(def))
		return clang_getNullCursor();
	CXCursor body = cursor_last_child(def);
	if (clang_getCursorKind(body) != CXCursor_CompoundStmt || cursor_from_macro(body))
		return clang_getNullCursor();
	*body_open = cursor_span(body).begin + 1;
	return def;
}

static void add_pair(struct pair_scan *s, const struct launch *first, CXCursor first_stmt, const struct launch *second,
		     struct span args, CXCursor stmt, const CXCursor *between, int nbetween)
{
	struct launch_pair *p = VEC_PUSH(s->m->pairs, s->m->npairs, s->m->cappairs);
	const char *t = s->src->text;
	p->first = xstrdup(first->kernel);
	p->second = xstrdup(second->kernel);
	p->first_at = first->at;
	p->call = (struct span){second->at, args.end + 1};
	const char *chevrons = strstr(t + second->at, "<<<");
	p->callee = xstrtrim(t + second->at, chevrons);
	for (int i = 0; i < 4; i++)
		p->config[i] = second->config[i] ? xstrdup(second->config[i]) : NULL;
	p->args = args;
	p->nargs = count_args(stmt, args);
	p->stmt = stmt;
	p->kernel = launched_kernel(stmt, second->at, &p->ref, &p->body_open);
	p->first_kernel = launched_kernel(first_stmt, first->at, &p->first_ref, &p->first_body_open);
	p->first_stmt = first_stmt;
	struct span first_args = {0, 0};
	launch_args(s->src, first->chevrons_end, &first_args);
	p->first_call = (struct span){first->at, first_args.end + 1};
	p->first_args = first_args;
	p->first_nargs = count_args(first_stmt, first_args);
	for (int i = 0; i < 4; i++)
		p->first_config[i] = first->config[i] ? xstrdup(first->config[i]) : NULL;
	p->host = s->host;
	for (int i = 0; i < nbetween; i++)
		*VEC_PUSH(p->between.v, p->between.n, p->between.cap) = between[i];
}

/* A statement between two launches that leaves them back to back: it puts no work on a stream
 * and waits for none, because everything it calls only checks and reports errors
 * (`CHECK(cudaGetLastError());`): the runtime's error queries, printing, exiting, and this
 * file's functions that call nothing else (three calls deep); or it calls nothing (an
 * assignment). What such a statement writes, check.c weighs against what the second launch
 * reads (the pair keeps them). */
static const char *const error_only[] = {"cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString",
					 "cudaGetErrorName", "printf", "fprintf", "puts", "fputs", "exit", "abort",
					 "_Exit", "__assert_fail", NULL};

struct checks_only {
	int depth;
	bool ok;
};

static enum CXChildVisitResult only_error_checks(CXCursor c, void *data)
{
	struct checks_only *k = data;
	char *name = cursor_name(c);
	bool known = false;
	for (int i = 0; error_only[i] && !known; i++)
		known = strcmp(name, error_only[i]) == 0;
	free(name);
	if (!known) { /* this file's helper that only checks, `cudaCheck(err, __FILE__, __LINE__)` */
		CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(c));
		if (clang_getCursorKind(fn) != CXCursor_FunctionDecl || !cursor_in_main_file(fn) || k->depth >= 3 ||
		    cursor_has_attr(fn, CXCursor_CUDAGlobalAttr)) {
			k->ok = false;
			return CXChildVisit_Break;
		}
		struct checks_only inner = {k->depth + 1, true};
		cursor_visit_kind(cursor_last_child(fn), CXCursor_CallExpr, only_error_checks, &inner);
		if (!inner.ok) {
			k->ok = false;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static bool error_check_statement(CXCursor stmt)
{
	struct checks_only k = {0, true};
	cursor_visit_kind_from(stmt, CXCursor_CallExpr, only_error_checks, &k);
	return k.ok;
}

static void scan_compound(struct pair_scan *s, CXCursor compound)
{
	struct cursors kids = cursor_children(compound);
	const struct launch *prev = NULL;
	int prev_at = -1;
	for (int i = 0; i < kids.n; i++) {
		struct span args;
		const struct launch *l = launch_statement(s, kids.v[i], &args);
		if (l && prev && same_stream(prev, l))
			add_pair(s, prev, kids.v[prev_at], l, args, kids.v[i], kids.v + prev_at + 1, i - prev_at - 1);
		if (l || !prev || !error_check_statement(kids.v[i])) {
			prev = l;
			prev_at = i;
		}
	}
	free(kids.v);
}

static enum CXChildVisitResult visit_host_body(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		scan_compound(data, c);
	return CXChildVisit_Recurse;
}

void find_launches(struct model *m, const struct parsed *p, const struct source *src)
{
	m->launches = launches_index(src);
	m->preamble = p->pch;
	if (m->launches.n > 0 && p->tu)
		functions_collect(&m->functions, p->tu);
}

void find_launch_pairs(struct model *m, const struct source *src)
{
	const struct launches *ls = &m->launches;
	if (ls->n < 2 || m->functions.n == 0)
		return;
	struct pair_scan s = {m, src, xcalloc((size_t)ls->n, sizeof *s.by_place), ls->n, clang_getNullCursor()};
	for (int i = 0; i < ls->n; i++)
		s.by_place[i] = &ls->v[i];
	qsort(s.by_place, (size_t)s.n, sizeof *s.by_place, by_place);
	for (int i = 0; i < m->functions.n; i++) {
		CXCursor fn = m->functions.fn[i];
		if (!clang_isCursorDefinition(fn) || cursor_has_attr(fn, CXCursor_CUDAGlobalAttr) ||
		    cursor_has_attr(fn, CXCursor_CUDADeviceAttr))
			continue;
		s.host = fn;
		cursor_visit(fn, visit_host_body, &s);
	}
	free(s.by_place);
}
