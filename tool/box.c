/* box.c: whether each tile's copy is one box of a 2-D operand, the fact tensor copies (TMA,
 * --variant=tma, and from a producer warp, --variant=ws) and bulk copies of its rows
 * (--variant=bulk) rely on. Facts only: check.c turns a missing one into the refusal.
 *
 * A copy `As[d0][V * d1] = A[index]` (V elements a thread: a vector copy) is a box when, over
 * the threads of a block (and the trips of a copy loop), (d0, d1) runs over the whole tile
 * once and
 *     index = base + d0 * L + V * d1
 * with L (the operand's row length) made of the kernel's parameters only, so that the host can
 * build the tensor map, and base the same for every thread, so that one thread can issue the
 * box at (col0, row0), base = row0 * L + col0. The index is read as a polynomial over atoms:
 * blockIdx/blockDim/gridDim, the kernel's parameters, the loop variables, threadIdx, the copy
 * loop's `i / Q` and `i % Q`, quotients of uniform values, and locals the kernel writes with
 * values the same for every thread; other locals are read through their one initializer,
 * which must not read what changes after it. A pointer the kernel moves adds how far it has
 * moved (then the box is found at run time). Anything else (a load, a call, a local written
 * in the loop) is no box. */
#include "cursor.h"

#include <stdlib.h>

enum atom_kind {
	ATOM_PARAM,   /* a kernel parameter: the host knows it */
	ATOM_UNIFORM, /* the same for every thread of a block: blockIdx, a loop variable */
	ATOM_THREAD,  /* threadIdx.*, the copy loop's variable and its quotient and remainder */
};

#define MAX_ATOMS 48
#define MAX_TERMS 32
#define MAX_FACTORS 4

struct term {
	long long coef;
	int nf;
	int f[MAX_FACTORS]; /* atom indices, ascending */
};

struct poly {
	int n;
	struct term t[MAX_TERMS];
};

struct reader {
	const struct kloop *l;
	const struct source *src;
	CXCursor copy_var;   /* the copy loop's variable, or a null cursor */
	char *atom[MAX_ATOMS];
	enum atom_kind kind[MAX_ATOMS];
	int natoms;
	int depth;
	CXCursor assumed[8]; /* locals being proven the same for every thread: atoms meanwhile */
	int nassumed;
	size_t decl_at;      /* offset + 1 of the declaration whose initializer is being read (it
			      * took its value there: what it reads must not change after it) */
	CXCursor decl;       /* that declaration */
	char *problem;       /* the first thing that is not a polynomial, in words */
	size_t problem_at;
};

static void fail(struct reader *r, CXCursor at, char *what)
{
	cursor_first_why(&r->problem, &r->problem_at, at, what);
}

static int atom(struct reader *r, const char *text, enum atom_kind kind)
{
	for (int i = 0; i < r->natoms; i++)
		if (strcmp(r->atom[i], text) == 0)
			return i;
	if (r->natoms == MAX_ATOMS)
		return -1;
	r->atom[r->natoms] = xstrdup(text);
	r->kind[r->natoms] = kind;
	return r->natoms++;
}

static struct poly constant(long long v)
{
	struct poly p = {0};
	if (v) {
		p.n = 1;
		p.t[0].coef = v;
	}
	return p;
}

static bool same_factors(const struct term *a, const struct term *b)
{
	return a->nf == b->nf && memcmp(a->f, b->f, (size_t)a->nf * sizeof *a->f) == 0;
}

/* Adds a term, merging it with an equal monomial; false when the polynomial is full. */
static bool add_term(struct poly *p, struct term t)
{
	if (t.coef == 0)
		return true;
	for (int i = 0; i < p->n; i++)
		if (same_factors(&p->t[i], &t)) {
			p->t[i].coef += t.coef;
			if (p->t[i].coef == 0)
				p->t[i] = p->t[--p->n];
			return true;
		}
	if (p->n == MAX_TERMS)
		return false;
	p->t[p->n++] = t;
	return true;
}

static bool poly_add(struct poly *out, const struct poly *a, const struct poly *b, long long sign)
{
	*out = *a;
	for (int i = 0; i < b->n; i++) {
		struct term t = b->t[i];
		t.coef *= sign;
		if (!add_term(out, t))
			return false;
	}
	return true;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static bool poly_mul(struct poly *out, const struct poly *a, const struct poly *b)
{
	*out = (struct poly){0};
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			const struct term *x = &a->t[i], *y = &b->t[j];
			if (x->nf + y->nf > MAX_FACTORS)
				return false;
			struct term t = {x->coef * y->coef, x->nf + y->nf, {0}};
			memcpy(t.f, x->f, (size_t)x->nf * sizeof *t.f);
			memcpy(t.f + x->nf, y->f, (size_t)y->nf * sizeof *t.f);
			qsort(t.f, (size_t)t.nf, sizeof *t.f, cmp_int);
			if (!add_term(out, t))
				return false;
		}
	return true;
}

/* The most thread-dependent kind among a polynomial's atoms (ATOM_PARAM when none). */
static enum atom_kind poly_kind(const struct reader *r, const struct poly *p)
{
	enum atom_kind k = ATOM_PARAM;
	for (int i = 0; i < p->n; i++)
		for (int f = 0; f < p->t[i].nf; f++)
			if (r->kind[p->t[i].f[f]] > k)
				k = r->kind[p->t[i].f[f]];
	return k;
}

/* C text of a polynomial, computed in long long (exact, where the source's int arithmetic
 * does not overflow). */
static char *poly_text(const struct reader *r, const struct poly *p)
{
	if (p->n == 0)
		return xstrdup("0LL");
	struct strbuf sb = {0};
	for (int i = 0; i < p->n; i++) {
		const struct term *t = &p->t[i];
		long long c = t->coef;
		if (i > 0)
			sb_puts(&sb, c < 0 ? " - " : " + ");
		else if (c < 0)
			sb_puts(&sb, "-");
		if (c < 0)
			c = -c;
		if (t->nf == 0)
			sb_printf(&sb, "%lldLL", c);
		else if (c != 1)
			sb_printf(&sb, "%lldLL", c);
		for (int f = 0; f < t->nf; f++)
			sb_printf(&sb, "%s%s", f == 0 && c == 1 ? "(long long)" : " * ", r->atom[t->f[f]]);
	}
	return sb_take(&sb);
}

static bool read_poly(struct reader *r, CXCursor e, struct poly *out);
static bool uniform_local(struct reader *r, CXCursor decl);
static size_t last_write(const struct reader *r, CXCursor var);

static bool is_param_of(CXCursor decl, CXCursor fn)
{
	if (clang_getCursorKind(decl) != CXCursor_ParmDecl)
		return false;
	int n = clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(fn, i), decl))
			return true;
	return false;
}


/* The function body, where a variable's other writes would be. */
static CXCursor function_body(const struct kloop *l) { return cursor_last_child(l->function_cursor); }

/* A variable named by the expression: a parameter, a loop variable, the copy loop's, or a
 * local read through its single initializer. */
static bool read_var(struct reader *r, CXCursor e, CXCursor decl, struct poly *out)
{
	char *name = cursor_name(decl);
	bool ok = false;
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(decl)).kind;
	bool integral = tk >= CXType_Bool && tk <= CXType_Int128;
	if (!integral)
		fail(r, e, xprintf("'%s', which is not an integer", name));
	else if (!clang_Cursor_isNull(r->copy_var) && clang_equalCursors(decl, r->copy_var)) {
		int a = atom(r, name, ATOM_THREAD);
		*out = (struct poly){1, {{1, 1, {a}}}};
		ok = a >= 0;
	} else if (r->decl_at && cursor_writes_var(function_body(r->l), decl) &&
		   last_write(r, decl) + 1 >= r->decl_at) {
		char *local = cursor_name(r->decl);
		fail(r, e, xprintf("'%s' through '%s', which takes its value before '%s' changes", name, local, name));
		free(local);
	} else if (cursor_writes_var(function_body(r->l), decl) && kloop_ivar(r->l, decl) < 0) {
		bool assumed = false;
		for (int i = 0; i < r->nassumed; i++)
			assumed |= clang_equalCursors(r->assumed[i], decl);
		if (assumed || uniform_local(r, decl)) {
			int a = atom(r, name, ATOM_UNIFORM);
			*out = (struct poly){1, {{1, 1, {a}}}};
			ok = a >= 0;
		} else
			fail(r, e, xprintf("'%s', which the kernel writes%s", name,
					   cursor_declared_within(decl, r->l->loop) ? " in the loop" : " with values that may differ between threads"));
	} else if (is_param_of(decl, r->l->function_cursor)) {
		int a = atom(r, name, ATOM_PARAM);
		*out = (struct poly){1, {{1, 1, {a}}}};
		ok = a >= 0;
	} else if (kloop_ivar(r->l, decl) >= 0) {
		int a = atom(r, name, ATOM_UNIFORM);
		*out = (struct poly){1, {{1, 1, {a}}}};
		ok = a >= 0;
	} else if (clang_getCursorKind(decl) == CXCursor_VarDecl && effects_is_local(decl) &&
		   cursor_declared_within(decl, r->l->function_span)) {
		CXCursor init = cursor_last_child(decl);
		if (clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init)) ||
		    cursor_span(init).begin <= cursor_offset(decl))
			fail(r, e, xprintf("'%s', which has no initializer", name));
		else if (r->depth > 8)
			fail(r, e, xprintf("'%s', defined too deeply", name));
		else {
			size_t saved = r->decl_at;
			CXCursor saved_decl = r->decl;
			r->decl_at = cursor_offset(decl) + 1;
			r->decl = decl;
			r->depth++;
			ok = read_poly(r, init, out);
			r->depth--;
			r->decl_at = saved;
			r->decl = saved_decl;
		}
	} else
		fail(r, e, xprintf("'%s'", name));
	free(name);
	return ok;
}


/* The writes of a variable: each assigned value (NULL for ++/--), and whether its address is
 * taken. */
struct var_writes {
	CXCursor var;
	struct cursors values;
	int increments;
	bool address_taken, in_loop;
	size_t last; /* where the last write (textually) begins */
	struct span loop;
	const struct source *src;
};

static enum CXChildVisitResult scan_var_writes(CXCursor c, void *data)
{
	struct var_writes *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		bool assign = op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
		if (assign && cursor_names_var(cursor_first_child(c), w->var)) {
			w->in_loop |= span_within(cursor_span(c), w->loop);
			if (cursor_span(c).begin > w->last)
				w->last = cursor_span(c).begin;
			/* `v += x` is uniform when x is; `v *= x`, `v /= x` likewise */
			*VEC_PUSH(w->values.v, w->values.n, w->values.cap) = cursor_last_child(c);
		}
	} else if (k == CXCursor_UnaryOperator) {
		char *t = span_text(w->src, cursor_span(c));
		bool inc = strstr(t, "++") || strstr(t, "--");
		bool addr = t[0] == '&';
		free(t);
		if ((inc || addr) && cursor_names_var(cursor_first_child(c), w->var)) {
			if (cursor_span(c).begin > w->last)
				w->last = cursor_span(c).begin;
			w->increments += inc;
			w->address_taken |= addr;
			w->in_loop |= span_within(cursor_span(c), w->loop);
		}
	}
	return CXChildVisit_Recurse;
}

/* Where the last write of a variable begins, textually (an address taken counts as one). A
 * local that takes its value from a variable written only before it keeps it: with no goto in
 * the kernel (check.c), a write after the declaration in execution comes after it in the text,
 * or runs the declaration again on the way back (a loop around both). */
static size_t last_write(const struct reader *r, CXCursor var)
{
	struct var_writes w = {.var = var, .loop = r->l->loop, .src = r->src};
	cursor_visit(function_body(r->l), scan_var_writes, &w);
	free(w.values.v);
	return w.last;
}

/* A local the kernel writes, the same for every thread: declared before the loop and written
 * only outside it, its address never taken, its initializer and every value assigned to it
 * the same for every thread (itself counted as such: by induction over its writes). */
static bool uniform_local(struct reader *r, CXCursor decl)
{
	if (clang_getCursorKind(decl) != CXCursor_VarDecl || !effects_is_local(decl) ||
	    !cursor_declared_within(decl, r->l->function_span) || cursor_offset(decl) >= r->l->loop.begin ||
	    r->depth > 8 || r->nassumed == 8)
		return false;
	struct var_writes w = {.var = decl, .loop = r->l->loop, .src = r->src};
	cursor_visit(function_body(r->l), scan_var_writes, &w);
	bool ok = !w.address_taken && !w.in_loop;
	CXCursor init = cursor_last_child(decl);
	if (ok && !clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
	    cursor_span(init).begin > cursor_offset(decl))
		*VEC_PUSH(w.values.v, w.values.n, w.values.cap) = init;
	/* (while its values are read, the variable itself is an atom the same for every thread) */
	char *name = cursor_name(decl);
	int self = atom(r, name, ATOM_UNIFORM);
	free(name);
	r->assumed[r->nassumed++] = decl;
	size_t saved_at = r->decl_at;
	r->decl_at = 0; /* (its values need only be the same for every thread) */
	for (int i = 0; i < w.values.n && ok; i++) {
		struct poly v;
		char *saved = r->problem;
		r->problem = NULL;
		r->depth++;
		ok = self >= 0 && read_poly(r, w.values.v[i], &v) && poly_kind(r, &v) != ATOM_THREAD;
		r->depth--;
		free(r->problem);
		r->problem = saved;
	}
	r->decl_at = saved_at;
	r->nassumed--;
	free(w.values.v);
	return ok;
}

static bool read_poly(struct reader *r, CXCursor e, struct poly *out)
{
	e = cursor_strip(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	bool ok;
	CXCursor ref = k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e) : clang_getNullCursor();
	if (k != CXCursor_DeclRefExpr || clang_getCursorKind(ref) == CXCursor_EnumConstantDecl ||
	    (clang_getCursorKind(ref) == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(ref)))) {
		long v = cursor_evaluate_int(e, &ok);
		if (ok) {
			*out = constant(v);
			return true;
		}
	}
	if (k == CXCursor_DeclRefExpr)
		return read_var(r, e, clang_getCursorReferenced(e), out);
	if (k == CXCursor_MemberRefExpr) {
		char c;
		int b = cursor_builtin(r->src, e, &c);
		if (b >= 0) {
			char *text = xprintf("%s.%c", cursor_builtin_names[b], c);
			int a = atom(r, text, b == 0 ? ATOM_THREAD : ATOM_UNIFORM);
			free(text);
			*out = (struct poly){1, {{1, 1, {a}}}};
			return a >= 0;
		}
		char *text = span_squeezed(r->src, cursor_span(e));
		fail(r, e, xprintf("'%s'", text));
		free(text);
		return false;
	}
	if (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXFunctionalCastExpr) {
		enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(e)).kind;
		if (tk >= CXType_Bool && tk <= CXType_Int128)
			return read_poly(r, cursor_last_child(e), out);
	}
	if (k == CXCursor_UnaryOperator) {
		char *text = span_text(r->src, cursor_span(e));
		bool neg = text[0] == '-', plus = text[0] == '+';
		free(text);
		if (neg || plus) {
			struct poly p;
			if (!read_poly(r, cursor_first_child(e), &p))
				return false;
			for (int i = 0; i < p.n && neg; i++)
				p.t[i].coef = -p.t[i].coef;
			*out = p;
			return true;
		}
	}
	if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		struct cursors kids = cursor_children(e);
		struct poly a, b;
		ok = kids.n == 2 && read_poly(r, kids.v[0], &a) && read_poly(r, kids.v[1], &b);
		CXCursor rhs = kids.n == 2 ? kids.v[1] : e;
		free(kids.v);
		if (!ok)
			return false;
		if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) {
			if (poly_add(out, &a, &b, op == CXBinaryOperator_Add ? 1 : -1))
				return true;
		} else if (op == CXBinaryOperator_Mul) {
			if (poly_mul(out, &a, &b))
				return true;
		} else if (op == CXBinaryOperator_Shl && b.n <= 1 && (b.n == 0 || (b.t[0].nf == 0 && b.t[0].coef >= 0 &&
										       b.t[0].coef < 31))) {
			struct poly m = constant(1LL << (b.n ? b.t[0].coef : 0)); /* x << c: x * 2^c */
			if (poly_mul(out, &a, &m))
				return true;
		} else if (op == CXBinaryOperator_Div || op == CXBinaryOperator_Rem) {
			const char *sign = op == CXBinaryOperator_Div ? " / " : " % ";
			/* the copy loop's `i / C` and `i % C`: atoms of their own */
			bool copy_var = a.n == 1 && a.t[0].coef == 1 && a.t[0].nf == 1 && !clang_Cursor_isNull(r->copy_var) &&
					b.n == 1 && b.t[0].nf == 0 && b.t[0].coef > 0;
			if (copy_var) {
				char *name = cursor_name(r->copy_var);
				char *text = xprintf("%s%s%lld", name, sign, b.t[0].coef);
				bool same = strcmp(name, r->atom[a.t[0].f[0]]) == 0;
				free(name);
				if (same) {
					int at = atom(r, text, ATOM_THREAD);
					free(text);
					*out = (struct poly){1, {{1, 1, {at}}}};
					return at >= 0;
				}
				free(text);
			}
			/* a quotient of values the same for every thread: an atom, exact as C computes it */
			enum atom_kind ka = poly_kind(r, &a), kb = poly_kind(r, &b);
			if (ka != ATOM_THREAD && kb != ATOM_THREAD) {
				char *ta = poly_text(r, &a), *tb = poly_text(r, &b);
				char *text = xprintf("(%s%s%s)", ta, sign, tb);
				int at = atom(r, text, ka > kb ? ka : kb);
				free(ta);
				free(tb);
				free(text);
				*out = (struct poly){1, {{1, 1, {at}}}};
				return at >= 0;
			}
			fail(r, e, xstrdup("a division of a thread's index"));
			return false;
		} else {
			fail(r, rhs, xstrdup("an operator other than + - * / %"));
			return false;
		}
		fail(r, e, xstrdup("an expression too long to follow"));
		return false;
	}
	char *text = span_text(r->src, cursor_span(e));
	fail(r, e, xprintf("'%s'", text));
	free(text);
	return false;
}

/* t / d when d's coefficient and factors divide t's. */
static bool divide_term(const struct term *t, const struct term *d, struct term *q)
{
	if (d->coef == 0 || t->coef % d->coef != 0 || d->nf > t->nf)
		return false;
	*q = (struct term){t->coef / d->coef, 0, {0}};
	int g = 0;
	for (int f = 0; f < t->nf; f++) {
		if (g < d->nf && t->f[f] == d->f[g])
			g++;
		else
			q->f[q->nf++] = t->f[f];
	}
	return g == d->nf;
}

/* The polynomial is exactly one atom of that text. */
static bool is_atom(const struct reader *r, const struct poly *p, const char *text)
{
	return p->n == 1 && p->t[0].coef == 1 && p->t[0].nf == 1 && strcmp(r->atom[p->t[0].f[0]], text) == 0;
}

static void reader_free(struct reader *r)
{
	for (int i = 0; i < r->natoms; i++)
		free(r->atom[i]);
	free(r->problem);
}

/* The problem of the first copy that is no box, with its place. */
static void box_vproblem(struct kloop *l, size_t at, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
static void box_vproblem(struct kloop *l, size_t at, const char *fmt, va_list ap)
{
	if (l->box_problem)
		return;
	struct refusal rf = refusal_make(at, fmt, ap);
	l->box_problem = rf.reason;
	l->box_problem_at = rf.offset;
}

static void box_problem(struct kloop *l, const struct source *src, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void box_problem(struct kloop *l, const struct source *src, size_t at, const char *fmt, ...)
{
	(void)src;
	va_list ap;
	va_start(ap, fmt);
	box_vproblem(l, at, fmt, ap);
	va_end(ap);
}

/* `As[d0][d1]`: the tile's two index expressions. */
static bool tile_indices(CXCursor target, CXCursor *d0, CXCursor *d1)
{
	CXCursor outer = cursor_strip(target);
	if (clang_getCursorKind(outer) != CXCursor_ArraySubscriptExpr)
		return false;
	struct cursors o = cursor_children(outer);
	bool ok = o.n == 2 && clang_getCursorKind(cursor_strip(o.v[0])) == CXCursor_ArraySubscriptExpr;
	if (ok) {
		struct cursors in = cursor_children(cursor_strip(o.v[0]));
		ok = in.n == 2 && clang_getCursorKind(cursor_strip(in.v[0])) == CXCursor_DeclRefExpr;
		if (ok) {
			*d0 = in.v[1];
			*d1 = o.v[1];
		}
		free(in.v);
	}
	free(o.v);
	return ok;
}

/* A tile `T name[N]` (flat) or `T name[R][C]`, no deeper: how many dimensions it has (0 for any
 * other type), and their sizes. */
static int tile_dims(const struct tile *t, long size[2])
{
	int n = 0;
	CXType ty = clang_getCanonicalType(clang_getCursorType(t->decl));
	for (; ty.kind == CXType_ConstantArray; ty = clang_getCanonicalType(clang_getArrayElementType(ty))) {
		if (n == 2)
			return 0;
		size[n++] = clang_getArraySize(ty);
	}
	return ty.kind == CXType_IncompleteArray ? 0 : n;
}

/* `As[d]`: a flat tile's index. */
static bool flat_index(CXCursor target, CXCursor *d)
{
	CXCursor e = cursor_strip(target);
	if (clang_getCursorKind(e) != CXCursor_ArraySubscriptExpr)
		return false;
	struct cursors o = cursor_children(e);
	bool ok = o.n == 2 && clang_getCursorKind(cursor_strip(o.v[0])) == CXCursor_DeclRefExpr;
	if (ok)
		*d = o.v[1];
	free(o.v);
	return ok;
}

/* Where " alignas(128)" goes: right after the `__shared__` of the tile's declaration. */
static size_t shared_keyword_end(const struct source *src, const struct tile *t)
{
	size_t name = cursor_offset(t->decl);
	size_t b = name;
	while (b > 0 && !strchr(";{}", src->text[b - 1]))
		b--;
	const char *kw = "__shared__";
	for (size_t p = b; p + strlen(kw) <= name; p++)
		if (strncmp(src->text + p, kw, strlen(kw)) == 0)
			return p + strlen(kw);
	return 0;
}

/* Whether the expressions of the copy loop's header are `i = threadIdx.x`, `i < N` and
 * `i += blockDim.x` (or a constant): then the block condition that makes i run over [0, N)
 * once. */
static char *copy_loop_block(struct reader *r, const struct body_stmt *st, long n_elems)
{
	struct cursors kids = cursor_children(st->cursor);
	char *cond = NULL;
	struct cursors var = kids.n == 4 ? cursor_children(kids.v[0]) : (struct cursors){0};
	struct poly init, lhs;
	struct cursors lt = kids.n == 4 ? cursor_children(kids.v[1]) : (struct cursors){0};
	if (var.n == 1 && lt.n == 2 && read_poly(r, cursor_last_child(var.v[0]), &init) && is_atom(r, &init, "threadIdx.x") &&
	    read_poly(r, lt.v[0], &lhs) && lhs.n == 1 && lhs.t[0].nf == 1 && lhs.t[0].coef == 1 &&
	    st->cl.bound == n_elems) {
		char *name = cursor_name(var.v[0]);
		if (strcmp(r->atom[lhs.t[0].f[0]], name) == 0)
			cond = st->cl.stride == 0
				       ? xstrdup("pipefy_block.y == 1 && pipefy_block.z == 1")
				       : xprintf("pipefy_block.x == %ld && pipefy_block.y == 1 && pipefy_block.z == 1",
						 st->cl.stride);
		free(name);
	}
	free(var.v);
	free(lt.v);
	free(kids.v);
	return cond;
}

/* The copy loop's body holds declarations and copies only (each copy then runs once per trip). */
static bool copy_loop_body_plain(const struct kloop *l, const struct body_stmt *st)
{
	CXCursor body = cursor_last_child(st->cursor);
	struct cursors kids = clang_getCursorKind(body) == CXCursor_CompoundStmt ? cursor_children(body)
										  : (struct cursors){0};
	if (clang_getCursorKind(body) != CXCursor_CompoundStmt) {
		kids.v = xmalloc(sizeof *kids.v);
		kids.v[0] = body;
		kids.n = 1;
	}
	bool ok = true;
	for (int i = 0; i < kids.n && ok; i++) {
		if (clang_getCursorKind(kids.v[i]) == CXCursor_DeclStmt)
			continue;
		bool copy = false;
		for (int c = 0; c < l->ncopies; c++)
			copy |= span_within(l->copies[c].text, cursor_span(kids.v[i])) &&
				cursor_span(kids.v[i]).begin == l->copies[c].text.begin;
		ok = copy;
	}
	free(kids.v);
	return ok;
}

static void add_condition(struct kloop *l, const char *cond)
{
	if (!l->block_check) {
		l->block_check = xstrdup(cond);
	} else if (!strstr(l->block_check, cond)) {
		char *both = xprintf("%s && %s", l->block_check, cond);
		free(l->block_check);
		l->block_check = both;
	}
}

/* `*(int4 *)&X[i]` (a vector copy's side) or `X[i]` itself: the array element. */
static CXCursor element_of(CXCursor e, bool deref)
{
	e = cursor_strip(e);
	if (!deref)
		return e;
	if (clang_getCursorKind(e) != CXCursor_UnaryOperator)
		return clang_getNullCursor();
	e = cursor_strip(cursor_first_child(e)); /* the pointer: `(int4 *)&X[i]` */
	while (cursor_kind_is_cast(clang_getCursorKind(e)))
		e = cursor_strip(cursor_last_child(e));
	if (clang_getCursorKind(e) != CXCursor_UnaryOperator)
		return clang_getNullCursor();
	return cursor_strip(cursor_first_child(e)); /* `X[i]` of `&X[i]` */
}

/* The copy loop's variable, and the Q of a `name % Q` atom the polynomial holds. */
static long modulus_of(const struct reader *r, const struct poly *p, const char *name)
{
	size_t nl = strlen(name);
	for (int i = 0; i < p->n; i++)
		for (int f = 0; f < p->t[i].nf; f++) {
			const char *a = r->atom[p->t[i].f[f]];
			if (strncmp(a, name, nl) == 0 && strncmp(a + nl, " % ", 3) == 0)
				return atol(a + nl + 3);
		}
	return 0;
}

/* The polynomial is V times the atom of that text. */
static bool is_scaled_atom(const struct reader *r, const struct poly *p, const char *text, long V)
{
	return p->n == 1 && p->t[0].coef == V && p->t[0].nf == 1 && strcmp(r->atom[p->t[0].f[0]], text) == 0;
}

/* `A + e1 + e2`, `&A[e]`: the pointer it starts from (a DeclRefExpr, else a null cursor),
 * and the offsets added to it. */
static CXCursor pointer_base(CXCursor e, struct cursors *offsets)
{
	e = cursor_strip(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_DeclRefExpr)
		return e;
	struct cursors kids = cursor_children(e);
	CXCursor found = clang_getNullCursor();
	if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Add && kids.n == 2) {
		bool left = clang_getCanonicalType(clang_getCursorType(kids.v[0])).kind == CXType_Pointer;
		*VEC_PUSH(offsets->v, offsets->n, offsets->cap) = kids.v[left ? 1 : 0];
		found = pointer_base(kids.v[left ? 0 : 1], offsets);
	} else if (k == CXCursor_UnaryOperator && kids.n == 1 &&
		   clang_getCursorKind(cursor_strip(kids.v[0])) == CXCursor_ArraySubscriptExpr) {
		struct cursors sub = cursor_children(cursor_strip(kids.v[0]));
		if (sub.n == 2 && clang_getCursorKind(cursor_strip(sub.v[0])) == CXCursor_DeclRefExpr) {
			*VEC_PUSH(offsets->v, offsets->n, offsets->cap) = sub.v[1];
			found = cursor_strip(sub.v[0]);
		}
		free(sub.v);
	}
	free(kids.v);
	return found;
}

/* The values a 32-bit integer type holds (an index or offset computed in it wraps, or is
 * undefined, past them); false for wider types, which pipefy takes not to overflow. */
static bool int32_range(CXType t, long long *lo, long long *hi)
{
	CXType c = clang_getCanonicalType(t);
	if (clang_Type_getSizeOf(c) != 4)
		return false;
	bool is_unsigned = c.kind == CXType_UInt || c.kind == CXType_ULong || c.kind == CXType_UShort ||
			   c.kind == CXType_UChar || c.kind == CXType_Char_U;
	*lo = is_unsigned ? 0 : -2147483648LL;
	*hi = is_unsigned ? 4294967295LL : 2147483647LL;
	return true;
}

/* `&& lo <= (x) && (x) <= hi` for a 32-bit expression whose exact value is the polynomial. */
static void add_fit(struct strbuf *sb, const struct reader *r, const struct poly *p, CXType t)
{
	long long lo, hi;
	if (!int32_range(t, &lo, &hi))
		return;
	char *x = poly_text(r, p);
	sb_printf(sb, "%s%lldLL <= (%s) && (%s) <= %lldLL", sb->len ? " && " : "", lo, x, x, hi);
	free(x);
}

/* A load's index; none (`*A`) is element 0. */
static bool read_index(struct reader *r, CXCursor index, struct poly *out)
{
	if (clang_Cursor_isNull(index)) {
		*out = (struct poly){0};
		return true;
	}
	return read_poly(r, index, out);
}

/* A bump `x += e`, `x -= e`, `++x`, `x = x + e`: e the same for every thread. */
static bool uniform_bump(struct kloop *l, const struct source *src, CXCursor stmt)
{
	CXCursor e = cursor_strip(stmt);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_UnaryOperator)
		return true;
	if (k != CXCursor_CompoundAssignOperator && k != CXCursor_BinaryOperator)
		return false;
	struct reader r = {.l = l, .src = src, .copy_var = clang_getNullCursor()};
	struct poly v;
	bool ok = read_poly(&r, cursor_last_child(e), &v) && poly_kind(&r, &v) != ATOM_THREAD;
	if (ok) { /* (a 32-bit bump in range: checked where the loader replays it) */
		struct strbuf sb = {0};
		if (l->bump_fits)
			sb_puts(&sb, l->bump_fits);
		add_fit(&sb, &r, &v, clang_getCursorType(cursor_last_child(e)));
		free(l->bump_fits);
		l->bump_fits = sb.data ? sb_take(&sb) : NULL;
	}
	reader_free(&r);
	return ok;
}

/* A variable's writes in the kernel: how many (assignments and ++/--), whether its address is
 * taken, and how many of them are the loop body's bumps. */
struct var_moves {
	int writes, bumps;
	bool address_taken;
};

static struct var_moves moves_of(const struct kloop *l, const struct source *src, CXCursor var)
{
	struct var_writes w = {.var = var, .loop = l->loop, .src = src};
	cursor_visit(function_body(l), scan_var_writes, &w);
	free(w.values.v);
	struct var_moves m = {w.values.n + w.increments, 0, w.address_taken};
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_BUMP && cursor_writes_var(l->stmts[i].cursor, var))
			m.bumps++;
	return m;
}

/* A pointer parameter the kernel moves (`A += row * K;` before the loop, `A += TS;` as the
 * loop's bump): how far it has moved when the loop starts, P, read into r's atoms. Its other
 * moves must be the loop body's bumps (checked uniform, after the copies, by box_kloop); the
 * ones before the loop, statements of the kernel's body itself, each run once. The loader then
 * finds the box at (A - A's value on entry) - P + what the copy's index adds. */
static bool pointer_offset(struct kloop *l, struct reader *r, CXCursor param, struct poly *P, char **why,
			   struct strbuf *fits)
{
	*P = (struct poly){0};
	struct var_moves m = moves_of(l, r->src, param);
	char *name = cursor_name(param);
	if (m.address_taken) {
		*why = xprintf("the kernel takes the address of '%s'", name);
		free(name);
		return false;
	}
	/* the loop must be a statement of the kernel's body: not run again by an outer loop */
	struct cursors top = cursor_children(function_body(l));
	bool loop_at_top = false, ok = true;
	int writes_outside = 0;
	for (int i = 0; i < top.n && ok; i++) {
		struct span sp = cursor_span(top.v[i]);
		if (sp.begin == l->loop.begin && clang_getCursorKind(top.v[i]) == CXCursor_ForStmt) {
			loop_at_top = true;
			continue;
		}
		if (sp.begin > l->loop.begin || !cursor_writes_var(top.v[i], param))
			continue;
		/* `A += e;` (or -=) exactly */
		CXCursor e = cursor_strip(top.v[i]);
		bool plus = clang_getCursorKind(e) == CXCursor_CompoundAssignOperator &&
			    clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_AddAssign;
		bool minus = clang_getCursorKind(e) == CXCursor_CompoundAssignOperator &&
			     clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_SubAssign;
		struct cursors kids = cursor_children(e);
		struct poly v;
		size_t saved = r->decl_at;
		CXCursor saved_decl = r->decl;
		r->decl_at = sp.begin + 1; /* (what e reads must not change after it) */
		r->decl = param;
		ok = (plus || minus) && kids.n == 2 && cursor_names_var(kids.v[0], param) && read_poly(r, kids.v[1], &v) &&
		     poly_add(P, P, &v, plus ? 1 : -1);
		if (ok)
			add_fit(fits, r, &v, clang_getCursorType(kids.v[1]));
		r->decl_at = saved;
		r->decl = saved_decl;
		free(kids.v);
		writes_outside++;
		if (!ok && !r->problem) {
			int line, col;
			source_line_col(r->src, sp.begin, &line, &col);
			*why = xprintf("'%s' is moved at %d:%d other than by `%s += e;`", name, line, col, name);
		}
	}
	free(top.v);
	/* every write: one of those, or a bump in the loop */
	if (ok && (!loop_at_top || m.writes > writes_outside + m.bumps)) {
		ok = false;
		*why = !loop_at_top ? xprintf("the kernel moves '%s', and the loop is not a statement of its body", name)
				    : xprintf("the kernel moves '%s' other than by `%s += e;` before the loop and the "
					      "loop's bumps", name, name);
	}
	if (!ok && !*why)
		*why = r->problem ? xprintf("'%s' is moved by %s", name, r->problem)
				  : xprintf("the kernel moves '%s' in a way pipefy does not follow", name);
	free(name);
	return ok;
}

/* What copy_box has read of one copy so far, step by step. */
struct box_read {
	struct kloop *l;
	const struct source *src;
	const struct copy *cp;
	const struct body_stmt *st;   /* the copy's statement (a copy loop, or the copy itself) */
	const struct tile *tile;
	int line, col;                /* the copy's, for the problems */
	long rows, width, n;          /* the tile: rows of width elements, n in all */
	bool flat;                    /* `As[ty * C + tx]`, `As[i]`: rows of C elements */
	long V;                       /* the elements each thread copies */
	CXCursor d0c, d1c, dc;        /* the tile's indices: [d0c][d1c], or [dc] when flat */
	CXCursor index;               /* the load's index */
	CXCursor pdecl;               /* the operand: a pointer parameter */
	CXCursor local;               /* a local pointer into it, or a null cursor */
	struct cursors local_offsets; /* what the local adds to the operand */
	struct reader r;
	bool moves;                   /* the pointer the copy reads moves */
	struct poly moved;            /* how far, when the loop starts */
	struct strbuf fits;           /* the 32-bit offsets that must stay in range */
	char *block;                  /* the block the copies assume, a condition */
	char *row_atom, *col_atom;    /* each thread's row and column */
	char *var;                    /* the copy loop's variable */
	long cols;                    /* the columns the copies write */
	struct poly d0, d1, ix;       /* the tile's indices and the load's, read */
	bool idx32;                   /* the load's index is computed in 32 bits */
	long long idx_hi;             /* then its largest value */
};

/* The copy's problem, placed at the copy. */
static void copy_problem(struct box_read *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void copy_problem(struct box_read *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	box_vproblem(b->l, b->cp->text.begin, fmt, ap);
	va_end(ap);
}

/* The tile: a __shared__ array of constant size, declared in the kernel and used only by the
 * loop, of elements a tensor map takes. */
static bool box_tile(struct box_read *b)
{
	const struct tile *tile = b->tile;
	long size[2];
	int dims = tile->dynamic ? 0 : tile_dims(tile, size);
	if (dims == 2) {
		b->rows = size[0];
		b->width = size[1];
		b->n = b->rows * b->width;
	} else if (dims == 1) {
		b->n = size[0];
		b->flat = true;
	} else {
		copy_problem(b, "'%s' is not a __shared__ array of constant size in one or two dimensions", tile->name);
		return false;
	}
	if (!cursor_declared_within(tile->decl, b->l->function_span) || tile->outside_use) {
		copy_problem(b, "'%s' is %s", tile->name,
			     tile->outside_use ? "used outside the loop" : "declared outside the kernel");
		return false;
	}
	long E = tile->elem_bytes;
	if (E != 1 && E != 2 && E != 4 && E != 8) {
		/* a tensor map's element is 1, 2, 4 or 8 bytes: one of another size would make each box
		 * carry other bytes than the tile's, and the stage's mbarrier would wait for the rest */
		copy_problem(b,
			     "'%s' holds %ld-byte elements ('%s'): pipefy's boxes take elements of 1, 2, 4 or 8 bytes, a "
			     "tensor map's",
			     tile->name, E, tile->elem_type);
		return false;
	}
	return true;
}

/* The copy stores what it loads, whole elements (V a thread), always. */
static bool box_copy_plain(struct box_read *b)
{
	const struct copy *cp = b->cp;
	b->V = cp->width / b->tile->elem_bytes;
	const char *why = cp->guard.end > cp->guard.begin ? "is guarded: a box is copied whole, or not at all"
			  : cp->conversion			  ? "converts its value"
			  : cp->from_register		  ? "stores a register, not a load"
			  : cp->async ? "is a cuda::memcpy_async, whose addresses pipefy does not read as a box"
			  : cp->dst_is_address		  ? "stores through an accessor"
			  : b->V < 1 || cp->width % b->tile->elem_bytes ? "moves part of an element"
			  : b->flat && b->V != 1		  ? "stores a vector into a flat tile"
							  : NULL;
	if (why) {
		copy_problem(b, "the copy at %d:%d %s", b->line, b->col, why);
		return false;
	}
	return true;
}

/* The copy's cursors: the tile's indices, and the pointer (pdecl, not yet checked) and index
 * of the load. */
static bool box_cursors(struct box_read *b)
{
	const struct copy *cp = b->cp;
	CXCursor target, value;
	CXCursor elem = cursor_write_parts(cp->store, &target, &value) == WRITE_ASSIGN ? element_of(target, cp->dst_is_deref)
										       : clang_getNullCursor();
	if (clang_Cursor_isNull(elem) || !(b->flat ? flat_index(elem, &b->dc) : tile_indices(elem, &b->d0c, &b->d1c))) {
		copy_problem(b, "the copy at %d:%d does not index '%s' as %s", b->line, b->col, b->tile->name,
			     b->flat ? "[index]" : "[row][column]");
		return false;
	}
	CXCursor load = element_of(cursor_unwrap_cache_hint(cursor_strip(cp->value)), cp->src_is_deref);
	struct cursors lk = clang_getCursorKind(load) == CXCursor_ArraySubscriptExpr ? cursor_children(load) : (struct cursors){0};
	CXCursor ptr = lk.n == 2 ? cursor_strip(lk.v[0]) : clang_getNullCursor();
	b->index = lk.n == 2 ? lk.v[1] : clang_getNullCursor();
	free(lk.v);
	if (cp->src_is_deref && b->V == 1 && clang_Cursor_isNull(ptr)) {
		/* `*A`: A's element 0 */
		CXCursor d = cursor_strip(cursor_unwrap_cache_hint(cursor_strip(cp->value)));
		CXCursor inner = clang_getCursorKind(d) == CXCursor_UnaryOperator ? cursor_strip(cursor_first_child(d))
										  : clang_getNullCursor();
		if (clang_getCursorKind(inner) == CXCursor_DeclRefExpr)
			ptr = inner;
	}
	b->pdecl = clang_getCursorKind(ptr) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(ptr) : clang_getNullCursor();
	return true;
}

/* The operand: a pointer the kernel is handed, to elements of the tile's size. A local pointer
 * into one, `const float *a = A + e;` set before the loop, counts as A: the box is A's, at
 * (a - A) - e + what the copy adds. */
static bool box_operand(struct box_read *b)
{
	struct kloop *l = b->l;
	CXCursor pdecl = b->pdecl;
	if (clang_getCursorKind(pdecl) == CXCursor_VarDecl && effects_is_local(pdecl) &&
	    cursor_declared_within(pdecl, l->function_span) && cursor_offset(pdecl) < l->loop.begin) {
		CXCursor base_ref = pointer_base(cursor_last_child(pdecl), &b->local_offsets);
		if (clang_getCursorKind(base_ref) == CXCursor_DeclRefExpr &&
		    is_param_of(clang_getCursorReferenced(base_ref), l->function_cursor)) {
			b->local = pdecl;
			b->pdecl = pdecl = clang_getCursorReferenced(base_ref);
		}
	}
	CXType pointee = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(pdecl)));
	if (clang_Cursor_isNull(pdecl) || !is_param_of(pdecl, l->function_cursor) ||
	    clang_getCanonicalType(clang_getCursorType(pdecl)).kind != CXType_Pointer ||
	    clang_Type_getSizeOf(pointee) != b->tile->elem_bytes) {
		copy_problem(b, "the copy at %d:%d does not index a pointer the kernel is handed, to elements of the "
			     "tile's size", b->line, b->col);
		return false;
	}
	return true;
}

/* A local pointer into the operand: the operand itself stays, the local moves only by the
 * loop's bumps, and its offsets from the operand are how far it has moved. */
static bool local_moved(struct box_read *b)
{
	struct reader *r = &b->r;
	struct var_moves m = moves_of(b->l, b->src, b->local);
	size_t saved = r->decl_at;
	r->decl_at = cursor_offset(b->local) + 1;
	r->decl = b->local;
	bool fine = !b->moves && !m.address_taken && m.writes == m.bumps;
	for (int i = 0; i < b->local_offsets.n && fine; i++) {
		struct poly part;
		fine = read_poly(r, b->local_offsets.v[i], &part) && poly_add(&b->moved, &b->moved, &part, 1);
		if (fine)
			add_fit(&b->fits, r, &part, clang_getCursorType(b->local_offsets.v[i]));
	}
	r->decl_at = saved;
	if (!fine) {
		char *lname = cursor_name(b->local), *pname = cursor_name(b->pdecl);
		copy_problem(b, "'%s' points into '%s'%s", lname, pname,
			     b->moves	  ? ", which the kernel moves"
			     : r->problem ? ", at an offset pipefy does not follow"
					  : " and moves other than by the loop's bumps");
		free(lname);
		free(pname);
		return false;
	}
	b->moves = true;
	return true;
}

/* Whether the pointer the copy reads moves, and how far it has when the loop starts. */
static bool box_moved(struct box_read *b)
{
	b->moves = cursor_writes_var(function_body(b->l), b->pdecl);
	if (!clang_Cursor_isNull(b->local))
		return local_moved(b);
	char *how = NULL;
	if (b->moves && !pointer_offset(b->l, &b->r, b->pdecl, &b->moved, &how, &b->fits)) {
		copy_problem(b, "%s", how);
		free(how);
		return false;
	}
	return true;
}

/* In a copy loop `for (int i = threadIdx.x; i < R * Q; i += blockDim.x)`: each thread's row
 * i / Q and column i % Q, with Q read from the column (for a flat tile, from the load's). */
static bool copy_loop_atoms(struct box_read *b)
{
	struct reader *r = &b->r;
	struct cursors kids = cursor_children(b->st->cursor);
	struct cursors vd = kids.n == 4 ? cursor_children(kids.v[0]) : (struct cursors){0};
	if (vd.n == 1)
		r->copy_var = vd.v[0];
	free(vd.v);
	free(kids.v);
	b->var = clang_Cursor_isNull(r->copy_var) ? xstrdup("") : cursor_name(r->copy_var);
	long Q = 0;
	bool ok;
	if (b->flat) {
		ok = read_index(r, b->index, &b->ix);
		Q = ok ? modulus_of(r, &b->ix, b->var) : 0;
	} else {
		ok = read_poly(r, b->d1c, &b->d1);
		Q = ok ? modulus_of(r, &b->d1, b->var) : 0;
	}
	b->cols = Q * b->V;
	if (b->flat && Q > 0 && b->n % Q == 0) {
		b->width = Q;
		b->rows = b->n / Q;
	}
	b->block = ok && Q > 0 ? copy_loop_block(r, b->st, b->rows * Q) : NULL;
	if (!b->block || !copy_loop_body_plain(b->l, b->st) || b->cols > b->width) {
		copy_problem(b,
			     "the copy loop at %d:%d is not `for (int i = threadIdx.x; i < R * Q; i += blockDim.x)` around "
			     "plain copies of rows i / Q and columns %s(i %% Q) of '%s' (%ld rows)",
			     b->line, b->col, b->V > 1 ? "V * " : "", b->tile->name, b->rows);
		return false;
	}
	b->row_atom = xprintf("%s / %ld", b->var, Q);
	b->col_atom = xprintf("%s %% %ld", b->var, Q);
	return true;
}

/* A flat tile without a copy loop: `As[C * threadIdx.y + threadIdx.x]`, in whatever order and
 * through whatever locals, makes rows of C elements. */
static bool flat_atoms(struct box_read *b)
{
	struct reader *r = &b->r;
	struct poly d;
	if (read_poly(r, b->dc, &d) && d.n == 2)
		for (int i = 0; i < 2; i++) {
			const struct term *x = &d.t[i], *y = &d.t[1 - i];
			if (x->nf == 1 && y->nf == 1 && y->coef == 1 && strcmp(r->atom[y->f[0]], "threadIdx.x") == 0 &&
			    strcmp(r->atom[x->f[0]], "threadIdx.y") == 0 && x->coef > 0 && b->n % x->coef == 0) {
				b->width = b->cols = x->coef;
				b->rows = b->n / b->cols;
			}
		}
	if (!b->cols) {
		copy_problem(b, "the copy at %d:%d does not store '%s' at [C * threadIdx.y + threadIdx.x]", b->line,
			     b->col, b->tile->name);
		return false;
	}
	b->row_atom = xstrdup("threadIdx.y");
	b->col_atom = xstrdup("threadIdx.x");
	return true;
}

/* Each thread's row and column in the tile, the columns the copies write, and the block the
 * copies take for granted. */
static bool box_atoms(struct box_read *b)
{
	if (b->st->cl.bound > 0) {
		if (!copy_loop_atoms(b))
			return false;
	} else if (b->st->text.begin != b->cp->text.begin) {
		copy_problem(b, "the copy at %d:%d sits inside another statement", b->line, b->col);
		return false;
	} else if (b->flat) {
		if (!flat_atoms(b))
			return false;
	} else {
		/* one element (or vector) per thread: the block is the tile, the tile's rows all copied */
		b->cols = b->width;
		b->row_atom = xstrdup("threadIdx.y");
		b->col_atom = xstrdup("threadIdx.x");
	}
	if (!b->block)
		b->block = xprintf("pipefy_block.x == %ld && pipefy_block.y == %ld && pipefy_block.z == 1",
				   b->cols / b->V, b->rows);
	if (b->cols % b->V) {
		copy_problem(b, "the rows of '%s' are not whole vectors of the copy at %d:%d", b->tile->name, b->line,
			     b->col);
		return false;
	}
	return true;
}

/* Whether an index reads only what does not change from tile to tile: the kernel's
 * parameters and the built-in variables. */
static bool index_steady(const struct reader *r, const struct poly *ix)
{
	bool steady = true;
	for (int i = 0; i < ix->n; i++)
		for (int f = 0; f < ix->t[i].nf; f++) {
			const char *a = r->atom[ix->t[i].f[f]];
			steady &= r->kind[ix->t[i].f[f]] == ATOM_PARAM || strncmp(a, "threadIdx.", 10) == 0 ||
				  strncmp(a, "blockIdx.", 9) == 0 || strncmp(a, "blockDim.", 9) == 0 ||
				  strncmp(a, "gridDim.", 8) == 0;
		}
	return steady;
}

/* The tile's indices and the load's, read as polynomials (d0, d1, ix): the tile's must be the
 * thread's row and V times its column; to a moving pointer's index, how far it has moved is
 * added. */
static bool box_indices(struct box_read *b)
{
	struct reader *r = &b->r;
	bool ok;
	if (b->flat) {
		/* a flat copy loop stores As[i]: i is Q * (i / Q) + i % Q, the box's element */
		int a0 = atom(r, b->row_atom, ATOM_THREAD), a1 = atom(r, b->col_atom, ATOM_THREAD);
		b->d0 = (struct poly){1, {{1, 1, {a0}}}};
		b->d1 = (struct poly){1, {{1, 1, {a1}}}};
		ok = a0 >= 0 && a1 >= 0 && read_index(r, b->index, &b->ix);
		if (ok && b->st->cl.bound > 0) {
			struct poly d;
			ok = read_poly(r, b->dc, &d) && is_atom(r, &d, b->var);
			if (!ok && !r->problem)
				r->problem = xprintf("'%s' as its index", b->var), r->problem_at = b->cp->text.begin;
		}
	} else
		ok = read_poly(r, b->d0c, &b->d0) && read_poly(r, b->d1c, &b->d1) && read_index(r, b->index, &b->ix);
	long long idx_lo = 0;
	b->idx32 = !clang_Cursor_isNull(b->index) && int32_range(clang_getCursorType(b->index), &idx_lo, &b->idx_hi);
	if (ok && b->moves && b->idx32) {
		/* the index itself must fit, each thread's: checked once, so it may read only what
		 * does not change from tile to tile */
		if (!index_steady(r, &b->ix)) {
			copy_problem(b, "the copy at %d:%d indexes a moving pointer with a 32-bit value that changes "
				     "from tile to tile", b->line, b->col);
			return false;
		}
		add_fit(&b->fits, r, &b->ix, clang_getCursorType(b->index));
	}
	if (ok && b->moves) /* the element the copy reads, from where the pointer was on entry */
		ok = poly_add(&b->ix, &b->ix, &b->moved, 1);
	if (!ok) {
		box_problem(b->l, b->src, r->problem_at, "the indices of the copy at %d:%d read %s", b->line, b->col,
			    r->problem ? r->problem : "more than pipefy follows");
		return false;
	}
	if (!is_atom(r, &b->d0, b->row_atom) || !is_scaled_atom(r, &b->d1, b->col_atom, b->V)) {
		copy_problem(b, "the copy at %d:%d does not store '%s' at [%s][%s%s]", b->line, b->col, b->tile->name,
			     b->row_atom, b->V > 1 ? "V * " : "", b->col_atom);
		return false;
	}
	return true;
}

/* index = base + d0 * L + V * d1, the same column: L, the operand's row length, and base from
 * the index's terms; false when it is not of that shape. */
static bool split_index(const struct box_read *b, struct poly *L, struct poly *base)
{
	int a0 = b->d0.t[0].f[0], a1 = b->d1.t[0].f[0];
	int unit_cols = 0;
	bool shape = true;
	for (int i = 0; i < b->ix.n && shape; i++) {
		struct term t = b->ix.t[i];
		int n0 = 0, n1 = 0;
		for (int f = 0; f < t.nf; f++) {
			n0 += t.f[f] == a0;
			n1 += t.f[f] == a1;
		}
		if (n0 == 0 && n1 == 0) {
			shape = add_term(base, t);
		} else if (n0 == 1 && n1 == 0 && t.coef > 0) { /* (rows read upward: a row length below 0, `(T - 1 - ty) * K`, makes no tensor map) */
			struct term rest = {t.coef, 0, {0}};
			for (int f = 0; f < t.nf; f++)
				if (t.f[f] != a0)
					rest.f[rest.nf++] = t.f[f];
			shape = add_term(L, rest);
		} else if (n1 == 1 && n0 == 0 && t.nf == 1 && t.coef == b->V) {
			unit_cols++;
		} else
			shape = false;
	}
	return shape && unit_cols == 1 && L->n != 0;
}

/* Where the box starts. For a pointer that stays, base = row0 * L + col0 (the terms L's
 * monomial divides go to the row); for one that moves, flat = (A - on entry) - P + base, the
 * same for every thread, which the loader divides by L at run time. */
static void box_origin(struct box_read *b, struct tma_box *bx, const struct poly *L, const struct poly *base)
{
	struct reader *r = &b->r;
	if (!b->moves) {
		struct poly row0 = {0}, col0 = {0};
		for (int i = 0; i < base->n; i++) {
			struct term q;
			if (L->n == 1 && divide_term(&base->t[i], &L->t[0], &q))
				add_term(&row0, q);
			else
				add_term(&col0, base->t[i]);
		}
		bx->col0 = poly_text(r, &col0);
		bx->row0 = poly_text(r, &row0);
		return;
	}
	char *pt = poly_text(r, &b->moved), *bt = poly_text(r, base);
	if (clang_Cursor_isNull(b->local))
		bx->flat = xprintf("(long long)(%s - pipefy_entry_%s) - (%s) + (%s)", bx->pointer, bx->pointer, pt, bt);
	else {
		char *ln = cursor_name(b->local);
		bx->flat = xprintf("(long long)(%s - %s) - (%s) + (%s)", ln, bx->pointer, pt, bt);
		bx->local = true;
		free(ln);
	}
	bx->col0 = xprintf("pipefy_flat_%s %% (%s)", b->tile->name, bx->row_elems);
	bx->row0 = xprintf("pipefy_flat_%s / (%s)", b->tile->name, bx->row_elems);
	free(pt);
	free(bt);
}

/* Records the box, and the block it takes for granted as the kernel's condition. */
static void push_box(struct box_read *b, const struct poly *L, const struct poly *base)
{
	struct kloop *l = b->l;
	const struct tile *tile = b->tile;
	struct tma_box *bx = VEC_PUSH(l->boxes, l->nboxes, l->capboxes);
	bx->tile = b->cp->tile;
	bx->pointer = cursor_name(b->pdecl);
	bx->row_elems = poly_text(&b->r, L);
	box_origin(b, bx, L, base);
	bx->box_cols = b->width;
	bx->copy_cols = b->cols;
	bx->last_max = b->idx32 && !b->moves ? b->idx_hi : 0;
	bx->fits = b->fits.data ? sb_take(&b->fits) : NULL;
	bx->box_rows = b->rows;
	bx->elem_bytes = tile->elem_bytes;
	bx->align_at = shared_keyword_end(b->src, tile);
	if (!bx->align_at)
		box_problem(l, b->src, cursor_offset(tile->decl),
			    "the declaration of '%s' has no __shared__ pipefy can align to 128 bytes", tile->name);
	add_condition(l, b->block);
}

/* The box the copy is, when the index is a row-major operand's at a row length the host
 * knows, from a base the same for every thread, and the tile fits a box. */
static void box_of_index(struct box_read *b)
{
	const struct source *src = b->src;
	const struct tile *tile = b->tile;
	struct poly L = {0}, base = {0};
	bool shape = split_index(b, &L, &base);
	char *ix_text = span_text(src, cursor_span(b->index));
	if (!shape)
		copy_problem(b, "the copy at %d:%d reads '%s', not row %s and column %s%s of a row-major operand",
			     b->line, b->col, ix_text, b->row_atom, b->V > 1 ? "V * " : "", b->col_atom);
	else if (poly_kind(&b->r, &L) != ATOM_PARAM)
		copy_problem(b, "the row length of '%s' in the copy at %d:%d depends on more than the kernel's "
			     "parameters", ix_text, b->line, b->col);
	else if (poly_kind(&b->r, &base) == ATOM_THREAD)
		copy_problem(b, "the copy at %d:%d reads '%s', which differs between threads in more than the tile's "
			     "row and column", b->line, b->col, ix_text);
	else if (b->width * tile->elem_bytes % 16 || b->width > 256 || b->rows > 256 ||
		 (b->rows * b->width * tile->elem_bytes) % 128)
		copy_problem(b,
			     "'%s' is %ld x %ld elements of %ld bytes: a box (tma, bulk, ws) needs rows of a multiple of 16 "
			     "bytes, at most 256 by 256, and a tile of a multiple of 128 bytes",
			     tile->name, b->rows, b->width, tile->elem_bytes);
	else
		push_box(b, &L, &base);
	free(ix_text);
}

/* One copy: its box, or the reason it is none. A copy moves V elements (a vector copy
 * `*(int4 *)&As[r][c] = *(const int4 *)&A[i]`: V = 16 bytes over the element's size); each
 * thread's (row, column) is (threadIdx.y, V * threadIdx.x), or in a copy loop (i / Q,
 * V * (i % Q)); the columns copied, C, may be fewer than the tile's row holds (padding): the
 * box is then as wide as the row, and the columns past C are fetched but never written by the
 * loop, so never read as anything but what they held (nothing defined). Each step reads more
 * of the copy, or says why it is no box. */
static void copy_box(struct kloop *l, const struct source *src, int c)
{
	const struct copy *cp = &l->copies[c];
	struct box_read b = {
		.l = l, .src = src, .cp = cp, .st = &l->stmts[cp->stmt], .tile = &l->tiles[cp->tile],
		.d0c = clang_getNullCursor(), .d1c = clang_getNullCursor(), .dc = clang_getNullCursor(),
		.local = clang_getNullCursor(),
		.r = {.l = l, .src = src, .copy_var = clang_getNullCursor()},
	};
	source_line_col(src, cp->text.begin, &b.line, &b.col);
	if (box_tile(&b) && box_copy_plain(&b) && box_cursors(&b) && box_operand(&b) && box_moved(&b) &&
	    box_atoms(&b) && box_indices(&b))
		box_of_index(&b);
	free(b.fits.data);
	free(b.local_offsets.v);
	free(b.block);
	free(b.row_atom);
	free(b.col_atom);
	free(b.var);
	reader_free(&b.r);
}

/* Whether the loop variables start and step the same for every thread. */
static void uniform_loop_variables(struct kloop *l, const struct source *src)
{
	struct cursors kids = cursor_children(l->cursor);
	for (int i = 0; i + 1 < kids.n && !l->box_problem; i++) {
		struct span s = cursor_span(kids.v[i]);
		if (!span_within(s, l->init) && !span_within(s, l->inc))
			continue;
		/* every value assigned in the header must be thread-free */
		struct cursors parts = clang_getCursorKind(kids.v[i]) == CXCursor_DeclStmt ? cursor_children(kids.v[i])
											   : (struct cursors){0};
		if (clang_getCursorKind(kids.v[i]) != CXCursor_DeclStmt) {
			parts.v = xmalloc(sizeof *parts.v);
			parts.v[0] = kids.v[i];
			parts.n = 1;
		}
		for (int p = 0; p < parts.n && !l->box_problem; p++) {
			CXCursor e = cursor_strip(parts.v[p]);
			enum CXCursorKind k = clang_getCursorKind(e);
			CXCursor value = clang_getNullCursor();
			if (k == CXCursor_VarDecl)
				value = cursor_last_child(e);
			else if (k == CXCursor_UnaryOperator)
				continue; /* ++t */
			else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator)
				value = cursor_last_child(e);
			struct reader r = {.l = l, .src = src, .copy_var = clang_getNullCursor()};
			struct poly v;
			if (clang_Cursor_isNull(value) || !read_poly(&r, value, &v) || poly_kind(&r, &v) == ATOM_THREAD) {
				char *text = span_text(src, s);
				box_problem(l, src, s.begin, "the loop header's '%s' may differ between threads", text);
				free(text);
			}
			reader_free(&r);
		}
		free(parts.v);
	}
	free(kids.v);
}

static void box_kloop(struct kloop *l, const struct source *src)
{
	l->boxed = true;
	if (l->ncopies == 0 || l->nhelpers > 0) {
		box_problem(l, src, l->loop.begin, "the tiles are filled %s", l->nhelpers > 0 ? "inside a helper" : "by no copy pipefy sees");
		return;
	}
	/* (the copy engine's tiles are aligned where they are declared, and their declaration hoisted
	 * out of the loop is another edit at that place: the two collided, "overlapping edits") */
	for (int i = 0; i < l->ntiles; i++)
		if (l->tiles[i].in_loop) {
			box_problem(l, src, cursor_span(l->tiles[i].decl).begin,
				    "tile '%s' is declared inside the loop: tensor copies take tiles declared before it",
				    l->tiles[i].name);
			return;
		}
	int last_copy = -1;
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY)
			last_copy = i;
	for (int i = 0; i < l->nstmts && !l->box_problem; i++) {
		enum stmt_role role = l->stmts[i].role;
		int line, col;
		source_line_col(src, l->stmts[i].text.begin, &line, &col);
		if (role == ROLE_FETCH_DECL)
			box_problem(l, src, l->stmts[i].text.begin, "the statement at %d:%d loads a value the copies store", line, col);
		else if (role == ROLE_BUMP && i < last_copy)
			box_problem(l, src, l->stmts[i].text.begin,
				    "the statement at %d:%d moves a loop variable before a copy (the loader computes a tile's "
				    "boxes before the bumps)", line, col);
		else if (role == ROLE_BUMP && !uniform_bump(l, src, l->stmts[i].cursor))
			box_problem(l, src, l->stmts[i].text.begin,
				    "the statement at %d:%d moves a loop variable by what pipefy cannot read as the same for "
				    "every thread", line, col);
	}
	for (int t = 0; t < l->ntiles && !l->box_problem; t++) {
		int n = 0, first = -1;
		for (int c = 0; c < l->ncopies; c++)
			if (l->copies[c].tile == t && n++ == 0)
				first = c;
		if (n != 1)
			box_problem(l, src, n ? l->copies[first].text.begin : cursor_offset(l->tiles[t].decl),
				    "'%s' is filled by %d copies; a box (tma, bulk, ws) is a tile one copy fills", l->tiles[t].name, n);
	}
	for (int c = 0; c < l->ncopies && !l->box_problem; c++)
		copy_box(l, src, c);
	if (!l->box_problem)
		uniform_loop_variables(l, src);
}

void box_kloops(struct model *m, const struct source *src)
{
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		/* (a loop find could not read, in a function with parse errors, or pipefy's own
		 * output: check refuses it before it asks for boxes) */
		if (!l->not_kloop && l->function_span.end > 0 && l->nunknowns == 0 && !l->function_has_errors &&
		    !l->copy_defined)
			box_kloop(l, src);
	}
}
