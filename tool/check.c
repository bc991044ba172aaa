/* check.c: legality. A loop is left alone, with a reason that names the statement, unless
 * the rewrite provably keeps its meaning. */
#include "pipefy.h"

#include <ctype.h>
#include <stdlib.h>

static void pos(const struct source *src, size_t offset, int *line, int *col)
{
	source_line_col(src, offset, line, col);
}

/* ---- control flow that leaves the body or skips its end ---- */

struct flow_scan {
	int loop_depth;   /* loops and switches nested inside the body */
	CXCursor bad;
	const char *what;
};

static enum CXChildVisitResult scan_flow(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct flow_scan *s = data;
	switch (clang_getCursorKind(c)) {
	case CXCursor_ReturnStmt:
		s->bad = c, s->what = "return";
		return CXChildVisit_Break;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		s->bad = c, s->what = "goto";
		return CXChildVisit_Break;
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		if (s->loop_depth == 0) {
			s->bad = c;
			s->what = clang_getCursorKind(c) == CXCursor_BreakStmt ? "break" : "continue";
			return CXChildVisit_Break;
		}
		return CXChildVisit_Continue;
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_SwitchStmt: {
		s->loop_depth++;
		clang_visitChildren(c, scan_flow, s);
		s->loop_depth--;
		return clang_Cursor_isNull(s->bad) ? CXChildVisit_Continue : CXChildVisit_Break;
	}
	case CXCursor_LambdaExpr:
		return CXChildVisit_Continue;
	default:
		return CXChildVisit_Recurse;
	}
}

/* ---- calls that show the loop is already pipelined, and nested barriers ---- */

struct call_scan {
	CXCursor pipelined;
	CXCursor nested_barrier;
	const struct source *src;
};

/* The name a call is made by; for a lambda's `f()` (operator() on f), the object's name. */
static char *call_name(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *name = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	if (strcmp(name, "operator()") == 0) {
		CXCursor first = cursor_first_child(c);
		CXCursor object = clang_Cursor_isNull(first) ? first : cursor_root_var(first);
		if (!clang_Cursor_isNull(object)) {
			s = clang_getCursorSpelling(object);
			free(name);
			name = xstrdup(clang_getCString(s));
			clang_disposeString(s);
		}
	}
	return name;
}

static bool name_is(CXCursor c, const char *const *names)
{
	char *n = call_name(c);
	bool hit = false;
	for (; *names && !hit; names++)
		hit = strcmp(n, *names) == 0;
	free(n);
	return hit;
}

static const char *const pipeline_calls[] = {
	"__pipeline_memcpy_async", "__pipeline_commit", "__pipeline_wait_prior", "memcpy_async",
	"producer_acquire", "producer_commit", "consumer_wait", "cp_async_wait",
	/* pipefy's own loaders: running pipefy on its output changes nothing */
	"pipefy_load", "pipefy_fetch", "pipefy_stash", NULL,
};

static enum CXChildVisitResult scan_calls(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct call_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr) {
		static const char *const barrier[] = {"__syncthreads", NULL};
		if (name_is(c, pipeline_calls) && clang_Cursor_isNull(s->pipelined))
			s->pipelined = c;
		if (name_is(c, barrier) && clang_Cursor_isNull(s->nested_barrier))
			s->nested_barrier = c;
	} else if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) {
		char *text = span_text(s->src, cursor_span(c));
		if (strstr(text, "cp.async") && clang_Cursor_isNull(s->pipelined))
			s->pipelined = c;
		free(text);
	}
	return CXChildVisit_Recurse;
}

/* ---- the loop ---- */

static bool refs_tile(const struct kloop *l, int stmt)
{
	for (int i = 0; i < l->nrefs; i++)
		if (l->refs[i].stmt == stmt)
			return true;
	return false;
}

static void check_shape(struct kloop *l, const struct source *src)
{
	int first_copy = -1, last_copy = -1, first_read = -1, last_read = -1;
	int barriers[64], nb = 0;
	for (int i = 0; i < l->nstmts; i++) {
		enum stmt_role r = l->stmts[i].role;
		if (r == ROLE_COPY) {
			if (first_copy < 0)
				first_copy = i;
			last_copy = i;
		} else if (r == ROLE_BARRIER) {
			if (nb < 64)
				barriers[nb++] = i;
		} else if (r == ROLE_COMPUTE && refs_tile(l, i)) {
			if (first_read < 0)
				first_read = i;
			last_read = i;
		}
	}
	int line, col;
	if (first_copy < 0)
		return;
	if (nb == 1) {
		pos(src, l->stmts[barriers[0]].text.begin, &line, &col);
		kloop_refuse(l, l->stmts[barriers[0]].text.begin,
			     "only one block barrier (%d:%d): the next tile's copies would race with this tile's readers",
			     line, col);
		return;
	}
	if (nb > 2) {
		pos(src, l->stmts[barriers[2]].text.begin, &line, &col);
		kloop_refuse(l, l->stmts[barriers[2]].text.begin, "more than two block barriers in the body (third at %d:%d)",
			     line, col);
		return;
	}
	if (first_read < 0) {
		kloop_refuse(l, l->loop.begin, "no statement after the barrier reads the tiles");
		return;
	}
	if (first_read < last_copy) {
		pos(src, l->stmts[first_read].text.begin, &line, &col);
		kloop_refuse(l, l->stmts[first_read].text.begin,
			     "the tiles are read at %d:%d before the last copy into them", line, col);
		return;
	}
	bool sync_between = false, sync_after = false, sync_before = false;
	for (int b = 0; b < nb; b++) {
		if (barriers[b] > last_copy && barriers[b] < first_read)
			sync_between = true;
		if (barriers[b] > last_read)
			sync_after = true;
		if (barriers[b] < first_copy)
			sync_before = true;
	}
	if (!sync_between) {
		pos(src, l->stmts[first_read].text.begin, &line, &col);
		kloop_refuse(l, l->stmts[first_read].text.begin,
			     "no block barrier between the copies and the compute at %d:%d", line, col);
	} else if (!sync_after && !sync_before) {
		kloop_refuse(l, l->loop.begin,
			     "no block barrier between the compute and the next iteration's copies");
	}
}

static void check_copies(struct kloop *l, const struct source *src)
{
	int line, col;
	for (int i = 0; i < l->ncopies; i++) {
		struct copy *cp = &l->copies[i];
		if (cp->tile < 0) {
			pos(src, cp->text.begin, &line, &col);
			kloop_refuse(l, cp->text.begin, "the copy at %d:%d sits inside a macro expansion", line, col);
			continue;
		}
		const char *name = l->tiles[cp->tile].name;
		if (cp->src.end == cp->src.begin && !cp->from_register) {
			pos(src, cp->text.begin, &line, &col);
			/* `As[i] = reg;` from a register the previous iteration loaded: a register prefetch. */
			CXCursor reg = cursor_root_var(cp->value);
			bool simple = !clang_Cursor_isNull(reg) && clang_getCursorKind(reg) == CXCursor_VarDecl &&
				      cursor_span(reg).begin < l->body.begin;
			char *value = simple ? span_text(src, cursor_span(cp->value)) : NULL;
			if (simple)
				kloop_refuse(l, cp->text.begin,
					     "already pipelined: '%s' is stored from register '%s' at %d:%d (register prefetch)",
					     name, value, line, col);
			else
				kloop_refuse(l, cp->text.begin, "'%s' is written from a computed value at %d:%d", name,
					     line, col);
			free(value);
		}
	}
	for (int i = 0; i < l->ntiles; i++) {
		if (l->tiles[i].outside_use) {
			pos(src, l->tiles[i].outside_use - 1, &line, &col);
			kloop_refuse(l, l->tiles[i].outside_use - 1, "tile '%s' is also used outside the loop at %d:%d",
				     l->tiles[i].name, line, col);
		}
		CXType t = clang_getCursorType(l->tiles[i].decl);
		if (t.kind == CXType_IncompleteArray) {
			pos(src, cursor_span(l->tiles[i].decl).begin, &line, &col);
			kloop_refuse(l, cursor_span(l->tiles[i].decl).begin,
				     "tile '%s' is dynamic (extern __shared__): its launch size would have to grow",
				     l->tiles[i].name);
		}
	}
	for (int i = 0; i < l->nrefs; i++)
		if (l->refs[i].in_macro) {
			pos(src, l->refs[i].at.begin, &line, &col);
			kloop_refuse(l, l->refs[i].at.begin, "tile '%s' is named inside a macro expansion at %d:%d",
				     l->tiles[l->refs[i].tile].name, line, col);
			break;
		}
}

/* A copy whose address reads a value the compute writes cannot be issued a tile early. */
struct var_refs {
	struct kloop *loop;
	CXCursor bad;
};

static bool written_by_compute(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COMPUTE && cursor_writes_var(l->stmts[i].cursor, var))
			return true;
	return false;
}

static enum CXChildVisitResult scan_source_vars(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct var_refs *v = data;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (clang_getCursorKind(d) == CXCursor_VarDecl || clang_getCursorKind(d) == CXCursor_ParmDecl) {
			if (written_by_compute(v->loop, d)) {
				v->bad = c;
				return CXChildVisit_Break;
			}
		}
	}
	return CXChildVisit_Recurse;
}

static void check_dependences(struct kloop *l, const struct source *src)
{
	int line, col;
	for (int i = 0; i < l->ncopies; i++) {
		struct copy *cp = &l->copies[i];
		if (cp->tile < 0 || cp->src.end == cp->src.begin)
			continue;
		struct var_refs v = {.loop = l, .bad = clang_getNullCursor()};
		clang_visitChildren(cp->store, scan_source_vars, &v);
		if (!clang_Cursor_isNull(v.bad)) {
			CXString s = clang_getCursorSpelling(v.bad);
			pos(src, cp->text.begin, &line, &col);
			kloop_refuse(l, cp->text.begin,
				     "the load at %d:%d depends on '%s', which the compute writes", line, col,
				     clang_getCString(s));
			clang_disposeString(s);
			return;
		}
	}
}

/* Whether the copies can become cp.async: plain 4, 8 or 16-byte copies of one type. */
static void check_cp_async(struct kloop *l, const struct source *src)
{
	int line, col;
	l->cp_async_ok = true;
	for (int i = 0; i < l->ncopies && l->cp_async_ok; i++) {
		struct copy *cp = &l->copies[i];
		if (cp->tile < 0 || (cp->src.end == cp->src.begin && !cp->from_register))
			continue;
		pos(src, cp->text.begin, &line, &col);
		if (cp->from_register) {
			char *value = span_text(src, cursor_span(cp->value));
			l->cp_async_refusal = xprintf("'%s' is stored from register value '%s' at %d:%d, not copied from global memory",
						      l->tiles[cp->tile].name, value, line, col);
			free(value);
			l->cp_async_ok = false;
		} else if (cp->conversion) {
			l->cp_async_refusal = xprintf("the copy at %d:%d converts its value", line, col);
			l->cp_async_ok = false;
		} else if (cp->width < 0) {
			l->cp_async_refusal = xprintf("the size of the copy at %d:%d is unknown until the template is instantiated",
						      line, col);
			l->cp_async_ok = false;
		} else if (cp->width != 4 && cp->width != 8 && cp->width != 16) {
			l->cp_async_refusal =
				xprintf("the copy at %d:%d moves %ld bytes; cp.async moves 4, 8 or 16", line, col, cp->width);
			l->cp_async_ok = false;
		} else if (cp->guard.end > cp->guard.begin) {
			char *fill = span_text(src, cp->fill);
			bool zero = strspn(fill, "0.fFuUlL ") == strlen(fill) || strstr(fill, "(0)") ||
				    strcmp(fill, "{}") == 0;
			if (!zero) {
				l->cp_async_refusal = xprintf(
					"the guarded copy at %d:%d fills with '%s', cp.async can only fill zeros", line, col,
					fill);
				l->cp_async_ok = false;
			}
			free(fill);
		}
	}
}

/* Whether a destination reads the loop variables, directly or through a copy-side local. */
struct ivar_use {
	const struct kloop *loop;
	bool uses;
};

static bool stmt_reads_ivar(const struct kloop *l, CXCursor c);

static enum CXChildVisitResult scan_ivar_use(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct ivar_use *u = data;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor d = clang_getCursorReferenced(c);
	for (int i = 0; i < u->loop->nivars; i++)
		if (clang_equalCursors(u->loop->ivars[i].decl, d))
			u->uses = true;
	struct span ds = cursor_span(d);
	for (int i = 0; i < u->loop->nstmts && !u->uses; i++) {
		const struct body_stmt *st = &u->loop->stmts[i];
		if (st->role == ROLE_COPY_DECL && ds.begin >= st->text.begin && ds.end <= st->text.end)
			u->uses = stmt_reads_ivar(u->loop, st->cursor);
	}
	return u->uses ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool stmt_reads_ivar(const struct kloop *l, CXCursor c)
{
	struct ivar_use u = {.loop = l};
	clang_visitChildren(c, scan_ivar_use, &u);
	return u.uses;
}

struct child_list {
	CXCursor *v;
	int *n, max;
};

static enum CXChildVisitResult first_children(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct child_list *cl = data;
	if (*cl->n >= cl->max)
		return CXChildVisit_Break;
	cl->v[(*cl->n)++] = c;
	return CXChildVisit_Continue;
}

/* `for (int i = E0; i < N; i += S) { ...copies... }` at the top of the body, N a constant and S
 * a constant or blockDim.x: each copy gets an array of registers, one per trip. Records the
 * loop's numbers in the statement; false for any other loop or branch around a copy. */
static bool copy_loop_shape(struct kloop *l, int stmt, const struct source *src)
{
	struct body_stmt *st = &l->stmts[stmt];
	if (st->copy_bound)
		return true;
	if (clang_getCursorKind(st->cursor) != CXCursor_ForStmt)
		return false;
	CXCursor kids[4];
	int n = 0;
	clang_visitChildren(st->cursor, first_children, &(struct child_list){kids, &n, 4});
	if (n != 4 || clang_getCursorKind(kids[0]) != CXCursor_DeclStmt || clang_getCursorKind(kids[1]) != CXCursor_BinaryOperator ||
	    clang_getCursorBinaryOperatorKind(kids[1]) != CXBinaryOperator_LT ||
	    clang_getCursorKind(kids[2]) != CXCursor_CompoundAssignOperator ||
	    clang_getCursorBinaryOperatorKind(kids[2]) != CXBinaryOperator_AddAssign)
		return false;
	/* the bound: a constant */
	CXEvalResult bound = clang_Cursor_Evaluate(cursor_last_child(kids[1]));
	long N = bound && clang_EvalResult_getKind(bound) == CXEval_Int ? clang_EvalResult_getAsLongLong(bound) : 0;
	if (bound)
		clang_EvalResult_dispose(bound);
	/* the stride: a constant, or blockDim.x */
	CXCursor step = cursor_last_child(kids[2]);
	CXEvalResult stride = clang_Cursor_Evaluate(step);
	long S = stride && clang_EvalResult_getKind(stride) == CXEval_Int ? clang_EvalResult_getAsLongLong(stride) : -1;
	if (stride)
		clang_EvalResult_dispose(stride);
	char *step_text = span_text(src, cursor_span(step));
	bool block_stride = strcmp(step_text, "blockDim.x") == 0;
	free(step_text);
	if (N <= 0 || (S <= 0 && !block_stride))
		return false;
	/* no tile declared in the body: the fallback for other block sizes re-runs the loop as is */
	for (int i = 0; i < l->ntiles && block_stride; i++)
		if (l->tiles[i].in_loop)
			return false;
	/* one variable, initialized: its name and its first value */
	CXCursor var[2];
	int nvar = 0;
	clang_visitChildren(kids[0], first_children, &(struct child_list){var, &nvar, 2});
	if (nvar != 1 || clang_getCursorKind(var[0]) != CXCursor_VarDecl)
		return false;
	CXCursor init = cursor_last_child(var[0]);
	if (clang_Cursor_isNull(init))
		return false;
	st->copy_bound = N;
	st->copy_stride = block_stride ? 0 : S;
	/* `int i`: from the declaration's start through the variable's name */
	unsigned name_at;
	clang_getExpansionLocation(clang_getCursorLocation(var[0]), NULL, NULL, NULL, &name_at);
	CXString spelling = clang_getCursorSpelling(var[0]);
	st->copy_var = (struct span){cursor_span(kids[0]).begin, name_at + strlen(clang_getCString(spelling))};
	clang_disposeString(spelling);
	st->copy_init = cursor_span(init);
	st->copy_cond = cursor_span(kids[1]);
	st->copy_body = cursor_span(kids[3]);
	return true;
}

/* Whether the copies can be staged through registers: one value per copy statement (or per
 * trip of a copy loop with a bounded trip count), so each gets a register of its own, and
 * destinations that do not move with the loop variables, because the store happens an
 * iteration after the load. */
static void check_ldg(struct kloop *l, const struct source *src)
{
	int line, col;
	l->ldg_ok = true;
	for (int i = 0; i < l->ncopies && l->ldg_ok; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0)
			continue;
		const struct body_stmt *st = &l->stmts[cp->stmt];
		pos(src, st->text.begin, &line, &col);
		/* the statement is the assignment itself, not a loop or branch around it */
		struct span ts = cursor_span(st->cursor);
		bool in_copy_loop = ts.begin != cp->text.begin && copy_loop_shape(l, cp->stmt, src);
		if (!cp->guard_is_if && !in_copy_loop && (ts.begin != cp->text.begin || ts.end != cp->text.end)) {
			l->ldg_refusal = xprintf("the copy at %d:%d sits in a loop or branch: staging registers need a "
						 "trip count known at compile time (`for (i = E; i < N; i += S)`, N a "
						 "constant, S a constant or blockDim.x)",
						 line, col);
			l->ldg_ok = false;
		} else if (stmt_reads_ivar(l, cursor_write_target(cp->store))) {
			l->ldg_refusal = xprintf("the destination of the copy at %d:%d moves with the loop variables", line, col);
			l->ldg_ok = false;
		}
	}
}

/* A declaration in the body is hoisted in front of the loop, where it would capture every use
 * of its name in the loop and in pipefy's own code. When another variable of that name is
 * used there (a tile, or anything the loop reads), hoisting would change which one is meant. */
struct name_clash {
	CXCursor decl;
	char *name;
	CXCursor other; /* a use of another variable of the same name */
};

static enum CXChildVisitResult scan_name_clash(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct name_clash *nc = data;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);
		CXString n = clang_getCursorSpelling(r);
		bool clash = strcmp(clang_getCString(n), nc->name) == 0 && !clang_equalCursors(r, nc->decl);
		clang_disposeString(n);
		if (clash) {
			nc->other = c;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult collect_decls(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct child_list *cl = data;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && *cl->n < cl->max)
		cl->v[(*cl->n)++] = c;
	return CXChildVisit_Continue;
}

static void check_hoisted_names(struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->nstmts && l->nrefusals == 0; i++) {
		if (l->stmts[i].role != ROLE_TILE_DECL)
			continue;
		CXCursor decls[8];
		int n = 0;
		clang_visitChildren(l->stmts[i].cursor, collect_decls, &(struct child_list){decls, &n, 8});
		for (int d = 0; d < n && l->nrefusals == 0; d++) {
			struct name_clash nc = {.decl = decls[d], .other = clang_getNullCursor()};
			nc.name = cursor_name(decls[d]);
			for (int t = 0; t < l->ntiles && clang_Cursor_isNull(nc.other); t++)
				if (strcmp(l->tiles[t].name, nc.name) == 0 && !clang_equalCursors(l->tiles[t].decl, decls[d]))
					nc.other = l->tiles[t].decl;
			if (clang_Cursor_isNull(nc.other))
				clang_visitChildren(l->cursor, scan_name_clash, &nc);
			if (!clang_Cursor_isNull(nc.other)) {
				int line, col, dl, dc;
				pos(src, cursor_span(nc.other).begin, &line, &col);
				pos(src, cursor_span(decls[d]).begin, &dl, &dc);
				kloop_refuse(l, cursor_span(decls[d]).begin,
					     "'%s' declared in the loop at %d:%d shares its name with the '%s' used at %d:%d; "
					     "hoisting the declaration out of the loop would change which one is meant",
					     nc.name, dl, dc, nc.name, line, col);
			}
			free(nc.name);
		}
	}
}

static void check_loop(struct kloop *l, const struct source *src)
{
	int line, col;
	if (l->function_has_errors) {
		kloop_refuse(l, l->loop.begin, "'%s' has parse errors (first at %s)", l->function, l->function_error);
		return;
	}
	for (int i = 0; i < l->nstmts; i++) {
		if (l->stmts[i].role == ROLE_BARRIER)
			continue;
		struct call_scan cs = {.pipelined = clang_getNullCursor(), .nested_barrier = clang_getNullCursor(), .src = src};
		CXCursor c = l->stmts[i].cursor;
		scan_calls(c, c, &cs);
		clang_visitChildren(c, scan_calls, &cs);
		if (!clang_Cursor_isNull(cs.pipelined)) {
			size_t off = cursor_span(cs.pipelined).begin;
			pos(src, off, &line, &col);
			char *n = call_name(cs.pipelined);
			kloop_refuse(l, off, "already pipelined: '%s' at %d:%d", *n ? n : "cp.async", line, col);
			free(n);
			return;
		}
		if (!clang_Cursor_isNull(cs.nested_barrier)) {
			size_t off = cursor_span(cs.nested_barrier).begin;
			pos(src, off, &line, &col);
			kloop_refuse(l, off, "the barrier at %d:%d sits under a condition or inner statement", line, col);
		}
	}
	if (l->nrefusals > 0)
		return;
	if (l->nbarriers == 0) {
		kloop_refuse(l, l->loop.begin,
			     "no block barrier: a warp-synchronous loop (__syncwarp) shares no tile across the block");
		return;
	}
	if (l->ncopies == 0 && l->helper_fill && l->helper.refusal) {
		pos(src, l->helper.refusal_at, &line, &col);
		kloop_refuse(l, l->helper.refusal_at, "the tiles are filled by a call that cannot be made asynchronous: %s (%d:%d)",
			     l->helper.refusal, line, col);
		return;
	}
	struct flow_scan fs = {.bad = clang_getNullCursor()};
	clang_visitChildren(l->cursor, scan_flow, &fs);
	if (!clang_Cursor_isNull(fs.bad)) {
		size_t off = cursor_span(fs.bad).begin;
		pos(src, off, &line, &col);
		kloop_refuse(l, off, "'%s' at %d:%d leaves the loop early", fs.what, line, col);
	}
	check_hoisted_names(l, src);
	check_copies(l, src);
	check_dependences(l, src);
	check_shape(l, src);
	check_cp_async(l, src);
	check_ldg(l, src);
	if (l->helper.stmt >= 0) {
		/* the helper's stores become cp.async in a copy of it; registers would need the helper
		 * split into a load half and a store half */
		l->ldg_ok = false;
		free(l->ldg_refusal);
		l->ldg_refusal = xprintf("the copies sit inside '%s'; only cp.async (in a copy of '%s') can take them",
					 l->helper.name, l->helper.name);
	}
}

void check_kloops(struct model *m, const struct source *src)
{
	for (int i = 0; i < m->nloops; i++)
		check_loop(&m->loops[i], src);
}
