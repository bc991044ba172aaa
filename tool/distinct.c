/* distinct.c: that a store inside loops writes another element on every trip (a fact for
 * check.c and helper.c). Two asynchronous copies of one thread to one shared address land in no
 * fixed order, where the loop as written keeps the last: a copy loop may become asynchronous only
 * where its trips store distinct elements.
 *
 * The fact is proved, not read off the shape: the element's byte offset is written as a sum over
 * the counters of the loops around the store, `a * i + b * j + (what no trip changes)`, and the
 * coefficients must set the trips apart, each loop's step moving the offset further than every
 * loop of smaller steps can move it back (`As[i][j]`, j under a row's length). A quotient and a
 * remainder of one value by one constant count as that value where they recombine,
 * `As[e / BK][e % BK]` with rows of BK elements, `(e >> 2) * 4 + (e & 3)`. Anything else (a
 * counter under a call, a product of two counters, a loop pipefy cannot count) is not proved.
 * Two copies of one tile (disjoint_copies) are apart only outside loops, as one access but for a
 * constant in one subscript. */
#include "cursor.h"
#include "pipefy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOOPS 4
#define MAX_ATOMS 8
#define MAX_DEPTH 24
#define BIG (1L << 31) /* a coefficient this large or larger: not proved */

/* A coefficient: c, times a positive factor known only at run time (blockDim.x) where pos. */
struct coef {
	long c;
	bool pos;
};

enum atom_kind { ATOM_DIV, ATOM_MOD, ATOM_SHR, ATOM_AND };

/* A quotient or remainder of x (affine in the counters) by the constant d, weighed w. */
struct atom {
	enum atom_kind kind;
	CXCursor xc; /* x */
	long d;    /* the divisor (ATOM_SHR: the shift; ATOM_AND: the mask) */
	char *dtext; /* a divisor known only at instantiation, as written (`BK`); d is then 0 */
	CXCursor dc; /* that divisor */
	char *per;   /* w is times this, known only at instantiation: a template's row length */
	struct coef x[MAX_LOOPS];
	struct coef w;
};

struct form {
	bool ok;
	struct coef a[MAX_LOOPS];
	struct atom atoms[MAX_ATOMS];
	int natoms;
};

struct counters {
	const struct source *src;
	CXCursor outer; /* the outermost loop */
	CXCursor var[MAX_LOOPS];
	CXCursor loop[MAX_LOOPS];
	CXCursor start[MAX_LOOPS]; /* the first value (null: unknown) */
	struct coef step[MAX_LOOPS]; /* (pos: at least c in size, its sign known only where up) */
	bool up[MAX_LOOPS];          /* the counter only grows */
	int n;
	const char *why; /* the first thing not proved */
	char named[96];  /* (a why that names a variable) */
};

static void form_free(struct form *f)
{
	for (int i = 0; i < f->natoms; i++) {
		free(f->atoms[i].dtext);
		free(f->atoms[i].per);
	}
	f->natoms = 0;
}

static struct form unknown(struct counters *cs, const char *why)
{
	if (!cs->why)
		cs->why = why;
	return (struct form){.ok = false};
}

static bool coef_zero(struct coef c) { return c.c == 0; }

static bool coef_add(struct coef *into, struct coef b)
{
	if (b.c == 0)
		return true;
	if (into->c == 0) {
		*into = b;
		return true;
	}
	if (into->pos || b.pos)
		return false; /* (c1 * P + c2 * Q, c1 + c2 * P: no size known, P and Q maybe unlike) */
	if (__builtin_add_overflow(into->c, b.c, &into->c))
		into->c = BIG;
	if (into->c == 0)
		into->pos = false;
	return true;
}

/* (a coefficient past what 32-bit index arithmetic holds is not proved to move the element) */
static struct coef coef_scale(struct coef a, long k, bool pos)
{
	long c;
	if (__builtin_mul_overflow(a.c, k, &c) || labs(c) >= BIG)
		c = BIG;
	return (struct coef){c, c && (a.pos || pos)};
}

/* (field by field: a struct coef has padding, which memcmp would compare) */
static bool same_coefs(const struct coef *a, const struct coef *b)
{
	for (int i = 0; i < MAX_LOOPS; i++)
		if (a[i].c != b[i].c || a[i].pos != b[i].pos)
			return false;
	return true;
}

static int counter_index(const struct counters *cs, CXCursor var)
{
	for (int i = 0; i < cs->n; i++)
		if (clang_equalCursors(cs->var[i], var))
			return i;
	return -1;
}

/* An integer type under 4 bytes (a value in it wraps, `unsigned char c = tid + 128 * m`), or
 * one whose size the template decides. */
static bool narrow(CXType t)
{
	t = clang_getCanonicalType(t);
	long bytes = clang_Type_getSizeOf(t);
	return bytes < 4 && (bytes < 0 || (t.kind >= CXType_Bool && t.kind <= CXType_Int128));
}

/* Whether e may differ between trips: it names a counter, a local declared inside the loops,
 * or a variable the loops write. */
struct varies_scan {
	const struct counters *cs;
	bool varies;
};

static enum CXChildVisitResult scan_varies(CXCursor c, CXCursor parent, void *data)
{
	(void)parent;
	struct varies_scan *v = data;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) != CXCursor_VarDecl && clang_getCursorKind(d) != CXCursor_ParmDecl)
		return CXChildVisit_Continue;
	if (counter_index(v->cs, d) >= 0 || cursor_declared_within(d, cursor_span(v->cs->outer)) ||
	    cursor_writes_var(v->cs->outer, d))
		v->varies = true;
	return v->varies ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool varies(const struct counters *cs, CXCursor e)
{
	struct varies_scan v = {.cs = cs};
	if (clang_getCursorKind(e) == CXCursor_DeclRefExpr)
		scan_varies(e, clang_getNullCursor(), &v);
	else
		clang_visitChildren(e, scan_varies, &v);
	return v.varies;
}

/* A value no trip changes and that is at least 1: a positive constant, blockDim's components,
 * their products, and locals set once to such a value. */
static bool positive(const struct counters *cs, CXCursor e, int depth)
{
	e = cursor_strip(e);
	bool ok;
	long v = cursor_evaluate_int(e, &ok);
	if (ok)
		return v > 0;
	char comp;
	if (cursor_builtin(cs->src, e, &comp) == 2)
		return true;
	if (clang_getCursorKind(e) == CXCursor_BinaryOperator &&
	    clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Mul)
		return positive(cs, cursor_first_child(e), depth) && positive(cs, cursor_last_child(e), depth);
	if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && depth < MAX_DEPTH) {
		CXCursor d = clang_getCursorReferenced(e);
		if (clang_getCursorKind(d) == CXCursor_VarDecl && effects_is_local(d) && !varies(cs, e) &&
		    !narrow(clang_getCursorType(d))) {
			CXCursor init = cursor_last_child(d);
			return !clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
			       !cursor_writes_var(clang_getCursorSemanticParent(d), d) && positive(cs, init, depth + 1);
		}
	}
	return false;
}

static struct form linear(struct counters *cs, CXCursor e, int depth);

/* A local declared before the loops that the outermost loop steps by a constant, once a trip:
 * one statement of its body's top level is `r += c` (or -=, ++, --), and nothing else of the
 * loop writes it (`a_row += ROWS;` after the copy of row a_row): r moves by c each trip. */
static bool stepped_once(const struct counters *cs, CXCursor var, long *by)
{
	if (cs->n == 0 || clang_getCursorKind(var) != CXCursor_VarDecl || !effects_is_local(var) ||
	    cursor_declared_within(var, cursor_span(cs->outer)) || !clang_equalCursors(cs->loop[0], cs->outer))
		return false;
	struct cursors kids = cursor_children(cs->outer);
	CXCursor body = kids.n == 4 ? kids.v[3] : clang_getNullCursor();
	bool head = kids.n == 4 && (cursor_writes_var(kids.v[0], var) || cursor_writes_var(kids.v[1], var) ||
				   cursor_writes_var(kids.v[2], var));
	free(kids.v);
	if (head || clang_getCursorKind(body) != CXCursor_CompoundStmt)
		return false;
	struct cursors stmts = cursor_children(body);
	int writers = 0;
	*by = 0;
	for (int i = 0; i < stmts.n; i++) {
		if (!cursor_writes_var(stmts.v[i], var))
			continue;
		writers++;
		CXCursor st = cursor_strip(stmts.v[i]);
		enum CXCursorKind k = clang_getCursorKind(st);
		bool ok = false;
		if (k == CXCursor_UnaryOperator && cursor_names_var(cursor_first_child(st), var)) {
			enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(st);
			*by = op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc   ? 1
			      : op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostDec ? -1
											      : 0;
			ok = *by != 0;
		} else if (k == CXCursor_CompoundAssignOperator && cursor_names_var(cursor_first_child(st), var)) {
			enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(st);
			long c = cursor_evaluate_int(cursor_last_child(st), &ok);
			ok = ok && c != 0 && labs(c) < BIG && (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign);
			*by = op == CXBinaryOperator_AddAssign ? c : -c;
		}
		if (!ok)
			*by = 0;
	}
	free(stmts.v);
	return writers == 1 && *by != 0 && !narrow(clang_getCursorType(var)) && !cursor_escapes(cs->outer, var);
}

static bool add_form(struct form *into, const struct form *b, long k)
{
	for (int i = 0; i < MAX_LOOPS; i++)
		if (!coef_add(&into->a[i], coef_scale(b->a[i], k, false)))
			return false;
	for (int i = 0; i < b->natoms; i++) {
		if (into->natoms == MAX_ATOMS)
			return false;
		struct atom at = b->atoms[i];
		at.dtext = at.dtext ? xstrdup(at.dtext) : NULL;
		at.per = at.per ? xstrdup(at.per) : NULL;
		at.w = coef_scale(at.w, k, false);
		into->atoms[into->natoms++] = at;
	}
	return true;
}

static struct form scaled(struct form f, long k, bool pos)
{
	for (int i = 0; i < MAX_LOOPS; i++)
		f.a[i] = coef_scale(f.a[i], k, pos);
	for (int i = 0; i < f.natoms; i++)
		f.atoms[i].w = coef_scale(f.atoms[i].w, k, pos);
	return f;
}

/* x / d, x % d, x >> s, x & m: an atom of x, which must be affine in the counters. */
static struct form atom_of(struct counters *cs, CXCursor x, enum atom_kind kind, long d, char *dtext, CXCursor dc,
			   int depth)
{
	struct form fx = linear(cs, x, depth + 1);
	if (!fx.ok) {
		free(dtext);
		return fx;
	}
	if (fx.natoms) {
		form_free(&fx);
		free(dtext);
		return unknown(cs, "a quotient or remainder of a quotient or remainder");
	}
	struct form f = {.ok = true, .natoms = 1};
	f.atoms[0] = (struct atom){.kind = kind, .xc = x, .d = d,
				   .dtext = dtext, .dc = dc, .w = {1, false}};
	memcpy(f.atoms[0].x, fx.a, sizeof fx.a);
	return f;
}

static struct form linear_binary(struct counters *cs, CXCursor e, int depth)
{
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
	CXCursor l = cursor_first_child(e), r = cursor_last_child(e);
	bool ok;
	long k = cursor_evaluate_int(r, &ok);
	if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) {
		struct form a = linear(cs, l, depth + 1), b = linear(cs, r, depth + 1);
		bool fine = a.ok && b.ok && add_form(&a, &b, op == CXBinaryOperator_Add ? 1 : -1);
		form_free(&b);
		if (!fine) {
			form_free(&a);
			return unknown(cs, a.ok && b.ok ? "a sum pipefy cannot add up" : NULL);
		}
		return a;
	}
	if (op == CXBinaryOperator_Mul) {
		CXCursor other = l;
		long c = k;
		bool pos = false;
		if (!ok) {
			c = cursor_evaluate_int(l, &ok);
			other = r;
		}
		if (!ok) { /* (a factor no trip changes and at least 1: `i * blockDim.x`) */
			if (!varies(cs, r) && positive(cs, r, 0))
				other = l, c = 1, ok = pos = true;
			else if (!varies(cs, l) && positive(cs, l, 0))
				other = r, c = 1, ok = pos = true;
		}
		if (!ok && (varies(cs, l) && varies(cs, r)))
			return unknown(cs, "a product of two values that change between trips");
		if (!ok) {
			if (!cs->why) {
				char *t = span_squeezed(cs->src, cursor_span(cursor_strip(varies(cs, l) ? r : l)));
				snprintf(cs->named, sizeof cs->named, "a counter times '%.40s', which pipefy cannot show is not 0", t);
				free(t);
				cs->why = cs->named;
			}
			return (struct form){.ok = false};
		}
		return scaled(linear(cs, other, depth + 1), c, pos);
	}
	if (op == CXBinaryOperator_Shl && ok && k >= 0 && k < 31)
		return scaled(linear(cs, l, depth + 1), 1L << k, false);
	if (op == CXBinaryOperator_Div && ok && k > 0)
		return atom_of(cs, l, ATOM_DIV, k, NULL, clang_getNullCursor(), depth);
	if (op == CXBinaryOperator_Rem && ok && k > 0)
		return atom_of(cs, l, ATOM_MOD, k, NULL, clang_getNullCursor(), depth);
	/* (by a divisor the instantiation fixes, `i / BK`: (i / BK) * BK + i % BK is i whatever BK is,
	 * and a BK of 0 divides by zero in the loop as written) */
	if ((op == CXBinaryOperator_Div || op == CXBinaryOperator_Rem) && !ok && !varies(cs, r))
		return atom_of(cs, l, op == CXBinaryOperator_Div ? ATOM_DIV : ATOM_MOD, 0,
			       span_squeezed(cs->src, cursor_span(cursor_strip(r))), r, depth);
	if (op == CXBinaryOperator_Shr && ok && k >= 0 && k < 31)
		return atom_of(cs, l, ATOM_SHR, k, NULL, clang_getNullCursor(), depth);
	if (op == CXBinaryOperator_And && ok && k > 0 && (k & (k + 1)) == 0)
		return atom_of(cs, l, ATOM_AND, k, NULL, clang_getNullCursor(), depth);
	return unknown(cs, "an operation on a counter other than +, -, * by a constant, / and % by one");
}

/* e as a sum over the counters (and atoms), what no trip changes left out. */
static struct form linear(struct counters *cs, CXCursor e, int depth)
{
	e = cursor_strip(e);
	if (depth > MAX_DEPTH)
		return unknown(cs, "an index computed too deep");
	if (!varies(cs, e))
		return (struct form){.ok = true};
	if (narrow(clang_getCursorType(e)))
		return unknown(cs, "a counter in a type under 4 bytes");
	enum CXCursorKind k = clang_getCursorKind(e);
	if (cursor_kind_is_cast(k)) {
		CXType t = clang_getCanonicalType(clang_getCursorType(e));
		long bytes = clang_Type_getSizeOf(t);
		if (t.kind < CXType_Bool || t.kind > CXType_Int128 || bytes < 4)
			return unknown(cs, "a cast of a counter to a narrow type");
		return linear(cs, cursor_last_child(e), depth + 1);
	}
	if (k == CXCursor_ParenExpr)
		return linear(cs, cursor_first_child(e), depth + 1);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		int i = counter_index(cs, d);
		if (i >= 0) {
			struct form f = {.ok = true};
			f.a[i] = cs->step[i]; /* (by trips: the counter moves a step each) */
			return f;
		}
		/* (a local of the loops set once: its initializer, read where it is declared) */
		CXCursor init = cursor_last_child(d);
		if (clang_getCursorKind(d) == CXCursor_VarDecl && narrow(clang_getCursorType(d)))
			return unknown(cs, "a counter in a type under 4 bytes");
		long by;
		if (stepped_once(cs, d, &by)) { /* (a second counter of the outermost loop) */
			struct form f = {.ok = true};
			f.a[0] = (struct coef){by, false};
			return f;
		}
		if (clang_getCursorKind(d) == CXCursor_VarDecl && cursor_declared_within(d, cursor_span(cs->outer)) &&
		    !clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
		    !cursor_writes_var(cs->outer, d))
			return linear(cs, init, depth + 1);
		if (!cs->why) {
			char *name = cursor_name(d);
			snprintf(cs->named, sizeof cs->named, "'%s', which the loop changes", name);
			free(name);
			cs->why = cs->named;
		}
		return (struct form){.ok = false};
	}
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op == CXUnaryOperator_Minus)
			return scaled(linear(cs, cursor_first_child(e), depth + 1), -1, false);
		if (op == CXUnaryOperator_Plus)
			return linear(cs, cursor_first_child(e), depth + 1);
		return unknown(cs, "an operation on a counter other than +, -, * by a constant, / and % by one");
	}
	if (k == CXCursor_BinaryOperator)
		return linear_binary(cs, e, depth);
	return unknown(cs, "a counter under a call or a condition");
}

/* The bytes of what an array or pointer of type t holds, or 0; a template's row of unknown
 * length counts as one element of it (a row of 0 elements holds none to store). */
static long held_bytes(CXType t)
{
	t = clang_getCanonicalType(t);
	CXType el = t.kind == CXType_Pointer ? clang_getPointeeType(t) : clang_getArrayElementType(t);
	long size = clang_Type_getSizeOf(el);
	if (size <= 0 && clang_getCanonicalType(el).kind == CXType_DependentSizedArray)
		size = clang_Type_getSizeOf(clang_getArrayElementType(clang_getCanonicalType(el)));
	return size > 0 ? size : 0;
}

/* Whether `in` leaves pointer var where it points: no assignment, ++ or -- of it, and its
 * address not taken (stores through it, `p[i] = v`, do not move it). */
struct kept_scan {
	CXCursor var;
	bool moved;
};

static enum CXChildVisitResult scan_kept(CXCursor c, CXCursor parent, void *data)
{
	(void)parent;
	struct kept_scan *k = data;
	enum CXCursorKind kind = clang_getCursorKind(c);
	if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) {
		bool assign = kind == CXCursor_CompoundAssignOperator ||
			      clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign;
		if (assign && cursor_names_var(cursor_first_child(c), k->var))
			k->moved = true;
	} else if (kind == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if ((op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreDec ||
		     op == CXUnaryOperator_PostDec || op == CXUnaryOperator_AddrOf) &&
		    cursor_names_var(cursor_first_child(c), k->var))
			k->moved = true;
	} else if (kind == CXCursor_CallExpr || kind == CXCursor_LambdaExpr) {
		/* (a call may bind a reference to it) */
		if (cursor_escapes(c, k->var))
			k->moved = true;
	}
	return k->moved ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool pointer_kept(CXCursor in, CXCursor var)
{
	struct kept_scan k = {var, false};
	clang_visitChildren(in, scan_kept, &k);
	return !k.moved;
}

/* The element's byte offset: each subscript times the size of what it selects, through
 * member access, address-of and casts of pointers (`*(float4 *)&As[r][c]`). */
static struct form offset_of(struct counters *cs, CXCursor e, int depth)
{
	e = cursor_strip(e);
	if (depth > MAX_DEPTH)
		return unknown(cs, "an address computed too deep");
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_ParenExpr || cursor_kind_is_cast(k))
		return offset_of(cs, cursor_last_child(e), depth + 1);
	if (k == CXCursor_ArraySubscriptExpr) {
		CXType et = clang_getCanonicalType(clang_getCursorType(e));
		long size = clang_Type_getSizeOf(et);
		char *per = NULL;
		if (size <= 0 && et.kind != CXType_DependentSizedArray) /* (a template's element, by its array) */
			size = held_bytes(clang_getCursorType(cursor_strip(cursor_first_child(e))));
		if (size <= 0 && et.kind == CXType_DependentSizedArray) {
			/* (a row of a template's length, `T[BK]`: BK rows of T, BK as the type spells it) */
			size = clang_Type_getSizeOf(clang_getArrayElementType(et));
			char *sp = type_spelling(et);
			char *open = strrchr(sp, '['), *close = strrchr(sp, ']');
			if (open && close > open + 1) {
				per = xstrndup(open + 1, (size_t)(close - open - 1));
				char *w = per; /* (blanks squeezed out, as span_squeezed writes the divisor) */
				for (char *r = per; *r; r++)
					if (*r != ' ')
						*w++ = *r;
				*w = '\0';
			}
			free(sp);
		}
		if (size <= 0) {
			free(per);
			return unknown(cs, "an element whose size is not known");
		}
		struct form base = offset_of(cs, cursor_first_child(e), depth + 1);
		struct form idx = linear(cs, cursor_last_child(e), depth + 1);
		bool fine = base.ok && idx.ok;
		if (fine && per) {
			/* (a counter times the row moves by at least its element: a row of 0 elements holds
			 * none to store; a quotient must meet its remainder) */
			for (int i = 0; i < MAX_LOOPS; i++)
				idx.a[i] = coef_scale(idx.a[i], size, true);
			for (int i = 0; i < idx.natoms && fine; i++) {
				fine = !idx.atoms[i].per;
				if (fine)
					idx.atoms[i].per = xstrdup(per);
				idx.atoms[i].w = coef_scale(idx.atoms[i].w, size, false);
			}
		} else if (fine)
			idx = scaled(idx, size, false);
		free(per);
		fine = fine && add_form(&base, &idx, 1);
		form_free(&idx);
		if (!fine) {
			form_free(&base);
			return unknown(cs, "an address pipefy cannot add up");
		}
		return base;
	}
	if (k == CXCursor_MemberRefExpr)
		return offset_of(cs, cursor_first_child(e), depth + 1);
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op == CXUnaryOperator_Deref || op == CXUnaryOperator_AddrOf)
			return offset_of(cs, cursor_first_child(e), depth + 1);
	}
	if (k == CXCursor_BinaryOperator) { /* p + i, p - i on a pointer */
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		CXCursor l = cursor_first_child(e), r = cursor_last_child(e);
		CXType lt = clang_getCanonicalType(clang_getCursorType(cursor_strip(l)));
		if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && lt.kind == CXType_Pointer) {
			long size = clang_Type_getSizeOf(clang_getPointeeType(lt));
			struct form base = offset_of(cs, l, depth + 1);
			struct form idx = size > 0 ? linear(cs, r, depth + 1) : unknown(cs, "an element whose size is not known");
			bool fine = base.ok && idx.ok;
			if (fine) {
				struct form s = scaled(idx, size, false);
				fine = add_form(&base, &s, op == CXBinaryOperator_Add ? 1 : -1);
			}
			form_free(&idx);
			if (!fine) {
				form_free(&base);
				return unknown(cs, "an address pipefy cannot add up");
			}
			return base;
		}
	}
	if (k == CXCursor_DeclRefExpr) {
		/* (an array stays where it is, whatever is stored in it; a pointer that the loops only
		 * read, storing through it, points where it did) */
		CXType t = clang_getCanonicalType(clang_getCursorType(e));
		CXCursor d = clang_getCursorReferenced(e);
		if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
		    t.kind == CXType_DependentSizedArray || t.kind == CXType_VariableArray)
			return (struct form){.ok = true};
		if (t.kind == CXType_Pointer && counter_index(cs, d) < 0 &&
		    !cursor_declared_within(d, cursor_span(cs->outer)) && pointer_kept(cs->outer, d))
			return (struct form){.ok = true};
	}
	if (!varies(cs, e))
		return (struct form){.ok = true}; /* (a pointer no trip moves) */
	return unknown(cs, "a pointer the loop moves");
}

/* Whether a and b are the same expression of the same variables: kind by kind, operator by
 * operator, a name for the same declaration, a constant for the same value (so that a shadowed
 * name, or a macro of __LINE__, is told apart where the text is alike). */
static bool same_expr(const struct source *src, CXCursor a, CXCursor b, int depth)
{
	a = cursor_strip(a);
	b = cursor_strip(b);
	if (depth > MAX_DEPTH || clang_getCursorKind(a) != clang_getCursorKind(b))
		return false;
	bool oka, okb;
	long va = cursor_evaluate_int(a, &oka), vb = cursor_evaluate_int(b, &okb);
	if (oka || okb)
		return oka && okb && va == vb;
	enum CXCursorKind k = clang_getCursorKind(a);
	if (k == CXCursor_DeclRefExpr)
		return clang_equalCursors(clang_getCursorReferenced(a), clang_getCursorReferenced(b));
	if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(a) != clang_getCursorBinaryOperatorKind(b))
		return false;
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(a) != clang_getCursorUnaryOperatorKind(b))
		return false;
	if (k == CXCursor_MemberRefExpr) {
		CXCursor ma = clang_getCursorReferenced(a), mb = clang_getCursorReferenced(b);
		if (clang_Cursor_isNull(ma) || !clang_equalCursors(ma, mb)) {
			/* (threadIdx.x: libclang names no member of the toolkit's variables) */
			char *ta = span_squeezed(src, cursor_span(a)), *tb = span_squeezed(src, cursor_span(b));
			bool same = strcmp(ta, tb) == 0;
			free(ta);
			free(tb);
			if (!same)
				return false;
		}
	}
	if (k != CXCursor_BinaryOperator && k != CXCursor_UnaryOperator && k != CXCursor_ParenExpr &&
	    k != CXCursor_MemberRefExpr && !cursor_kind_is_cast(k) && k != CXCursor_ArraySubscriptExpr)
		return false;
	if (cursor_kind_is_cast(k) && !clang_equalTypes(clang_getCanonicalType(clang_getCursorType(a)),
							 clang_getCanonicalType(clang_getCursorType(b))))
		return false;
	struct cursors ka = cursor_children(a), kb = cursor_children(b);
	bool same = ka.n == kb.n;
	for (int i = 0; i < ka.n && same; i++)
		same = same_expr(src, ka.v[i], kb.v[i], depth + 1);
	free(ka.v);
	free(kb.v);
	return same;
}

/* (x / d) * d + x % d == x, and (x >> s) << s + (x & (2^s - 1)) == x: such pairs become x;
 * false when an atom is left over. */
static bool recombine(struct counters *cs, struct form *f)
{
	for (int i = 0; i < f->natoms; i++) {
		struct atom *q = &f->atoms[i];
		if (coef_zero(q->w) || (q->kind != ATOM_DIV && q->kind != ATOM_SHR))
			continue;
		long d = q->kind == ATOM_DIV ? q->d : 1L << q->d;
		for (int j = 0; j < f->natoms; j++) {
			struct atom *r = &f->atoms[j];
			bool pair = (q->kind == ATOM_DIV && r->kind == ATOM_MOD && r->d == q->d) ||
				    (q->kind == ATOM_SHR && r->kind == ATOM_AND && r->d == d - 1);
			/* (a divisor the instantiation fixes meets the row length of the same name) */
			bool dtext = q->dtext || r->dtext;
			if (dtext)
				pair = pair && q->dtext && r->dtext && strcmp(q->dtext, r->dtext) == 0 &&
				       same_expr(cs->src, q->dc, r->dc, 0);
			bool weighed = dtext ? q->per && !r->per && strcmp(q->per, q->dtext) == 0 && q->w.c == r->w.c
					     : !q->per && !r->per && q->w.c == r->w.c * d;
			if (!pair || !weighed || !same_expr(cs->src, q->xc, r->xc, 0) || !same_coefs(q->x, r->x) ||
			    coef_zero(r->w) || r->w.pos != q->w.pos)
				continue;
			for (int k = 0; k < MAX_LOOPS; k++)
				if (!coef_add(&f->a[k], coef_scale(q->x[k], r->w.c, r->w.pos)))
					return false;
			q->w = r->w = (struct coef){0, false};
			break;
		}
	}
	for (int i = 0; i < f->natoms; i++)
		if (!coef_zero(f->atoms[i].w))
			return false;
	return true;
}

/* Whether e is never negative: constants, unsigned values, the thread and block indices and
 * sizes, sums, products, quotients and remainders of such, counters that start at one and count
 * up, locals set once to one. */
static bool nonneg(const struct counters *cs, CXCursor e, int depth)
{
	e = cursor_strip(e);
	if (depth > MAX_DEPTH)
		return false;
	bool ok;
	long v = cursor_evaluate_int(e, &ok);
	if (ok)
		return v >= 0;
	CXType t = clang_getCanonicalType(clang_getCursorType(e));
	if (t.kind >= CXType_UChar && t.kind <= CXType_UInt128 && t.kind != CXType_Char16 && t.kind != CXType_Char32)
		return true;
	char comp;
	if (cursor_builtin(cs->src, e, &comp) >= 0)
		return true;
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_ParenExpr)
		return nonneg(cs, cursor_first_child(e), depth + 1);
	if (cursor_kind_is_cast(k))
		return t.kind >= CXType_Bool && t.kind <= CXType_Int128 && clang_Type_getSizeOf(t) >= 4 &&
		       nonneg(cs, cursor_last_child(e), depth + 1);
	if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		bool l = nonneg(cs, cursor_first_child(e), depth + 1), r = nonneg(cs, cursor_last_child(e), depth + 1);
		if (op == CXBinaryOperator_And)
			return l || r;
		return (op == CXBinaryOperator_Add || op == CXBinaryOperator_Mul || op == CXBinaryOperator_Div ||
			op == CXBinaryOperator_Rem || op == CXBinaryOperator_Shr) && l && r;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		int i = counter_index(cs, d);
		if (i >= 0)
			return !clang_Cursor_isNull(cs->start[i]) && cs->up[i] &&
			       nonneg(cs, cs->start[i], depth + 1);
		CXCursor init = cursor_last_child(d);
		return clang_getCursorKind(d) == CXCursor_VarDecl && effects_is_local(d) && !narrow(clang_getCursorType(d)) &&
		       !clang_Cursor_isNull(init) &&
		       clang_isExpression(clang_getCursorKind(init)) &&
		       !cursor_writes_var(clang_getCursorSemanticParent(d), d) && nonneg(cs, init, depth + 1);
	}
	return false;
}

/* What recombine leaves, where it is one quotient and the remainder of one value x by d, and
 * nothing else moves: the two are digits of x (x never negative: the remainder lies in [0, d)),
 * and the quotient's weight outruns the remainder's over its range (rows of d elements and
 * padding, `As[i / 4][(i % 4) * 8]` in rows of 40): the offset is another wherever x is, so x
 * takes the form's place. */
static bool digits(struct counters *cs, struct form *f, long width)
{
	struct atom *q = NULL, *r = NULL;
	for (int i = 0; i < f->natoms; i++) {
		struct atom *a = &f->atoms[i];
		if (coef_zero(a->w))
			continue;
		if ((a->kind == ATOM_DIV || a->kind == ATOM_SHR) && !q)
			q = a;
		else if ((a->kind == ATOM_MOD || a->kind == ATOM_AND) && !r)
			r = a;
		else
			return false;
	}
	for (int k = 0; k < MAX_LOOPS; k++)
		if (!coef_zero(f->a[k]))
			return false;
	if (!q || !r || !same_expr(cs->src, q->xc, r->xc, 0) || !same_coefs(q->x, r->x) || q->w.pos || r->w.pos ||
	    q->dtext || r->dtext || q->per || r->per)
		return false;
	long d = q->kind == ATOM_DIV ? q->d : 1L << q->d;
	bool pair = (q->kind == ATOM_DIV && r->kind == ATOM_MOD && r->d == d) ||
		    (q->kind == ATOM_SHR && r->kind == ATOM_AND && r->d == d - 1);
	/* (two values of x an element apart or more: another remainder, or another quotient past
	 * every remainder's reach) */
	if (!pair || labs(r->w.c) < width || labs(q->w.c) < labs(r->w.c) * (d - 1) + width)
		return false;
	if (!nonneg(cs, q->xc, 0)) /* (the same text as the remainder's x: the same value) */
		return false;
	memcpy(f->a, q->x, sizeof f->a);
	q->w = r->w = (struct coef){0, false};
	return true;
}

/* A test that is `i < B`, `i <= B` or `i != B` alone, B the same on every trip. */
static bool bounded_by(const struct counters *cs, CXCursor cond, CXCursor var)
{
	cond = cursor_strip(cond);
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
		return false;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
	return (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE || op == CXBinaryOperator_NE) &&
	       cursor_names_var(cursor_first_child(cond), var) && !varies(cs, cursor_last_child(cond));
}

/* A for statement's counter (declared in its init, or a local its init assigns whole), its
 * step (a constant, or a positive run-time value: `i += blockDim.x`) and how far it moves over
 * the loop (*reach, the last value less the first; -1 when not known). */
static bool read_loop(struct counters *cs, CXCursor loop, CXCursor *var, CXCursor *first, struct coef *step, bool *up,
		      long *reach)
{
	if (clang_getCursorKind(loop) != CXCursor_ForStmt)
		return false;
	struct cursors kids = cursor_children(loop);
	CXCursor init = kids.n == 4 ? kids.v[0] : clang_getNullCursor();
	CXCursor cond = kids.n == 4 ? kids.v[1] : clang_getNullCursor();
	CXCursor inc = kids.n == 4 ? kids.v[2] : clang_getNullCursor();
	CXCursor body = kids.n == 4 ? kids.v[3] : clang_getNullCursor();
	free(kids.v);
	CXCursor start = clang_getNullCursor();
	*var = clang_getNullCursor();
	if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
		struct cursors vars = cursor_children(init);
		if (vars.n == 1 && clang_getCursorKind(vars.v[0]) == CXCursor_VarDecl) {
			*var = vars.v[0];
			start = cursor_last_child(vars.v[0]);
		}
		free(vars.v);
	} else if (!cursor_for_assigns(loop, var, &start))
		return false;
	if (clang_Cursor_isNull(*var) || clang_Cursor_isNull(body) || narrow(clang_getCursorType(*var)) ||
	    cursor_writes_var(body, *var) ||
	    (!clang_Cursor_isNull(cond) && cursor_writes_var(cond, *var)))
		return false;
	/* the step */
	inc = cursor_strip(inc);
	bool ok = false;
	*step = (struct coef){0, false};
	if (clang_getCursorKind(inc) == CXCursor_UnaryOperator && cursor_names_var(cursor_first_child(inc), *var)) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
		if (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc)
			*step = (struct coef){1, false}, ok = true;
		else if (op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostDec)
			*step = (struct coef){-1, false}, ok = true;
	} else if (clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator &&
		   cursor_names_var(cursor_first_child(inc), *var)) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(inc);
		CXCursor by = cursor_last_child(inc);
		long s = cursor_evaluate_int(by, &ok);
		if (ok && s != 0 && (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign))
			*step = (struct coef){op == CXBinaryOperator_AddAssign ? s : -s, false};
		else if (!ok && op == CXBinaryOperator_AddAssign && !varies(cs, by) && positive(cs, by, 0))
			*step = (struct coef){1, true}, ok = true;
		else if (!ok && !varies(cs, by) && bounded_by(cs, cond, *var)) {
			/* (a step no trip changes, of a value pipefy cannot tell: were it 0, the test would
			 * hold on every trip or on none, and a loop that ends moves its counter each trip) */
			*step = (struct coef){1, true}, ok = true;
			*up = false;
			*first = start;
			*reach = -1;
			return true;
		} else
			ok = false;
	}
	if (!ok)
		return false;
	*up = step->c > 0;
	*first = start;
	/* how far it moves: `i < B` (or <=) from a constant start, or from one never negative
	 * (`c = tx`: at most from 0), counting up by a constant */
	*reach = -1;
	bool ok0 = false, ok1;
	long c0 = clang_Cursor_isNull(start) ? 0 : cursor_evaluate_int(start, &ok0);
	if (!ok0 && !clang_Cursor_isNull(start) && nonneg(cs, start, 0))
		c0 = 0, ok0 = true;
	cond = cursor_strip(cond);
	if (!clang_Cursor_isNull(start) && ok0 && !step->pos && step->c > 0 &&
	    clang_getCursorKind(cond) == CXCursor_BinaryOperator &&
	    cursor_names_var(cursor_first_child(cond), *var)) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
		long c1 = cursor_evaluate_int(cursor_last_child(cond), &ok1);
		if (ok1 && op == CXBinaryOperator_LE)
			c1++;
		if (ok1 && (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE))
			*reach = c1 > c0 ? (c1 - 1 - c0) / step->c : 0; /* (trips after the first) */
	}
	return true;
}

/* The loops from outer down to the one around target (outer included, where it is one). */
struct path_scan {
	CXCursor loops[MAX_LOOPS + 1];
	int n;
};

static enum CXChildVisitResult collect_loop(CXCursor c, void *data)
{
	struct path_scan *p = data;
	if (cursor_is_loop(c) && p->n <= MAX_LOOPS)
		p->loops[p->n++] = c;
	return CXChildVisit_Recurse;
}

static struct path_scan loops_around(CXCursor target, CXCursor outer)
{
	struct path_scan p = {.n = 0};
	if (span_within(cursor_span(target), cursor_span(outer)))
		collect_loop(outer, &p);
	cursor_visit_around(outer, cursor_span(target), collect_loop, &p);
	return p;
}

/* The bytes a store to target writes (an address: what it points to); 0 when not known. */
static long store_width(CXCursor target)
{
	CXCursor st = cursor_strip(target);
	CXType tt = clang_getCanonicalType(clang_getCursorType(st));
	long width = clang_Type_getSizeOf(tt.kind == CXType_Pointer ? clang_getPointeeType(tt) : tt);
	if (width <= 0 && clang_getCursorKind(st) == CXCursor_ArraySubscriptExpr) /* (a template's element) */
		width = held_bytes(clang_getCursorType(cursor_strip(cursor_first_child(st))));
	return width > 0 ? width : 0;
}

char *distinct_elements(CXCursor target, CXCursor outer, const struct source *src)
{
	struct path_scan p = loops_around(target, outer);
	if (p.n > MAX_LOOPS)
		return xstrdup("it sits in more loops than pipefy follows");
	/* (what varies between trips is what the loops change: a pointer the statement sets before
	 * them is set once) */
	struct counters cs = {.src = src, .outer = p.n ? p.loops[0] : outer};
	struct coef *step = cs.step;
	long reach[MAX_LOOPS];
	for (int i = 0; i < p.n; i++) {
		if (cursor_one_trip(p.loops[i], src))
			continue;
		CXCursor var;
		if (!read_loop(&cs, p.loops[i], &var, &cs.start[cs.n], &step[cs.n], &cs.up[cs.n], &reach[cs.n])) {
			int line, col;
			source_line_col(src, cursor_span(p.loops[i]).begin, &line, &col);
			return xprintf("the loop at %d:%d is not `for (i = ..; ..; i += step)` with a step pipefy knows", line,
				       col);
		}
		/* (an inner loop that starts where an outer trip puts it, `j = i`, has values that are no
		 * multiples of its step apart across the outer trips) */
		if (cs.n > 0 && !clang_Cursor_isNull(cs.start[cs.n]) && varies(&cs, cs.start[cs.n])) {
			int line, col;
			source_line_col(src, cursor_span(p.loops[i]).begin, &line, &col);
			return xprintf("the loop at %d:%d starts at a value the loops around it change", line, col);
		}
		cs.loop[cs.n] = p.loops[i];
		cs.var[cs.n++] = var;
	}
	if (cs.n == 0)
		return NULL;
	/* the bytes a store writes: a move must clear them too */
	long width = store_width(target);
	if (width <= 0)
		return xstrdup("the size of what it stores is not known");
	struct form f = offset_of(&cs, target, 0);
	if (!f.ok)
		return xstrdup(cs.why ? cs.why : "an address pipefy cannot add up");
	bool whole = recombine(&cs, &f);
	if (!whole && digits(&cs, &f, width)) /* (x's trips stand for the element's: apart by one) */
		whole = true, width = 1;
	form_free(&f);
	if (!whole)
		return xstrdup("a quotient and remainder of a counter that do not set its values apart");
	/* each trip's move, in bytes: a counter's coefficient times its step; sorted by size, each
	 * must outrun what every smaller one can add up to over its loop */
	struct coef move[MAX_LOOPS];
	int order[MAX_LOOPS];
	for (int i = 0; i < cs.n; i++) {
		move[i] = f.a[i];
		if (coef_zero(move[i])) {
			char *name = cursor_name(cs.var[i]);
			char *why = xprintf("its element does not move with '%s'", name);
			free(name);
			return why;
		}
		order[i] = i;
	}
	for (int i = 1; i < cs.n; i++) /* (by |move|, a run-time one last) */
		for (int j = i; j > 0; j--) {
			struct coef a = move[order[j - 1]], b = move[order[j]];
			bool swap = (a.pos && !b.pos) || (a.pos == b.pos && labs(a.c) > labs(b.c));
			if (!swap)
				break;
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	long below = 0; /* how far the smaller moves reach together */
	for (int i = 0; i < cs.n; i++) {
		int k = order[i];
		if (move[k].pos && i < cs.n - 1)
			return xstrdup("two of its loops step by amounts known only at run time");
		if (labs(move[k].c) >= BIG || below >= BIG)
			return xstrdup("an index past what 32-bit arithmetic holds");
		if (labs(move[k].c) < below + width) {
			char *name = cursor_name(cs.var[k]);
			char *why = xprintf("a trip of '%s' may land on an element another loop's trips reach", name);
			free(name);
			return why;
		}
		if (i < cs.n - 1) {
			long r;
			if (reach[k] < 0 || __builtin_mul_overflow(labs(f.a[k].c), reach[k], &r)) {
				char *name = cursor_name(cs.var[k]);
				char *why = xprintf("how far '%s' runs is not known", name);
				free(name);
				return why;
			}
			below += r;
		}
	}
	return NULL;
}

/* e as X + c, c a constant (X null where e is one): a trailing `+ c` or `- c` split off. */
static CXCursor split_constant(CXCursor e, long *c)
{
	e = cursor_strip(e);
	bool ok;
	*c = cursor_evaluate_int(e, &ok);
	if (ok)
		return clang_getNullCursor();
	*c = 0;
	if (clang_getCursorKind(e) == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		long k = cursor_evaluate_int(cursor_last_child(e), &ok);
		if (ok && (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && labs(k) < BIG) {
			*c = op == CXBinaryOperator_Add ? k : -k;
			return cursor_strip(cursor_first_child(e));
		}
	}
	return e;
}

/* Whether a and b write apart: the same access, `As[r][c]` and `As[r + 16][c]`, but for one
 * subscript, which differs by a constant whose elements clear the bytes stored (an index is
 * within its array's bounds: a program's stores out of them are no program). */
static bool apart_by_constant(const struct source *src, CXCursor a, CXCursor b, long width, int *differing)
{
	a = cursor_strip(a);
	b = cursor_strip(b);
	enum CXCursorKind k = clang_getCursorKind(a);
	if (k != clang_getCursorKind(b))
		return false;
	if (k == CXCursor_ParenExpr || cursor_kind_is_cast(k) ||
	    (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(a) == clang_getCursorUnaryOperatorKind(b) &&
	     (clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_Deref ||
	      clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_AddrOf))) {
		if (cursor_kind_is_cast(k) && !clang_equalTypes(clang_getCanonicalType(clang_getCursorType(a)),
								 clang_getCanonicalType(clang_getCursorType(b))))
			return false;
		return apart_by_constant(src, cursor_last_child(a), cursor_last_child(b), width, differing);
	}
	if (k == CXCursor_DeclRefExpr)
		return clang_equalCursors(clang_getCursorReferenced(a), clang_getCursorReferenced(b));
	if (k != CXCursor_ArraySubscriptExpr)
		return false;
	long ca, cb;
	CXCursor xa = split_constant(cursor_last_child(a), &ca), xb = split_constant(cursor_last_child(b), &cb);
	bool same_x = clang_Cursor_isNull(xa) ? clang_Cursor_isNull(xb)
					      : !clang_Cursor_isNull(xb) && same_expr(src, xa, xb, 0);
	if (!same_x)
		return false;
	if (ca != cb) {
		/* (what one step of the subscript moves over; in a template at least one element) */
		long size = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(a)));
		if (size <= 0)
			size = held_bytes(clang_getCursorType(cursor_strip(cursor_first_child(a))));
		if ((*differing)++ || size <= 0 || labs(ca - cb) * size < width)
			return false;
	}
	return apart_by_constant(src, cursor_first_child(a), cursor_first_child(b), width, differing);
}

/* Whether the loops around target, from outer in, run more than one trip. */
static bool in_loops(CXCursor target, CXCursor outer, const struct source *src)
{
	struct path_scan p = loops_around(target, outer);
	for (int i = 0; i < p.n; i++)
		if (!cursor_one_trip(p.loops[i], src))
			return true;
	return false;
}

char *disjoint_copies(CXCursor a, CXCursor outer_a, CXCursor b, CXCursor outer_b, const struct source *src)
{
	if (in_loops(a, outer_a, src) || in_loops(b, outer_b, src))
		return xstrdup("pipefy proves two copies of one tile apart only where neither is in a loop");
	CXType ta = clang_getCanonicalType(clang_getCursorType(cursor_strip(a)));
	CXType tb = clang_getCanonicalType(clang_getCursorType(cursor_strip(b)));
	long width = store_width(a);
	int differing = 0;
	if (!clang_equalTypes(ta, tb) || width <= 0 || !apart_by_constant(src, a, b, width, &differing) ||
	    differing != 1)
		return xstrdup("their elements are not the same access but for a constant in one subscript");
	return NULL;
}
