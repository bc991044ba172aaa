/* measure.c: the numbers the model needs beyond the loop's own statements, read by check and
 * the planner: threads per block (from __launch_bounds__, the file's launches, or
 * --block-size), flops per thread per tile, the function's static shared memory, a gather in
 * the copies' address arithmetic, and the symbol ptxas reports registers under. */
#include "cursor.h"

#include <ctype.h>
#include <stdlib.h>

/* ---- an integer evaluator over the source text (launch configurations are host code) ---- */

/* Value of an integer expression in source text: literals, + - * / ( ), dim3(x, y, z) as a
 * product, object-like macros #defined in the file and `constexpr`/`const int` constants. false
 * when anything else appears. */
struct int_eval {
	const struct source *src;
	const char *p;
	int depth;
	bool ok;
	const struct binding *bind; /* template parameters' values, or NULL */
	/* where the text is in the file, for the parse to say what its names name: text0 starts
	 * it at offset off0 (NULL: text of no place, its names looked up by spelling) */
	const char *text0;
	size_t off0;
	CXCursor near; /* any cursor of the file */
	long dims[3];  /* the components of the last `dim3(x, y, z)` read (1 where not written) */
};

/* A kernel template's parameters as one instantiation binds them: the non-type ones' values by
 * name, the type ones' sizes by position. */
#define BINDING_MAX 32 /* template parameters a binding holds (tangefly's kernels take nine) */
struct binding {
	int n;
	char *name[BINDING_MAX];
	long value[BINDING_MAX];
	long type_bytes[BINDING_MAX]; /* by the parameter's index; 0 when not a type parameter */
};

static long eval_sum(struct int_eval *e);

static void skip_blanks(struct int_eval *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}


/* A definition's text (freed here) as a whole expression, one level deeper; false when it is
 * not one. */
static bool eval_definition(const struct source *src, char *text, int depth, long *out)
{
	struct int_eval sub = {.src = src, .p = text, .depth = depth + 1, .ok = true};
	long r = eval_sum(&sub);
	skip_blanks(&sub);
	bool ok = sub.ok && *sub.p == '\0';
	free(text);
	if (ok)
		*out = r;
	return ok;
}

static bool macro_value(const struct source *src, const char *name, size_t n, int depth, long *out)
{
	for (int ln = 0; ln < src->nlines && depth < 8; ln++) {
		const char *l = src->text + src->line_start[ln];
		while (*l == ' ' || *l == '\t')
			l++;
		if (strncmp(l, "#define", 7) != 0)
			continue;
		l += 7;
		while (*l == ' ' || *l == '\t')
			l++;
		if (strncmp(l, name, n) != 0 || (l[n] != ' ' && l[n] != '\t'))
			continue;
		const char *v = l + n, *end = strchr(v, '\n');
		char *text = xstrndup(v, end ? (size_t)(end - v) : strlen(v));
		char *comment = strstr(text, "//");
		if (comment)
			*comment = '\0';
		return eval_definition(src, text, depth, out);
	}
	return false;
}

/* Comments out of an expression's text, line breaks made blanks. */
static void strip_comments(char *t)
{
	char *w = t;
	for (char *r = t; *r;) {
		if (r[0] == '/' && r[1] == '/') {
			while (*r && *r != '\n')
				r++;
		} else if (r[0] == '/' && r[1] == '*') {
			char *close = strstr(r + 2, "*/");
			r = close ? close + 2 : r + strlen(r);
			*w++ = ' ';
		} else {
			*w++ = *r == '\n' || *r == '\r' ? ' ' : *r;
			r++;
		}
	}
	*w = '\0';
}

/* `constexpr int TS = 16;` or `const int TS = 16;` on a line of its own, at any depth: the
 * first such definition of the name (a kernel template's launch often names one). */
static bool constant_value(const struct source *src, const char *text_name, size_t n, int depth, long *out)
{
	/* (the name as a string of its own: it points into the expression being evaluated; the
	 * generator found `TS * TS * sizeof(float)` looked up whole) */
	char name[128];
	if (n >= sizeof name)
		return false;
	memcpy(name, text_name, n);
	name[n] = '\0';
	for (int ln = 0; ln < src->nlines && depth < 8; ln++) {
		const char *l = src->text + src->line_start[ln], *end = strchr(l, '\n');
		if (!end)
			end = l + strlen(l);
		while (*l == ' ' || *l == '\t')
			l++;
		bool cx = strncmp(l, "constexpr ", 10) == 0 || strncmp(l, "static constexpr ", 17) == 0 ||
			  strncmp(l, "const int ", 10) == 0 || strncmp(l, "static const int ", 17) == 0;
		if (!cx)
			continue;
		const char *at = l;
		while ((at = strstr(at, name)) && at < end) {
			bool word = (at == l || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
				    !(isalnum((unsigned char)at[n]) || at[n] == '_');
			const char *eq = at + n;
			while (*eq == ' ' || *eq == '\t')
				eq++;
			if (word && *eq == '=' && eq[1] != '=') {
				/* (the initializer may go on over lines, with comments: `= (\n A * B); // 256`) */
				const char *semi = strchr(eq, ';');
				if (!semi)
					return false;
				char *text = xstrndup(eq + 1, (size_t)(semi - eq - 1));
				strip_comments(text);
				return eval_definition(src, text, depth, out);
			}
			at += n;
		}
	}
	return false;
}

/* What the parse says a name at offset names: a constant (a const or constexpr variable whose
 * initializer clang evaluates), something that is not one (a parameter, a variable that may
 * change: no value), or a macro's expansion or a template's parameter, which the text's own
 * lookups read by spelling. A local `const int BS = 256;` is the one its launch sees, not
 * another function's `constexpr int BS = 32;` of the same name. */
enum name_kind { NAME_RESOLVED, NAME_UNKNOWN, NAME_BY_SPELLING };

/* A local of a function (`int THREADS = 32;` in main) that nothing in the function writes after
 * its declaration, nor lets write (its address, a reference): its initializer is its value. */
static bool unchanged_local(CXCursor var)
{
	CXCursor fn = clang_getCursorSemanticParent(var);
	enum CXCursorKind k = clang_getCursorKind(fn);
	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod)
		return false;
	if (clang_Cursor_getStorageClass(var) == CX_SC_Static)
		return false; /* (a static local keeps what earlier calls left) */
	return cursor_only_read(fn, var);
}

/* A macro an included header defines (`#define BLOCK 16` in config.h), expanded here: its
 * value where its body is numbers and operators alone (a name in it would be read in the
 * header's context, which the spelling lookups of this file do not see). The file's own
 * macros are read by spelling (macro_value). */
static enum name_kind header_macro(const struct int_eval *e, CXCursor expansion, long *out)
{
	CXCursor d = clang_getCursorReferenced(expansion);
	if (clang_getCursorKind(d) != CXCursor_MacroDefinition || cursor_in_main_file(d))
		return NAME_BY_SPELLING;
	if (clang_Cursor_isMacroFunctionLike(d) || clang_Cursor_isMacroBuiltin(d))
		return NAME_UNKNOWN;
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(d);
	CXToken *toks = NULL;
	unsigned n = 0;
	clang_tokenize(tu, clang_getCursorExtent(d), &toks, &n);
	struct strbuf body = {0};
	bool plain = n > 1;
	for (unsigned i = 1; i < n && plain; i++) { /* (the first token is the macro's name) */
		CXTokenKind k = clang_getTokenKind(toks[i]);
		CXString t = clang_getTokenSpelling(tu, toks[i]);
		plain = k == CXToken_Literal || k == CXToken_Punctuation;
		sb_printf(&body, "%s ", clang_getCString(t));
		clang_disposeString(t);
	}
	clang_disposeTokens(tu, toks, n);
	char *text = body.data ? sb_take(&body) : xstrdup("");
	if (!plain) {
		free(text);
		return NAME_UNKNOWN;
	}
	return eval_definition(e->src, text, e->depth, out) ? NAME_RESOLVED : NAME_UNKNOWN;
}

static enum name_kind resolve_name(const struct int_eval *e, size_t offset, long *out)
{
	CXCursor c = cursor_at_offset(e->near, offset);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_MacroExpansion)
		return header_macro(e, c, out);
	if (k != CXCursor_DeclRefExpr)
		return NAME_BY_SPELLING;
	CXCursor d = clang_getCursorReferenced(c);
	enum CXCursorKind dk = clang_getCursorKind(d);
	if (dk == CXCursor_NonTypeTemplateParameter || clang_Cursor_isNull(d))
		return NAME_BY_SPELLING;
	if (dk != CXCursor_VarDecl || !(clang_isConstQualifiedType(clang_getCursorType(d)) || unchanged_local(d)))
		return NAME_UNKNOWN;
	CXEvalResult r = clang_Cursor_Evaluate(d);
	bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok)
		*out = clang_EvalResult_getAsLongLong(r);
	if (r)
		clang_EvalResult_dispose(r);
	return ok ? NAME_RESOLVED : NAME_UNKNOWN;
}

static long eval_atom(struct int_eval *e)
{
	skip_blanks(e);
	if (*e->p == '(') {
		e->p++;
		long v = eval_sum(e);
		skip_blanks(e);
		if (*e->p != ')')
			e->ok = false;
		else
			e->p++;
		return v;
	}
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		long v = strtol(e->p, &end, 0);
		e->p = end;
		while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
			e->p++;
		return v;
	}
	if (isalpha((unsigned char)*e->p) || *e->p == '_') {
		const char *b = e->p;
		while (isalnum((unsigned char)*e->p) || *e->p == '_')
			e->p++;
		size_t n = (size_t)(e->p - b);
		if (n == 6 && strncmp(b, "sizeof", 6) == 0) {
			/* `sizeof(float)` and the other types whose size every target agrees on */
			static const struct {
				const char *type;
				long bytes;
			} sizes[] = {{"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"int8_t", 1}, {"uint8_t", 1},
				     {"short", 2}, {"half", 2}, {"__half", 2}, {"__nv_bfloat16", 2}, {"int", 4},
				     {"unsigned", 4}, {"unsigned int", 4}, {"float", 4}, {"int32_t", 4}, {"uint32_t", 4},
				     {"half2", 4}, {"__half2", 4}, {"double", 8}, {"long long", 8}, {"int64_t", 8},
				     {"uint64_t", 8}, {"float2", 8}, {"int2", 8}, {"float4", 16}, {"int4", 16},
				     {"uint4", 16}, {"double2", 16}};
			skip_blanks(e);
			const char *close = *e->p == '(' ? strchr(e->p, ')') : NULL;
			if (!close) {
				e->ok = false;
				return 0;
			}
			char *type = xstrtrim(e->p + 1, close);
			e->p = close + 1;
			for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
				if (strcmp(type, sizes[i].type) == 0) {
					free(type);
					return sizes[i].bytes;
				}
			free(type);
			e->ok = false;
			return 0;
		}
		if (n == 4 && strncmp(b, "dim3", 4) == 0) { /* `dim3(x, y)`, or list-initialized, `dim3{x, y}` */
			skip_blanks(e);
			char close = *e->p == '(' ? ')' : *e->p == '{' ? '}' : 0;
			if (!close) {
				e->ok = false;
				return 0;
			}
			e->p++;
			long prod = 1, dims[3] = {1, 1, 1};
			for (int i = 0;; i++) {
				long v = eval_sum(e);
				prod *= v;
				if (i < 3)
					dims[i] = v;
				else
					e->ok = false;
				skip_blanks(e);
				if (*e->p == ',')
					e->p++;
				else
					break;
			}
			memcpy(e->dims, dims, sizeof dims);
			if (*e->p == close)
				e->p++;
			else
				e->ok = false;
			return prod;
		}
		long v;
		switch (e->text0 ? resolve_name(e, e->off0 + (size_t)(b - e->text0), &v) : NAME_BY_SPELLING) {
		case NAME_RESOLVED:
			return v;
		case NAME_UNKNOWN:
			e->ok = false;
			return 0;
		case NAME_BY_SPELLING:
			break;
		}
		for (int i = 0; e->bind && i < e->bind->n; i++)
			if (strlen(e->bind->name[i]) == n && strncmp(e->bind->name[i], b, n) == 0)
				return e->bind->value[i];
		if (macro_value(e->src, b, n, e->depth, &v) || constant_value(e->src, b, n, e->depth, &v))
			return v;
	}
	e->ok = false;
	return 0;
}

/* A chain of operators of one precedence, left to right: a sum (or difference) of products when
 * sum, a product (or quotient) of atoms when not; a division by 0 is no value. */
static long eval_chain(struct int_eval *e, bool sum)
{
	long v = sum ? eval_chain(e, false) : eval_atom(e);
	for (;;) {
		skip_blanks(e);
		char op = *e->p;
		if (op == '\0' || !strchr(sum ? "+-" : "*/", op))
			return v;
		e->p++;
		long w = sum ? eval_chain(e, false) : eval_atom(e);
		if (op == '+')
			v += w;
		else if (op == '-')
			v -= w;
		else if (op == '*')
			v *= w;
		else if (w == 0)
			e->ok = false;
		else
			v /= w;
	}
}

static long eval_sum(struct int_eval *e) { return eval_chain(e, true); }

static bool eval_bound(const struct source *src, const struct binding *bind, const char *text, long *out)
{
	struct int_eval e = {.src = src, .p = text, .ok = true, .bind = bind};
	long v = eval_sum(&e);
	skip_blanks(&e);
	if (!e.ok || *e.p != '\0')
		return false;
	*out = v;
	return true;
}

static bool eval_int_text(const struct source *src, const char *text, long *out)
{
	return eval_bound(src, NULL, text, out);
}

/* A block configuration as read: its threads, and its shape where the text is one
 * `dim3(x, y, z)` or an integer (dims 0 otherwise: `dim3(16, 16) * 2` is no shape). */
struct block_read {
	long threads;
	long dims[3];
};

/* Whether text is `dim3(...)` (or `dim3{...}`) and nothing else. */
static bool one_dim3(const char *t)
{
	t += strspn(t, " \t");
	if (strncmp(t, "dim3", 4) != 0)
		return false;
	t += 4 + strspn(t + 4, " \t");
	if (*t != '(' && *t != '{')
		return false;
	for (int depth = 0; *t; t++) {
		depth += *t == '(' || *t == '{' ? 1 : *t == ')' || *t == '}' ? -1 : 0;
		if (depth == 0)
			return strspn(t + 1, " \t") == strlen(t + 1);
	}
	return false;
}

/* eval_int_at of a block configuration (near null: by spelling alone, as eval_int_text). */
static bool eval_block_at(const struct source *src, CXCursor near, size_t offset, const char *text, struct block_read *out)
{
	struct int_eval e = {.src = src, .p = text, .ok = true, .near = near};
	if (!clang_Cursor_isNull(near)) {
		e.text0 = text;
		e.off0 = offset;
	}
	long v = eval_sum(&e);
	skip_blanks(&e);
	if (!e.ok || *e.p != '\0')
		return false;
	*out = (struct block_read){.threads = v};
	if (e.dims[0] == 0) /* (no dim3: an integer, the x of a 1-D block) */
		memcpy(out->dims, (long[3]){v, 1, 1}, sizeof out->dims);
	else if (one_dim3(text))
		memcpy(out->dims, e.dims, sizeof out->dims);
	return true;
}

/* eval_int_text of the file's own text at offset, its names as the parse resolves them. */
static bool eval_int_at(const struct source *src, CXCursor near, size_t offset, const char *text, long *out)
{
	struct block_read b = {0};
	if (!eval_block_at(src, near, offset, text, &b))
		return false;
	*out = b.threads;
	return true;
}

/* `dim3 grid(...), block(TS, TS);`, `dim3 block{TS, TS};`, `dim3 block = dim3(...)` or `= {..}`
 * at p (name's first character): the product of its dims; 1 when read, 0 when p is no such
 * definition, -1 when it is one that cannot be evaluated. */
static int dim3_definition(const struct source *src, CXCursor near, const char *p, size_t n, struct block_read *out)
{
	if (p > src->text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		return 0;
	const char *q = p + n;
	if (isalnum((unsigned char)*q) || *q == '_')
		return 0;
	while (*q == ' ')
		q++;
	if (*q == '.') { /* `block.x = 64;`, `block.y *= 2;`: written after its definition */
		q++;
		while (*q == ' ' || isalnum((unsigned char)*q) || *q == '_')
			q++;
		while (*q && strchr("+-*/%<>&|^", *q)) /* (`<=` too: unread either way) */
			q++;
		return *q == '=' && q[1] != '=' ? -1 : 0;
	}
	bool ctor = *q == '(' || *q == '{';
	bool assign = *q == '=' && q[1] != '=';
	if (!ctor && !assign)
		return 0;
	const char *line = p;
	while (line > src->text && line[-1] != '\n')
		line--;
	char *head = xstrndup(line, (size_t)(p - line));
	bool dim3 = strstr(head, "dim3") != NULL;
	free(head);
	if (!dim3)
		return assign ? -1 : 0; /* (`block = ...` of another form: a value pipefy does not read) */
	const char *end = strchr(q, ';');
	if (!end)
		return -1;
	/* (`= {16, 16}`: the braces' list as the constructor's) */
	const char *list = assign ? q + 1 + strspn(q + 1, " \t") : q;
	if (assign && *list == '{') {
		ctor = true;
		q = list;
	}
	char *expr = ctor ? xprintf("dim3%.*s", (int)(end - q), q) : xstrndup(q + 1, (size_t)(end - q - 1));
	/* (where the text is in the file: `dim3` stands in for the 4 characters before `(`) */
	size_t offset = (size_t)(q - src->text) + (ctor ? 0 : 1) - (ctor ? 4 : 0);
	/* `dim3{16, 16}`, list-initialized: the same arguments, the same length of text */
	for (char *c = expr; *c; c++)
		*c = *c == '{' ? '(' : *c == '}' ? ')' : *c;
	/* a declaration list: cut at the closing parenthesis of this declarator */
	if (ctor) {
		int depth = 0;
		for (char *c = expr + 4; *c; c++) {
			depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
			if (depth == 0) {
				c[1] = '\0';
				break;
			}
		}
	}
	bool ok = eval_block_at(src, near, offset, expr, out);
	free(expr);
	return ok ? 1 : -1;
}

/* The block size a launch names by a dim3 variable: its one definition in the launching
 * function before the launch, or, with none there, its one definition at file scope; false when
 * there is none, more than one, or one pipefy cannot evaluate (a file of several host functions
 * may give each its own `dimBlock`). */
static bool dim3_variable(const struct source *src, CXCursor near, const struct functions *fns, const char *name,
			  size_t launch, struct block_read *out)
{
	size_t n = strlen(name);
	CXCursor host = functions_enclosing(fns, launch);
	size_t from = clang_Cursor_isNull(host) ? 0 : cursor_span(host).begin;
	int found = 0, in_function = 0;
	struct block_read v = {0};
	for (const char *p = src->text; (p = strstr(p, name)) && (size_t)(p - src->text) < launch; p += n) {
		size_t at = (size_t)(p - src->text);
		bool here = at >= from && !clang_Cursor_isNull(host);
		if (!here && !clang_Cursor_isNull(functions_enclosing(fns, at)))
			continue; /* (another function's) */
		struct block_read w;
		int r = dim3_definition(src, near, p, n, &w);
		if (r == 0)
			continue;
		if (r < 0)
			return false;
		if (here && !in_function++)
			found = 0; /* (the function's own shadows the file's) */
		if (here || !in_function) {
			found++;
			v = w;
		}
	}
	*out = v;
	return found == 1;
}

/* The launch's block, its second configuration argument as written (an integer, `dim3(..)`),
 * or the dim3 variable it names. */
static bool block_config(const struct source *src, CXCursor near, const struct functions *fns, const struct launch *at,
			 struct block_read *out)
{
	const char *chevrons = strstr(src->text + at->at, "<<<");
	const char *text = chevrons ? strstr(chevrons, at->config[1]) : NULL;
	bool in_place = text && text < src->text + at->chevrons_end;
	if (eval_block_at(src, in_place ? near : clang_getNullCursor(), in_place ? (size_t)(text - src->text) : 0,
			  at->config[1], out))
		return true;
	if (!in_place) /* (a launch in a macro's expansion: its names by spelling) */
		return dim3_variable(src, near, fns, at->config[1], at->at, out);
	/* a name: the variable the parse says it names, at its own declaration (a parameter, or
	 * one written after its declaration, `block.x = 64`, has no value here) */
	CXCursor c = cursor_strip(cursor_at_offset(near, (size_t)(text - src->text)));
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return false;
	CXCursor d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) != CXCursor_VarDecl || !cursor_in_main_file(d))
		return false;
	CXCursor scope = clang_getCursorSemanticParent(d);
	if (clang_getCursorKind(scope) == CXCursor_TranslationUnit || clang_getCursorKind(scope) == CXCursor_Namespace)
		scope = clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(d));
	if (!cursor_only_read(scope, d))
		return false;
	char *name = cursor_name(d);
	int r = dim3_definition(src, near, src->text + cursor_offset(d), strlen(name), out);
	free(name);
	return r == 1;
}

static char *launch_place(const struct source *src, const struct launch *at);

/* Threads per block: __launch_bounds__ on the function, else the first launch in the file,
 * else --block-size; the block's shape from the launch, else --block-size. */
static void block_size(struct kloop *l, const struct source *src, const struct launches *ls,
		       const struct functions *fns, const struct block_option *option)
{
	char *head = span_text(src, (struct span){l->function_span.begin, l->loop.begin});
	char *lb = strstr(head, "__launch_bounds__(");
	long v;
	if (lb) {
		char *arg = lb + strlen("__launch_bounds__(");
		size_t n = strcspn(arg, ",)");
		char *text = xstrndup(arg, n);
		if (eval_int_at(src, l->function_cursor, l->function_span.begin + (size_t)(arg - head), text, &v) && v > 0) {
			l->block_threads = (int)v;
			l->block_source = xstrdup("__launch_bounds__");
		}
		free(text);
		if (arg[n] == ',') { /* (its minimum blocks an SM: the compiler caps the registers for it) */
			char *second = arg + n + 1;
			char *min = xstrndup(second, strcspn(second, ",)"));
			if (eval_int_at(src, l->function_cursor, l->function_span.begin + (size_t)(second - head), min, &v) &&
			    v > 0)
				l->min_blocks = (int)v;
			free(min);
		}
	}
	free(head);
	/* (the launch gives the block's shape also where __launch_bounds__ gives its threads: the
	 * most the kernel takes, so the launch's may be fewer) */
	bool bounds = l->block_threads > 0;
	const struct launch *at = launches_first(ls, l->function);
	struct block_read b = {0};
	bool read = at && at->config[1] && block_config(src, l->function_cursor, fns, at, &b) && b.threads > 0;
	/* (a launch of the kernel with another block: the plan weighs the first's, which --report
	 * says; the rewrites' launchers and guards check each launch's block at run time) */
	for (const struct launch *o = at ? at + 1 : NULL; read && o < ls->v + ls->n && strcmp(o->kernel, at->kernel) == 0 &&
	     !l->block_differs; o++) {
		struct block_read ob = {0};
		if (!o->config[1] || !block_config(src, l->function_cursor, fns, o, &ob) || ob.threads != b.threads ||
		    memcmp(ob.dims, b.dims, sizeof b.dims) != 0)
			l->block_differs = o->at + 1;
	}
	char *launch = at ? launch_place(src, at) : NULL;
	if (read && !l->block_threads) {
		l->block_threads = (int)b.threads;
		l->block_source = xstrdup(launch);
	} else if (at && !read)
		l->block_unread = at->at + 1;
	const char *shape_from = launch;
	if (!read && option->threads) {
		if (!l->block_threads) {
			l->block_threads = option->threads;
			l->block_source = xstrdup("--block-size");
		}
		b = (struct block_read){.threads = option->threads};
		for (int i = 0; i < 3; i++)
			b.dims[i] = option->dims[i];
		read = true;
		shape_from = "--block-size";
	}
	bool fits = b.threads == l->block_threads || (bounds && b.threads <= l->block_threads);
	if (read && fits && b.dims[0] > 0 && b.dims[0] * b.dims[1] * b.dims[2] == b.threads) {
		for (int i = 0; i < 3; i++)
			l->block_dim[i] = (int)b.dims[i];
		l->block_shape_source = xstrdup(shape_from);
	}
	free(launch);
}

/* "launch at LINE:COL" */
static char *launch_place(const struct source *src, const struct launch *at)
{
	int line, col;
	source_line_col(src, at->at, &line, &col);
	return xprintf("launch at %d:%d", line, col);
}

/* Without a block size: about how many threads fill the tiles, where every copy is a statement
 * of the body (no copy loop, no helper): a stage's bytes over the bytes one thread copies. Only
 * the planner's occupancy reads it; no rewrite relies on it. */
static void estimate_threads(struct kloop *l)
{
	if (l->block_threads || l->ncopies == 0 || l->nhelpers > 0)
		return;
	long per_thread = 0;
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0 || cp->stmt < 0 || cp->width <= 0)
			return;
		if (cursor_is_loop(cursor_unattributed(l->stmts[cp->stmt].cursor)))
			return;
		per_thread += cp->width;
	}
	long bytes = kloop_tile_bytes(l);
	if (bytes <= 0 || bytes % per_thread)
		return;
	long t = bytes / per_thread;
	if (t >= 32 && t <= 1024 && t % 32 == 0)
		l->threads_estimate = (int)t;
}

/* ---- flops per tile, gathers, shared memory ---- */

/* What a trip count may read besides constants: the block's shape, where the launch gives it
 * (`j < blockDim.x`); dim names the first blockDim it read. */
struct block_view {
	const struct source *src;
	const int *dims; /* x y z; NULL or 0: unknown */
	const char *dim; /* the first `blockDim.?` read, or NULL */
	int depth;       /* locals followed to their initializers */
};

/* Flops one thread does per tile: multiply-adds, wmma::mma_sync and mma.sync in asm, times
 * the trip counts of the loops around them. -1 when a loop's trip count is not constant. */
struct flop_count {
	const struct source *src;
	double multiplier;
	double flops;
	bool unknown;
	bool runtime;  /* a compute loop's trip count is known only at run time (`i < a_param`) */
	int depth;
	struct block_view block; /* the block's shape, which a trip count may read */
	const char *block_only;  /* a runtime trip count that a known block would fix: its blockDim */
	bool other_runtime;      /* one that no block would fix (`j < w`, w a parameter) */
};

static enum CXChildVisitResult count_flops(CXCursor c, void *data);

/* Trip count of `for (int i = A; i < B; ++i / i += C)` with constant A, B, C (also `i <= B`,
 * `i != B`, and counting down, `i > B` / `i >= B` with `--i` / `i -= C`); -1 otherwise (a step
 * that multiplies or shifts, say). */
/* `blockDim.x` by any spelling (a macro's, `(blockDim).y`): a member of the toolkit's variable
 * itself; its component in *component. */
static bool block_dim_member(CXCursor e, char *component)
{
	if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
		return false;
	CXCursor object = cursor_strip(cursor_first_child(e));
	CXCursor var = clang_getCursorKind(object) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(object)
									  : clang_getNullCursor();
	if (clang_getCursorKind(var) != CXCursor_VarDecl || !effects_in_system_header(var))
		return false;
	char *n = cursor_name(var);
	bool r = strcmp(n, "blockDim") == 0;
	free(n);
	/* (libclang names no member of the toolkit's property: the component is read where the
	 * member is spelled, `.x` after the object, in a macro's body too) */
	struct file_text t = cursor_file_text(e);
	if (!r || !t.text)
		return false;
	const char *p = t.text + t.begin, *end = t.text + t.size;
	while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == ':' || *p == '(' || *p == ')' || *p == ' '))
		p++;
	if (p + 1 >= end || *p != '.' || !strchr("xyz", p[1]) || isalnum((unsigned char)p[2]) || p[2] == '_')
		return false;
	*component = p[1];
	return true;
}

/* e's value: a constant clang folds, or one of blockDim's components under b, or + - * / of
 * those. */
static long value_of(struct block_view *b, CXCursor e, bool *ok)
{
	long v = cursor_evaluate_int(e, ok);
	if (*ok || !b || !b->dims || !b->dims[0])
		return v;
	e = cursor_strip(e);
	if (clang_getCursorKind(e) == CXCursor_CStyleCastExpr && clang_getCursorType(e).kind >= CXType_Char_U &&
	    clang_getCursorType(e).kind <= CXType_LongLong) /* (`(int)blockDim.x`) */
		return value_of(b, cursor_last_child(e), ok);
	if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && b->depth < 4) {
		/* a local of the function set once from such values (`int tile = blockDim.x;`) and only
		 * read after: its initializer's value */
		CXCursor var = clang_getCursorReferenced(e);
		CXCursor init = clang_getCursorKind(var) == CXCursor_VarDecl ? cursor_last_child(var) : clang_getNullCursor();
		*ok = false;
		if (clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init)) || !unchanged_local(var))
			return 0;
		b->depth++;
		v = value_of(b, init, ok);
		b->depth--;
		return v;
	}
	char component;
	if ((cursor_builtin(b->src, e, &component) == 2 || block_dim_member(e, &component)) && component >= 'x' &&
	    component <= 'z') {
		static const char *const names[] = {"blockDim.x", "blockDim.y", "blockDim.z"};
		if (!b->dim)
			b->dim = names[component - 'x'];
		*ok = true;
		return b->dims[component - 'x'];
	}
	if (clang_getCursorKind(e) != CXCursor_BinaryOperator)
		return 0;
	bool ok1, ok2;
	long x = value_of(b, cursor_first_child(e), &ok1), y = value_of(b, cursor_last_child(e), &ok2);
	*ok = ok1 && ok2;
	switch (clang_getCursorBinaryOperatorKind(e)) {
	case CXBinaryOperator_Add:
		return x + y;
	case CXBinaryOperator_Sub:
		return x - y;
	case CXBinaryOperator_Mul:
		return x * y;
	case CXBinaryOperator_Div:
		*ok &= y != 0;
		return y ? x / y : 0;
	default:
		*ok = false;
		return 0;
	}
}

/* `var + C` or `C + var`, C a constant (parentheses allowed): C. */
static bool plus_constant(struct block_view *bv, CXCursor e, CXCursor var, long *c)
{
	e = cursor_strip(e);
	if (clang_getCursorKind(e) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Add)
		return false;
	CXCursor a = cursor_strip(cursor_first_child(e)), b = cursor_strip(cursor_last_child(e));
	bool a_var = clang_getCursorKind(a) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(a), var);
	bool b_var = clang_getCursorKind(b) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(b), var);
	bool ok = false;
	if (a_var != b_var)
		*c = value_of(bv, a_var ? b : a, &ok);
	return ok;
}

/* `v = v + S` or `v = S + v`: its step S. */
static bool assign_step(struct block_view *bv, CXCursor inc, long *step)
{
	if (clang_getCursorKind(inc) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(inc) != CXBinaryOperator_Assign)
		return false;
	CXCursor lhs = cursor_strip(cursor_first_child(inc));
	return clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
	       plus_constant(bv, cursor_last_child(inc), clang_getCursorReferenced(lhs), step);
}

/* `s + C` or `C + s` for a start `s` that names a variable: C, the span from s (a start the
 * loop's test adds a constant to, `for (i = s; i < s + 32; ..)`). */
static bool offset_bound(struct block_view *bv, CXCursor start, CXCursor bound, long *c)
{
	start = cursor_strip(start);
	return clang_getCursorKind(start) == CXCursor_DeclRefExpr &&
	       plus_constant(bv, bound, clang_getCursorReferenced(start), c);
}

static long trip_count(struct block_view *bv, CXCursor loop)
{
	struct cursors cs = cursor_children(loop);
	long r = -1;
	if (cs.n == 4) {
		CXCursor init = cs.v[0], cond = cursor_strip(cs.v[1]), inc = cursor_strip(cs.v[2]);
		bool ok1 = false, ok2 = false, ok3 = false, down = false;
		long a = 0, b = 0, step = 1;
		if (clang_getCursorKind(init) == CXCursor_DeclStmt)
			a = value_of(bv, cursor_last_child(cursor_first_child(init)), &ok1);
		else if (clang_getCursorKind(cursor_strip(init)) == CXCursor_BinaryOperator &&
			 clang_getCursorBinaryOperatorKind(cursor_strip(init)) == CXBinaryOperator_Assign &&
			 clang_getCursorKind(cursor_strip(cursor_first_child(cursor_strip(init)))) == CXCursor_DeclRefExpr)
			a = value_of(bv, cursor_last_child(cursor_strip(init)), &ok1); /* (`for (k = 0; ..)`) */
		enum CXBinaryOperatorKind op = clang_getCursorKind(cond) == CXCursor_BinaryOperator
						       ? clang_getCursorBinaryOperatorKind(cond)
						       : CXBinaryOperator_Invalid;
		if (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE || op == CXBinaryOperator_NE ||
		    op == CXBinaryOperator_GT || op == CXBinaryOperator_GE)
			b = value_of(bv, cursor_last_child(cond), &ok2);
		if (!ok1 && (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE) && clang_getCursorKind(init) == CXCursor_DeclStmt &&
		    offset_bound(bv, cursor_last_child(cursor_first_child(init)), cursor_last_child(cond), &b))
			ok1 = ok2 = true; /* (`for (i = s; i < s + 32; ..)`: from 0 to 32) */
		if (clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator) {
			enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(inc);
			step = value_of(bv, cursor_last_child(inc), &ok3);
			ok3 &= k == CXBinaryOperator_AddAssign || k == CXBinaryOperator_SubAssign;
			down = k == CXBinaryOperator_SubAssign;
		} else if (assign_step(bv, inc, &step)) { /* (`i = (i + 16)`) */
			ok3 = true;
		} else if (clang_getCursorKind(inc) == CXCursor_UnaryOperator) {
			enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(inc);
			ok3 = k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreDec ||
			      k == CXUnaryOperator_PostDec;
			down = k == CXUnaryOperator_PreDec || k == CXUnaryOperator_PostDec;
		}
		bool up_test = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE || op == CXBinaryOperator_NE;
		bool down_test = op == CXBinaryOperator_GT || op == CXBinaryOperator_GE || op == CXBinaryOperator_NE;
		if (ok1 && ok2 && ok3 && step > 0 && (down ? down_test : up_test)) {
			long span = down ? a - b + (op == CXBinaryOperator_GE) : b - a + (op == CXBinaryOperator_LE);
			/* (`!=` counts only where the steps land on the bound) */
			if (op != CXBinaryOperator_NE || (span >= 0 && span % step == 0))
				r = span > 0 ? (span + step - 1) / step : 0;
		}
	}
	free(cs.v);
	return r;
}

/* Whether e names a value known only at run time: a parameter, a variable that is not a constant
 * (blockDim's and the other built-ins' included), rather than a template's parameter or a
 * constant, which each instantiation fixes. */
struct runtime_scan {
	struct span loop; /* (its own counter is no bound) */
	CXCursor counter; /* (nor is it where it is declared before the loop: `tk++` of `for (tk = 0; ..)`) */
	bool runtime;
};

static enum CXChildVisitResult scan_runtime(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct runtime_scan *r = data;
	bool *runtime = &r->runtime;
	enum CXCursorKind k = clang_getCursorKind(d);
	if (k == CXCursor_ParmDecl)
		*runtime = true;
	else if (k == CXCursor_VarDecl && (cursor_declared_within(d, r->loop) || clang_equalCursors(d, r->counter)))
		;
	else if (k == CXCursor_VarDecl) {
		CXCursor init = cursor_last_child(d);
		bool constant = clang_isConstQualifiedType(clang_getCursorType(d)) && !clang_Cursor_isNull(init) &&
				clang_isExpression(clang_getCursorKind(init));
		if (constant)
			cursor_visit_names(init, scan_runtime, r);
		else
			*runtime = true;
	}
	return *runtime ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool bound_at_run_time(CXCursor loop)
{
	struct cursors cs = cursor_children(loop);
	struct runtime_scan r = {.loop = cursor_span(loop), .counter = clang_getNullCursor()};
	if (cs.n == 4) {
		CXCursor inc = cursor_strip(cs.v[2]);
		CXCursor var = cursor_strip(cursor_first_child(inc));
		long step;
		if ((clang_getCursorKind(inc) == CXCursor_UnaryOperator ||
		     clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator || assign_step(NULL, inc, &step)) &&
		    clang_getCursorKind(var) == CXCursor_DeclRefExpr)
			r.counter = clang_getCursorReferenced(var);
		cursor_visit_names_from(cs.v[1], scan_runtime, &r);
	}
	free(cs.v);
	return r.runtime;
}

static void count_in(struct flop_count *f, CXCursor c)
{
	cursor_visit_from(c, count_flops, f);
}

static bool has_multiply(CXCursor c)
{
	c = cursor_strip(c);
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Mul)
		return true;
	char *op = cursor_operator_name(c); /* (`a * b` of a template's parameter type) */
	bool mul = strcmp(op, "operator*") == 0;
	free(op);
	if (mul)
		return true;
	struct cursors cs = cursor_children(c);
	bool r = false;
	for (int i = 0; i < cs.n && !r; i++)
		r = has_multiply(cs.v[i]);
	free(cs.v);
	return r;
}

static enum CXChildVisitResult count_flops(CXCursor c, void *data)
{
	struct flop_count *f = data;
	switch (clang_getCursorKind(c)) {
	case CXCursor_ForStmt: {
		long trips = trip_count(&f->block, c);
		if (trips < 0) {
			f->unknown = true;
			f->runtime |= bound_at_run_time(c);
			struct block_view any = {.src = f->src, .dims = (const int[3]){1, 1, 1}};
			if (trip_count(&any, c) >= 0) {
				if (!f->block_only)
					f->block_only = any.dim;
			} else
				f->other_runtime |= bound_at_run_time(c);
			return CXChildVisit_Continue;
		}
		double saved = f->multiplier;
		f->multiplier *= (double)trips;
		count_in(f, cursor_last_child(c));
		f->multiplier = saved;
		return CXChildVisit_Continue;
	}
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
		f->unknown = true; /* (how often it runs: unknown) */
		return CXChildVisit_Continue;
	case CXCursor_CompoundAssignOperator: {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if ((op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) && has_multiply(cursor_last_child(c)))
			f->flops += 2 * f->multiplier;
		return CXChildVisit_Recurse;
	}
	case CXCursor_CallExpr: {
		/* (`acc += a * b` of a template's parameter type: an operator the instantiation resolves) */
		char *op = cursor_operator_name(c);
		if ((strcmp(op, "operator+=") == 0 || strcmp(op, "operator-=") == 0) && has_multiply(cursor_last_child(c)))
			f->flops += 2 * f->multiplier;
		free(op);
		char *name = cursor_name(c);
		if (strcmp(name, "fmaf") == 0 || strcmp(name, "fma") == 0 || strcmp(name, "__fmaf_rn") == 0 ||
		    strcmp(name, "__fma_rn") == 0)
			f->flops += 2 * f->multiplier; /* (one multiply-add) */
		if (strcmp(name, "mma_sync") == 0)
			f->flops += 2.0 * 16 * 16 * 16 / 32 * f->multiplier; /* one warp-wide m16n16k16 */
		CXCursor callee = clang_getCursorReferenced(c);
		if (strcmp(name, "mma_sync") != 0 && clang_getCursorKind(callee) == CXCursor_FunctionDecl &&
		    clang_isCursorDefinition(callee) && cursor_in_main_file(callee) && f->depth < 3) {
			f->depth++;
			count_in(f, cursor_last_child(callee)); /* a compute helper */
			f->depth--;
		}
		free(name);
		return CXChildVisit_Recurse;
	}
	case CXCursor_GCCAsmStmt: {
		/* (the template as effects.c reads it: a macro's asm is spelled in its body) */
		char *text = effects_asm_template(c);
		const char *mma = text ? strstr(text, "mma.sync") : NULL;
		int m, n, k;
		if (!text)
			f->unknown = true;
		else if (mma && (mma = strstr(mma, ".m")) && sscanf(mma, ".m%dn%dk%d", &m, &n, &k) == 3)
			f->flops += 2.0 * m * n * k / 32 * f->multiplier;
		free(text);
		return CXChildVisit_Continue;
	}
	default:
		return CXChildVisit_Recurse;
	}
}

/* A division or modulo in the copies' address arithmetic, done per element each tile (an
 * im2col gather), as opposed to a strided walk. A whole-constant expression does not count,
 * nor one whose value is the same every tile (`tid / BK`, `i / stride` of a copy loop's counter:
 * the compiler computes it once, or folds it where the copy loop is unrolled). */
struct gather_scan {
	size_t at;
	const struct kloop *l;
};

/* Whether e's value may change from tile to tile: it names one of the K-loop's induction
 * variables, a variable of the function the loop writes, or a local of the loop whose
 * initializer may (a copy loop's counter, stepped alike every tile, by its start). */
struct tile_var_scan {
	const struct kloop *l;
	int depth;
	bool varies;
};

static bool varies_by_tile(const struct kloop *l, CXCursor e, int depth);

static bool copy_loop_counter(const struct kloop *l, CXCursor var)
{
	size_t at = cursor_offset(var);
	for (int i = 0; i < l->nstmts; i++)
		if ((at >= l->stmts[i].cl.var.begin && at < l->stmts[i].cl.var.end) ||
		    (at >= l->stmts[i].inner.var.begin && at < l->stmts[i].inner.var.end))
			return true;
	return false;
}

static enum CXChildVisitResult scan_tile_var(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct tile_var_scan *t = data;
	if (!cursor_is_variable(d))
		return CXChildVisit_Continue; /* (an enumerator, a function) */
	bool local = span_within(cursor_span(d), t->l->loop);
	t->varies = kloop_ivar(t->l, d) >= 0;
	if (!t->varies && !local)
		t->varies = cursor_writes_var(t->l->cursor, d);
	if (!t->varies && local) {
		CXCursor init = cursor_last_child(d);
		t->varies = t->depth >= 8 || (!copy_loop_counter(t->l, d) && cursor_writes_var(t->l->cursor, d)) ||
			    (!clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
			     varies_by_tile(t->l, init, t->depth + 1));
	}
	return t->varies ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool varies_by_tile(const struct kloop *l, CXCursor e, int depth)
{
	struct tile_var_scan t = {.l = l, .depth = depth};
	cursor_visit_names_from(e, scan_tile_var, &t);
	return t.varies;
}

/* Whether e is the same number in every thread and tile once the kernel is instantiated:
 * literals, template parameters, enumerators, sizeof, constants (`static constexpr int D = 3;`,
 * a struct's too) and locals of the function written only by their declaration from such
 * values. */
struct fixed_scan {
	CXCursor function;
	int depth;
	bool fixed;
};

static bool fixed_value(CXCursor function, CXCursor e, int depth);

static enum CXChildVisitResult scan_fixed(CXCursor c, void *data)
{
	struct fixed_scan *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_UnaryExpr || k == CXCursor_CXXBoolLiteralExpr)
		return CXChildVisit_Continue; /* (sizeof, alignof) */
	if (k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr) {
		f->fixed = false;
		return CXChildVisit_Break;
	}
	if (k != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor d = clang_getCursorReferenced(c);
	enum CXCursorKind dk = clang_getCursorKind(d);
	CXCursor init = dk == CXCursor_VarDecl ? cursor_last_child(d) : clang_getNullCursor();
	f->fixed = dk == CXCursor_NonTypeTemplateParameter || dk == CXCursor_EnumConstantDecl ||
		   (dk == CXCursor_VarDecl && f->depth < 8 && !clang_Cursor_isNull(init) &&
		    clang_isExpression(clang_getCursorKind(init)) &&
		    ((clang_Cursor_getStorageClass(d) == CX_SC_None && span_within(cursor_span(d), cursor_span(f->function)) &&
		      !cursor_writes_var(f->function, d)) ||
		     clang_isConstQualifiedType(clang_getCursorType(d))) &&
		    fixed_value(f->function, init, f->depth + 1));
	return f->fixed ? CXChildVisit_Continue : CXChildVisit_Break;
}

static bool fixed_value(CXCursor function, CXCursor e, int depth)
{
	struct fixed_scan f = {.function = function, .depth = depth, .fixed = true};
	cursor_visit_from(e, scan_fixed, &f);
	return f.fixed;
}

static enum CXChildVisitResult scan_gather(CXCursor c, void *data)
{
	struct gather_scan *g = data;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	bool constant;
	cursor_evaluate_int(c, &constant);
	/* not one the compiler takes out of the K-loop or folds (the same every tile, by a divisor
	 * fixed at instantiation: `tid / BK`, `i / stride` of an unrolled copy loop's counter,
	 * `threadIdx.y / 2`), nor a shift (a tile's number, `(k0 / 32) & 1`) */
	CXCursor divisor = cursor_last_child(c);
	bool known, fixed = fixed_value(g->l->function_cursor, divisor, 0);
	long d = cursor_evaluate_int(divisor, &known);
	bool shift = known && d > 0 && (d & (d - 1)) == 0;
	if ((op == CXBinaryOperator_Div || op == CXBinaryOperator_Rem) && !constant &&
	    (!fixed || (varies_by_tile(g->l, c, 0) && !shift))) {
		g->at = cursor_span(c).begin + 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static void find_gather(struct kloop *l)
{
	struct gather_scan g = {0, l};
	for (int i = 0; i < l->nstmts && !g.at; i++)
		if (l->stmts[i].role == ROLE_COPY || l->stmts[i].role == ROLE_COPY_DECL)
			cursor_visit_kind(l->stmts[i].cursor, CXCursor_BinaryOperator, scan_gather, &g);
	l->gather_at = g.at;
}

static void count_tile_flops(struct kloop *l, const struct source *src)
{
	struct flop_count f = {.src = src, .multiplier = 1, .block = {.src = src, .dims = l->block_dim}};
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COMPUTE)
			count_in(&f, l->stmts[i].cursor);
	l->flops_per_thread = f.unknown ? -1 : f.flops;
	l->compute_runtime_trips = f.runtime;
	/* (trips counted from the launch's block hold under the guard that block; a count that
	 * only the block's shape keeps unknown is named for the remark) */
	l->compute_block_dim = !f.runtime ? f.block.dim : f.other_runtime ? NULL : f.block_only;
}

struct shared_sum {
	long bytes;
};

static enum CXChildVisitResult sum_shared(CXCursor c, void *data)
{
	struct shared_sum *s = data;
	if (cursor_is_shared_decl(c)) {
		if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_IncompleteArray)
			return CXChildVisit_Continue; /* extern __shared__: the launch's, not static */
		long n = clang_Type_getSizeOf(clang_getCursorType(c));
		s->bytes = n < 0 || s->bytes < 0 ? -1 : s->bytes + n;
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

/* ---- tiles a kernel template's parameters size, from the instantiations the file launches ---- */

/* The kernel template's parameters as the instantiation spec binds them; false when one is
 * neither a type nor an integer libclang gives. */
static bool bind_instantiation(CXCursor fn, CXCursor spec, struct binding *b)
{
	struct cursors cs = cursor_children(fn);
	bool ok = true;
	*b = (struct binding){0};
	for (int i = 0, k = 0; i < cs.n && ok; i++) {
		enum CXCursorKind kind = clang_getCursorKind(cs.v[i]);
		if (kind != CXCursor_TemplateTypeParameter && kind != CXCursor_NonTypeTemplateParameter &&
		    kind != CXCursor_TemplateTemplateParameter)
			continue;
		enum CXTemplateArgumentKind arg = clang_Cursor_getTemplateArgumentKind(spec, (unsigned)k);
		if (kind == CXCursor_TemplateTypeParameter) {
			ok = arg == CXTemplateArgumentKind_Type && k < BINDING_MAX;
			if (ok)
				b->type_bytes[k] = clang_Type_getSizeOf(clang_Cursor_getTemplateArgumentType(spec, (unsigned)k));
		} else if (kind == CXCursor_NonTypeTemplateParameter) {
			ok = arg == CXTemplateArgumentKind_Integral && b->n < BINDING_MAX;
			if (ok) {
				b->name[b->n] = cursor_name(cs.v[i]);
				b->value[b->n++] = clang_Cursor_getTemplateArgumentValue(spec, (unsigned)k);
			}
		}
		k++;
	}
	free(cs.v);
	return ok;
}

static void unbind(struct binding *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->name[i]);
	b->n = 0;
}

/* A __shared__ array's bytes under one instantiation: its element's size times each `[dim]`
 * of its type as clang spells it (`float[BM][BK + 1]`), evaluated with the parameters bound;
 * -1 when any part is unknown (an element type that is a parameter, say). */
static long bound_bytes(const struct source *src, CXCursor decl, const struct binding *b)
{
	CXType t = clang_getCursorType(decl), e = type_array_element(t);
	int param = cursor_type_param_index(e);
	long bytes = param >= 0 && param < BINDING_MAX ? b->type_bytes[param] : clang_Type_getSizeOf(e);
	if (bytes <= 0)
		return -1;
	char *sp = type_spelling(t), *p = strchr(sp, '[');
	while (p && bytes > 0) {
		int depth = 0;
		char *q = p;
		for (; *q; q++) {
			depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
			if (depth == 0)
				break;
		}
		if (!*q) {
			bytes = -1;
			break;
		}
		*q = '\0';
		long v;
		bytes = eval_bound(src, b, p + 1, &v) && v > 0 ? bytes * v : -1;
		p = strchr(q + 1, '[');
	}
	free(sp);
	return bytes;
}

struct template_shared {
	const struct source *src;
	const struct binding *bind;
	long bytes; /* -1 once unknown */
};

static enum CXChildVisitResult sum_bound_shared(CXCursor c, void *data)
{
	struct template_shared *s = data;
	if (!cursor_is_shared_decl(c))
		return CXChildVisit_Recurse;
	if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_IncompleteArray)
		return CXChildVisit_Continue;
	long n = bound_bytes(s->src, c, s->bind);
	s->bytes = n < 0 || s->bytes < 0 ? -1 : s->bytes + n;
	return CXChildVisit_Continue;
}

/* Whether a function template has one template parameter, a type. */
static bool one_type_param(CXCursor fn)
{
	struct cursors cs = cursor_children(fn);
	int types = 0, others = 0;
	for (int i = 0; i < cs.n; i++) {
		enum CXCursorKind k = clang_getCursorKind(cs.v[i]);
		types += k == CXCursor_TemplateTypeParameter;
		others += k == CXCursor_NonTypeTemplateParameter || k == CXCursor_TemplateTemplateParameter;
	}
	free(cs.v);
	return types == 1 && others == 0;
}

/* Tiles of a kernel template sized by its parameters: each gets its largest size over the
 * kernel's instantiations (those its calls in the file name), and the function's static shared
 * memory its largest total, so that a plan that fits those fits every instantiation (the
 * rewrite is one text for all of them). Left unknown (check keeps such a loop to one stage)
 * when the instantiations are not all known or a size does not evaluate. */
static void template_tile_sizes(struct kloop *l, const struct source *src)
{
	bool dependent = false;
	for (int i = 0; i < l->ntiles; i++)
		dependent |= l->tiles[i].bytes < 0 && !l->tiles[i].dynamic;
	if (!dependent || clang_getCursorKind(l->function_cursor) != CXCursor_FunctionTemplate)
		return;
	int n;
	size_t unknown;
	CXCursor *specs = uniform_instantiations(l->function_cursor, src, &n, &unknown);
	/* (a kernel of one type parameter launched from host templates that deduce it: the types
	 * their calls bind) */
	CXType *deduced = specs || !one_type_param(l->function_cursor)
				  ? NULL
				  : uniform_deduced_types(l->function_cursor, 0, src, &n, &unknown);
	long *most = xcalloc((size_t)l->ntiles, sizeof *most), shared = 0;
	bool ok = (specs || deduced) && n > 0;
	for (int s = 0; ok && s < n; s++) {
		struct binding b = {0};
		if (deduced)
			b.type_bytes[0] = clang_Type_getSizeOf(deduced[s]);
		else
			ok = bind_instantiation(l->function_cursor, specs[s], &b);
		for (int i = 0; ok && i < l->ntiles; i++) {
			long v = l->tiles[i].dynamic ? 0 : bound_bytes(src, l->tiles[i].decl, &b);
			ok = v >= 0;
			if (v > most[i])
				most[i] = v;
		}
		struct template_shared sum = {.src = src, .bind = &b};
		if (ok)
			cursor_visit(l->function_cursor, sum_bound_shared, &sum);
		ok = ok && sum.bytes >= 0;
		if (ok && sum.bytes > shared)
			shared = sum.bytes;
		unbind(&b);
	}
	if (ok) {
		free(l->instance_bytes);
		l->instance_bytes = xmalloc((size_t)l->ntiles * sizeof *l->instance_bytes);
		for (int i = 0; i < l->ntiles; i++)
			l->instance_bytes[i] = l->tiles[i].dynamic ? -1 : most[i];
		l->shared_bytes = shared;
		l->instantiations = n;
	}
	free(specs);
	free(deduced);
	free(most);
}

/* ---- what register staging holds through the compute ---- */

/* A copy loop's trips a thread (1 for a statement outside one), under b (NULL: none); -1 when
 * its bound or stride does not evaluate. */
static long copy_loop_trip_count(const struct kloop *l, const struct source *src, const struct copy_loop *cl,
				 const struct binding *b)
{
	if (!cl->bound)
		return 1;
	long bound = cl->bound, stride = cl->stride;
	if (bound < 0 && !(cl->bound_text && eval_bound(src, b, cl->bound_text, &bound)))
		return -1;
	if (stride < 0 && !(cl->stride_text && eval_bound(src, b, cl->stride_text, &stride)))
		return -1;
	if (stride == 0)
		stride = kloop_block_x(l); /* (blockDim.x: the rewrite is guarded by this size) */
	if (bound < 0 || stride <= 0)
		return -1;
	return (bound + stride - 1) / stride;
}

/* A variable's bytes, its type a parameter of the template bound by b where it is one; -1
 * unknown. */
static long type_bytes(CXType t, const struct binding *b)
{
	int param = cursor_type_param_index(t);
	if (param >= 0)
		return b && param < BINDING_MAX && b->type_bytes[param] > 0 ? b->type_bytes[param] : -1;
	long n = clang_Type_getSizeOf(t);
	return n > 0 ? n : -1;
}

static long var_bytes(CXCursor var, const struct binding *b)
{
	return type_bytes(clang_getCursorType(var), b);
}

struct var_sum {
	const struct binding *b;
	long bytes;
};

static enum CXChildVisitResult sum_var_bytes(CXCursor c, void *data)
{
	struct var_sum *s = data;
	if (clang_getCursorKind(c) != CXCursor_VarDecl)
		return CXChildVisit_Continue;
	long n = var_bytes(c, s->b);
	s->bytes = n < 0 || s->bytes < 0 ? -1 : s->bytes + n;
	return CXChildVisit_Continue;
}

/* The bytes register staging holds a thread under b, as registers.c declares them: a register
 * of each direct copy's width a trip, a copy loop's own fetches a trip each, the locals a fetch
 * declaration declares, each fetched local (or its shadow) once; -1 when one is unknown. */
static long staged_bytes_under(const struct kloop *l, const struct source *src, const struct binding *b)
{
	if (l->nhelpers > 0)
		return -1;
	long bytes = 0;
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->from_register)
			continue;
		const struct body_stmt *st = &l->stmts[cp->stmt];
		long t = copy_loop_trip_count(l, src, &st->cl, b), u = copy_loop_trip_count(l, src, &st->inner, b);
		if (t < 0 || u < 0 || cp->width <= 0)
			return -1;
		bytes += t * u * cp->width;
	}
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		long t = copy_loop_trip_count(l, src, &st->cl, b);
		for (int k = 0; k < st->nloop_fetch; k++) {
			long n = type_bytes(body_loop_fetch_type(st->loop_fetch[k]), b);
			if (t < 0 || n < 0)
				return -1;
			bytes += t * n;
		}
		if (st->role != ROLE_FETCH_DECL)
			continue;
		CXCursor lhs, rhs;
		if (st->fetch_keep && cursor_write_parts(st->cursor, &lhs, &rhs) == WRITE_ASSIGN) {
			/* (a register of the assigned part's type, each such fetch) */
			long n = type_bytes(clang_getCursorType(lhs), b);
			if (n < 0)
				return -1;
			bytes += n;
			continue;
		}
		if (st->fetch_assign) { /* (the local, or its shadow: once a variable) */
			bool again = false;
			for (int j = 0; j < i; j++)
				again |= l->stmts[j].role == ROLE_FETCH_DECL && l->stmts[j].fetch_assign &&
					 clang_equalCursors(l->stmts[j].fetch_var, st->fetch_var);
			long n = again ? 0 : var_bytes(st->fetch_var, b);
			if (n < 0)
				return -1;
			bytes += n;
			continue;
		}
		struct var_sum s = {b, 0};
		cursor_visit(st->cursor, sum_var_bytes, &s);
		if (s.bytes < 0)
			return -1;
		bytes += s.bytes;
	}
	return bytes;
}

/* What register staging would hold a thread: counted as written, else, in a kernel template,
 * the most over the instantiations the file names; -1 when neither gives a number. */
static void staged_bytes(struct kloop *l, const struct source *src)
{
	l->staged_bytes = staged_bytes_under(l, src, NULL);
	if (l->staged_bytes >= 0 || clang_getCursorKind(l->function_cursor) != CXCursor_FunctionTemplate)
		return;
	int n;
	size_t unknown;
	CXCursor *specs = uniform_instantiations(l->function_cursor, src, &n, &unknown);
	long most = specs && n > 0 ? 0 : -1;
	for (int s = 0; most >= 0 && s < n; s++) {
		struct binding b;
		long v = bind_instantiation(l->function_cursor, specs[s], &b) ? staged_bytes_under(l, src, &b) : -1;
		most = v < 0 ? -1 : v > most ? v : most;
		unbind(&b);
	}
	free(specs);
	l->staged_bytes = most;
}

/* ---- tiles in dynamic shared memory: can every launch give them more? ---- */

/* Whether the identifier at offset declares the kernel (a declaration or its definition). */
static bool declares(CXCursor fn, size_t offset)
{
	CXCursor c = cursor_at_offset(fn, offset);
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || cursor_offset(c) != offset)
		return false;
	CXString a = clang_getCursorUSR(c), b = clang_getCursorUSR(fn);
	bool same = strcmp(clang_getCString(a), clang_getCString(b)) == 0;
	clang_disposeString(a);
	clang_disposeString(b);
	return same;
}

/* Whether the identifier at offset is compiled code that names something else than the kernel:
 * a variable, a parameter or a member of the same spelling (`for (int k = 0; ..)` in a file
 * whose kernel is `k`). Text the parse did not read (a branch of #if) is not known to. */
static bool names_another(CXCursor fn, size_t offset)
{
	CXCursor c = cursor_at_offset(fn, offset);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
		c = clang_getCursorReferenced(c);
	else if (cursor_offset(c) != offset)
		return false; /* (a declaration's name must be where it starts) */
	k = clang_getCursorKind(c);
	return (k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_FieldDecl) &&
	       !clang_equalCursors(clang_getCanonicalCursor(c), clang_getCanonicalCursor(fn));
}

static bool on_directive_line(const struct source *src, size_t offset)
{
	size_t b = offset;
	while (b > 0 && src->text[b - 1] != '\n')
		b--;
	while (src->text[b] == ' ' || src->text[b] == '\t')
		b++;
	return src->text[b] == '#';
}

/* A kernel whose tiles live in dynamic shared memory gets more stages only by bigger launches:
 * every launch must be one pipefy rewrites, so the kernel must be this file's own (internal
 * linkage: static, or in an unnamed namespace), not a template, and named nowhere but in its
 * declarations and in launches `k<<<grid, block, bytes>>>` whose bytes pipefy can evaluate.
 * A kernel whose tiles are static arrays has the same facts established for moving its tiles
 * into dynamic shared memory (past the 48 KB static limit): its launches must ask for none
 * (`k<<<grid, block>>>`, or bytes that evaluate to 0), so that the tiles are all it holds. */
static void enlargeable_launches(struct kloop *l, const struct source *src, const struct launches *ls)
{
	bool dynamic = false;
	for (int i = 0; i < l->ntiles; i++)
		dynamic |= l->tiles[i].dynamic;
	if (!dynamic && l->ntiles == 0)
		return;
	CXCursor fn = l->function_cursor;
	enum CXLinkageKind link = clang_getCursorLinkage(fn);
	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl) {
		l->launch_unknown = xprintf("'%s' is a template or a member", l->function);
		return;
	}
	const struct launch *first = launches_first(ls, l->function);
	if (link != CXLinkage_Internal && link != CXLinkage_UniqueExternal) {
		int line = 0, col = 0;
		if (first)
			source_line_col(src, first->at, &line, &col);
		char *here = !first ? xstrdup("")
			     : first->config[2] ? xprintf(" (the launch at %d:%d asks for '%s')", line, col, first->config[2])
					     : xprintf(" (the launch at %d:%d asks for none)", line, col);
		l->launch_unknown = xprintf("'%s' can be launched from other files, with the size they choose%s; declared "
					     "static, or in an unnamed namespace, its launches would all be here",
					     l->function, here);
		free(here);
		return;
	}
	size_t at[64];
	int n = source_identifiers(src, (struct span){0, src->len}, l->function, at, 64);
	for (int u = 0; u < n && !l->launch_unknown; u++) {
		int line, col;
		source_line_col(src, u < 64 ? at[u] : 0, &line, &col);
		const struct launch *hit = NULL;
		for (const struct launch *x = first; x && x < ls->v + ls->n && strcmp(x->kernel, l->function) == 0; x++)
			if (u < 64 && x->at == at[u])
				hit = x;
		if (u >= 64)
			l->launch_unknown = xprintf("'%s' is named too often to follow", l->function);
		else if (!hit && !declares(fn, at[u]) && !names_another(fn, at[u]))
			l->launch_unknown = xprintf("'%s' is named at %d:%d other than in a launch", l->function, line, col);
		else if (hit && on_directive_line(src, at[u]))
			l->launch_unknown = xprintf("the launch at %d:%d is in a macro", line, col);
		else if (hit && !hit->config[2] && dynamic)
			l->launch_unknown = xprintf("the launch at %d:%d asks for no dynamic shared memory", line, col);
		else if (hit && !hit->config[2]) {
			/* (static tiles: `, bytes` goes before the `>>>`) */
			size_t close = hit->chevrons_end - 3;
			*VEC_PUSH(l->launch_edits, l->nlaunch_edits, l->caplaunch_edits) =
				(struct launch_edit){.shared = {close, close}, .insert = true};
			if (l->launch_dyn_bytes < 0)
				l->launch_dyn_bytes = 0;
		} else if (hit) {
			long v;
			if (!eval_int_text(src, hit->config[2], &v) || v < 0 || (v == 0 && dynamic))
				l->launch_unknown = xprintf("the launch at %d:%d asks for '%s' bytes, which pipefy cannot "
							     "evaluate", line, col, hit->config[2]);
			else if (!dynamic && v > 0)
				l->launch_unknown = xprintf("the launch at %d:%d asks for %ld bytes of dynamic shared memory, "
							     "which the tiles would share", line, col, v);
			else {
				if (v > l->launch_dyn_bytes)
					l->launch_dyn_bytes = v;
				*VEC_PUSH(l->launch_edits, l->nlaunch_edits, l->caplaunch_edits) =
					(struct launch_edit){.shared = hit->shared_span};
			}
		}
	}
	if (!l->launch_unknown && l->nlaunch_edits == 0)
		l->launch_unknown = xprintf("no launch of '%s' is in this file", l->function);
	if (l->launch_unknown) {
		l->nlaunch_edits = 0;
		l->launch_dyn_bytes = -1;
	}
}

/* ---- launches a tensor-copy variant routes through its launcher ---- */

/* Every name of a kernel in the main file (a DeclRefExpr to a __global__ function): its launches'
 * and any other use, by the kernel's USR, found in one walk over the file for all its kernels. */
struct kernel_ref {
	char *usr;
	size_t at;
};

struct kernel_refs {
	struct kernel_ref *v;
	int n, cap;
};

static enum CXChildVisitResult scan_kernel_refs(CXCursor c, void *data)
{
	struct kernel_refs *r = data;
	if (!cursor_in_main_file(c))
		return CXChildVisit_Continue;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor f = clang_getCursorReferenced(c);
	if (clang_getCursorKind(f) == CXCursor_FunctionDecl && cursor_has_attr(f, CXCursor_CUDAGlobalAttr)) {
		CXString usr = clang_getCursorUSR(f);
		struct kernel_ref *k = VEC_PUSH(r->v, r->n, r->cap);
		k->usr = xstrdup(clang_getCString(usr));
		k->at = cursor_offset(c);
		clang_disposeString(usr);
	}
	return CXChildVisit_Continue;
}

static int by_usr(const void *a, const void *b)
{
	return strcmp(((const struct kernel_ref *)a)->usr, ((const struct kernel_ref *)b)->usr);
}

static void kernel_refs_free(struct kernel_refs *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->v[i].usr);
	free(r->v);
}

/* The first name of the kernel that is none of its launches: offset + 1, or 0. */
static size_t kernel_used_elsewhere(const struct kernel_refs *r, const char *usr, const struct launches *ls,
				    const char *kernel)
{
	struct kernel_ref key = {.usr = (char *)usr};
	for (int i = sorted_first(&key, r->v, r->n, sizeof *r->v, by_usr); i < r->n && strcmp(r->v[i].usr, usr) == 0; i++) {
		bool launch = false;
		for (const struct launch *x = launches_first(ls, kernel); x && x < ls->v + ls->n && strcmp(x->kernel, kernel) == 0 && !launch;
		     x++)
			launch = x->at == r->v[i].at;
		if (!launch)
			return r->v[i].at + 1;
	}
	return 0;
}

/* Every launch of the kernel in host code after its definition, outside macros, with its
 * configuration and arguments; the others are counted. The kernel's name and the end of its
 * parameter list, where the rewrite renames it and adds the tensor maps; where else the file
 * names it. */
static void tma_launch_sites(struct kloop *l, const struct source *src, const struct launches *ls,
			     const struct functions *fns, const struct kernel_refs *refs, bool copies_in_file)
{
	CXCursor fn = l->function_cursor;
	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return;
	l->kernel_name_at = cursor_offset(fn);
	int np = clang_Cursor_getNumArguments(fn);
	if (np > 0) {
		size_t p = cursor_span(clang_Cursor_getArgument(fn, np - 1)).end;
		while (p < src->len && src->text[p] != ')')
			p++;
		l->params_end = p < src->len ? p : 0;
	}
	static const char *const suffixes[] = {"tma", "ws"}; /* (rewrite.c's tma_name) */
	for (int i = 0; i < 2 && copies_in_file && !l->copy_defined; i++) { /* (one look at the text for any) */
		char *copy = xprintf("%s_pipefy_%s", l->function, suffixes[i]);
		size_t one;
		if (source_identifiers(src, (struct span){0, src->len}, copy, &one, 1) > 0)
			l->copy_defined = suffixes[i];
		free(copy);
	}
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(fn);
	CXFile file;
	clang_getSpellingLocation(clang_getCursorLocation(fn), &file, NULL, NULL, NULL);
	CXString usr = clang_getCursorUSR(fn);
	for (const struct launch *x = launches_first(ls, l->function); x && x < ls->v + ls->n && strcmp(x->kernel, l->function) == 0;
	     x++) {
		CXCursor c = clang_getCursor(tu, clang_getLocationForOffset(tu, file, (unsigned)x->at));
		CXString u = clang_getCursorUSR(clang_getCursorReferenced(c));
		bool same = clang_getCursorKind(c) == CXCursor_DeclRefExpr && cursor_offset(c) == x->at &&
			    strcmp(clang_getCString(u), clang_getCString(usr)) == 0 && !cursor_from_macro(c);
		clang_disposeString(u);
		CXCursor around = same ? functions_enclosing(fns, x->at) : clang_getNullCursor();
		bool host = same && !clang_Cursor_isNull(around) && !cursor_has_attr(around, CXCursor_CUDAGlobalAttr) &&
			    !cursor_has_attr(around, CXCursor_CUDADeviceAttr);
		struct span args;
		if (!host || x->at < l->function_span.end || !launch_args(src, x->chevrons_end, &args)) {
			l->other_launches++;
			continue;
		}
		struct tma_launch *t = VEC_PUSH(l->tma_launches, l->ntma_launches, l->captma_launches);
		t->call = (struct span){x->at, args.end + 1};
		t->args = args;
		for (int i = 0; i < 4; i++)
			t->config[i] = x->config[i] ? xstrdup(x->config[i]) : NULL;
	}
	/* (any other name of it: what that does to the kernel, the tensor-copy kernel the
	 * launcher runs instead would not get) */
	l->kernel_used_at = kernel_used_elsewhere(refs, clang_getCString(usr), ls, l->function);
	clang_disposeString(usr);
}

/* A function's symbol as ptxas names it */
static char *mangled_name(CXCursor fn)
{
	CXString mangled = clang_Cursor_getMangling(fn);
	char *name = xstrdup(clang_getCString(mangled));
	clang_disposeString(mangled);
	return name;
}

/* A kernel template's instantiations in the file, by symbol (--ptxas matches them). */
static void instance_symbols(struct kloop *l, const struct source *src)
{
	if (clang_getCursorKind(l->function_cursor) != CXCursor_FunctionTemplate)
		return;
	int n;
	size_t unknown;
	CXCursor *specs = uniform_instantiations(l->function_cursor, src, &n, &unknown);
	if (specs && n > 0) {
		l->instance_symbols = xcalloc((size_t)n, sizeof *l->instance_symbols);
		for (int s = 0; s < n; s++)
			l->instance_symbols[l->ninstance_symbols++] = mangled_name(specs[s]);
	}
	free(specs);
}

void measure_kloops(struct model *m, const struct source *src, const struct options *o)
{
	const struct launches *ls = &m->launches;
	bool copies = strstr(src->text, "_pipefy_tma") != NULL || strstr(src->text, "_pipefy_ws") != NULL;
	struct kernel_refs refs = {0};
	for (int i = 0; i < m->nloops; i++)
		if (m->loops[i].function_span.end) { /* (one walk over the file, for every kernel) */
			CXTranslationUnit tu = clang_Cursor_getTranslationUnit(m->loops[i].function_cursor);
			cursor_visit_file(tu, scan_kernel_refs, &refs);
			if (refs.n)
				qsort(refs.v, (size_t)refs.n, sizeof *refs.v, by_usr);
			break;
		}
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (l->function_span.end == 0)
			continue; /* find could not read it */
		struct shared_sum sum = {0};
		cursor_visit(l->function_cursor, sum_shared, &sum);
		l->shared_bytes = sum.bytes;
		block_size(l, src, ls, &m->functions, &o->block);
		template_tile_sizes(l, src);
		estimate_threads(l); /* (after: a template's tiles sized by its largest instantiation) */
		l->launch_dyn_bytes = -1;
		enlargeable_launches(l, src, ls);
		tma_launch_sites(l, src, ls, &m->functions, &refs, copies);
		count_tile_flops(l, src);
		staged_bytes(l, src);
		find_gather(l);
		l->mangled = mangled_name(l->function_cursor);
		instance_symbols(l, src);
	}
	kernel_refs_free(&refs);
	/* both kernels of a launch pair, for a persistent launch's register count */
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		if (!clang_Cursor_isNull(p->first_kernel) && !clang_Cursor_isNull(p->kernel)) {
			p->mangled[0] = mangled_name(p->first_kernel);
			p->mangled[1] = mangled_name(p->kernel);
		}
	}
}
