/* deps.c: what each kernel of a queued pair (--launches=queue) may touch in global memory, as
 * code that computes it: the fact queue.c's persistent launch needs to let a block of the
 * second kernel wait for exactly the blocks of the first whose writes it may read, instead of
 * for all of them. Facts only, for the pairs check lets run as one launch (the driver calls
 * deps_launch_pairs after check): a pair whose accesses are not all read here is kept (the
 * blocks then wait for every block of the first), waits_all naming what stopped the reading.
 *
 * Every access to global memory must be `P[i]`, P a pointer parameter or a local that points
 * at one (`const float *s = S + off;`, never written again), i an integer expression of
 * parameters, blockIdx/threadIdx/blockDim/gridDim, constants, locals with one initializer and
 * the variables of counted loops (`for (int j = a; j < b; j += c)`, j written nowhere else).
 * The index becomes C code that computes an interval holding every value it may take, given
 * intervals for the block index: threadIdx.x is [0, blockDim.x - 1], a loop's variable
 * [a, b - 1], and every operation also checks that the interval fits the type C computes it in
 * (a value that would wrap is no value the interval can bound: then the code says it cannot
 * tell, and the blocks wait for all). Constants and macros are copied as written, never
 * evaluated here: the output compiles with the definitions it is compiled with.
 * Anything else that could touch global memory (a call of the file's own functions or one
 * taking a pointer, `*p`, `p->m`, an address taken, a reference, a global variable, texture or
 * surface calls) stops the reading, with its place. */
#include "pipefy.h"
#include "cursor.h"

#include <ctype.h>
#include <stdlib.h>

struct spans {
	struct span *v;
	int n, cap;
};

struct deps_reader {
	const struct source *src;
	CXCursor kernel, body;
	struct spans writes, addressed; /* targets of assignments and ++/--; operands of & */
	struct spans bases;             /* pointer names read as the base of an access */
	struct queue_access *acc;
	int nacc, cap;
	bool block_dims[3];             /* blockIdx.x, .y, .z read by a write's index */
	bool in_write;
	int depth;
	char *why;
	size_t why_at;
};

static void stop(struct deps_reader *r, CXCursor at, char *what)
{
	cursor_first_why(&r->why, &r->why_at, at, what);
}

static bool is_param(const struct deps_reader *r, CXCursor decl)
{
	if (clang_getCursorKind(decl) != CXCursor_ParmDecl)
		return false;
	int n = clang_Cursor_getNumArguments(r->kernel);
	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(r->kernel, (unsigned)i), decl))
			return true;
	return false;
}

/* Whether code in `in` may change the variable itself (not what it points at): an assignment,
 * ++/-- or compound assignment of it (cursor_write_parts), or a way to write it later
 * (cursor_escapes: its address taken, a reference bound to it). */
struct var_change {
	CXCursor var;
	bool changed;
};

static enum CXChildVisitResult scan_changes(CXCursor w, enum write_kind k, CXCursor target, CXCursor value, void *data)
{
	(void)w, (void)k, (void)value;
	struct var_change *v = data;
	v->changed = cursor_names_var(target, v->var);
	return v->changed ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool var_changed(CXCursor in, CXCursor var)
{
	struct var_change v = {var, false};
	cursor_visit_writes(in, scan_changes, &v);
	return v.changed || cursor_escapes(in, var);
}

/* The bounds of an integer type as C literals, for pipefy_iv_fit; false for other types. A
 * 64-bit type's are the 2^52 every interval keeps. */
static bool type_bounds(CXType t, const char **lo, const char **hi)
{
	t = clang_getCanonicalType(t);
	*lo = *hi = NULL;
	switch (t.kind) {
	case CXType_Char_S: case CXType_SChar:
		*lo = "-128LL", *hi = "127LL";
		return true;
	case CXType_Char_U: case CXType_UChar:
		*lo = "0LL", *hi = "255LL";
		return true;
	case CXType_Short:
		*lo = "-32768LL", *hi = "32767LL";
		return true;
	case CXType_UShort:
		*lo = "0LL", *hi = "65535LL";
		return true;
	case CXType_Int:
		*lo = "-2147483648LL", *hi = "2147483647LL";
		return true;
	case CXType_UInt:
		*lo = "0LL", *hi = "4294967295LL";
		return true;
	case CXType_Long: case CXType_LongLong:
		*lo = "-(1LL << 52)", *hi = "1LL << 52"; /* (the bounds every interval keeps) */
		return clang_Type_getSizeOf(t) == 8;
	case CXType_ULong: case CXType_ULongLong:
		*lo = "0LL", *hi = "1LL << 52";
		return clang_Type_getSizeOf(t) == 8;
	default:
		return false;
	}
}

static char *fit(struct deps_reader *r, CXCursor e, char *code)
{
	if (!code)
		return NULL;
	const char *lo, *hi;
	if (!type_bounds(clang_getCursorType(e), &lo, &hi)) {
		char *t = type_spelling(clang_getCursorType(e));
		stop(r, e, xprintf("an index computed in '%s', not an integer type", t));
		free(t);
		free(code);
		return NULL;
	}
	char *out = xprintf("pipefy_iv_fit(%s, %s, %s, pipefy_ok)", code, lo, hi);
	free(code);
	return out;
}

static char *iv(struct deps_reader *r, CXCursor e, struct span parent);

/* The text is one use of a macro: `NAME` or `NAME(...)`. (A node only partly from a macro,
 * `ROW * n`, is read through its parts.) */
static bool macro_use(const struct source *src, struct span s)
{
	const char *t = src->text + s.begin, *end = src->text + s.end;
	if (t == end || !(isalpha((unsigned char)*t) || *t == '_'))
		return false;
	while (t < end && (isalnum((unsigned char)*t) || *t == '_'))
		t++;
	while (t < end && isspace((unsigned char)*t))
		t++;
	return t == end || (*t == '(' && end[-1] == ')');
}

/* A constant as written: a literal, an enumerator, a sizeof, a constant at file scope. A macro
 * must be the whole of it (`TS`), not part of a longer expansion (`ROW` holding `blockIdx.y*TS`),
 * whose text is not this node's. */
static char *constant_text(struct deps_reader *r, CXCursor e, struct span parent)
{
	struct span s = cursor_span(e);
	if (cursor_from_macro(e) && s.begin == parent.begin && s.end == parent.end) {
		char *t = span_text(r->src, s);
		stop(r, e, xprintf("'%s', a macro holding more than a constant", t));
		free(t);
		return NULL;
	}
	char *t = span_text(r->src, s);
	char *out = xprintf("pipefy_iv_exact((long long)(%s))", t); /* (a value of its type: no fit) */
	free(t);
	return out;
}

/* The loop whose for-init declares var: `for (T v = a; v < b; v += c)` (or `<=`, `++v`, `v++`),
 * v written nowhere in its body; the interval [a, b - 1] of what v is inside it. */
struct counted_loop {
	CXCursor var, loop;
	bool found;
};

static enum CXChildVisitResult find_loop(CXCursor c, void *data)
{
	struct counted_loop *f = data;
	if (clang_getCursorKind(c) == CXCursor_ForStmt) {
		CXCursor init = cursor_first_child(c);
		if (clang_getCursorKind(init) == CXCursor_DeclStmt &&
		    clang_equalCursors(cursor_first_child(init), f->var)) {
			f->loop = c;
			f->found = true;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static char *loop_var(struct deps_reader *r, CXCursor e, CXCursor var, const char *name)
{
	struct counted_loop f = {.var = var};
	cursor_visit(r->body, find_loop, &f);
	if (!f.found)
		return NULL;
	struct cursors kids = cursor_children(f.loop), decls = cursor_children(cursor_first_child(f.loop));
	char *out = NULL;
	CXCursor cond = kids.n == 4 ? cursor_strip(kids.v[1]) : clang_getNullCursor();
	CXCursor inc = kids.n == 4 ? cursor_strip(kids.v[2]) : clang_getNullCursor();
	if (kids.n != 4 || decls.n != 1 || clang_getCursorKind(cond) != CXCursor_BinaryOperator) {
		stop(r, e, xprintf("'%s', the variable of a loop that is not `for (%s = a; %s < b; %s += c)`", name, name, name,
				   name));
		goto out;
	}
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
	CXCursor lhs = cursor_first_child(cond), rhs = cursor_last_child(cond), bound;
	bool strict;
	if ((op == CXBinaryOperator_LT || op == CXBinaryOperator_LE) && cursor_names_var(lhs, var))
		bound = rhs, strict = op == CXBinaryOperator_LT;
	else if ((op == CXBinaryOperator_GT || op == CXBinaryOperator_GE) && cursor_names_var(rhs, var))
		bound = lhs, strict = op == CXBinaryOperator_GT;
	else {
		stop(r, e, xprintf("'%s', the variable of a loop whose condition is not `%s < b`", name, name));
		goto out;
	}
	/* the step: `v += c`, `v = v + c`, `++v`, `v++` */
	char *step = NULL;
	enum CXCursorKind ik = clang_getCursorKind(inc);
	if (ik == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(inc);
		if ((u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PostInc) && cursor_names_var(cursor_first_child(inc), var))
			step = xstrdup("pipefy_iv_exact(1)");
	} else if (ik == CXCursor_CompoundAssignOperator && clang_getCursorBinaryOperatorKind(inc) == CXBinaryOperator_AddAssign &&
		   cursor_names_var(cursor_first_child(inc), var)) {
		CXCursor s = cursor_last_child(inc);
		step = iv(r, s, cursor_span(inc));
		if (!step)
			goto out;
	}
	if (!step) {
		stop(r, e, xprintf("'%s', the variable of a loop that does not step it up by `%s += c`", name, name));
		goto out;
	}
	if (var_changed(kids.v[3], var) || var_changed(cond, var)) {
		stop(r, e, xprintf("'%s', a loop's variable its body changes", name));
		free(step);
		goto out;
	}
	const char *lo, *hi;
	if (!type_bounds(clang_getCursorType(var), &lo, &hi)) {
		stop(r, e, xprintf("'%s', not an integer", name));
		free(step);
		goto out;
	}
	CXCursor init = cursor_last_child(decls.v[0]);
	char *a = iv(r, init, cursor_span(decls.v[0]));
	char *b = a ? iv(r, bound, cursor_span(cond)) : NULL;
	if (a && b)
		out = xprintf("pipefy_iv_loop(%s, %s, %d, %s, %s, pipefy_ok)", a, b, strict, step, hi);
	free(a);
	free(b);
	free(step);
out:
	free(kids.v);
	free(decls.v);
	return out;
}

static char *read_var(struct deps_reader *r, CXCursor e, struct span parent)
{
	CXCursor decl = clang_getCursorReferenced(e);
	enum CXCursorKind dk = clang_getCursorKind(decl);
	if (dk == CXCursor_EnumConstantDecl)
		return constant_text(r, e, parent);
	char *name = cursor_name(decl);
	char *out = NULL;
	const char *lo, *hi;
	if (cursor_from_macro(e)) {
		stop(r, e, xprintf("'%s' inside a macro", name));
	} else if (!type_bounds(clang_getCursorType(decl), &lo, &hi)) {
		stop(r, e, xprintf("'%s', not an integer", name));
	} else if (is_param(r, decl)) {
		if (var_changed(r->body, decl))
			stop(r, e, xprintf("'%s', a parameter the kernel changes", name));
		else
			out = xprintf("pipefy_iv_exact((long long)(%s))", name);
	} else if (dk == CXCursor_VarDecl && !effects_is_local(decl) && clang_isConstQualifiedType(clang_getCursorType(decl)) &&
		   clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_TranslationUnit) {
		free(name);
		return constant_text(r, e, parent);
	} else if (dk == CXCursor_VarDecl && effects_is_local(decl) && cursor_declared_within(decl, cursor_span(r->body))) {
		CXCursor init = cursor_last_child(decl);
		bool has_init = !clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
				cursor_span(init).begin > cursor_offset(decl);
		if (r->depth > 8)
			stop(r, e, xprintf("'%s', defined too deeply", name));
		else if ((out = loop_var(r, e, decl, name)) != NULL || r->why)
			;
		else if (var_changed(r->body, decl))
			stop(r, e, xprintf("'%s', which the kernel writes after its initializer", name));
		else if (!has_init)
			stop(r, e, xprintf("'%s', which has no initializer", name));
		else {
			r->depth++;
			out = iv(r, init, cursor_span(decl)); /* (its conversion to the local's type is in init) */
			r->depth--;
		}
	} else
		stop(r, e, xprintf("'%s'", name));
	free(name);
	return out;
}

static char *read_builtin(struct deps_reader *r, CXCursor e)
{
	char c;
	int b = cursor_from_macro(e) ? -1 : cursor_builtin(r->src, e, &c);
	if (b == 0)
		return xprintf("pipefy_iv_make(0, (long long)blockDim.%c - 1)", c);
	if (b == 1) {
		r->block_dims[c - 'x'] |= r->in_write;
		return xprintf("pipefy_block_%c", c);
	}
	if (b > 1)
		return xprintf("pipefy_iv_exact((long long)%s.%c)", cursor_builtin_names[b], c);
	char *text = span_squeezed(r->src, cursor_span(e));
	stop(r, e, xprintf("'%s'", text));
	free(text);
	return NULL;
}

/* e converts its operand: the value must fit e's type, where it is another. */
static char *conversion(struct deps_reader *r, CXCursor e, CXCursor operand, struct span parent)
{
	char *code = iv(r, operand, parent);
	if (!code || clang_equalTypes(clang_getCanonicalType(clang_getCursorType(e)),
				      clang_getCanonicalType(clang_getCursorType(operand))))
		return code;
	return fit(r, e, code);
}

static char *iv(struct deps_reader *r, CXCursor e, struct span parent)
{
	enum CXCursorKind k = clang_getCursorKind(e);
	struct span s = cursor_span(e);
	if (k == CXCursor_UnexposedExpr && clang_getCursorKind(cursor_strip(e)) != k) {
		/* an implicit conversion (its text is its operand's): the value must fit */
		struct cursors kids = cursor_children(e);
		char *out = kids.n == 1 ? conversion(r, e, kids.v[0], parent) : NULL;
		free(kids.v);
		if (kids.n == 1)
			return out;
	}
	if (cursor_from_macro(e) && macro_use(r->src, s)) {
		/* a macro's whole expansion, when it is a constant (`TS`, `(16)`, `(2 * TS)`): as written */
		bool constant;
		cursor_evaluate_int(e, &constant);
		if (constant && !(s.begin == parent.begin && s.end == parent.end))
			return constant_text(r, e, parent);
		char *t = span_text(r->src, s);
		stop(r, e, xprintf("'%s', a macro holding more than a constant", t));
		free(t);
		return NULL;
	}
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_CallExpr) {
		char *t = span_text(r->src, s);
		stop(r, e, xprintf("'%s', a value read from memory or returned by a call", t));
		free(t);
		return NULL;
	}
	if (k == CXCursor_IntegerLiteral || k == CXCursor_CharacterLiteral)
		return constant_text(r, e, parent);
	if (k == CXCursor_UnaryExpr) { /* sizeof, alignof */
		char *t = span_text(r->src, s);
		bool size = strncmp(t, "sizeof", 6) == 0 || strncmp(t, "alignof", 7) == 0;
		free(t);
		if (size)
			return constant_text(r, e, parent);
	}
	if (k == CXCursor_DeclRefExpr)
		return read_var(r, e, parent);
	if (k == CXCursor_MemberRefExpr)
		return read_builtin(r, e);
	struct cursors kids = cursor_children(e);
	char *out = NULL;
	if (k == CXCursor_ParenExpr && kids.n == 1)
		out = iv(r, kids.v[0], s);
	else if (cursor_kind_is_cast(k) && kids.n >= 1)
		out = conversion(r, e, kids.v[kids.n - 1], s);
	else if (k == CXCursor_UnaryOperator && kids.n == 1) {
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(e);
		char *a = u == CXUnaryOperator_Minus || u == CXUnaryOperator_Plus ? iv(r, kids.v[0], s) : NULL;
		if (a)
			out = fit(r, e, u == CXUnaryOperator_Minus ? xprintf("pipefy_iv_neg(%s)", a) : xstrdup(a));
		else if (!r->why) {
			char *t = span_text(r->src, s);
			stop(r, e, xprintf("'%s'", t));
			free(t);
		}
		free(a);
	} else if (k == CXCursor_BinaryOperator && kids.n == 2) {
		static const struct {
			enum CXBinaryOperatorKind op;
			const char *fn;
		} ops[] = {
			{CXBinaryOperator_Add, "add"}, {CXBinaryOperator_Sub, "sub"}, {CXBinaryOperator_Mul, "mul"},
			{CXBinaryOperator_Div, "div"}, {CXBinaryOperator_Rem, "rem"}, {CXBinaryOperator_Shl, "shl"},
			{CXBinaryOperator_Shr, "shr"}, {CXBinaryOperator_And, "and"},
		};
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		const char *fn = NULL;
		for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
			if (ops[i].op == op)
				fn = ops[i].fn;
		if (!fn) {
			char *t = span_text(r->src, s);
			stop(r, e, xprintf("an operator other than + - * / %% << >> & in '%s'", t));
			free(t);
		} else {
			char *a = iv(r, kids.v[0], s), *b = a ? iv(r, kids.v[1], s) : NULL;
			if (a && b)
				out = fit(r, e, xprintf("pipefy_iv_%s(%s, %s, pipefy_ok)", fn, a, b));
			free(a);
			free(b);
		}
	} else if (k == CXCursor_ConditionalOperator && kids.n == 3) {
		char *a = iv(r, kids.v[1], s), *b = a ? iv(r, kids.v[2], s) : NULL;
		if (a && b)
			out = fit(r, e, xprintf("pipefy_iv_hull(%s, %s)", a, b));
		free(a);
		free(b);
	} else {
		char *t = span_text(r->src, s);
		stop(r, e, xprintf("'%s'", t));
		free(t);
	}
	free(kids.v);
	return out;
}

static bool in_spans(const struct spans *v, struct span s)
{
	for (int i = 0; i < v->n; i++)
		if (v->v[i].begin == s.begin && v->v[i].end == s.end)
			return true;
	return false;
}

/* The lvalue an assignment or ++/-- writes, and the operands of &: `X[i].m` counts as X[i]. */
static CXCursor element(CXCursor c)
{
	c = cursor_strip(c);
	while (clang_getCursorKind(c) == CXCursor_MemberRefExpr && !clang_Cursor_isNull(cursor_first_child(c)))
		c = cursor_strip(cursor_first_child(c));
	return c;
}

static enum CXChildVisitResult scan_targets(CXCursor c, void *data)
{
	struct deps_reader *r = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
		struct span s = cursor_span(element(cursor_first_child(c)));
		if (u == CXUnaryOperator_AddrOf)
			*VEC_PUSH(r->addressed.v, r->addressed.n, r->addressed.cap) = s;
		else if (u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreDec ||
			 u == CXUnaryOperator_PostDec)
			*VEC_PUSH(r->writes.v, r->writes.n, r->writes.cap) = s;
	} else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
			*VEC_PUSH(r->writes.v, r->writes.n, r->writes.cap) = cursor_span(element(cursor_first_child(c)));
	}
	return CXChildVisit_Recurse;
}

static bool is_pointer(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k == CXType_Pointer;
}

/* The parameter a pointer expression points into, and the code of its offset in elements:
 * `P`, or a local initialized with `P`, `P + i`, `i + P` or `P - i`, never written again. */
static bool pointer_base(struct deps_reader *r, CXCursor e, CXCursor *param, char **offset)
{
	e = cursor_strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr || cursor_from_macro(e)) {
		char *t = span_text(r->src, cursor_span(e));
		stop(r, e, xprintf("a pointer that is not a parameter or a local set from one: '%s'", t));
		free(t);
		return false;
	}
	CXCursor decl = clang_getCursorReferenced(e);
	char *name = cursor_name(decl);
	bool ok = false;
	*VEC_PUSH(r->bases.v, r->bases.n, r->bases.cap) = cursor_span(e);
	if (is_param(r, decl) && is_pointer(clang_getCursorType(decl))) {
		if (var_changed(r->body, decl))
			stop(r, e, xprintf("'%s', a pointer parameter the kernel moves", name));
		else {
			*param = decl;
			*offset = xstrdup("pipefy_iv_exact(0)");
			ok = true;
		}
	} else if (clang_getCursorKind(decl) == CXCursor_VarDecl && effects_is_local(decl) &&
		   is_pointer(clang_getCursorType(decl)) && cursor_declared_within(decl, cursor_span(r->body)) && r->depth < 8) {
		CXCursor init = cursor_strip(cursor_last_child(decl));
		enum CXCursorKind ik = clang_getCursorKind(init);
		if (var_changed(r->body, decl) || clang_Cursor_isNull(init) || cursor_span(init).begin <= cursor_offset(decl))
			stop(r, e, xprintf("'%s', a pointer the kernel sets more than once", name));
		else if (ik == CXCursor_BinaryOperator && (clang_getCursorBinaryOperatorKind(init) == CXBinaryOperator_Add ||
							   clang_getCursorBinaryOperatorKind(init) == CXBinaryOperator_Sub)) {
			CXCursor a = cursor_first_child(init), b = cursor_last_child(init);
			bool sub = clang_getCursorBinaryOperatorKind(init) == CXBinaryOperator_Sub;
			if (!is_pointer(clang_getCursorType(a)) && !sub) {
				CXCursor t = a;
				a = b;
				b = t;
			}
			char *base_off = NULL, *i;
			r->depth++;
			/* (PIPEFY_TEST_BREAK=queuedeps: the offset forgotten, the bug the CPU block model must
			 * catch; never in normal use) */
			if (is_pointer(clang_getCursorType(a)) && pointer_base(r, a, param, &base_off) &&
			    (i = iv(r, b, cursor_span(init))) != NULL) {
				if (test_break("queuedeps"))
					*offset = xstrdup(base_off);
				else
					*offset = xprintf("pipefy_iv_%s(%s, %s, pipefy_ok)", sub ? "sub" : "add", base_off, i);
				free(i);
				ok = true;
			}
			r->depth--;
			free(base_off);
		} else if (ik == CXCursor_DeclRefExpr) {
			r->depth++;
			ok = pointer_base(r, init, param, offset);
			r->depth--;
		} else if (!r->why) {
			char *t = span_text(r->src, cursor_span(init));
			stop(r, e, xprintf("'%s', a pointer set to '%s'", name, t));
			free(t);
		}
		if (ok && !cursor_same_type(clang_getPointeeType(clang_getCursorType(decl)),
					    clang_getPointeeType(clang_getCursorType(*param)))) {
			stop(r, e, xprintf("'%s', a pointer to another type than its parameter's", name));
			free(*offset);
			ok = false;
		}
	} else if (!r->why)
		stop(r, e, xprintf("'%s', a pointer that is not a parameter or a local set from one", name));
	free(name);
	return ok;
}

static bool is_array(CXCursor e)
{
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(e)).kind;
	return tk == CXType_ConstantArray || tk == CXType_IncompleteArray;
}

/* The array a subscript chain ends in, when it is one the block owns (a local or __shared__
 * array, every level of it an array, not a pointer: no other block sees it). */
static bool own_array(CXCursor e)
{
	while (clang_getCursorKind(cursor_strip(e)) == CXCursor_ArraySubscriptExpr) {
		if (!is_array(cursor_strip(e)))
			return false; /* (`ptrs[0][i]`: an element that points somewhere) */
		e = cursor_first_child(cursor_strip(e));
	}
	e = cursor_strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return false;
	CXCursor d = clang_getCursorReferenced(e);
	if (clang_getCursorKind(d) == CXCursor_VarDecl && cursor_is_shared_view(d))
		return true;
	return clang_getCursorKind(d) == CXCursor_VarDecl && is_array(d) &&
	       (cursor_is_shared_decl(d) || (effects_is_local(d) && clang_Cursor_getStorageClass(d) != CX_SC_Static));
}

static void add_access(struct deps_reader *r, CXCursor e)
{
	CXCursor base = cursor_first_child(e), index = cursor_last_child(e), param;
	if (own_array(base))
		return;
	char *offset = NULL, *text = span_text(r->src, cursor_span(e));
	bool write = in_spans(&r->writes, cursor_span(e));
	if (in_spans(&r->addressed, cursor_span(e))) {
		stop(r, e, xprintf("'&%s', an address taken", text));
		free(text);
		return;
	}
	if (!pointer_base(r, base, &param, &offset)) {
		free(text);
		return;
	}
	if (!cursor_same_type(clang_getCursorType(e), clang_getPointeeType(clang_getCursorType(param)))) {
		stop(r, e, xprintf("'%s', not an element of its pointer's type", text));
		free(text);
		free(offset);
		return;
	}
	r->in_write = write;
	char *i = iv(r, index, cursor_span(e));
	r->in_write = false;
	if (i) {
		char *name = cursor_name(param);
		char *at = strcmp(offset, "pipefy_iv_exact(0)") == 0 ? xstrdup(i)
									  : xprintf("pipefy_iv_add(%s, %s, pipefy_ok)", offset, i);
		struct queue_access *same = NULL; /* (one entry for accesses alike) */
		for (int k = 0; k < r->nacc && !same; k++)
			if (strcmp(r->acc[k].param, name) == 0 && strcmp(r->acc[k].index, at) == 0)
				same = &r->acc[k];
		if (same) {
			same->write |= write;
			free(name);
			free(at);
		} else {
			struct queue_access *a = VEC_PUSH(r->acc, r->nacc, r->cap);
			a->write = write;
			a->param = name;
			a->index = at;
			a->text = text;
			text = NULL;
		}
	}
	free(i);
	free(offset);
	free(text);
}

static enum CXChildVisitResult scan_accesses(CXCursor c, void *data)
{
	struct deps_reader *r = data;
	if (r->why)
		return CXChildVisit_Break;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ArraySubscriptExpr) {
		add_access(r, c);
		/* (the index may read memory too: `A[idx[i]]`) */
		return CXChildVisit_Recurse;
	}
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
		char *t = span_text(r->src, cursor_span(c));
		stop(r, c, xprintf("'%s', a pointer dereferenced", t));
		free(t);
	} else if (k == CXCursor_MemberRefExpr) {
		char *t = span_text(r->src, cursor_span(c));
		if (strstr(t, "->"))
			stop(r, c, xprintf("'%s', a member through a pointer", t));
		free(t);
	} else if (k == CXCursor_CallExpr) {
		CXCursor f = clang_getCursorReferenced(c);
		char *name = cursor_name(c);
		/* (arguments and parameters numbers: nothing it is given can reach memory or a variable) */
		bool pointer_arg = false;
		int n = clang_Cursor_getNumArguments(c), np = clang_isInvalid(clang_getCursorKind(f)) ? -1 : clang_Cursor_getNumArguments(f);
		for (int i = 0; i < n; i++) {
			enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i))).kind;
			pointer_arg |= !(tk >= CXType_Bool && tk <= CXType_LongDouble);
		}
		for (int i = 0; i < np; i++) {
			enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(f, (unsigned)i))).kind;
			pointer_arg |= !(tk >= CXType_Bool && tk <= CXType_LongDouble);
		}
		pointer_arg |= np < n || clang_Cursor_isVariadic(f);
		bool builtin = strncmp(name, "__builtin_", 10) == 0; /* (INFINITY's __builtin_inff: clang's own) */
		if (clang_Cursor_isNull(f) || !(builtin || effects_in_system_header(f)))
			stop(r, c, xprintf("a call to '%s', a function pipefy does not follow here", name));
		else if (pointer_arg)
			stop(r, c, xprintf("a call to '%s' with an argument that is not a number", name));
		else if (strncmp(name, "tex", 3) == 0 || strncmp(name, "surf", 4) == 0)
			stop(r, c, xprintf("a call to '%s', a texture or surface access", name));
		free(name);
	} else if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if (dk == CXCursor_VarDecl && !effects_is_local(d) && !cursor_is_shared_decl(d) &&
		    !clang_isConstQualifiedType(clang_getCursorType(d))) {
			char *name = cursor_name(d);
			stop(r, c, xprintf("'%s', a variable outside the kernel", name));
			free(name);
		}
	} else if (k == CXCursor_VarDecl) {
		enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(c)).kind;
		if (tk == CXType_LValueReference || tk == CXType_RValueReference) {
			char *name = cursor_name(c);
			stop(r, c, xprintf("'%s', a reference", name));
			free(name);
		}
	} else if (k == CXCursor_LambdaExpr || k == CXCursor_CXXNewExpr || k == CXCursor_CXXDeleteExpr ||
		   k == CXCursor_AsmStmt || k == CXCursor_MSAsmStmt) {
		stop(r, c, xstrdup("a construct pipefy does not follow here"));
	}
	return CXChildVisit_Recurse;
}

/* A pointer parameter or pointer local used other than as an access's base (or in the
 * initializer of a local an access reads through): its value may reach memory another way. */
static enum CXChildVisitResult scan_pointer_uses(CXCursor c, CXCursor d, void *data)
{
	struct deps_reader *r = data;
	if (r->why)
		return CXChildVisit_Break;
	bool mine = is_param(r, d) || (clang_getCursorKind(d) == CXCursor_VarDecl && cursor_declared_within(d, cursor_span(r->body)));
	if (!mine || !is_pointer(clang_getCursorType(d)) || cursor_is_shared_view(d) || in_spans(&r->bases, cursor_span(c)))
		return CXChildVisit_Continue;
	char *name = cursor_name(d);
	stop(r, c, xprintf("'%s', a pointer used other than indexed", name));
	free(name);
	return CXChildVisit_Continue;
}

static void deps_of_kernel(CXCursor kernel, const struct source *src, struct queue_accesses *out)
{
	struct deps_reader r = {.src = src, .kernel = kernel, .body = cursor_last_child(kernel)};
	memset(out, 0, sizeof *out);
	cursor_visit(r.body, scan_targets, &r);
	cursor_visit(r.body, scan_accesses, &r);
	cursor_visit_names(r.body, scan_pointer_uses, &r);
	free(r.writes.v);
	free(r.addressed.v);
	free(r.bases.v);
	if (r.why) {
		for (int i = 0; i < r.nacc; i++)
			queue_access_free(&r.acc[i]);
		free(r.acc);
		out->why = r.why;
		out->why_at = r.why_at;
		return;
	}
	out->v = r.acc;
	out->n = r.nacc;
	out->rows = r.block_dims[2] ? 2 : r.block_dims[1] ? 1 : 0;
}

void queue_access_free(struct queue_access *a)
{
	free(a->param);
	free(a->index);
	free(a->text);
}

void queue_accesses_free(struct queue_accesses *q)
{
	for (int i = 0; i < q->n; i++)
		queue_access_free(&q->v[i]);
	free(q->v);
	free(q->why);
	memset(q, 0, sizeof *q);
}

/* Why the blocks of a queued pair's second kernel wait for every block of the first, in words;
 * NULL when they can wait for rows of it. */
static char *deps_pair_why(const struct launch_pair *p, const struct source *src)
{
	for (int k = 0; k < 2; k++) {
		const struct queue_accesses *a = &p->deps[k];
		if (a->why) {
			int line, col;
			source_line_col(src, a->why_at, &line, &col);
			return xprintf("pipefy cannot bound what '%s' may touch in global memory: %s at %d:%d", k ? p->second : p->first,
				       a->why, line, col);
		}
	}
	for (int i = 0; i < p->deps[0].n; i++)
		if (p->deps[0].v[i].write)
			return NULL;
	return xprintf("'%s' writes no global memory pipefy sees", p->first);
}

void deps_launch_pairs(struct model *m, const struct source *src)
{
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		if (p->queue_refusal)
			continue;
		for (int k = 0; k < 2; k++)
			deps_of_kernel(k ? p->kernel : p->first_kernel, src, &p->deps[k]);
		p->waits_all = deps_pair_why(p, src);
	}
}
