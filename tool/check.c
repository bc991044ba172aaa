/* check.c: legality. A loop is left alone, with a reason that names the statement, unless
 * the rewrite provably keeps its meaning. */
#include "cursor.h"
#include "names.h"

#include <ctype.h>
#include <stdlib.h>

static bool loop_fetch_var(const struct kloop *l, CXCursor var);
static void pos(const struct source *src, size_t offset, int *line, int *col)
{
	source_line_col(src, offset, line, col);
}

/* Every refusal is made here (validate.c adds one when a rewrite fails translation
 * validation): a reason, and where. */
void kloop_refuse(struct kloop *l, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	*VEC_PUSH(l->refusals, l->nrefusals, l->caprefusals) = refusal_make(offset, fmt, ap);
	va_end(ap);
}

/* "line:col" of an offset, for a message (valid until the next call). */
static const char *where(const struct source *src, size_t offset)
{
	static char buf[32];
	int line, col;
	source_line_col(src, offset, &line, &col);
	snprintf(buf, sizeof buf, "%d:%d", line, col);
	return buf;
}

/* ---- control flow that leaves the body or skips its end ---- */

struct flow_scan {
	int loop_depth;   /* loops and switches nested inside the body */
	CXCursor bad;
	const char *what;
};

static enum CXChildVisitResult scan_flow(CXCursor c, void *data)
{
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
		cursor_visit(c, scan_flow, s);
		s->loop_depth--;
		return clang_Cursor_isNull(s->bad) ? CXChildVisit_Continue : CXChildVisit_Break;
	}
	case CXCursor_LambdaExpr:
		return CXChildVisit_Continue;
	default:
		return CXChildVisit_Recurse;
	}
}

/* What a copy writes: its assignment's target, or a memcpy_async's destination address. */
static CXCursor copy_target(const struct copy *cp)
{
	CXCursor d, f, z, p;
	if (cp->async && cursor_async_copy(cp->store, &d, &f, &z, &p))
		return d;
	return cursor_write_target(cp->store);
}

/* ---- calls that show the loop is already pipelined, and nested barriers ---- */

struct call_scan {
	CXCursor pipelined;
	CXCursor nested_barrier;
	const struct source *src;
	const struct kloop *piped; /* a loop whose pipeline calls and copies are plain (pipe_problem) */
};

static bool is_recorded_op(const struct kloop *l, CXCursor c);


static bool name_is(CXCursor c, const char *const *names)
{
	char *n = cursor_call_name(c);
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

static enum CXChildVisitResult scan_calls(CXCursor c, void *data)
{
	struct call_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr) {
		CXCursor d, f, z, p;
		if (s->piped && ((cursor_async_copy(c, &d, &f, &z, &p) && clang_equalCursors(p, s->piped->pipe)) ||
				 (cursor_pipeline_op(c, &p) >= 0 && is_recorded_op(s->piped, c))))
			return CXChildVisit_Continue;
		if (name_is(c, pipeline_calls) && clang_Cursor_isNull(s->pipelined))
			s->pipelined = c;
		/* any spelling of a block barrier: `block.sync()` and `cg::sync(block)` too (the
		 * program generator found the latter under an `if` refused for the wrong reason) */
		if (cursor_is_barrier(c) && clang_Cursor_isNull(s->nested_barrier))
			s->nested_barrier = c;
	} else if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) {
		char *text = span_text(s->src, cursor_span(c));
		if (strstr(text, "cp.async") && clang_Cursor_isNull(s->pipelined))
			s->pipelined = c;
		free(text);
	}
	return CXChildVisit_Recurse;
}

/* ---- copies through a cuda::pipeline ---- */

/* `cuda::memcpy_async(dst, src, size, pipe)` copies under a thread-scope cuda::pipeline, each
 * committed and waited for before the barrier, are plain copies once the wait returns: the loop
 * is the classic one, its pipeline's calls the rewrite's to drop. What that needs, each fact
 * established or the loop left with the first that is not: the pipeline a local of the function,
 * `cuda::pipeline<cuda::thread_scope_thread>` made by `cuda::make_pipeline()` (its acquire and
 * release do nothing), named only by this loop's copies and calls; one producer_commit and one
 * consumer_wait in the body, in no inner loop, the commit after every copy on its path (in a
 * block holding the copy) and the wait after the commit on its path, before the first barrier;
 * each copy's size a constant of 4, 8 or 16 bytes with both addresses aligned to it. */
struct pipe_use_scan {
	const struct kloop *l;
	CXCursor pipe;
	CXCursor stray; /* the first name of the pipeline that is none of those */
};

static bool is_recorded_op(const struct kloop *l, CXCursor c)
{
	struct span at = cursor_span(c);
	for (int i = 0; i < l->npipe_ops; i++)
		if (span_within(at, l->pipe_ops[i].at))
			return true;
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_PIPE_OP && span_within(at, l->stmts[i].text))
			return true;
	return false;
}

static enum CXChildVisitResult scan_pipe_uses(CXCursor c, void *data)
{
	struct pipe_use_scan *s = data;
	CXCursor dst, from, size, pipe;
	if (cursor_async_copy(c, &dst, &from, &size, &pipe) && clang_equalCursors(pipe, s->pipe)) {
		bool recorded = false;
		for (int i = 0; i < s->l->ncopies; i++)
			recorded |= s->l->copies[i].async && s->l->copies[i].text.begin == cursor_span(c).begin;
		if (!recorded && clang_Cursor_isNull(s->stray))
			s->stray = c;
		cursor_visit(dst, scan_pipe_uses, s);
		cursor_visit(from, scan_pipe_uses, s);
		return CXChildVisit_Continue;
	}
	if (cursor_pipeline_op(c, &pipe) >= 0 && clang_equalCursors(pipe, s->pipe)) {
		if (!is_recorded_op(s->l, c) && clang_Cursor_isNull(s->stray))
			s->stray = c;
		return CXChildVisit_Continue;
	}
	if (cursor_is_ref_to(c, s->pipe) &&
	    clang_Cursor_isNull(s->stray))
		s->stray = c;
	return CXChildVisit_Recurse;
}

/* The pipeline calls of kind op in the body (top-level and nested), *n of them; the last one. */
struct op_find {
	int op, n;
	CXCursor last;
	int in_loop; /* of those, inside a loop nested in the body */
	int depth;
};

static enum CXChildVisitResult find_ops(CXCursor c, void *data)
{
	struct op_find *f = data;
	CXCursor pipe;
	if (cursor_pipeline_op(c, &pipe) == f->op) {
		f->n++;
		f->in_loop += f->depth > 0;
		f->last = c;
		return CXChildVisit_Continue;
	}
	if (cursor_is_loop(c)) {
		f->depth++;
		cursor_visit(c, find_ops, f);
		f->depth--;
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static struct op_find body_ops(const struct kloop *l, int op)
{
	struct op_find f = {.op = op, .last = clang_getNullCursor()};
	for (int i = 0; i < l->nstmts; i++)
		if (find_ops(l->stmts[i].cursor, &f) == CXChildVisit_Recurse)
			cursor_visit(l->stmts[i].cursor, find_ops, &f);
	return f;
}

static bool path_to(CXCursor from, CXCursor target, CXCursor *path, int *n, int max);

/* Whether op, a statement of a block holding `of` (or of a block around it), comes after of's
 * statement there: it runs whenever `of` did, after it. (Blocks compared by extent: path_to's
 * walks give other cursors for one node.) */
static bool follows(CXCursor body, CXCursor of, CXCursor op)
{
	CXCursor a[64], b[64];
	int na = 1, nb = 1;
	a[0] = b[0] = body;
	if (!path_to(body, of, a, &na, 64) || !path_to(body, op, b, &nb, 64))
		return false;
	int k = nb - 2; /* op's block: the nearest, with nothing but wrappers of op below it */
	while (k >= 0 && clang_getCursorKind(b[k]) != CXCursor_CompoundStmt &&
	       cursor_span(b[k]).begin == cursor_span(op).begin)
		k--;
	if (k < 0 || clang_getCursorKind(b[k]) != CXCursor_CompoundStmt)
		return false; /* (op is not a statement of its block: inside an if or an expression) */
	for (int j = 0; j + 1 < na; j++)
		if (clang_getCursorKind(a[j]) == CXCursor_CompoundStmt &&
		    clang_equalRanges(clang_getCursorExtent(a[j]), clang_getCursorExtent(b[k])))
			return cursor_span(a[j + 1]).end <= cursor_span(b[k + 1]).begin;
	return false;
}

/* The alignment an address's type guarantees: its pointee's; for `&X[i][j]` in a template, where
 * the address's type depends on its parameters, the element type of X as declared; 0 unknown. */
static long address_align(CXCursor e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(e));
	if (t.kind == CXType_Pointer) {
		long a = clang_Type_getAlignOf(clang_getPointeeType(t));
		return a > 0 ? a : 0;
	}
	CXCursor s = cursor_strip(e);
	if (clang_getCursorKind(s) != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(s) != CXUnaryOperator_AddrOf ||
	    clang_getCursorKind(cursor_strip(cursor_first_child(s))) != CXCursor_ArraySubscriptExpr)
		return 0;
	CXCursor root = cursor_root_var(s);
	if (clang_Cursor_isNull(root))
		return 0;
	CXType decl = clang_getCanonicalType(clang_getCursorType(root));
	CXType elem = decl.kind == CXType_Pointer ? clang_getPointeeType(decl) : type_array_element(decl);
	long a = clang_Type_getAlignOf(clang_getCanonicalType(elem));
	return a > 0 ? a : 0;
}

/* Offset + 1 of the first asynchronous copy or group operation in fn (or a function of the
 * program it calls, 3 deep) that is not one of the loop's recorded ones; 0 when none. */
struct async_scan {
	const struct kloop *l;
	int depth;
	size_t found;
};

static size_t other_async_copy(const struct kloop *l, CXCursor fn, int depth);

static enum CXChildVisitResult scan_other_async(CXCursor c, void *data)
{
	struct async_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor d, f, z, p;
	if (k == CXCursor_CallExpr) {
		bool ours = (cursor_async_copy(c, &d, &f, &z, &p) && clang_equalCursors(p, s->l->pipe) &&
			     span_within(cursor_span(c), s->l->body)) ||
			    (cursor_pipeline_op(c, &p) >= 0 && clang_equalCursors(p, s->l->pipe) && is_recorded_op(s->l, c));
		if (ours)
			return CXChildVisit_Continue;
		if (name_is(c, pipeline_calls)) {
			s->found = cursor_span(c).begin + 1;
			return CXChildVisit_Break;
		}
		CXCursor named = clang_getCursorReferenced(c), callee = clang_getCursorDefinition(named);
		bool program = !clang_Cursor_isNull(named) && !effects_in_system_header(named) &&
			       clang_getCursorKind(named) != CXCursor_Constructor;
		/* (a function of the program's whose body pipefy cannot see, or that copies so) */
		if (program && (clang_Cursor_isNull(callee) || s->depth >= 3 || other_async_copy(s->l, callee, s->depth + 1))) {
			s->found = cursor_span(c).begin + 1;
			return CXChildVisit_Break;
		}
	} else if ((k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) && effects_asm_mentions(c, "cp.async")) {
		s->found = cursor_span(c).begin + 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static size_t other_async_copy(const struct kloop *l, CXCursor fn, int depth)
{
	struct async_scan s = {.l = l, .depth = depth};
	cursor_visit(fn, scan_other_async, &s);
	return s.found;
}

/* The first of the loop's copies, then (with calls) of its pipeline calls, that goes through
 * another pipeline than pipe: that one, *at where, *copy whether at a copy; a null cursor when
 * none does. */
static CXCursor other_pipeline(const struct kloop *l, CXCursor pipe, bool calls, size_t *at, bool *copy)
{
	*copy = true;
	for (int i = 0; i < l->ncopies; i++) {
		CXCursor d, f, z, p;
		if (l->copies[i].async && cursor_async_copy(l->copies[i].store, &d, &f, &z, &p) && !clang_equalCursors(p, pipe)) {
			*at = cursor_span(l->copies[i].store).begin;
			return p;
		}
	}
	*copy = false;
	for (int i = 0; calls && i < l->nstmts + l->npipe_ops; i++) {
		/* (every call the rewrite drops is on this pipeline) */
		CXCursor p = clang_getNullCursor(), op = clang_getNullCursor();
		if (i < l->nstmts && l->stmts[i].role == ROLE_PIPE_OP)
			cursor_pipeline_op(op = l->stmts[i].cursor, &p);
		else if (i >= l->nstmts)
			p = l->pipe_ops[i - l->nstmts].pipe;
		if (!clang_Cursor_isNull(p) && !clang_equalCursors(p, pipe)) {
			*at = i < l->nstmts ? cursor_span(op).begin : l->pipe_ops[i - l->nstmts].at.begin;
			return p;
		}
	}
	return clang_getNullCursor();
}

static char *pipe_problem(const struct kloop *l, const struct source *src, CXCursor body, size_t *at)
{
	int line, col;
	CXCursor pipe = l->pipe;
	char *name = cursor_name(pipe);
	*at = cursor_span(pipe).begin;
	char *spelled = type_spelling(clang_getCanonicalType(clang_getCursorType(pipe)));
	CXCursor init = cursor_last_child(pipe);
	bool made = cursor_is_call_named(init, "make_pipeline") && clang_Cursor_getNumArguments(cursor_strip(init)) == 0;
	if (!made) {
		/* (`= cuda::make_pipeline()` shows as the copy's construction around the call) */
		struct cursors cs = cursor_children(init);
		for (int i = 0; i < cs.n && !made; i++)
			made = cursor_is_call_named(cs.v[i], "make_pipeline") && clang_Cursor_getNumArguments(cursor_strip(cs.v[i])) == 0;
		free(cs.v);
	}
	char *r = NULL;
	pos(src, *at, &line, &col);
	if (!cursor_declared_within(pipe, l->function_span) || cursor_declared_within(pipe, l->loop))
		r = xprintf("their pipeline '%s' (%d:%d) is not a local of '%s' declared before the loop", name, line, col, l->function);
	else if (!strstr(spelled, "pipeline<") || !strstr(spelled, "thread_scope_thread"))
		r = xprintf("their pipeline '%s' (%d:%d) is not a cuda::pipeline<cuda::thread_scope_thread>", name, line, col);
	else if (!made)
		r = xprintf("their pipeline '%s' (%d:%d) is not made by cuda::make_pipeline()", name, line, col);
	free(spelled);
	if (r) {
		free(name);
		return r;
	}
	struct pipe_use_scan us = {.l = l, .pipe = pipe, .stray = clang_getNullCursor()};
	cursor_visit(l->function_cursor, scan_pipe_uses, &us);
	bool copy;
	CXCursor another = other_pipeline(l, pipe, clang_Cursor_isNull(us.stray), at, &copy);
	if (!clang_Cursor_isNull(another)) {
		char *other = cursor_name(another);
		pos(src, *at, &line, &col);
		r = copy ? xprintf("the one at %d:%d goes through another pipeline, '%s'", line, col, other)
			 : xprintf("the loop also calls another pipeline, '%s' (%d:%d)", other, line, col);
		free(other);
		free(name);
		return r;
	}
	CXCursor sd, sf, sz, sp;
	if (!clang_Cursor_isNull(us.stray) && cursor_async_copy(us.stray, &sd, &sf, &sz, &sp) &&
	    span_within(cursor_span(us.stray), l->body)) {
		/* (a memcpy_async of the loop into what pipefy does not read as a tile's element) */
		*at = cursor_span(us.stray).begin;
		pos(src, *at, &line, &col);
		char *d = span_squeezed(src, cursor_span(sd));
		r = xprintf("the one at %d:%d copies into '%s', which pipefy does not read as a tile's element (`&As[i][j]`)",
			    line, col, d);
		free(d);
		free(name);
		return r;
	}
	if (!clang_Cursor_isNull(us.stray)) {
		*at = cursor_span(us.stray).begin;
		pos(src, *at, &line, &col);
		r = xprintf("their pipeline '%s' is named at %d:%d other than by the loop's copies and calls", name, line, col);
		free(name);
		return r;
	}
	size_t other = other_async_copy(l, l->function_cursor, 0);
	if (other) {
		/* (its wait would complete them too: the rewrite, which drops the wait, must not) */
		*at = other - 1;
		pos(src, *at, &line, &col);
		r = xprintf("the function also copies asynchronously at %d:%d, which the wait of '%s' may complete", line, col, name);
		free(name);
		return r;
	}
	struct op_find commit = body_ops(l, PIPE_OP_COMMIT), wait = body_ops(l, PIPE_OP_WAIT);
	if (commit.in_loop || wait.in_loop) {
		*at = cursor_span(commit.in_loop ? commit.last : wait.last).begin;
		pos(src, *at, &line, &col);
		r = xprintf("'%s' %s inside an inner loop (%d:%d): tiles in flight across iterations, a pipeline already",
			    name, commit.in_loop ? "commits" : "waits", line, col);
	} else if (commit.n != 1 || wait.n != 1)
		r = xprintf("'%s' is committed %d and waited for %d times an iteration, not once", name, commit.n, wait.n);
	if (r) {
		free(name);
		return r;
	}
	int first_barrier = -1;
	for (int i = 0; i < l->nstmts && first_barrier < 0; i++)
		if (l->stmts[i].role == ROLE_BARRIER)
			first_barrier = i;
	size_t wait_at = cursor_span(wait.last).begin;
	for (int i = 0; i < l->ncopies && !r; i++) {
		const struct copy *cp = &l->copies[i];
		*at = cursor_span(cp->store).begin;
		pos(src, *at, &line, &col);
		CXCursor d, f, z, p;
		cursor_async_copy(cp->store, &d, &f, &z, &p);
		long align = 0;
		char *zt = type_spelling(clang_getCanonicalType(clang_getCursorType(z)));
		char *promise = strstr(zt, "aligned_size_t<");
		if (promise)
			align = strtol(promise + strlen("aligned_size_t<"), NULL, 10);
		free(zt);
		/* (without a promise, what the pointers' types guarantee) */
		long a = address_align(d), b = address_align(f), natural = a < b ? a : b;
		align = align > natural ? align : natural;
		CXCursor from = cursor_strip(f), base;
		bool global = clang_getCursorKind(from) == CXCursor_UnaryOperator &&
			      clang_getCursorUnaryOperatorKind(from) == CXUnaryOperator_AddrOf &&
			      cursor_global_load(cursor_strip(cursor_first_child(from)), &base);
		if (!global) {
			char *text = span_squeezed(src, cursor_span(f));
			r = xprintf("the one at %d:%d copies from '%s', which pipefy does not read as global memory", line,
				    col, text);
			free(text);
		} else if (cp->width != 4 && cp->width != 8 && cp->width != 16)
			r = xprintf("the one at %d:%d copies %s (pipefy stages 4, 8 or 16)", line, col,
				    cp->width ? "another number of bytes" : "a number of bytes pipefy cannot evaluate");
		else if (align < cp->width)
			r = xprintf("the one at %d:%d copies %ld bytes at addresses aligned to %ld only "
				    "(cuda::aligned_size_t<%ld> would promise more)", line, col, cp->width, align, cp->width);
		else if (!follows(body, cp->store, commit.last))
			r = xprintf("the one at %d:%d is not committed after it on its path by '%s'", line, col, name);
		else if (!follows(body, commit.last, wait.last))
			r = xprintf("the producer_commit of '%s' is not waited for after it on its path", name);
		else if (first_barrier < 0 || wait_at >= l->stmts[first_barrier].text.begin)
			r = xprintf("the consumer_wait of '%s' does not come before the loop's first barrier", name);
	}
	free(name);
	return r;
}

/* ---- the loop ---- */

static bool refs_tile(const struct kloop *l, int stmt)
{
	for (int i = 0; i < l->nrefs; i++)
		if (l->refs[i].stmt == stmt)
			return true;
	return false;
}

/* A call of the compute whose function (defined in this file, or one it calls, 4 deep) names a
 * tile itself, a file-scope __shared__ array, rather than through an argument: its callee, and
 * the call at offset at - 1 (0: none). */
struct tile_naming_call {
	const struct kloop *l;
	CXCursor callee;
	size_t at;
	int depth;
	bool names; /* (names_a_tile's answer) */
};

static bool names_a_tile(const struct kloop *l, CXCursor fn, int depth);

static enum CXChildVisitResult scan_tile_names(CXCursor c, void *data)
{
	struct tile_naming_call *t = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr)
		t->names = kloop_tile(t->l, clang_getCursorReferenced(c)) >= 0;
	if (k == CXCursor_CallExpr && t->depth < 4) {
		CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(c));
		t->names = !clang_Cursor_isNull(fn) && names_a_tile(t->l, fn, t->depth + 1);
	}
	return t->names ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool names_a_tile(const struct kloop *l, CXCursor fn, int depth)
{
	struct tile_naming_call t = {.l = l, .depth = depth};
	cursor_visit(fn, scan_tile_names, &t);
	return t.names;
}

static enum CXChildVisitResult scan_compute_calls(CXCursor call, void *data)
{
	struct tile_naming_call *t = data;
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(call));
	if (clang_Cursor_isNull(fn) || !names_a_tile(t->l, fn, 1))
		return CXChildVisit_Recurse;
	t->callee = fn;
	t->at = cursor_span(call).begin + 1;
	return CXChildVisit_Break;
}

static struct tile_naming_call compute_call_naming_tiles(const struct kloop *l)
{
	struct tile_naming_call t = {.l = l, .callee = clang_getNullCursor()};
	for (int i = 0; i < l->nstmts && !t.at; i++)
		if (l->stmts[i].role == ROLE_COMPUTE)
			cursor_visit_kind(l->stmts[i].cursor, CXCursor_CallExpr, scan_compute_calls, &t);
	return t;
}

/* The tile a copy stores into (one check must refuse keeps it as -1 - t: body.c). */
static int copy_tile(const struct copy *cp) { return cp->tile < 0 ? -1 - cp->tile : cp->tile; }

/* Whether the copies of statements [from, to) write tile t (any tile: t < 0). */
static bool copies_write_tile(const struct kloop *l, int from, int to, int t)
{
	for (int i = 0; i < l->ncopies; i++)
		if (l->copies[i].stmt >= from && l->copies[i].stmt < to && (t < 0 || copy_tile(&l->copies[i]) == t))
			return true;
	return false;
}

/* Whether statement i fills a tile through copies pipefy read (not a call into a helper). */
static bool has_copies(const struct kloop *l, int i) { return copies_write_tile(l, i, i + 1, -1); }

/* A barrier the loop's order does not rest on, which the rewrite (whose own barriers keep the
 * stages apart, none of the loop's) may leave out: one right after another barrier
 * (`__syncthreads(); __syncthreads();`), or one between two groups of copies (`As[..] = A[..];
 * __syncthreads(); Bs[..] = B[..];`) where only copies and their locals stand on either side
 * (which read no tile and write none but the copies' destinations), and the copies after it
 * write no tile the copies before it write (else it orders two stores to one tile). */
enum barrier_use { BARRIER_NEEDED, BARRIER_REDUNDANT, BARRIER_ORDERS_COPIES };

/* (why: for BARRIER_ORDERS_COPIES, what may make the two sides touch one element, in a
 * remark's words; it names a tile, so it is the caller's buffer) */
static enum barrier_use barrier_use(const struct kloop *l, int b, char *why, size_t nwhy)
{
	if (why && nwhy)
		why[0] = '\0';
	if (b > 0 && l->stmts[b - 1].role == ROLE_BARRIER)
		return BARRIER_REDUNDANT;
	int from = b, to = b;
	while (from > 0 && (l->stmts[from - 1].role == ROLE_COPY || l->stmts[from - 1].role == ROLE_COPY_DECL))
		from--;
	while (to + 1 < l->nstmts && (l->stmts[to + 1].role == ROLE_COPY || l->stmts[to + 1].role == ROLE_COPY_DECL))
		to++;
	bool before = false, after = false;
	for (int i = from; i < b; i++)
		before |= l->stmts[i].role == ROLE_COPY;
	for (int i = b + 1; i <= to; i++)
		after |= l->stmts[i].role == ROLE_COPY;
	if (!before || !after)
		return BARRIER_NEEDED;
	/* (a local of the copies names no tile; a helper's fill writes what pipefy did not read as
	 * copies; a copy through a view, or into a tile that is a pointer, may reach the storage of
	 * another tile) */
	for (int i = from; i <= to; i++)
		if ((l->stmts[i].role == ROLE_COPY_DECL && refs_tile(l, i)) ||
		    (l->stmts[i].role == ROLE_COPY && !has_copies(l, i))) {
			if (why)
				snprintf(why, nwhy, "%s", l->stmts[i].role == ROLE_COPY_DECL ? "a local of the copies names a tile"
							   : "a statement among them fills tiles through what pipefy does not read as copies");
			return BARRIER_ORDERS_COPIES;
		}
	for (int c = 0; c < l->ncopies; c++) {
		int t = copy_tile(&l->copies[c]);
		bool pointer = clang_getCursorType(l->tiles[t].decl).kind != CXType_ConstantArray &&
			       clang_getCursorType(l->tiles[t].decl).kind != CXType_DependentSizedArray;
		if (l->copies[c].stmt >= from && l->copies[c].stmt <= to &&
		    (!clang_Cursor_isNull(l->copies[c].view) || l->tiles[t].dynamic || pointer)) {
			if (why)
				snprintf(why, nwhy, "'%s' is %s, not told apart from the other tiles",
					 l->tiles[t].name, !clang_Cursor_isNull(l->copies[c].view) ? "stored through a view"
							   : l->tiles[t].dynamic ? "in dynamic shared memory" : "a pointer into shared memory");
			return BARRIER_ORDERS_COPIES;
		}
	}
	for (int t = 0; t < l->ntiles; t++)
		if (copies_write_tile(l, from, b, t) && copies_write_tile(l, b + 1, to + 1, t)) {
			if (why)
				snprintf(why, nwhy, "both sides store into '%s'", l->tiles[t].name);
			return BARRIER_ORDERS_COPIES;
		}
	/* (a statement on one side that names a tile the copies on the other side write reads it:
	 * a copy's index, guard or value, `Bs[..] = B[s_idx[ty] * N + col]`) */
	for (int r = 0; r < l->nrefs; r++) {
		int i = l->refs[r].stmt, t = l->refs[r].tile;
		if (i < from || i > to || i == b)
			continue;
		if ((i < b && copies_write_tile(l, b + 1, to + 1, t)) || (i > b && copies_write_tile(l, from, b, t))) {
			if (why)
				snprintf(why, nwhy, "one side reads '%s', which the other fills", l->tiles[t].name);
			return BARRIER_ORDERS_COPIES;
		}
	}
	return BARRIER_REDUNDANT;
}

/* A local declared before the loop that a copy's destination reads and the body assigns
 * (`shareA[offset][..] = ..;` ... `offset = !offset;`): the tiles are filled at another place
 * each iteration, a buffer swapped by hand. */
struct moving_slot {
	const struct kloop *l;
	CXCursor var;
};

/* (what an assignment of the slot reads: a local of the function the body also assigns, the
 * other half of a pair the loop rotates, `write_idx = 1 - read_idx; .. read_idx = write_idx;`) */
struct rotated_from {
	const struct kloop *l;
	CXCursor slot;
	bool found;
};

static enum CXChildVisitResult scan_rotated_from(CXCursor c, CXCursor e, void *data)
{
	(void)c;
	struct rotated_from *r = data;
	if (clang_getCursorKind(e) != CXCursor_VarDecl || clang_equalCursors(e, r->slot) ||
	    cursor_declared_within(e, r->l->body))
		return CXChildVisit_Continue;
	for (int i = 0; i < r->l->nstmts; i++)
		if (cursor_writes_var(r->l->stmts[i].cursor, e)) {
			r->found = true;
			return CXChildVisit_Break;
		}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult scan_moving_slot(CXCursor c, CXCursor d, void *data)
{
	(void)c;
	struct moving_slot *m = data;
	/* (an integer: a tile's own elements are written too, and are no slot) */
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(d)).kind;
	bool integer = (k >= CXType_Bool && k <= CXType_Int128) && k != CXType_Float && k != CXType_Double;
	if (clang_getCursorKind(d) != CXCursor_VarDecl || cursor_declared_within(d, m->l->body) || !integer)
		return CXChildVisit_Continue;
	for (int i = 0; i < m->l->nstmts; i++) {
		CXCursor target, value;
		struct rotated_from r = {m->l, d, false};
		if (!cursor_steps_var(m->l->stmts[i].cursor, d) &&
		    (cursor_write_parts(cursor_strip(m->l->stmts[i].cursor), &target, &value) != WRITE_ASSIGN ||
		     !cursor_names_var(target, d) || (cursor_visit_names(value, scan_rotated_from, &r), !r.found)))
			continue;
		m->var = d;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* A name in the compute that reaches the tile's __shared__ array other than through the tile:
 * the array itself, or another pointer into it. */
struct other_view {
	CXCursor tile, array, other;
};

static enum CXChildVisitResult scan_other_view(CXCursor c, CXCursor r, void *data)
{
	(void)c;
	struct other_view *ov = data;
	if (clang_equalCursors(r, ov->tile) || clang_getCursorKind(r) != CXCursor_VarDecl)
		return CXChildVisit_Continue;
	if (clang_equalCursors(r, ov->array) || clang_equalCursors(cursor_shared_array(r), ov->array)) {
		ov->other = r;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* The copy whose destination moves that way (its index in l->copies), or -1; *var the local. */
static int hand_swapped_copy(const struct kloop *l, CXCursor *var)
{
	for (int i = 0; i < l->ncopies; i++) {
		if (l->copies[i].tile < 0)
			continue;
		struct moving_slot m = {l, clang_getNullCursor()};
		cursor_visit_names(copy_target(&l->copies[i]), scan_moving_slot, &m);
		if (!clang_Cursor_isNull(m.var)) {
			*var = m.var;
			return i;
		}
	}
	return -1;
}

/* Where a statement starts for a remark: past the pragmas written above it (`#pragma unroll`
 * is part of the loop statement it attributes). */
static size_t statement_start(const struct source *src, const struct body_stmt *st)
{
	size_t at = st->text.begin;
	while (at < st->text.end && src->text[at] == '#') {
		while (at < st->text.end && src->text[at] != '\n')
			at++;
		while (at < st->text.end && isspace((unsigned char)src->text[at]))
			at++;
	}
	return at < st->text.end ? at : st->text.begin;
}

/* The first call handed part of a __shared__ array (not a whole one by its name). */
struct part_handed {
	CXCursor call, arg;
};

static enum CXChildVisitResult scan_part_handed(CXCursor c, void *data)
{
	struct part_handed *ph = data;
	if (clang_getCursorKind(c) != CXCursor_CallExpr || cursor_is_barrier(c))
		return CXChildVisit_Recurse;
	/* (a call a template leaves unresolved has no arguments for libclang: its children after
	 * the callee are they) */
	struct cursors kids = cursor_children(c);
	int n = clang_Cursor_getNumArguments(c), first = n < 0 ? 1 : 0;
	for (int i = first; i < (n < 0 ? kids.n : n); i++) {
		CXCursor arg = cursor_strip(n < 0 ? kids.v[i] : clang_Cursor_getArgument(c, (unsigned)i));
		bool whole = clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
			     cursor_is_shared_var(clang_getCursorReferenced(arg));
		if (!whole && cursor_names_shared(arg)) {
			ph->call = c;
			ph->arg = arg;
			break;
		}
	}
	free(kids.v);
	return clang_Cursor_isNull(ph->call) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* A loop whose statements fill tiles and read none: a copy loop, not a K-loop (what reads the
 * tiles, if anything, does so after it: the last tile). */
static void refuse_unread(struct kloop *l, const struct source *src)
{
	int t = l->ncopies > 0 && l->copies[0].tile >= 0 ? l->copies[0].tile : 0;
	int line, col;
	/* (a tile reached other than by its name, a reference bound to it, say, may be read by the
	 * statements after all: say only what holds) */
	bool aliased = false;
	for (int i = 0; i < l->ntiles && !aliased; i++)
		aliased = cursor_aliased(l->function_cursor, l->tiles[i].decl);
	/* (a call handed part of a __shared__ array, `smemA[cur]`, `&s[0][0][0]`: a hand-buffered
	 * loop's compute, which pipefy does not follow) */
	struct part_handed ph = {.call = clang_getNullCursor(), .arg = clang_getNullCursor()};
	for (int i = 0; i < l->nstmts && clang_Cursor_isNull(ph.call); i++)
		if (l->stmts[i].role != ROLE_BARRIER && scan_part_handed(cursor_strip(l->stmts[i].cursor), &ph) ==
								CXChildVisit_Recurse) /* (the statement itself, then below) */
			cursor_visit(l->stmts[i].cursor, scan_part_handed, &ph);
	if (aliased)
		kloop_refuse(l, l->loop.begin, "no statement after the barrier reads the tiles by their names");
	else if (!clang_Cursor_isNull(ph.call)) {
		char *callee = cursor_call_name(ph.call), *arg = span_text(src, cursor_span(ph.arg));
		if (!*callee) { /* (a call a template leaves unresolved: its name as written) */
			free(callee);
			callee = span_text(src, cursor_span(cursor_first_child(ph.call)));
			callee[strcspn(callee, "<( \t\n")] = '\0';
		}
		pos(src, cursor_span(ph.call).begin, &line, &col);
		kloop_refuse(l, l->loop.begin, "the call of '%s' at %d:%d is handed '%s', part of a __shared__ array: pipefy "
			     "follows tiles a call is handed whole", callee, line, col, arg);
		free(callee);
		free(arg);
	} else if (l->ntiles == 0 || !l->tiles[t].outside_use)
		kloop_refuse(l, l->loop.begin, "no statement of the loop reads the tiles it fills");
	else {
		pos(src, l->tiles[t].outside_use - 1, &line, &col);
		kloop_refuse(l, l->loop.begin, "no statement of the loop reads the tiles it fills: it refills '%s' each "
			     "iteration, which %d:%d, outside the loop, names", l->tiles[t].name, line, col);
	}
}

/* The body's parts in order: its copies (a fill helper's call, read or refused, is one), the
 * barriers that order something, and the compute's reads of the tiles. */
struct body_shape {
	int first_copy, last_copy, first_read, last_read;
	int barriers[64], nb;
};

static struct body_shape body_shape(const struct kloop *l)
{
	struct body_shape b = {.first_copy = -1, .last_copy = -1, .first_read = -1, .last_read = -1};
	for (int i = 0; i < l->nstmts; i++) {
		enum stmt_role r = l->stmts[i].role;
		if (r == ROLE_COPY || kloop_helper_at(l, i)) {
			if (b.first_copy < 0)
				b.first_copy = i;
			b.last_copy = i;
		} else if (r == ROLE_BARRIER) {
			if (b.nb < 64 && barrier_use(l, i, NULL, 0) != BARRIER_REDUNDANT)
				b.barriers[b.nb++] = i;
		} else if (r == ROLE_COMPUTE && refs_tile(l, i)) {
			if (b.first_read < 0)
				b.first_read = i;
			b.last_read = i;
		}
	}
	return b;
}

/* A loop that races as written, or moves its own buffers: one barrier between copies and the
 * reads of them, the next tile's copies storing where this tile is read (the loop's first
 * obstacle, said before anything else). Refuses it and returns true; false when it is neither. */
static bool refuse_race(struct kloop *l, const struct source *src, const struct body_shape *b)
{
	int line, col;
	if (b->first_copy < 0)
		return false;
	CXCursor slot;
	int swapped = b->nb >= 1 ? hand_swapped_copy(l, &slot) : -1;
	if (swapped >= 0) {
		/* (a slot the body moves: the loop's own double buffer, with one barrier no race) */
		int step = 0, wl = 0, wc = 0;
		while (step < l->nstmts && !cursor_writes_var(l->stmts[step].cursor, slot))
			step++;
		if (step < l->nstmts)
			pos(src, l->stmts[step].text.begin, &wl, &wc);
		char *name = cursor_name(slot);
		kloop_refuse(l, l->copies[swapped].text.begin,
			     "the copy at %s stores at '%s', which the body changes at %d:%d: the loop swaps its own "
			     "buffers (pipefy stages tiles filled in one place)",
			     where(src, l->copies[swapped].text.begin), name, wl, wc);
		free(name);
		return true;
	}
	if (b->nb == 1 && b->first_read >= 0) {
		pos(src, l->stmts[b->barriers[0]].text.begin, &line, &col);
		kloop_refuse(l, l->stmts[b->barriers[0]].text.begin,
			     "only one block barrier (%d:%d): the next tile's copies would race with this tile's readers",
			     line, col);
		return true;
	}
	return false;
}

/* A copy after the compute's first read of the tiles from a register that a statement before
 * that read loads from global memory: the loop's own register prefetch; *fetch that statement. */
static const struct copy *hand_prefetch(const struct kloop *l, int first_read, int *fetch)
{
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		CXCursor reg = clang_Cursor_isNull(cp->value) ? cp->value : cursor_root_var(cp->value);
		if (cp->stmt <= first_read || cp->tile < 0 || !cp->from_register || clang_Cursor_isNull(reg))
			continue;
		for (int j = 0; j < first_read; j++)
			if (l->stmts[j].fetch_assign && clang_equalCursors(l->stmts[j].fetch_var, reg)) {
				*fetch = j;
				return cp;
			}
	}
	return NULL;
}

static void check_shape(struct kloop *l, const struct source *src)
{
	struct body_shape shape = body_shape(l);
	int first_copy = shape.first_copy, last_copy = shape.last_copy, first_read = shape.first_read;
	int last_read = shape.last_read, *barriers = shape.barriers, nb = shape.nb;
	int line, col;
	if (first_copy < 0 || refuse_race(l, src, &shape))
		return;
	if (nb > 2) {
		pos(src, l->stmts[barriers[2]].text.begin, &line, &col);
		int orders = -1;
		char why[256];
		for (int b = 0; b < nb && orders < 0; b++)
			if (barrier_use(l, barriers[b], why, sizeof why) == BARRIER_ORDERS_COPIES)
				orders = barriers[b];
		if (orders >= 0) {
			int ol, oc;
			pos(src, l->stmts[orders].text.begin, &ol, &oc);
			kloop_refuse(l, l->stmts[barriers[2]].text.begin,
				     "more than two block barriers (third at %d:%d); the one at %d:%d may order the "
				     "copies around it: %s", line, col, ol, oc, why);
		} else
			kloop_refuse(l, l->stmts[barriers[2]].text.begin, "more than two block barriers in the body (third at %d:%d)",
				     line, col);
		return;
	}
	if (first_read < 0) {
		struct tile_naming_call t = compute_call_naming_tiles(l);
		if (t.at) {
			char *name = cursor_name(t.callee);
			pos(src, t.at - 1, &line, &col);
			kloop_refuse(l, t.at - 1, "the compute reads the tiles only inside '%s' (%d:%d), which names them "
				     "itself rather than through an argument; pipefy stages tiles the loop's statements name", name, line, col);
			free(name);
		} else {
			/* (a view the copies store through, `float *v = sa + ..; *v = ..;`, whose array the
			 * compute reads by its own name, or through another view of it) */
			int view = -1, reader = -1;
			struct other_view ov = {.other = clang_getNullCursor()};
			for (int v = 0; v < l->ntiles && reader < 0; v++) {
				ov.tile = l->tiles[v].decl;
				ov.array = cursor_shared_array(ov.tile);
				for (int i = 0; i < l->nstmts && reader < 0 && !clang_Cursor_isNull(ov.array); i++)
					if (l->stmts[i].role == ROLE_COMPUTE) {
						cursor_visit_names(l->stmts[i].cursor, scan_other_view, &ov);
						if (!clang_Cursor_isNull(ov.other))
							view = v, reader = i;
					}
			}
			if (reader >= 0 && clang_equalCursors(ov.array, ov.tile)) {
				/* (the copies store into the array, the compute reads a pointer into it) */
				char *other = cursor_name(ov.other);
				int dl, dc;
				pos(src, statement_start(src, &l->stmts[reader]), &line, &col);
				pos(src, cursor_span(ov.other).begin, &dl, &dc);
				kloop_refuse(l, l->stmts[reader].text.begin,
					     "the compute at %d:%d reads tile '%s' only through '%s' (%d:%d), a pointer into it "
					     "set outside the loop, which pipefy does not index by stage",
					     line, col, l->tiles[view].name, other, dl, dc);
				free(other);
			} else if (reader >= 0) {
				char *array = cursor_name(ov.array), *other = cursor_name(ov.other);
				bool own = clang_equalCursors(ov.other, ov.array);
				char *how = own ? xstrdup("by its own name") : xprintf("through '%s', another pointer", other);
				pos(src, statement_start(src, &l->stmts[reader]), &line, &col);
				kloop_refuse(l, l->stmts[reader].text.begin,
					     "the copies store through '%s', a pointer into '%s', which the compute at %d:%d reads "
					     "%s: pipefy stages a tile both name alike",
					     l->tiles[view].name, array, line, col, how);
				free(array);
				free(other);
				free(how);
			} else
				refuse_unread(l, src);
		}
		return;
	}
	if (first_read < last_copy) {
		size_t read_at = cursor_span(cursor_unattributed(l->stmts[first_read].cursor)).begin;
		int fetch = -1;
		const struct copy *late = hand_prefetch(l, first_read, &fetch);
		if (late) {
			int fl, fc;
			char *reg = cursor_name(cursor_root_var(late->value));
			pos(src, late->text.begin, &line, &col);
			pos(src, l->stmts[fetch].text.begin, &fl, &fc);
			kloop_refuse(l, late->text.begin,
				     "already pipelined: '%s' is stored at %d:%d from register '%s', loaded from global "
				     "memory at %d:%d before the compute reads the tiles (register prefetch)",
				     l->tiles[late->tile].name, line, col, reg, fl, fc);
			free(reg);
			return;
		}
		pos(src, read_at, &line, &col);
		kloop_refuse(l, read_at, "the tiles are read at %d:%d before the last copy into them", line, col);
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

/* Stages in the launch's shared memory are copies of its whole layout at the launch's stride,
 * and only the tiles move to them: each tile must point into an extern __shared__ array, and
 * nothing else in the loop may reach into one (a second pointer to a tile would keep reading
 * the first copy). Returns why not, or NULL. */
struct launch_ref_scan {
	const struct kloop *l;
	CXCursor bad;
};

static bool extern_array(CXCursor array)
{
	return !clang_Cursor_isNull(array) &&
	       clang_getCanonicalType(clang_getCursorType(array)).kind == CXType_IncompleteArray;
}

static enum CXChildVisitResult scan_launch_refs(CXCursor c, CXCursor d, void *data)
{
	struct launch_ref_scan *s = data;
	if (cursor_is_shared_var(d) && kloop_tile(s->l, d) < 0 &&
	    (cursor_is_shared_view(d) || extern_array(cursor_shared_array(d)))) {
		s->bad = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static char *launch_stages_problem(const struct kloop *l, const struct source *src)
{
	int line, col;
	for (int i = 0; i < l->ntiles; i++) {
		if (!l->tiles[i].dynamic || extern_array(cursor_shared_array(l->tiles[i].decl)))
			continue;
		pos(src, cursor_span(l->tiles[i].decl).begin, &line, &col);
		return xprintf("tile '%s' (%d:%d) does not point into an extern __shared__ array", l->tiles[i].name, line,
			       col);
	}
	struct launch_ref_scan s = {.l = l, .bad = clang_getNullCursor()};
	cursor_visit_names(l->cursor, scan_launch_refs, &s);
	if (clang_Cursor_isNull(s.bad))
		return NULL;
	pos(src, cursor_span(s.bad).begin, &line, &col);
	char *name = span_text(src, cursor_span(s.bad));
	char *r = xprintf("'%s' at %d:%d points into the launch's shared memory too, and no copy fills it: it would "
			  "keep reading the first stage",
			  name, line, col);
	free(name);
	return r;
}

/* The other load of a local find saw loaded twice with a use between (fetch_again), for the
 * statement at offset `at`; offset + 1, 0 when none. */
static size_t loaded_again(const struct kloop *l, size_t at)
{
	for (int j = 0; j < l->nstmts; j++)
		if (l->stmts[j].text.begin == at)
			return l->stmts[j].fetch_again;
	return 0;
}

struct local_sets {
	CXCursor var;
	size_t before;   /* the copy's offset: writes from it on do not count */
	size_t at[2];    /* the first two writes' offsets */
	int n;
};

static enum CXChildVisitResult scan_local_sets(CXCursor w, enum write_kind k, CXCursor target, CXCursor value, void *data)
{
	(void)k, (void)value;
	struct local_sets *s = data;
	size_t at = cursor_span(w).begin;
	if (at >= s->before || !clang_equalCursors(cursor_root_var(target), s->var))
		return CXChildVisit_Recurse;
	for (int i = 0; i < s->n && i < 2; i++)
		if (s->at[i] == at) /* (one write seen twice: `v = f(..)` of a struct, its operator= call) */
			return CXChildVisit_Recurse;
	if (s->n < 2)
		s->at[s->n] = at;
	s->n++;
	return CXChildVisit_Recurse;
}

/* A copy that stores a local (or a part of one) that the body sets before it other than as one
 * load pipefy reads (`if (g) v = *(float4 *)p; else { ..; v = make_float4(..); }`): named, with
 * where it is set. False when nothing in the body before the copy writes the local. */
static bool refuse_local_set_otherwise(struct kloop *l, const struct source *src, const struct copy *cp, CXCursor reg,
				       const char *name, int line, int col)
{
	if (clang_Cursor_isNull(reg) || clang_getCursorKind(reg) != CXCursor_VarDecl || cursor_is_shared_decl(reg) ||
	    clang_Cursor_isNull(cp->value))
		return false;
	struct local_sets s = {.var = reg, .before = cp->text.begin};
	for (int j = 0; j <= cp->stmt && j < l->nstmts; j++) {
		CXCursor st = cursor_strip(l->stmts[j].cursor), target, value;
		enum write_kind k = cursor_write_parts(st, &target, &value);
		if (k != WRITE_NONE) /* (the statement itself: the walk goes below it) */
			scan_local_sets(st, k, target, value, &s);
		cursor_visit_writes(l->stmts[j].cursor, scan_local_sets, &s);
	}
	if (s.n == 0)
		return false;
	char *v = span_text(src, cursor_span(cp->value));
	char first[32];
	snprintf(first, sizeof first, "%s", where(src, s.at[0]));
	CXCursor init = cursor_last_child(reg);
	bool declared_with_value = !clang_Cursor_isNull(init) && clang_getCursorKind(init) != CXCursor_TypeRef &&
				   clang_isExpression(clang_getCursorKind(init));
	if (s.n == 1 && declared_with_value)
		kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from '%s', which the body also writes at %s (pipefy "
			     "stages a local that one load sets)", name, line, col, v, first);
	else if (s.n == 1)
		kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from '%s', which the body sets at %s other than by "
			     "one load (pipefy stages a local that one load sets)", name, line, col, v, first);
	else
		kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from '%s', which the body writes %s before it (at %s, "
			     "%s%s): pipefy stages a local that one load sets", name, line, col, v, s.n == 2 ? "twice" : "more than twice",
			     first, where(src, s.at[1]), s.n > 2 ? ", .." : "");
	free(v);
	return true;
}

/* A store from a local that a copy loop of the body declares from a load of global memory
 * (`float4 tmp = ...&A[i]...; As[..] = tmp.x;` inside `for (offset ...)`). */
static bool staged_in_copy_loop(const struct kloop *l, const struct copy *cp, CXCursor reg)
{
	if (clang_Cursor_isNull(reg) || clang_getCursorKind(reg) != CXCursor_VarDecl || cp->stmt < 0)
		return false;
	const struct body_stmt *st = &l->stmts[cp->stmt];
	enum CXCursorKind k = clang_getCursorKind(st->cursor);
	return (k == CXCursor_ForStmt || k == CXCursor_WhileStmt) && span_within(cursor_span(reg), st->text) &&
	       body_fetch_value(cursor_last_child(reg));
}
/* `As[r][c] = 0; ...; if (g) As[r][c] = A[i];`: a constant first, then, not as the next statement,
 * a copy under an if into the same element. (Next to each other they are one guarded copy,
 * body.c.) False when cp is not such a constant. */
static bool refuse_fill_first(struct kloop *l, const struct source *src, const struct copy *cp, const char *name)
{
	if (clang_Cursor_isNull(cp->value) || !cursor_folds_to_constant(cp->value))
		return false;
	char *dst = span_text(src, cursor_span(cursor_write_target(cp->store)));
	const struct copy *then = NULL;
	for (int k = 0; k < l->ncopies && !then; k++) {
		const struct copy *o = &l->copies[k];
		/* (a load as record_store reads one: through a conversion too) */
		if (o->stmt <= cp->stmt || clang_getCursorKind(cursor_unattributed(l->stmts[o->stmt].cursor)) != CXCursor_IfStmt ||
		    o->src.end == o->src.begin)
			continue;
		char *od = span_text(src, cursor_span(cursor_write_target(o->store)));
		if (strcmp(od, dst) == 0)
			then = o;
		free(od);
	}
	free(dst);
	if (!then)
		return false;
	int line, col, tl, tc;
	pos(src, cp->text.begin, &line, &col);
	pos(src, cursor_span(l->stmts[then->stmt].cursor).begin, &tl, &tc);
	kloop_refuse(l, cp->text.begin,
		     "'%s' is set to a constant at %d:%d and then copied under the if at %d:%d, not the next statement: "
		     "pipefy reads a guarded fill as `X = 0; if (g) X = A[i];` with nothing between, `if (g) X = A[i]; "
		     "else X = 0;` or `X = g ? A[i] : 0`",
		     name, line, col, tl, tc);
	return true;
}

/* A copy inside a macro's expansion, which pipefy cannot rewrite. */
static void refuse_macro_copy(struct kloop *l, const struct source *src, const struct copy *cp)
{
	int line, col;
	pos(src, cp->text.begin, &line, &col);
	/* (the macro named where the copy starts with one: `LOAD(As, ...)`, `LDST128BITS(s_a[..]) = ...`) */
	size_t n = source_call_word(src, cp->text.begin);
	if (n > 0)
		kloop_refuse(l, cp->text.begin, "the copy at %d:%d sits inside a macro expansion ('%.*s')", line, col,
			     (int)n, src->text + cp->text.begin);
	else
		kloop_refuse(l, cp->text.begin, "the copy at %d:%d sits inside a macro expansion", line, col);
}

/* For `As[i] = reg;`: where a statement before the copy, in the same iteration, writes reg with
 * no barrier and no compute between (*loaded), where a use of reg keeps the fetch that
 * loads it in place (*blocker), and where the compute (a statement reading the tiles) writes it
 * after the last barrier before the copy (*computed); each offset + 1, 0 when none. */
static void register_writes(const struct kloop *l, const struct copy *cp, CXCursor reg, size_t *loaded, size_t *blocker,
			    size_t *computed)
{
	*loaded = *blocker = *computed = 0;
	for (int j = 0; j < l->nstmts && j < cp->stmt; j++) {
		if (l->stmts[j].fetch_blocker && clang_equalCursors(l->stmts[j].fetch_var, reg))
			*blocker = l->stmts[j].fetch_blocker;
		/* (a register the same iteration writes first, with no barrier and no compute
		 * between, holds this tile's value: no prefetch, a load pipefy did not read as
		 * one; written before the compute and stored after it, it is a prefetch of the
		 * next tile) */
		if (l->stmts[j].role == ROLE_BARRIER)
			*loaded = *blocker = *computed = 0;
		else if (l->stmts[j].role == ROLE_COMPUTE && refs_tile(l, j)) {
			*loaded = *blocker = 0; /* (the loads before it are the next tile's) */
			if (cursor_writes_var(l->stmts[j].cursor, reg))
				*computed = l->stmts[j].text.begin + 1;
		} else if (!*loaded && cursor_writes_var(l->stmts[j].cursor, reg))
			*loaded = l->stmts[j].text.begin + 1;
	}
}

/* A tile written from no register loaded before the loop: from a call (a load accessor pipefy
 * does not read), from a local a copy loop loads, or from a computed value. */
static CXCursor shared_ref_in(CXCursor c);

/* An argument of call that a copy constructor other than a plain struct's copies (code of
 * the program's that runs where the call does); null when none. */
static CXCursor program_copy_argument(CXCursor call)
{
	for (int i = 0; i < clang_Cursor_getNumArguments(call); i++) {
		CXCursor arg = cursor_strip(clang_Cursor_getArgument(call, (unsigned)i));
		if (cursor_copy_construct(arg) && !cursor_plain_copy_construct(arg) &&
		    !effects_in_system_header(clang_getCursorReferenced(arg)))
			return arg;
	}
	return clang_getNullCursor();
}


/* The first statement of an if's branches that is no store (`const int off = ..;`, a call);
 * null when each statement of both is a store. */
static CXCursor branch_extra(CXCursor ifstmt)
{
	struct cursors cs = cursor_children(ifstmt);
	CXCursor found = clang_getNullCursor();
	for (int b = 1; b < cs.n && clang_Cursor_isNull(found); b++) {
		struct cursors st = clang_getCursorKind(cs.v[b]) == CXCursor_CompoundStmt ? cursor_children(cs.v[b])
											  : (struct cursors){0};
		for (int i = 0; i < st.n && clang_Cursor_isNull(found); i++) {
			CXCursor t, v;
			if (cursor_write_parts(cursor_strip(st.v[i]), &t, &v) != WRITE_ASSIGN)
				found = st.v[i];
		}
		free(st.v);
	}
	free(cs.v);
	return found;
}

/* Why extra, a statement of a branch of ifstmt besides its store, keeps the if from being read
 * as a guarded copy (body.c's store_after_locals takes declarations of locals set from
 * arithmetic, changed nowhere after, that only the load reads): what follows "the if at L:C,
 * which stores .. into ..,". */
static char *branch_local_problem(const struct source *src, CXCursor ifstmt, CXCursor extra)
{
	int xl, xc;
	pos(src, cursor_span(extra).begin, &xl, &xc);
	if (clang_getCursorKind(extra) != CXCursor_DeclStmt || cursor_from_macro(extra)) {
		char *x = span_text(src, cursor_span(extra));
		x[strcspn(x, "\n")] = '\0';
		char *r = xprintf("holds '%s' (%d:%d) besides a store%s", x, xl, xc,
				  cursor_from_macro(extra) ? ", from a macro's expansion, which pipefy does not rewrite"
							   : ": pipefy reads an if/else as a guarded copy when a branch "
							     "holds one store, after locals that its load alone reads");
		free(x);
		return r;
	}
	CXCursor branch = extra;
	struct cursors cs = cursor_children(ifstmt);
	for (int b = 1; b < cs.n; b++)
		if (span_within(cursor_span(extra), cursor_span(cs.v[b])))
			branch = cs.v[b];
	free(cs.v);
	CXCursor last = cursor_strip(cursor_last_child(branch)), t, v;
	bool store = cursor_write_parts(last, &t, &v) == WRITE_ASSIGN;
	struct cursors vars = cursor_children(extra);
	char *why = NULL;
	for (int i = 0; i < vars.n && !why; i++) {
		CXCursor var = vars.v[i], init;
		bool value = cursor_value_local(var, &init);
		char *n = cursor_name(var);
		struct span at[64];
		if (clang_getCursorKind(var) != CXCursor_VarDecl)
			why = xprintf("declares '%s' (%d:%d), not a local: pipefy takes only locals into a guarded copy's load",
				      n, xl, xc);
		else if (!value && !clang_Cursor_isNull(init))
			why = xprintf("declares '%s' (%d:%d) as an array, a struct or a reference, or with braces: pipefy takes "
				      "a branch's locals into its load only as scalars or pointers set by `=`", n, xl, xc);
		else if (!value || !cursor_is_arithmetic(init))
			why = xprintf("declares '%s' (%d:%d) from what may read memory or call a function: pipefy takes a "
				      "branch's locals into its load only when each is arithmetic on locals and parameters",
				      n, xl, xc);
		else if (cursor_writes_var(branch, var) || cursor_escapes(branch, var))
			why = xprintf("declares '%s' (%d:%d) and changes it after, or takes its address: pipefy takes a "
				      "branch's locals into its load only when each is set once", n, xl, xc);
		else if (cursor_var_refs(branch, var, at, 64) < 0)
			why = xprintf("reads '%s' (%d:%d) inside a macro's expansion, which pipefy does not rewrite", n, xl, xc);
		else if (store && cursor_var_refs(t, var, at, 64) != 0)
			why = xprintf("declares '%s' (%d:%d) and chooses the element stored with it: pipefy reads an if/else "
				      "as a guarded copy only where both branches name the element alike", n, xl, xc);
		free(n);
	}
	free(vars.v);
	return why ? why
		   : xprintf("declares locals at %d:%d: pipefy reads an if/else as a guarded copy when one branch "
			     "stores a load, after locals that the load alone reads, and the other stores a constant",
			     xl, xc);
}

/* A constant stored under an if (`if (g) { As[..] = A[..]; Bs[..] = B[..]; } else { As[..] = 0;
 * Bs[..] = 0; }`): the if is no guarded copy pipefy reads, which takes one store a branch. */
/* `T(0)` in a template whose T is one of its parameters: a constant of the type the template
 * decides (clang folds no expression of a dependent type). */
static bool template_constant(CXCursor v)
{
	v = cursor_strip(v);
	enum CXTypeKind tk = clang_getCursorType(v).kind;
	if (tk != CXType_Dependent && tk != CXType_Unexposed)
		return false;
	struct cursors kids = cursor_children(v);
	bool ok = kids.n >= 1 && cursor_folds_to_constant(kids.v[kids.n - 1]);
	for (int i = 0; i + 1 < kids.n && ok; i++)
		ok = clang_getCursorKind(kids.v[i]) == CXCursor_TypeRef;
	free(kids.v);
	return ok;
}

static bool refuse_constant_branch(struct kloop *l, const struct source *src, const struct copy *cp, const char *name)
{
	if (clang_Cursor_isNull(cp->value) || !(cursor_folds_to_constant(cp->value) || template_constant(cp->value)))
		return false;
	CXCursor path[64];
	int n = 1;
	path[0] = l->stmts[cp->stmt].cursor;
	if (!path_to(path[0], cp->store, path, &n, 64))
		return false;
	for (int i = n - 1; i >= 0; i--)
		if (clang_getCursorKind(path[i]) == CXCursor_IfStmt) {
			int line, col, il, ic;
			pos(src, cp->text.begin, &line, &col);
			pos(src, cursor_span(path[i]).begin, &il, &ic);
			char *v = span_text(src, cursor_span(cp->value));
			/* (what else a branch holds, where one does: `const int off = ..;` before its store) */
			CXCursor extra = branch_extra(path[i]);
			if (!clang_Cursor_isNull(extra)) {
				char *why = branch_local_problem(src, path[i], extra);
				kloop_refuse(l, cp->text.begin, "the if at %d:%d, which stores '%s' into '%s', %s", il, ic, v,
					     name, why);
				free(why);
			} else
				kloop_refuse(l, cp->text.begin,
					     "'%s' is set to the constant '%s' at %d:%d under the if at %d:%d: pipefy reads an "
					     "if/else as a guarded copy only with one store of the same element a branch (a load "
					     "in one, a constant in the other)", name, v, line, col, il, ic);
			free(v);
			return true;
		}
	return false;
}

/* The first call an expression makes that is not a builtin operator's, or null. */
static enum CXChildVisitResult scan_first_call(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	/* (in a template, `to_float(x)` resolves at instantiation: no callee, but a name below it) */
	CXCursor first = cursor_strip(cursor_first_child(c));
	enum CXCursorKind fk = clang_getCursorKind(first);
	enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(first));
	bool named = fk == CXCursor_OverloadedDeclRef ||
		     (fk == CXCursor_DeclRefExpr && (rk == CXCursor_FunctionTemplate ||
						     clang_getCursorKind(cursor_first_child(first)) == CXCursor_OverloadedDeclRef));
	if (!cursor_builtin_operator_call(c) || named) {
		*(CXCursor *)data = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static CXCursor first_call_in(CXCursor e)
{
	CXCursor call = clang_getNullCursor();
	if (clang_Cursor_isNull(e))
		return call;
	cursor_visit_from(e, scan_first_call, &call);
	return call;
}

static bool takes_pointer(CXCursor fn)
{
	for (int i = 0; i < clang_Cursor_getNumArguments(fn); i++)
		if (clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i))).kind == CXType_Pointer)
			return true;
	return false;
}

/* A tile stored from the value of a function of the program that takes no pointer (no load
 * function, then) and is not pure (pure.c): why, naming the function at fault. */
static bool refuse_impure_call(struct kloop *l, const struct copy *cp, int line, int col)
{
	CXCursor call = clang_Cursor_isNull(cp->value) ? cp->value : first_call_in(cp->value);
	char *fn = clang_Cursor_isNull(call) ? NULL : pure_callee(call);
	CXCursor callee = clang_Cursor_isNull(call) ? call : clang_getCursorReferenced(call);
	char *why = fn && !takes_pointer(callee) ? pure_program_call_problem(call) : NULL;
	if (why)
		kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from a call of '%s', which is not pure: %s",
			     l->tiles[cp->tile].name, line, col, fn, why);
	free(fn);
	free(why);
	return why != NULL;
}

/* The first argument of a call that names shared memory (`&scale`, `As[0]`), or null. */
static CXCursor shared_argument_of(CXCursor call)
{
	for (int i = 0; i < clang_Cursor_getNumArguments(call); i++) {
		CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
		if (cursor_names_shared(arg))
			return arg;
	}
	return clang_getNullCursor();
}

static bool shared_argument(CXCursor call) { return !clang_Cursor_isNull(shared_argument_of(call)); }


static void refuse_computed_copy(struct kloop *l, const struct source *src, const struct copy *cp, CXCursor reg)
{
	const char *name = l->tiles[cp->tile].name;
	int line, col;
	pos(src, cp->text.begin, &line, &col);
	CXCursor call = clang_Cursor_isNull(cp->value) ? clang_getNullCursor() : effects_program_call(cp->value);
	char *callee = clang_Cursor_isNull(call) ? NULL : cursor_name(clang_getCursorReferenced(call));
	CXCursor copied = clang_Cursor_isNull(call) ? call : program_copy_argument(call);
	if (callee && !clang_Cursor_isNull(copied)) {
		/* (`GetCounted(Am, r, c)`: handing Am over runs the struct's own copy constructor) */
		CXCursor ctor = clang_getCursorReferenced(cursor_strip(copied));
		char *arg = span_text(src, cursor_span(copied)), *at = xstrdup(where(src, cursor_span(ctor).begin));
		kloop_refuse(l, cp->text.begin,
			     "'%s' is written at %d:%d from a call of '%s', whose argument '%s' is copied by the program's "
			     "own copy constructor (%s): the loader would run it a tile early",
			     name, line, col, callee, arg, at);
		free(arg);
		free(at);
	} else if (refuse_impure_call(l, cp, line, col))
		;
	else if (callee && cursor_indexing_accessor(call))
		kloop_refuse(l, cp->text.begin,
			     "'%s' is written at %d:%d from a call of '%s', which reads more than its "
			     "parameters and the element it returns: pipefy reads a load function only as "
			     "`return *p;` or `return p[i];` of its parameters", name, line, col, callee);
	else if (callee && effects_load_function(call) && shared_argument(call)) {
		/* (the function is one pipefy loads through; an argument hands it shared memory) */
		char *arg = span_text(src, cursor_span(shared_argument_of(call)));
		kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from a call of '%s' handed '%s', which is "
			     "__shared__ memory: the loader would read it a tile early, pipefy loads through global "
			     "pointers", name, line, col, callee, arg);
		free(arg);
	} else if (callee) {
		char *why = effects_load_function_problem(call);
		kloop_refuse(l, cp->text.begin,
			     "'%s' is written at %d:%d from a call of '%s', which %s: pipefy loads a tile early through a "
			     "function that returns what it loads through its pointer parameters and writes only its locals",
			     name, line, col, callee, why ? why : "pipefy cannot read");
		free(why);
	}
	else if (staged_in_copy_loop(l, cp, reg)) {
		/* (body.c's mark_loop_fetches took it as a fetch but for this) */
		int dline, dcol;
		pos(src, cursor_span(reg).begin, &dline, &dcol);
		char *v = cursor_name(reg);
		CXCursor loop_body = cursor_last_child(cursor_unattributed(l->stmts[cp->stmt].cursor));
		const char *what = cursor_writes_var(loop_body, reg) ? "which the loop writes again"
				   : !clang_equalCursors(cursor_root_var(cp->value), reg) ? "which the stored value computes with"
				   : "which something other than the loop's stores reads";
		kloop_refuse(l, cp->text.begin,
			     "'%s' is stored at %d:%d from '%s', loaded at %d:%d inside a copy loop, %s: pipefy stages "
			     "such a local only when its declaration alone writes it and the loop's stores alone read it "
			     "(`As[..] = v.x;`)",
			     name, line, col, v, dline, dcol, what);
		free(v);
	} else if (!refuse_fill_first(l, src, cp, name)) {
		CXCursor shared = clang_Cursor_isNull(cp->value) ? clang_getNullCursor() : shared_ref_in(cp->value);
		char *sname = clang_Cursor_isNull(shared) ? NULL : cursor_name(shared);
		if (sname && cursor_loads_global(cp->value))
			kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from a value that also reads '%s', which "
				     "is __shared__: the loader would read it a tile early", name, line, col, sname);
		else if (sname)
			kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from a value read from '%s', which is "
				     "__shared__, not from global memory", name, line, col, sname);
		else if (refuse_constant_branch(l, src, cp, name))
			;
		else if (!clang_Cursor_isNull(cp->value) && cursor_folds_to_constant(cp->value)) {
			char *v = span_text(src, cursor_span(cp->value));
			kloop_refuse(l, cp->text.begin, "'%s' is set to the constant '%s' at %d:%d, which pipefy does not "
				     "read as the fill of a guarded copy (`if (g) As[..] = A[..]; else As[..] = 0;`)",
				     name, v, line, col);
			free(v);
		} else if (!clang_Cursor_isNull(first_call_in(cp->value))) {
			/* (a call the value makes, `to_float<T>(in[k])`: named as written) */
			char *c = span_text(src, cursor_span(first_call_in(cp->value)));
			c[strcspn(c, "(")] = '\0';
			kloop_refuse(l, cp->text.begin, "'%s' is written at %d:%d from a call of '%s', which is no load pipefy "
				     "reads (a plain load, a library function's value of one, or a load function of this file)",
				     name, line, col, c);
			free(c);
		} else {
			/* (after a barrier that copies of other tiles come before: the compute's own
			 * scratch, `S[ty][tx] = s;` between two phases of the compute) */
			int b = cp->stmt;
			while (--b >= 0 && l->stmts[b].role != ROLE_BARRIER)
				;
			bool scratch = false;
			for (int k = 0; k < l->ncopies && b > 0; k++)
				scratch |= l->copies[k].stmt < b && copy_tile(&l->copies[k]) != copy_tile(cp);
			scratch = scratch && !copies_write_tile(l, 0, b, copy_tile(cp));
			if (scratch) {
				int bl, bc;
				pos(src, l->stmts[b].text.begin, &bl, &bc);
				enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(l->tiles[cp->tile].decl)).kind;
				const char *what = k == CXType_Pointer ? "shared memory through"
						   : k == CXType_ConstantArray || k == CXType_DependentSizedArray ||
								   k == CXType_IncompleteArray
							   ? "the __shared__ array"
							   : "the __shared__ variable";
				kloop_refuse(l, cp->text.begin, "the compute after the barrier at %d:%d writes %s '%s' at %d:%d, "
					     "from a value it computes: pipefy stages loops whose compute only reads shared memory",
					     bl, bc, what, name, line, col);
			} else if (!clang_Cursor_isNull(reg) && clang_getCursorKind(reg) == CXCursor_VarDecl &&
				   cursor_declared_within(reg, cursor_span(l->stmts[cp->stmt].cursor)) &&
				   body_fetch_value(cursor_last_child(reg)) && !cursor_writes_var(l->stmts[cp->stmt].cursor, reg)) {
				/* (`if (g) { float4 v = *(float4 *)&A[..]; As[..] = v.x; .. }`: a load, into a
				 * local the copy's own branch declares) */
				char *v = span_text(src, cursor_span(cp->value)), *rn = cursor_name(reg);
				kloop_refuse(l, cp->text.begin,
					     "'%s' is stored at %d:%d from '%s', part of '%s', a load the statement at %s declares: "
					     "pipefy stores a loaded local's parts where the body's top level declares it", name, line, col, v, rn, where(src, statement_start(src, &l->stmts[cp->stmt])));
				free(v);
				free(rn);
			} else if (!refuse_local_set_otherwise(l, src, cp, reg, name, line, col))
				kloop_refuse(l, cp->text.begin, "'%s' is written from a computed value at %d:%d", name, line, col);
		}
		free(sname);
	}
	free(callee);
}

/* Whether the use at `at` that keeps a load into reg in place is in a copy (`*copy`: where it
 * starts) before a later load into reg (`*fetch`: offset + 1 of that load). */
static bool copy_before_fetch(const struct kloop *l, CXCursor reg, size_t at, size_t *copy, size_t *fetch)
{
	int in = kloop_stmt_at(l, at);
	if (in < 0 || l->stmts[in].role != ROLE_COPY)
		return false;
	for (int j = in + 1; j < l->nstmts; j++)
		if (l->stmts[j].fetch_blocker && clang_equalCursors(l->stmts[j].fetch_var, reg)) {
			*copy = l->stmts[in].text.begin;
			*fetch = l->stmts[j].text.begin + 1;
			return true;
		}
	return false;
}

/* A copy that stores no load it reads: `As[i] = reg;` from a register the previous iteration
 * loaded (a register prefetch: pipelined already), one the same iteration loads (a load pipefy
 * does not see as one) or uses elsewhere, or no such register. */
static void refuse_register_copy(struct kloop *l, const struct source *src, const struct copy *cp)
{
	const char *name = l->tiles[cp->tile].name;
	int line, col;
	pos(src, cp->text.begin, &line, &col);
	CXCursor reg = cursor_root_var(cp->value);
	if (!clang_Cursor_isNull(reg) && cursor_is_shared_var(reg)) {
		/* (`As[i] = Tab[..]`: shared memory to shared memory, no register) */
		char *v = span_text(src, cursor_span(cp->value)), *arr = cursor_name(reg);
		kloop_refuse(l, cp->text.begin,
			     "'%s' is stored at %d:%d from '%s', in the __shared__ array '%s', not loaded from global "
			     "memory: pipefy stages the tiles' loads from global memory",
			     name, line, col, v, arr);
		free(v);
		free(arr);
		return;
	}
	bool simple = !clang_Cursor_isNull(reg) && clang_getCursorKind(reg) == CXCursor_VarDecl &&
		      cursor_span(reg).begin < l->body.begin;
	char *value = simple ? span_text(src, cursor_span(cp->value)) : NULL;
	size_t blocker = 0, loaded = 0, early = 0, computed = 0, twice = 0;
	if (simple)
		register_writes(l, cp, reg, &loaded, &blocker, &computed);
	if (computed && !loaded && !blocker) {
		/* (`acc += As[..] * Bs[..]; ... As[..] = acc;`: the compute writes the tile) */
		int cline, ccol;
		pos(src, computed - 1, &cline, &ccol);
		kloop_refuse(l, cp->text.begin,
			     "'%s' is stored at %d:%d from '%s', which the compute at %d:%d writes in the same iteration: "
			     "the compute writes the tile, which pipefy does not stage",
			     name, line, col, value, cline, ccol);
	} else if (loaded && !blocker && (twice = loaded_again(l, loaded - 1))) {
		int wline, wcol, tline, tcol;
		pos(src, loaded - 1, &wline, &wcol);
		pos(src, twice - 1, &tline, &tcol);
		kloop_refuse(l, cp->text.begin,
			     "'%s' is stored from register '%s' at %d:%d, which the loads at %d:%d and %d:%d both set, one "
			     "for each copy: staging registers hold one value of each loaded local",
			     name, value, line, col, wline, wcol, tline, tcol);
	} else if (loaded && !blocker) {
		int wline, wcol;
		pos(src, loaded - 1, &wline, &wcol);
		size_t n = source_call_word(src, loaded - 1);
		char *mname = n > 0 ? xprintf(" (it starts with '%.*s')", (int)n, src->text + loaded - 1) : xstrdup("");
		kloop_refuse(l, cp->text.begin,
			     "'%s' is stored from register '%s' at %d:%d, set at %d:%d by what pipefy does not read as a "
			     "load from global memory%s, so it cannot start the tile early",
			     name, value, line, col, wline, wcol, mname);
		free(mname);
	} else if (blocker && copy_before_fetch(l, reg, blocker - 1, &early, &loaded)) {
		/* a copy between two loads into the register: it reads the previous tile's half */
		int uline, ucol, fline, fcol;
		pos(src, early, &uline, &ucol);
		pos(src, loaded - 1, &fline, &fcol);
		char *v = cursor_name(reg);
		kloop_refuse(l, cp->text.begin,
			     "the copy at %d:%d reads '%s' before the load into it at %d:%d: pipefy starts a register's "
			     "loads a tile early only when every copy from it follows them",
			     uline, ucol, v, fline, fcol);
		free(v);
	} else if (blocker) {
		/* loaded earlier in the same iteration: a fetch the loader could move, but for
		 * a use of the register that would then see the next tile's value (body.c's
		 * kept_fetch: a use after the copies is kept, where the assignment's two sides
		 * can be rewritten apart) */
		int uline, ucol;
		pos(src, blocker - 1, &uline, &ucol);
		const struct body_stmt *fetch = NULL;
		for (int j = 0; j < l->nstmts && !fetch; j++)
			if (l->stmts[j].fetch_blocker == blocker)
				fetch = &l->stmts[j];
		struct span lhs, rhs;
		bool whole;
		size_t word = fetch ? source_call_word(src, fetch->text.begin) : 0;
		if (fetch && word > 0 && !body_kept_sides(src, fetch, &lhs, &rhs, &whole)) {
			int fline, fcol;
			pos(src, fetch->text.begin, &fline, &fcol);
			kloop_refuse(l, cp->text.begin,
				     "'%s' is stored from register '%s' at %d:%d and also read at %d:%d; its load at %d:%d is "
				     "one expansion of '%.*s', whose sides pipefy cannot rewrite apart",
				     name, value, line, col, uline, ucol, fline, fcol, (int)word, src->text + fetch->text.begin);
		} else
			kloop_refuse(l, cp->text.begin,
				     "'%s' is stored from register '%s' at %d:%d, also read at %d:%d: pipefy moves a "
				     "register's load only where the copies, or statements after them, alone read it",
				     name, value, line, col, uline, ucol);
	} else if (simple && !cursor_writes_var(cursor_last_child(l->cursor), reg))
		kloop_refuse(l, cp->text.begin,
			     "'%s' is stored at %d:%d from '%s', which the loop never changes: no tile loaded from global "
			     "memory, which pipefy stages", name, line, col, value);
	else if (simple)
		kloop_refuse(l, cp->text.begin,
			     "already pipelined: '%s' is stored from register '%s' at %d:%d (register prefetch)",
			     name, value, line, col);
	else
		refuse_computed_copy(l, src, cp, reg);
	free(value);
}

/* Whether every write of a register is a load from global memory. */
struct register_loads {
	CXCursor reg;
	bool only_loads;
};

static enum CXChildVisitResult scan_register_loads(CXCursor w, enum write_kind k, CXCursor target, CXCursor value,
						   void *data)
{
	(void)w;
	struct register_loads *rl = data;
	if (clang_equalCursors(cursor_root_var(target), rl->reg) && (k != WRITE_ASSIGN || !cursor_loads_global(value)))
		rl->only_loads = false;
	return rl->only_loads ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* A copy inside a macro's expansion that stores a register the loop loads before its compute
 * (`ST4(&s[i], nxt);` after `nxt = A[..]`): a register prefetch by hand, said first; false when
 * the copy is no such store. */
static bool refuse_macro_prefetch(struct kloop *l, const struct source *src, const struct copy *cp)
{
	CXCursor reg = clang_Cursor_isNull(cp->value) ? cp->value : cursor_root_var(cp->value);
	if (clang_Cursor_isNull(reg) || clang_getCursorKind(reg) != CXCursor_VarDecl ||
	    cursor_span(reg).begin >= l->body.begin || cursor_is_shared_var(reg) ||
	    !cursor_writes_var(cursor_last_child(l->cursor), reg))
		return false;
	size_t loaded, blocker, computed;
	register_writes(l, cp, reg, &loaded, &blocker, &computed);
	if (loaded || blocker || computed)
		return false;
	/* every write of the register in the loop a load from global memory, the last one before
	 * the copy followed by a statement of the compute that reads a tile */
	struct register_loads rl = {reg, true};
	int last = -1;
	for (int j = 0; j < l->nstmts && rl.only_loads; j++)
		if (cursor_writes_var(l->stmts[j].cursor, reg)) {
			cursor_visit_writes(l->stmts[j].cursor, scan_register_loads, &rl);
			if (j < cp->stmt)
				last = j;
		}
	bool read_between = false;
	for (int j = last + 1; j < cp->stmt && last >= 0; j++)
		read_between |= l->stmts[j].role == ROLE_COMPUTE && refs_tile(l, j);
	if (!rl.only_loads || !read_between)
		return false;
	CXCursor target = cursor_root_var(cursor_write_target(cp->store));
	char *name = clang_Cursor_isNull(target) ? xstrdup("a tile") : cursor_name(target);
	char *value = cursor_name(reg);
	int line, col;
	pos(src, cp->text.begin, &line, &col);
	kloop_refuse(l, cp->text.begin,
		     "already pipelined: '%s' is stored from register '%s' at %d:%d, inside a macro's expansion "
		     "(register prefetch)", name, value, line, col);
	free(name);
	free(value);
	return true;
}

/* Static tiles: every access outside the loop's names of them (a helper naming a tile declared
 * at file scope too) would see one stage of several, so such a loop keeps one stage, as a
 * dynamic tile does (dynamic_tile_stages): its tiles stay where and what they were, written
 * between the same barriers, and the code before and after the loop sees what it saw. */
static void check_static_storage(struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->ntiles; i++)
		if (l->tiles[i].dynamic)
			return;
	size_t at = 0;
	char *why = storage_outside(l, src, &at);
	if (why && !l->one_stage)
		l->one_stage = xprintf("%s: with a second stage it would see the first stage's copy only", why);
	free(why);
}

/* A tile that points into the launch's shared memory, out of the loop, keeps one stage
 * unless every launch can be given another copy of its layout. One stage keeps every store into
 * shared memory where and when it was (after the barrier that ends the compute), so what the
 * tiles alias does not matter. More stages sit at multiples of the launch's size, each a copy
 * of its layout: pipefy must then give every launch that much more (measure.c says whether it
 * can; a view is a pointer set once into the extern array, cursor.c), and only the tiles may
 * reach into it. */
static void dynamic_tile_stages(struct kloop *l, const struct source *src, int i, CXType t)
{
	int line, col;
	pos(src, cursor_span(l->tiles[i].decl).begin, &line, &col);
	CXCursor array = cursor_shared_array(l->tiles[i].decl);
	if (!clang_Cursor_isNull(array) && clang_getCanonicalType(clang_getCursorType(array)).kind != CXType_IncompleteArray) {
		/* (a view into a static array: the launch's size does not reach it) */
		char *name = cursor_name(array);
		int aline, acol;
		pos(src, cursor_span(array).begin, &aline, &acol);
		l->one_stage = xprintf("tile '%s' (%d:%d) is a pointer into the static __shared__ array '%s' (%d:%d): "
				       "a second stage, or cp.async's, needs another copy of what it points to, "
				       "which pipefy gives only to tiles declared as arrays",
				       l->tiles[i].name, line, col, name, aline, acol);
		free(name);
		l->enlarge = false;
		return;
	}
	l->enlarge = l->nlaunch_edits > 0 && !l->launch_unknown;
	if (l->enlarge && (l->enlarge_refusal = launch_stages_problem(l, src)))
		l->enlarge = false;
	if (l->enlarge) {
		/* (a tile kept to one stage is where and what it was after the loop, and
		 * before it, whatever name reaches it) */
		size_t at = 0;
		char *why = storage_outside(l, src, &at);
		if (!why)
			return;
		l->one_stage = xprintf("%s: with a second stage it would see the first stage's copy only", why);
		free(why);
		l->enlarge = false;
		return;
	}
	l->one_stage_fact = xprintf("tile '%s' (%d:%d) is %s, sized by the launch", l->tiles[i].name, line, col,
				    t.kind == CXType_IncompleteArray ? "extern __shared__" : "a pointer into shared memory");
	l->one_stage = xprintf("tile '%s' (%d:%d) is %s, sized by the launch: a second stage, or cp.async's, "
			       "needs another copy of it from every launch, and %s",
			       l->tiles[i].name, line, col,
			       t.kind == CXType_IncompleteArray ? "extern __shared__" : "a pointer into shared memory",
			       l->enlarge_refusal ? l->enlarge_refusal
			       : l->launch_unknown ? l->launch_unknown
						   : "pipefy cannot change them all");
}

/* Why tile i's elements may not be assigned as plain bytes (stages copy them so: cp.async and
 * the tensor copies as bytes, registers through a copy), with *at; NULL when they are. An
 * element that is a parameter of the kernel template is plain where every instantiation of the
 * kernel, each named by a call in the file, binds it to a plain type. */
static char *element_assignment(const struct kloop *l, const struct source *src, int i, bool other_files, size_t *at)
{
	const struct tile *tile = &l->tiles[i];
	int line, col;
	*at = cursor_span(tile->decl).begin;
	pos(src, *at, &line, &col);
	CXType e = clang_getCursorType(tile->decl);
	if (clang_getCanonicalType(e).kind == CXType_Pointer)
		e = clang_getPointeeType(clang_getCanonicalType(e));
	e = type_array_element(e);
	int index = clang_getCursorKind(l->function_cursor) == CXCursor_FunctionTemplate ? cursor_type_param_index(e) : -1;
	if (index < 0) {
		enum CXTypeKind k = clang_getCanonicalType(e).kind;
		if (effects_assigns_bytes(e))
			return NULL;
		if (k == CXType_Unexposed || k == CXType_Dependent)
			return xprintf("tile '%s' holds '%s', which the template decides: pipefy cannot tell whether its "
				       "assignment runs user code (declared at %d:%d)", tile->name, tile->elem_type, line, col);
		return xprintf("tile '%s' holds '%s', whose assignment runs user code (declared at %d:%d)", tile->name,
			       tile->elem_type, line, col);
	}
	if (other_files)
		return xprintf("tile '%s' holds '%s', a parameter of the kernel template, which other files may "
			       "instantiate with a type whose assignment runs user code (declared at %d:%d)",
			       tile->name, tile->elem_type, line, col);
	int n;
	CXCursor *specs = uniform_instantiations(l->function_cursor, src, &n, at);
	char *why = NULL;
	if (!specs) {
		/* (launched only from host templates that deduce it: their calls bind it) */
		int nt;
		size_t host_at = *at;
		CXType *types = uniform_deduced_types(l->function_cursor, index, src, &nt, &host_at);
		for (int t = 0; t < nt && !why; t++)
			if (!effects_assigns_bytes(types[t])) {
				char *tn = type_spelling(types[t]);
				why = xprintf("tile '%s' holds '%s', which a launch of '%s' binds to '%s', whose assignment runs "
					      "user code (declared at %d:%d)", tile->name, tile->elem_type, l->function, tn, line, col);
				free(tn);
			}
		free(types);
		if (types)
			return why;
		*at = host_at;
		pos(src, *at, &line, &col);
		size_t end = *at; /* (the name mentioned there: the kernel's, or a host template's that launches it) */
		while (end < src->len && (isalnum((unsigned char)src->text[end]) || src->text[end] == '_'))
			end++;
		why = xprintf("tile '%s' holds '%s', a parameter of the kernel template, and pipefy cannot read what "
			      "the mention of '%.*s' at %d:%d binds it to", tile->name, tile->elem_type,
			      end > *at ? (int)(end - *at) : (int)strlen(l->function), end > *at ? src->text + *at : l->function,
			      line, col);
	} else if (n == 0)
		why = xprintf("tile '%s' holds '%s', a parameter of the kernel template, which no launch in this file "
			      "binds (declared at %d:%d)", tile->name, tile->elem_type, line, col);
	for (int s = 0; s < n && !why; s++) {
		CXType arg = clang_Cursor_getTemplateArgumentKind(specs[s], (unsigned)index) == CXTemplateArgumentKind_Type
				     ? clang_Cursor_getTemplateArgumentType(specs[s], (unsigned)index)
				     : (CXType){.kind = CXType_Invalid};
		if (effects_assigns_bytes(arg))
			continue;
		char *name = arg.kind == CXType_Invalid ? xstrdup("?") : type_spelling(arg);
		why = xprintf("tile '%s' holds '%s', which an instantiation of '%s' binds to '%s', whose assignment "
			      "runs user code (declared at %d:%d)", tile->name, tile->elem_type, l->function, name, line, col);
		free(name);
	}
	free(specs);
	return why;
}

/* Tile i: of a type whose assignment is plain bytes, and where it lives, with how many stages
 * it may have. */
static void check_tile(struct kloop *l, const struct source *src, int i, bool other_files)
{
	const struct tile *tile = &l->tiles[i];
	size_t at;
	int line, col;
	CXType t = clang_getCursorType(tile->decl);
	char *why = element_assignment(l, src, i, other_files, &at);
	if (why)
		kloop_refuse(l, at, "%s", why);
	free(why);
	at = cursor_span(tile->decl).begin;
	if (tile->dynamic && tile->in_loop) {
		pos(src, at, &line, &col);
		kloop_refuse(l, at,
			     "tile '%s' is a pointer declared inside the loop (%d:%d): pipefy stages a pointer tile only "
			     "when it is declared before the loop", tile->name, line, col);
	} else if (tile->dynamic && !l->one_stage)
		dynamic_tile_stages(l, src, i, t);
	else if (tile_bytes(l, i) < 0 && !tile->dynamic && !l->one_stage) {
		/* the rewrite is one text for every instantiation: more stages only when each
		 * one's size is known (measure.c reads them from the file's launches) */
		pos(src, at, &line, &col);
		l->one_stage = xprintf("tile '%s' (%d:%d) is sized by the template's parameters, and the launches in "
				       "this file do not fix them all: a second stage might not fit in static shared "
				       "memory for every instantiation",
				       tile->name, line, col);
	}
}

/* A copy through a view its body declares (struct copy's view) stores into the stage being
 * filled, the view's declaration staged with the copies: so the copies alone may use the view,
 * each as its destination, `*V` or `V[i]`, and its declaration must go with them. */
struct view_use_scan {
	const struct kloop *l;
	CXCursor view;
	size_t bad; /* offset + 1 of another use */
};

static enum CXChildVisitResult scan_view_use(CXCursor c, void *data)
{
	struct view_use_scan *s = data;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr || !clang_equalCursors(clang_getCursorReferenced(c), s->view))
		return CXChildVisit_Recurse;
	struct span at = cursor_span(c);
	bool dst = false;
	for (int i = 0; i < s->l->ncopies && !dst; i++) {
		const struct copy *cp = &s->l->copies[i];
		if (!clang_equalCursors(cp->view, s->view) || cp->dst_is_address)
			continue;
		if (cp->dst_is_deref) {
			dst = span_within(at, cp->dst_ptr);
			continue;
		}
		/* `V[i] = ..`: the view the base of the destination's subscript */
		CXCursor lhs, value;
		cursor_write_parts(cp->store, &lhs, &value);
		lhs = cursor_strip(lhs);
		CXCursor base = clang_getCursorKind(lhs) == CXCursor_ArraySubscriptExpr ? cursor_strip(cursor_first_child(lhs))
											 : clang_getNullCursor();
		struct span bs = cursor_span(base);
		dst = clang_getCursorKind(base) == CXCursor_DeclRefExpr && bs.begin == at.begin && bs.end == at.end;
	}
	if (!dst) {
		s->bad = at.begin + 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* Whether statement i is the compute's: it follows a statement of the compute that reads the
 * tiles with no barrier between, or the barrier after the loop's copies (`As[..] = ..;
 * __syncthreads(); .. ap[TS] = v;`). */
static bool after_compute(const struct kloop *l, int i)
{
	while (--i >= 0 && l->stmts[i].role != ROLE_BARRIER)
		if (l->stmts[i].role == ROLE_COMPUTE && refs_tile(l, i))
			return true;
	while (--i >= 0 && l->stmts[i].role != ROLE_BARRIER)
		if (l->stmts[i].role == ROLE_COPY)
			return true;
	return false;
}

static void check_copy_views(struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		bool first = !clang_Cursor_isNull(cp->view);
		for (int j = 0; j < i && first; j++)
			first = !clang_equalCursors(l->copies[j].view, cp->view);
		if (!first)
			continue;
		struct view_use_scan s = {.l = l, .view = cp->view};
		cursor_visit(l->cursor, scan_view_use, &s);
		size_t decl = cursor_span(cp->view).begin;
		int stmt = -1;
		for (int k = 0; k < l->nstmts && stmt < 0; k++)
			if (span_within(cursor_span(cp->view), l->stmts[k].text))
				stmt = k;
		bool placed = stmt >= 0 && (l->stmts[stmt].role == ROLE_COPY || l->stmts[stmt].declares_view) &&
			      !l->stmts[stmt].also_compute;
		char *name = cursor_name(cp->view), *declared = xstrdup(where(src, decl));
		if (after_compute(l, cp->stmt))
			kloop_refuse(l, cp->text.begin, "the compute stores into tile '%s' at %s through '%s' (%s): the "
				     "compute writes the tile, which pipefy does not stage", l->tiles[cp->tile].name,
				     where(src, cp->text.begin), name, declared);
		else if (s.bad)
			kloop_refuse(l, s.bad - 1,
				     "the view '%s' (%s) of tile '%s' is used at %s other than as a copy's destination "
				     "(`*%s = ...`, `%s[i] = ...`): pipefy stages it for the copies alone",
				     name, declared, l->tiles[cp->tile].name, where(src, s.bad - 1), name, name);
		else if (!placed)
			kloop_refuse(l, decl, "the view '%s' (%s) of tile '%s' is declared with what the compute reads: "
				     "pipefy stages it for the copies alone", name, declared, l->tiles[cp->tile].name);
		free(name);
		free(declared);
	}
}

/* The copies and the tiles: what pipefy reads as a tile's load, and where each tile lives. */
/* The first write inside e (an assignment, `++`, `--`, a compound assignment), or null. */
static enum CXChildVisitResult scan_first_write(CXCursor c, void *data)
{
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) != WRITE_NONE) {
		*(CXCursor *)data = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static CXCursor first_write_in(CXCursor e)
{
	CXCursor found = clang_getNullCursor();
	if (scan_first_write(e, &found) == CXChildVisit_Recurse)
		cursor_visit(e, scan_first_write, &found);
	return found;
}

/* The first name of __shared__ memory inside a copy's guard (`Bs[ty][tx] > 0 ? A[..] : 0`). */
struct guard_shared {
	struct span guard;
	CXCursor found;
};

static enum CXChildVisitResult scan_guard_shared(CXCursor c, CXCursor d, void *data)
{
	struct guard_shared *g = data;
	if (span_within(cursor_span(c), g->guard) && cursor_is_shared_var(d)) {
		g->found = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static void check_copies(struct kloop *l, const struct source *src, bool other_files)
{
	check_copy_views(l, src);
	/* (a guard the loader evaluates a tile early: one that reads shared memory would read what
	 * this tile's copies or compute leave there, not what the next tile's see; an attack found
	 * `if (Bs[ty][tx] > 0) As[..] = __ldg(..); else As[..] = 0;` pipelined wrong) */
	/* (a destination that writes, `As[i = ..][..]`, `As[r++]`: the loader and the stash would run
	 * the write again, or apart from the compute's order; an attack found cp.async wrong there) */
	for (int i = 0; i < l->ncopies && l->nrefusals == 0; i++) {
		const struct copy *cp = &l->copies[i];
		CXCursor target = cp->tile < 0 ? clang_getNullCursor() : copy_target(cp);
		CXCursor w = clang_Cursor_isNull(target) ? target : first_write_in(target);
		if (!clang_Cursor_isNull(w)) {
			char *t = span_text(src, cursor_span(w));
			kloop_refuse(l, cp->text.begin, "the destination of the copy at %s writes (`%s`): pipefy moves copies "
				     "whose destinations only read", where(src, cp->text.begin), t);
			free(t);
		}
	}
	for (int i = 0; i < l->ncopies && l->nrefusals == 0; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0 || cp->guard.end <= cp->guard.begin)
			continue;
		struct guard_shared g = {cp->guard, clang_getNullCursor()};
		cursor_visit_names_from(l->stmts[cp->stmt].cursor, scan_guard_shared, &g);
		if (!clang_Cursor_isNull(g.found)) {
			char *n = cursor_name(clang_getCursorReferenced(g.found)), *at = xstrdup(where(src, cp->guard.begin));
			kloop_refuse(l, cp->text.begin, "the guard of the copy at %s reads the __shared__ array '%s' (%s): the "
				     "loader would read it a tile early", at, n, where(src, cursor_span(g.found).begin));
			free(n);
			free(at);
		}
	}
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0) {
			if (!refuse_macro_prefetch(l, src, cp))
				refuse_macro_copy(l, src, cp);
		} else if (cp->src.end == cp->src.begin && !cp->from_register && !cp->computed)
			refuse_register_copy(l, src, cp);
	}
	check_static_storage(l, src);
	for (int i = 0; i < l->ntiles; i++)
		check_tile(l, src, i, other_files);
	/* a tile named in a macro's body (`#define AS(i, j) As[i][j]`): no stage index can be written
	 * there, and one stage needs none */
	for (int i = 0; i < l->nrefs && !l->one_stage; i++)
		if (l->refs[i].in_macro) {
			int line, col;
			pos(src, l->refs[i].at.begin, &line, &col);
			l->one_stage = xprintf("tile '%s' is named inside a macro's expansion at %d:%d, where no stage index "
					       "can be written", l->tiles[l->refs[i].tile].name, line, col);
		}
}

/* A copy whose address reads a value the compute writes cannot be issued a tile early. */
struct var_refs {
	struct kloop *loop;
	CXCursor bad;
	int writer; /* the statement that writes it */
	int stmt;   /* the copy's statement */
};

/* The first statement the loader does not replay (the compute, or any other statement that is
 * not a copy, a bump or a local the copies read) that writes var; -1 when none does. */
static int written_by_compute(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COMPUTE && cursor_writes_var(l->stmts[i].cursor, var))
			return i;
	return -1;
}

static enum CXChildVisitResult scan_source_vars(CXCursor c, void *data)
{
	struct var_refs *v = data;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		/* (a variable the copy's statement sets first, `for (x = 0; ..; x += 4) As[x][..] = ..`,
		 * holds the statement's own value wherever the loader replays it) */
		if ((clang_getCursorKind(d) == CXCursor_VarDecl || clang_getCursorKind(d) == CXCursor_ParmDecl) &&
		    !(v->loop->piped && clang_equalCursors(d, v->loop->pipe)) &&
		    !(v->stmt >= 0 && body_sets_first(v->loop->stmts[v->stmt].cursor, d))) {
			if ((v->writer = written_by_compute(v->loop, d)) >= 0) {
				v->bad = c;
				return CXChildVisit_Break;
			}
		}
	}
	return CXChildVisit_Recurse;
}

/* What the loader replays a tile early (the copies, the locals they read, the bumps, the loop's
 * test and increment) may not read a variable whose address the kernel takes: a write through
 * that pointer in the compute, which only the original's order puts first, would be missed. */
struct escape_scan {
	const struct kloop *l;
	CXCursor bad;
	bool reference;    /* bad names a local reference */
	CXCursor seen[32]; /* variables already looked for (each is read many times) */
	int nseen;
};

static enum CXChildVisitResult scan_escaping(CXCursor c, CXCursor d, void *data)
{
	struct escape_scan *e = data;
	enum CXCursorKind k = clang_getCursorKind(d);
	/* (a local reference reads another variable, which the compute may write under its own
	 * name: `const int &ro = off;` .. `A[ro + tx]` .. `off += TS;`) */
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
	if (k == CXCursor_VarDecl && (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
	    (pk == CXCursor_FunctionDecl || pk == CXCursor_FunctionTemplate || pk == CXCursor_CXXMethod)) {
		/* (bound to a variable by its name, which the loop writes nowhere and nothing else
		 * reaches, `const int &rows = N;`, it reads what it read before the loop) */
		CXCursor init = cursor_strip(cursor_last_child(d));
		CXCursor v = clang_getCursorKind(init) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(init)
										: clang_getNullCursor();
		bool fixed = !clang_Cursor_isNull(v) && effects_is_local(v) && !cursor_writes_var(e->l->cursor, v) &&
			     !cursor_escapes(e->l->function_cursor, v);
		if (!fixed) {
			e->bad = c;
			e->reference = true;
			return CXChildVisit_Break;
		}
	}
	/* (a variable of the file or of __shared__ memory is memory every thread may write: the
	 * checks of what the compute writes see to those) */
	if (k != CXCursor_ParmDecl && !(k == CXCursor_VarDecl && effects_is_local(d)))
		return CXChildVisit_Continue;
	if (e->l->piped && clang_equalCursors(d, e->l->pipe))
		return CXChildVisit_Continue; /* (its calls are dropped: pipe_problem) */
	for (int i = 0; i < e->nseen; i++)
		if (clang_equalCursors(e->seen[i], d))
			return CXChildVisit_Continue;
	if (e->nseen < 32)
		e->seen[e->nseen++] = d;
	if (!cursor_is_shared_var(d) && cursor_escapes(e->l->function_cursor, d)) {
		e->bad = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static void check_escapes(struct kloop *l, const struct source *src)
{
	struct escape_scan e = {.l = l, .bad = clang_getNullCursor()};
	struct cursors header = cursor_children(l->cursor);
	for (int i = 0; i + 1 < header.n && clang_Cursor_isNull(e.bad); i++)
		cursor_visit_names(header.v[i], scan_escaping, &e);
	free(header.v);
	for (int i = 0; i < l->nstmts && clang_Cursor_isNull(e.bad); i++) {
		enum stmt_role r = l->stmts[i].role;
		if (r == ROLE_COPY || r == ROLE_COPY_DECL || r == ROLE_FETCH_DECL || r == ROLE_BUMP)
			cursor_visit_names(l->stmts[i].cursor, scan_escaping, &e);
	}
	if (clang_Cursor_isNull(e.bad))
		return;
	char *name = cursor_name(e.bad);
	size_t at = cursor_span(e.bad).begin;
	if (e.reference)
		kloop_refuse(l, at, "'%s' at %s, which the loader reads a tile early, is a reference: a write of what it "
				    "names, by another name in the compute, would come after that read", name, where(src, at));
	else
		kloop_refuse(l, at, "'%s' at %s, which the loader reads a tile early, has its address taken (or a "
				    "reference bound to it) in the kernel: a write through it in the compute would come after "
				    "that read", name, where(src, at));
	free(name);
}

static void check_dependences(struct kloop *l, const struct source *src)
{
	int line, col;
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0 || cp->src.end == cp->src.begin)
			continue;
		struct var_refs v = {.loop = l, .bad = clang_getNullCursor(), .stmt = cp->stmt};
		cursor_visit(cp->store, scan_source_vars, &v);
		if (!clang_Cursor_isNull(v.bad)) {
			CXString s = clang_getCursorSpelling(v.bad);
			pos(src, cp->text.begin, &line, &col);
			int wl, wc;
			pos(src, cursor_span(l->stmts[v.writer].cursor).begin, &wl, &wc);
			/* (what reads it: the load, or the tile index it is stored at) */
			bool load = span_within(cursor_span(v.bad), cp->src);
			kloop_refuse(l, cp->text.begin,
				     "the %s at %d:%d depends on '%s', which the statement at %d:%d writes: the loader "
				     "replays the copies a tile early, not that statement",
				     load ? "load" : "copy's tile index", line, col, clang_getCString(s), wl, wc);
			clang_disposeString(s);
			return;
		}
	}
}

/* ---- the gate: every fact the rewrite relies on, established positively ---- */

/* The innermost #if, #ifdef or #ifndef still open at offset `at` (its offset + 1), or 0: code
 * there is compiled in some configurations and not in others. */
static size_t open_conditional(const struct source *src, size_t at)
{
	size_t stack[64];
	int depth = 0;
	for (size_t i = 0; i < at && i < src->len;) {
		const char *p = src->text + i;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#') {
			const char *d = p + 1;
			while (*d == ' ' || *d == '\t')
				d++;
			if (strncmp(d, "if", 2) == 0 && depth < 64)
				stack[depth++] = (size_t)(p - src->text);
			else if (strncmp(d, "endif", 5) == 0 && depth > 0)
				depth--;
		}
		const char *nl = memchr(src->text + i, '\n', src->len - i);
		if (!nl)
			break;
		i = (size_t)(nl - src->text) + 1;
	}
	return depth > 0 ? stack[depth - 1] + 1 : 0;
}

/* A preprocessor line in [from, to), at the start of a line (a #pragma too, unless
 * skip_pragma): its '#' offset + 1, or 0. */
static size_t directive_in(const struct source *src, size_t from, size_t to, bool skip_pragma)
{
	for (size_t i = from; i < to && i < src->len; i++)
		if (src->text[i] == '\n') {
			size_t j = i + 1;
			while (j < to && (src->text[j] == ' ' || src->text[j] == '\t'))
				j++;
			if (j >= to || src->text[j] != '#')
				continue;
			size_t k = j + 1;
			while (k < to && (src->text[k] == ' ' || src->text[k] == '\t'))
				k++;
			if (!skip_pragma || strncmp(src->text + k, "pragma", 6) != 0)
				return j + 1;
		}
	return 0;
}

/* What code the parse may skip in [from, to) could do that pipefy must see: synchronize, leave
 * the loop, run asm or an atomic, or write memory (an assignment or ++/-- whose target ends in
 * `]` or `)`, or starts with `*`, `.` or `->`): the first such word or operator, or NULL. A
 * check of the text, which is all there is of code the preprocessor drops. */
static const char *skipped_code_effect(const struct source *src, size_t from, size_t to)
{
	static const char *const words[] = {"asm", "__asm__", "return", "goto", "break", "continue", NULL};
	const char *t = src->text;
	for (size_t i = from; i < to; i++) {
		if (isalpha((unsigned char)t[i]) || t[i] == '_') {
			size_t b = i;
			while (i < to && (isalnum((unsigned char)t[i]) || t[i] == '_'))
				i++;
			char w[64];
			size_t n = i - b < sizeof w - 1 ? i - b : sizeof w - 1;
			memcpy(w, t + b, n);
			w[n] = '\0';
			if (strstr(w, "sync") || strncmp(w, "atomic", 6) == 0 || strstr(w, "fence"))
				return "a synchronization or an atomic";
			for (const char *const *k = words; *k; k++)
				if (strcmp(w, *k) == 0)
					return *k;
			i--;
			continue;
		}
		bool shift = i >= 2 && t[i - 1] == t[i - 2] && (t[i - 1] == '<' || t[i - 1] == '>'); /* (`<<=`) */
		bool assign = t[i] == '=' && t[i + 1] != '=' && (i == 0 || shift || !strchr("=!<>", t[i - 1]));
		bool step = (t[i] == '+' && t[i + 1] == '+') || (t[i] == '-' && t[i + 1] == '-');
		if (!assign && !step)
			continue;
		size_t j = i;
		while (j > from && strchr("+-*/%&|^<> \t", t[j - 1]) && !(step && j < i)) /* (the operator's own) */
			j--;
		while (j > from && (t[j - 1] == ' ' || t[j - 1] == '\t'))
			j--;
		char before = j > from ? t[j - 1] : ' ';
		if (before == ']' || before == ')')
			return "a store to memory";
		while (j > from && (isalnum((unsigned char)t[j - 1]) || t[j - 1] == '_'))
			j--;
		while (j > from && (t[j - 1] == ' ' || t[j - 1] == '\t'))
			j--;
		if (j > from && (t[j - 1] == '*' || t[j - 1] == '.' || t[j - 1] == '>'))
			return "a store to memory";
		if (step)
			i++;
	}
	return NULL;
}

/* A preprocessor line inside the loop: the rewrite moves and copies statements, so any
 * directive but a #pragma (which travels with its statement) would be split or dropped; one
 * inside a statement of the compute stays in its text (one stage). */
static bool check_directives(struct kloop *l, const struct source *src)
{
	/* (one inside a compute statement travels with its text, which no stage edits where the
	 * loop keeps one stage: the code the parse skips may name the tiles) */
	size_t d = directive_in(src, l->loop.begin, l->loop.end, true), first = d;
	while (d) {
		int in = -1;
		for (int i = 0; i < l->nstmts && in < 0; i++)
			if (l->stmts[i].role == ROLE_COMPUTE && d - 1 > l->stmts[i].text.begin && d - 1 < l->stmts[i].text.end)
				in = i;
		if (in < 0)
			break;
		const char *effect = skipped_code_effect(src, l->stmts[in].text.begin, l->stmts[in].text.end);
		if (effect) {
			int line_no, col;
			pos(src, d - 1, &line_no, &col);
			kloop_refuse(l, d - 1, "the compute holds a preprocessor branch at %d:%d, and its text holds %s, which "
				     "pipefy cannot check in code the parse skips", line_no, col, effect);
			return false;
		}
		d = directive_in(src, d, l->loop.end, true);
	}
	if (first && !d) {
		const char *n = src->text + first;
		int line_no, col;
		pos(src, first - 1, &line_no, &col);
		if (!l->one_stage)
			l->one_stage = xprintf("the compute holds a preprocessor branch ('#%.*s' at %d:%d), whose code the "
					       "parse skips may name the tiles where no stage index is written",
					       (int)strcspn(n, " \t\n("), n, line_no, col);
		return true;
	}
	if (!d)
		return true;
	const char *name = src->text + d;
	while (*name == ' ' || *name == '\t')
		name++;
	int line_no, col;
	pos(src, d - 1, &line_no, &col);
	kloop_refuse(l, d - 1,
		     "a preprocessor directive ('#%.*s') at %d:%d inside the loop: pipefy does not move code across "
		     "preprocessor branches",
		     (int)strcspn(name, " \t\n("), name, line_no, col);
	return false;
}

/* The `for` keyword or the header's parentheses written by a macro: the header pipefy would
 * copy is not the one the compiler sees. */
static bool check_header_macro(struct kloop *l, const struct source *src)
{
	CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(l->cursor));
	CXFile ef, sf;
	unsigned eo, so;
	clang_getExpansionLocation(at, &ef, NULL, NULL, &eo);
	clang_getSpellingLocation(at, &sf, NULL, NULL, &so);
	bool macro = !clang_File_isEqual(ef, sf) || eo != so || src->len < l->loop.begin + 3 ||
		     strncmp(src->text + l->loop.begin, "for", 3) != 0 || l->init.begin == 0 || l->inc.end >= src->len ||
		     src->text[l->init.begin - 1] != '(' || src->text[l->inc.end] != ')';
	if (macro) {
		int line, col;
		pos(src, l->loop.begin, &line, &col);
		kloop_refuse(l, l->loop.begin, "the loop header at %d:%d is written by a macro", line, col);
	}
	return !macro;
}

struct asm_scan {
	CXCursor bad;
	enum asm_kind kind;
	char *instruction;
};

static enum CXChildVisitResult scan_asm(CXCursor c, void *data)
{
	struct asm_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt || k == CXCursor_MSAsmStmt) {
		char *ins;
		enum asm_kind kind = effects_asm(c, &ins);
		if (kind != ASM_READS && (clang_Cursor_isNull(s->bad) || kind == ASM_ASYNC)) {
			free(s->instruction);
			s->bad = c;
			s->kind = kind;
			s->instruction = ins;
			if (kind == ASM_ASYNC)
				return CXChildVisit_Break;
		} else
			free(ins);
	}
	return CXChildVisit_Recurse;
}

/* asm in the body: instructions that only read registers and memory are compute; asynchronous
 * copies and their barriers mean the loop is already pipelined; anything else is unknown. */
static bool check_asm(struct kloop *l, const struct source *src)
{
	struct asm_scan s = {.bad = clang_getNullCursor()};
	cursor_visit(l->cursor, scan_asm, &s);
	if (clang_Cursor_isNull(s.bad))
		return true;
	size_t off = cursor_span(s.bad).begin;
	if (s.kind == ASM_ASYNC)
		kloop_refuse(l, off, "its copies are asynchronous already ('%s' in the asm at %s), and pipefy does not "
			     "restage asm copies, in one stage or several", s.instruction, where(src, off));
	else if (strcmp(s.instruction, "asm") == 0) /* (effects_asm: its text could not be read) */
		kloop_refuse(l, off, "the asm at %s takes its instruction from what pipefy cannot read (not string literals "
			     "written in its statement or its macro's body)", where(src, off));
	else
		kloop_refuse(l, off, "the asm at %s runs '%s', which pipefy cannot see through", where(src, off), s.instruction);
	free(s.instruction);
	return false;
}

/* A tile's address kept in a pointer or reference inside the loop: writes through it would
 * be writes to the tile that pipefy does not see. */
struct alias_scan {
	const struct kloop *l;
	CXCursor bad, tile;
	bool carried; /* bad keeps the address in a variable declared before the loop */
	size_t use; /* offset + 1 of the use that keeps bad from being a view, 0 when none */
};

static enum CXChildVisitResult scan_shared_ref(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && cursor_is_shared_var(clang_getCursorReferenced(c))) {
		*(CXCursor *)data = clang_getCursorReferenced(c);
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static CXCursor shared_ref_in(CXCursor c)
{
	CXCursor found = clang_getNullCursor();
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && cursor_is_shared_var(clang_getCursorReferenced(c)))
		return clang_getCursorReferenced(c);
	cursor_visit(c, scan_shared_ref, &found);
	return found;
}

/* Whether every __shared__ variable c names is an array of its own that the rewrite leaves as
 * it is: sized where it is declared (not extern, not a pointer), none of the loop's tiles, and
 * named in no tile's declaration (the storage a view carves tiles from). An address into such
 * an array (`const float *q = Qs;`, Qs filled before the loop) stays what it was. */
struct other_arrays {
	const struct kloop *l;
	bool other;
	CXCursor first; /* the first that is not: a tile, or a tile's storage */
};

static enum CXChildVisitResult scan_other_arrays(CXCursor c, void *data)
{
	struct other_arrays *o = data;
	CXCursor d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr || !cursor_is_shared_var(d))
		return CXChildVisit_Recurse;
	bool own = clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_ConstantArray && kloop_tile(o->l, d) < 0;
	for (int t = 0; t < o->l->ntiles && own; t++)
		own = cursor_var_refs(o->l->tiles[t].decl, d, NULL, 0) == 0;
	o->other = own;
	if (!own)
		o->first = d;
	return own ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* Whether c names such arrays alone; where it does not, *tile is the first it names that is a
 * tile or a tile's storage. */
static bool names_other_arrays_only(const struct kloop *l, CXCursor c, CXCursor *tile)
{
	struct other_arrays o = {l, true, clang_getNullCursor()};
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
		scan_other_arrays(c, &o);
	else
		cursor_visit(c, scan_other_arrays, &o);
	if (!o.other)
		*tile = o.first;
	return o.other;
}

static bool indirect_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

/* Uses of a pointer that hand it to a function as a pointer to const (`load_matrix_sync(a,
 * p, ldm)`, whose parameter is `const half *`), or read what it points to (`p[i]`, `*p`): the
 * pointee accesses, and of them those written (`p[i] = v`, `p[i]++`) or whose address is
 * taken (`&p[i]`). */
struct view_uses {
	CXCursor var;
	int depth; /* of the functions a view was handed to, followed */
	int handed;
	struct cursors accesses, args;
	int changed;
	size_t first_change; /* offset + 1 of the first access written, 0 when none */
};

static bool param_only_read(CXCursor call, int i, int depth);


static void view_changed(struct view_uses *u, CXCursor at)
{
	if (!u->changed++)
		u->first_change = cursor_span(at).begin + 1;
}

/* A pointer to const: `const float *`, or to rows of const elements, `const double (*)[TS]`. */
static bool const_pointer(CXType t)
{
	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return false;
	CXType e = clang_getPointeeType(t);
	if (clang_isConstQualifiedType(e))
		return true;
	while (clang_getArrayElementType(e).kind != CXType_Invalid)
		e = clang_getArrayElementType(e);
	return e.kind != clang_getPointeeType(t).kind && clang_isConstQualifiedType(e);
}

/* The type of parameter i of the function call names (a function template's one candidate's,
 * where a template leaves the call unresolved); CXType_Invalid when there is none. */
static CXType param_type(CXCursor call, int i)
{
	CXCursor fn = cursor_callee(call);
	CXCursor p = clang_Cursor_isNull(fn) ? fn : cursor_nth_param(fn, i);
	return clang_Cursor_isNull(p) ? (CXType){.kind = CXType_Invalid} : clang_getCursorType(p);
}

/* A parameter that may write what it is handed: a reference to non-const. */
static bool writable_ref(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
	       !clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* A step of the pointer var along what it points into: `p++`, `--p`, `p += n`, `p -= n` with n
 * an integer; *operand: the stepped operand. */
static bool pointer_step(CXCursor e, CXCursor var, CXCursor *operand)
{
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		*operand = cursor_last_child(e);
		return (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
			op == CXUnaryOperator_PreDec) &&
		       cursor_names_var(*operand, var);
	}
	if (k != CXCursor_CompoundAssignOperator)
		return false;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
	CXType n = clang_getCanonicalType(clang_getCursorType(cursor_last_child(e)));
	*operand = cursor_first_child(e);
	return (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) &&
	       n.kind >= CXType_Char_U && n.kind <= CXType_Int128 && cursor_names_var(*operand, var);
}

/* p itself, or p through casts, indices and steps (`reinterpret_cast<const float4 *>(p)`, `p[r]`
 * of a pointer to rows, `const_cast<float *>(p[r])`, `*p++`). */
static bool names_through_casts(CXCursor e, CXCursor var)
{
	CXCursor stepped;
	for (e = cursor_strip(e);; e = cursor_strip(e)) {
		if (cursor_kind_is_cast(clang_getCursorKind(e)))
			e = cursor_last_child(e);
		else if (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr)
			e = cursor_first_child(e);
		else if (pointer_step(e, var, &stepped))
			e = stepped;
		else
			return cursor_names_var(e, var);
	}
}

/* `p[i]` or `*p` of the view, p through casts too (`*reinterpret_cast<const float4 *>(p)`: what
 * is read is still what p points to; a write through it counts as one). */
static bool view_access(CXCursor c, CXCursor var)
{
	c = cursor_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ArraySubscriptExpr)
		return names_through_casts(cursor_first_child(c), var);
	return k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref &&
	       names_through_casts(cursor_last_child(c), var);
}

static enum CXChildVisitResult scan_view_uses(CXCursor c, CXCursor parent, CXClientData data)
{
	struct view_uses *u = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (view_access(c, u->var) && clang_equalCursors(cursor_strip(c), c))
		*VEC_PUSH(u->accesses.v, u->accesses.n, u->accesses.cap) = c;
	/* (a step of the pointer as a statement of its own, `ap += TS;`, moves it along the tile it
	 * points into, as the rewrite's stage does not change; in an expression its value would be
	 * a use like any other) */
	CXCursor stepped;
	if (pointer_step(c, u->var, &stepped) && clang_isStatement(clang_getCursorKind(parent)))
		*VEC_PUSH(u->accesses.v, u->accesses.n, u->accesses.cap) = c;
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) != WRITE_NONE && view_access(target, u->var))
		view_changed(u, c);
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf &&
	    view_access(cursor_last_child(c), u->var))
		view_changed(u, c);
	/* (a reference bound to what it points to may write it later) */
	if (k == CXCursor_VarDecl && indirect_type(clang_getCursorType(c)) && view_access(cursor_last_child(c), u->var))
		view_changed(u, c);
	if (k != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	CXType ft = clang_getCursorType(clang_getCursorReferenced(c));
	int n = clang_Cursor_getNumArguments(c);
	/* (an operator a template leaves unresolved, `ap[k] * Bs[k][tx]`: its operands are read;
	 * the assigning ones are cursor_write_parts' above) */
	bool operator = cursor_unresolved_operator(c);
	for (int i = 0; i < n && !operator; i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		bool typed = i < clang_getNumArgTypes(ft);
		if (cursor_names_var(arg, u->var) && typed && const_pointer(clang_getArgType(ft, (unsigned)i)) &&
		    param_only_read(c, i, u->depth)) {
			u->handed++;
			*VEC_PUSH(u->args.v, u->args.n, u->args.cap) = arg;
		}
		if (view_access(arg, u->var) && (!typed || writable_ref(clang_getArgType(ft, (unsigned)i))))
			view_changed(u, arg);
	}
	return CXChildVisit_Recurse;
}

/* `const half *p = &As[i][k];` or `float *p = As + off;` in the compute, every use of p an
 * argument a function takes as a pointer to const (wmma::load_matrix_sync's) or a read of what
 * it points to (`p[i]`, `*p`): declared again each iteration from the tile's name, which the
 * rewrite indexes by the stage being computed, p points into that stage and only reads it. */
static bool within_any(struct span at, struct cursors cs)
{
	for (int i = 0; i < cs.n; i++)
		if (span_within(at, cursor_span(cs.v[i])))
			return true;
	return false;
}

/* Whether every use of var in fn reads what it points to, or hands it on where that holds
 * too; otherwise *bad: offset + 1 of the first use that does not. */
static bool only_read(CXCursor fn, CXCursor var, int depth, size_t *bad)
{
	struct span refs[64];
	int n = cursor_var_refs(fn, var, refs, 64);
	struct view_uses u = {.var = var, .depth = depth};
	clang_visitChildren(fn, scan_view_uses, &u);
	*bad = u.first_change;
	for (int i = 0; i < n && !*bad; i++)
		if (!within_any(refs[i], u.accesses) && !within_any(refs[i], u.args))
			*bad = refs[i].begin + 1;
	free(u.accesses.v);
	free(u.args.v);
	return n >= 0 && !*bad;
}

/* A pointer handed to parameter i of call's function as a pointer to const is only read there:
 * the toolkit's functions (wmma::load_matrix_sync) read what they are handed; one of the
 * program's must read through its parameter and hand it on only so (it could keep it, or cast
 * the const away and write). */
static bool param_only_read(CXCursor call, int i, int depth)
{
	CXCursor fn = cursor_callee(call);
	if (!clang_Cursor_isNull(fn) && effects_in_system_header(fn))
		return true;
	CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
	CXCursor p = clang_Cursor_isNull(def) ? def : cursor_nth_param(def, i);
	if (clang_Cursor_isNull(p) || depth >= 4)
		return false;
	size_t bad;
	return only_read(def, p, depth + 1, &bad);
}

/* (*bad: offset + 1 of the first use that keeps a pointer declared in the compute from being a
 * view, 0 when none or when the pointer is no candidate) */
static bool compute_view(const struct kloop *l, CXCursor var, CXCursor tile, size_t *bad)
{
	*bad = 0;
	bool staged = kloop_tile(l, tile) >= 0;
	if (clang_getCursorKind(var) != CXCursor_VarDecl ||
	    clang_getCanonicalType(clang_getCursorType(var)).kind != CXType_Pointer || !staged ||
	    !cursor_declared_within(var, l->body))
		return false;
	size_t at = cursor_span(var).begin;
	for (int i = 0; i < l->nstmts; i++)
		if (at >= l->stmts[i].text.begin && at < l->stmts[i].text.end && l->stmts[i].role != ROLE_COMPUTE)
			return false;
	return cursor_var_refs(l->function_cursor, var, NULL, 0) != 0 && only_read(l->function_cursor, var, 0, bad);
}

/* A view the copies store through (check_copy_views proves the rest). */
static bool copy_view(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->ncopies; i++)
		if (clang_equalCursors(l->copies[i].view, var))
			return true;
	return false;
}

/* Whether e's value is an address inside a tile, however it is cast or offset: `&As[r][c]`,
 * `(size_t)As + 4`, `__cvta_generic_to_shared(&As[r][0])`; a value read through one (`*(const
 * float4 *)&As[r][c]`, `As[r][c]`) is not. */
static bool tile_address_value(CXCursor e)
{
	for (int depth = 0; depth < 16; depth++) {
		e = cursor_strip(e);
		enum CXCursorKind k = clang_getCursorKind(e);
		enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(e)).kind;
		if (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXReinterpretCastExpr || k == CXCursor_CXXStaticCastExpr ||
		    k == CXCursor_CXXFunctionalCastExpr) {
			e = cursor_last_child(e);
			continue;
		}
		if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf)
			return !clang_Cursor_isNull(shared_ref_in(e));
		if (k == CXCursor_BinaryOperator) { /* (an address and an offset) */
			struct cursors kids = cursor_children(e);
			bool r = kids.n == 2 && (tile_address_value(kids.v[0]) || tile_address_value(kids.v[1]));
			free(kids.v);
			return r;
		}
		if (k == CXCursor_CallExpr) {
			char *n = cursor_name(e);
			bool cvta = strncmp(n, "__cvta_", 7) == 0;
			free(n);
			if (!cvta || clang_Cursor_getNumArguments(e) != 1)
				return false;
			e = clang_Cursor_getArgument(e, 0);
			continue;
		}
		/* the tile, or a row of it, where it decays to its address */
		return (t == CXType_Pointer || t == CXType_ConstantArray || t == CXType_IncompleteArray) &&
		       (k == CXCursor_DeclRefExpr || k == CXCursor_ArraySubscriptExpr) && !clang_Cursor_isNull(shared_ref_in(e));
	}
	return false;
}

/* An assignment in the loop of an address inside a tile to a variable declared before it. */
static bool carried_address(const struct kloop *l, CXCursor target, CXCursor value)
{
	CXCursor var = cursor_root_var(target);
	if (clang_getCursorKind(var) != CXCursor_VarDecl || cursor_declared_within(var, l->body))
		return false;
	return tile_address_value(value);
}

static enum CXChildVisitResult scan_alias(CXCursor c, void *data)
{
	struct alias_scan *s = data;
	CXCursor from = clang_getNullCursor();
	if (clang_getCursorKind(c) == CXCursor_VarDecl && indirect_type(clang_getCursorType(c))) {
		CXCursor init = cursor_last_child(c);
		if (!clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)))
			from = init;
	} else {
		CXCursor target, value;
		enum write_kind w = cursor_write_parts(c, &target, &value);
		if (w == WRITE_ASSIGN && indirect_type(clang_getCursorType(target)))
			from = value;
		else if (w == WRITE_ASSIGN && carried_address(s->l, target, value)) {
			/* (an address kept as a number, `a = (size_t)&As[r][0]`, in a variable that lives
			 * on to the next tile: that tile's compute would read this one's stage) */
			s->bad = c;
			s->tile = shared_ref_in(value);
			s->carried = true;
			return CXChildVisit_Break;
		}
	}
	if (!clang_Cursor_isNull(from)) {
		CXCursor tile = shared_ref_in(from);
		/* a value read from the tile (`float x = As[i][j]` has no pointer type) is no alias */
		CXCursor named = tile; /* (a tile, or its storage, that the remark names) */
		if (!clang_Cursor_isNull(tile) && !names_other_arrays_only(s->l, from, &named) &&
		    !compute_view(s->l, c, tile, &s->use) && !copy_view(s->l, c)) {
			s->bad = c;
			s->tile = named;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* A tile's address handed to a function in the compute (`dot(&As[ty][0], ..)`): the function
 * must only read through it, as param_only_read shows; a copy's own calls are the copies'. */
struct handed_scan {
	const struct kloop *l;
	CXCursor call, tile;
	int arg;
};

/* Whether the argument hands over an address inside the tile rather than an element's value:
 * a pointer or reference, by its type; in a template, where that type may wait for the
 * instantiation, by its form (`&As[r][c]`, `As`, `As[r]`: fewer indices than the tile has). */
static bool hands_address(CXCursor arg, CXCursor tile)
{
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(arg)).kind;
	if (k == CXType_Pointer || k == CXType_LValueReference || k == CXType_RValueReference)
		return true;
	if (k != CXType_Dependent && k != CXType_Unexposed && k != CXType_Invalid && k != CXType_ConstantArray &&
	    k != CXType_DependentSizedArray && k != CXType_IncompleteArray)
		return false;
	CXCursor e = cursor_strip(arg);
	if (clang_getCursorKind(e) == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf)
		return true;
	/* (`As[ty][j] * Bs[j][tx]`: a value; a call pipefy cannot resolve is the effects' to refuse) */
	if (clang_getCursorKind(e) == CXCursor_BinaryOperator || cursor_unresolved_operator(e))
		return false;
	int n = 0, rank = 0;
	for (; clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr; e = cursor_strip(cursor_first_child(e)))
		n++;
	if (!cursor_names_var(e, tile))
		return true; /* (a cast, arithmetic: an address, for all pipefy can tell) */
	CXType t = clang_getCanonicalType(clang_getCursorType(tile));
	if (t.kind == CXType_Pointer)
		rank++, t = clang_getCanonicalType(clang_getPointeeType(t));
	for (; clang_getArrayElementType(t).kind != CXType_Invalid; t = clang_getCanonicalType(clang_getArrayElementType(t)))
		rank++;
	return n < rank;
}

/* A call its template leaves unresolved, every function it may mean the toolkit's, each taking
 * a pointer to const as parameter i (or too few parameters to be the one): it only reads
 * through that argument (`wmma::load_matrix_sync(a_frag, &As[r][0], BK)`). */
static bool toolkit_overloads_read(CXCursor call, int i)
{
	CXCursor ref = cursor_overloaded_ref(call);
	unsigned n = clang_Cursor_isNull(ref) ? 0 : clang_getNumOverloadedDecls(ref), took = 0;
	for (unsigned k = 0; k < n; k++) {
		CXCursor fn = clang_getOverloadedDecl(ref, k);
		if (!effects_in_system_header(fn))
			return false;
		CXCursor p = cursor_nth_param(fn, i);
		if (clang_Cursor_isNull(p))
			continue;
		if (!const_pointer(clang_getCursorType(p)))
			return false;
		took++;
	}
	return took > 0;
}

static enum CXChildVisitResult scan_handed(CXCursor c, void *data)
{
	struct handed_scan *h = data;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	if (cursor_unresolved_operator(c)) /* (`As[ty][k] * Bs[k][tx]` in a template: operands, read) */
		return CXChildVisit_Recurse;
	for (int i = 0; i < clang_Cursor_getNumArguments(c); i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		CXCursor tile = shared_ref_in(arg);
		if (clang_Cursor_isNull(tile) || !hands_address(arg, tile) || names_other_arrays_only(h->l, arg, &tile))
			continue;
		if ((!const_pointer(param_type(c, i)) || !param_only_read(c, i, 0)) && !toolkit_overloads_read(c, i)) {
			h->call = c, h->tile = tile, h->arg = i;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static bool check_handed_tiles(struct kloop *l, const struct source *src)
{
	struct handed_scan h = {.l = l, .call = clang_getNullCursor()};
	for (int i = 0; i < l->nstmts && clang_Cursor_isNull(h.call); i++)
		if (l->stmts[i].role == ROLE_COMPUTE)
			cursor_visit(l->stmts[i].cursor, scan_handed, &h);
	if (clang_Cursor_isNull(h.call))
		return true;
	CXCursor callee = cursor_callee(h.call);
	if (clang_Cursor_isNull(callee))
		callee = cursor_overloaded_ref(h.call); /* (the name a template leaves unresolved) */
	char *t = cursor_name(h.tile), *fn = clang_Cursor_isNull(callee) ? xstrdup("") : cursor_name(callee);
	size_t at = cursor_offset(h.call);
	kloop_refuse(l, at, "tile '%s' is handed to '%s' at %s, which may write it or keep its address: pipefy follows "
		     "a tile into a function only where it takes a pointer to const and reads through it",
		     t, *fn ? fn : "a call", where(src, at));
	free(t);
	free(fn);
	return false;
}

static bool check_aliases(struct kloop *l, const struct source *src)
{
	struct alias_scan s = {.l = l, .bad = clang_getNullCursor()};
	cursor_visit(l->cursor, scan_alias, &s);
	if (clang_Cursor_isNull(s.bad))
		return check_handed_tiles(l, src);
	size_t off = cursor_span(s.bad).begin;
	char *t = cursor_name(s.tile);
	if (s.use) {
		char *name = cursor_name(s.bad), *declared = xstrdup(where(src, off));
		kloop_refuse(l, s.use - 1, "'%s' (%s) points into tile '%s' and is used at %s other than to read it: "
			     "pipefy follows such a pointer only where the compute reads through it",
			     name, declared, t, where(src, s.use - 1));
		free(name);
		free(declared);
	} else if (s.carried) {
		CXCursor target, value;
		cursor_write_parts(s.bad, &target, &value);
		char *name = cursor_name(cursor_root_var(target));
		kloop_refuse(l, off, "the address of '%s' is kept at %s in '%s', declared before the loop: the next "
			     "tile would read it where this tile's stage was", t, where(src, off), name);
		free(name);
	} else {
		/* (an array that is no tile itself, but the storage a tile's view is carved from) */
		int carved = -1;
		for (int i = 0; i < l->ntiles && carved < 0 && kloop_tile(l, s.tile) < 0; i++)
			if (cursor_var_refs(l->tiles[i].decl, s.tile, NULL, 0) != 0)
				carved = i;
		kloop_refuse(l, off, "the address of '%s'%s%s%s is kept in a pointer at %s; pipefy does not follow aliases of "
			     "a tile", t, carved < 0 ? "" : " (which tile '", carved < 0 ? "" : l->tiles[carved].name,
			     carved < 0 ? "" : "' is carved from)", where(src, off));
	}
	free(t);
	return false;
}

/* The variables a copy-side statement reads, with the body-local declarations it reads
 * followed through their initializers. */
struct input_scan {
	const struct kloop *l;
	struct cursors vars;   /* variables read */
	struct cursors bases;  /* pointers it loads global memory through */
};

static void add_cursor(struct cursors *cs, CXCursor c)
{
	for (int i = 0; i < cs->n; i++)
		if (clang_equalCursors(cs->v[i], c))
			return;
	*VEC_PUSH(cs->v, cs->n, cs->cap) = c;
}

static enum CXChildVisitResult scan_captured(CXCursor c, CXCursor d, void *data)
{
	(void)c;
	struct input_scan *s = data;
	if (cursor_is_variable(d) && !cursor_is_shared_var(d))
		add_cursor(&s->vars, d);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult scan_inputs(CXCursor c, void *data)
{
	struct input_scan *s = data;
	CXCursor base;
	if (cursor_global_load(c, &base))
		add_cursor(&s->bases, base);
	/* `GetValue(A, K, r, c)`: a load through its pointer arguments; `GetElement(Asub, r, c)`:
	 * through the pointer members of a struct it is handed */
	for (int i = 0; clang_getCursorKind(c) == CXCursor_CallExpr && (cursor_load_function(c) || effects_load_function(c)) &&
			i < clang_Cursor_getNumArguments(c); i++) {
		CXCursor arg = cursor_strip(clang_Cursor_getArgument(c, (unsigned)i));
		enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(arg)).kind;
		if (k == CXType_Record && cursor_plain_copy_construct(arg))
			arg = cursor_strip(cursor_first_child(arg)); /* (handed by value: its copy) */
		CXCursor v = cursor_root_var(arg);
		if (!clang_Cursor_isNull(v) && (k == CXType_Pointer || k == CXType_Record))
			add_cursor(&s->bases, v);
	}
	/* `s->lda` in an address reads memory through s too (a probe: the compute's stores
	 * through C may land there) */
	if (clang_getCursorKind(c) == CXCursor_MemberRefExpr) {
		CXCursor object = cursor_first_child(c);
		CXCursor v = clang_Cursor_isNull(object) ? object : cursor_root_var(object);
		if (!clang_Cursor_isNull(v) && !cursor_is_shared_var(v) &&
		    clang_getCanonicalType(clang_getCursorType(object)).kind == CXType_Pointer)
			add_cursor(&s->bases, v);
	}
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (cursor_is_variable(d) && !cursor_is_shared_var(d))
			add_cursor(&s->vars, d);
	}
	/* (a lambda the copies call reads what it captures: `A[.. + getsh()]`, `[&] { return sh; }`) */
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		CXCursor callee = clang_getCursorReferenced(c);
		CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
		CXCursor owner = clang_Cursor_isNull(def) ? def : clang_getCursorSemanticParent(def);
		if (!clang_Cursor_isNull(owner) && cursor_declared_within(owner, cursor_span(s->l->function_cursor)))
			cursor_visit_names(def, scan_captured, s);
	}
	return CXChildVisit_Recurse;
}

/* The body statement that declares var, or -1. */
static int declaring_stmt(const struct kloop *l, CXCursor var)
{
	struct span d = cursor_span(var);
	for (int i = 0; i < l->nstmts; i++)
		if (d.begin >= l->stmts[i].text.begin && d.end <= l->stmts[i].text.end)
			return i;
	return -1;
}

static bool is_copy_side(const struct kloop *l, int i)
{
	enum stmt_role r = l->stmts[i].role;
	return r == ROLE_COPY || r == ROLE_COPY_DECL || r == ROLE_FETCH_DECL;
}

/* Whether each statement of the copy side that names var assigns it whole before it reads it
 * (`for (x = 0; x < 8; x += 4) As[x][..] = ..;`, x a local of the function): what the copies
 * read of it is their own, whatever the compute leaves in it. */
static bool copy_side_sets_first(const struct kloop *l, CXCursor var)
{
	bool any = false;
	for (int i = 0; i < l->nstmts; i++)
		if (is_copy_side(l, i) && cursor_first_ref(l->stmts[i].cursor, var, (struct span){0, 0}, NULL)) {
			if (!body_sets_first(l->stmts[i].cursor, var))
				return false;
			any = true;
		}
	return any;
}


static bool restrict_pointer(CXCursor var)
{
	return clang_isRestrictQualifiedType(clang_getCursorType(var)) != 0;
}

/* A use of a __restrict__ pointer in the kernel that makes another pointer from it (`(float *)A`,
 * `A + i` kept or passed on, `f(A)`): __restrict__ lets a pointer based on A reach A's memory, so
 * the promise no longer says the compute's writes miss it. Subscripts (`A[i]`) and moves of A
 * itself (`A += K`, `++A`) make none. */
struct derived_scan {
	CXCursor var;
	const struct source *src;
	size_t at; /* offset + 1 */
};

static enum CXChildVisitResult scan_derived(CXCursor c, void *data)
{
	struct derived_scan *d = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	/* (read from the tree, not the text: `IN_3D(k, j, i)`, a macro's `in[..]`, is a subscript) */
	bool step = k == CXCursor_UnaryOperator && cursor_names_var(cursor_last_child(c), d->var);
	if (step) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		step = op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreDec ||
		       op == CXUnaryOperator_PostDec;
	}
	if (step)
		return CXChildVisit_Continue;
	if ((k == CXCursor_ArraySubscriptExpr || k == CXCursor_CompoundAssignOperator) &&
	    cursor_names_var(cursor_first_child(c), d->var)) {
		/* `A[i]`, `A += K`: the rest (the index, the step) may name A again */
		struct cursors kids = cursor_children(c);
		for (int i = 1; i < kids.n && !d->at; i++)
			if (scan_derived(kids.v[i], d) == CXChildVisit_Recurse)
				cursor_visit(kids.v[i], scan_derived, d);
		free(kids.v);
		return CXChildVisit_Continue;
	}
	if (cursor_is_ref_to(c, d->var)) {
		if (!d->at)
			d->at = cursor_span(c).begin + 1;
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static size_t derived_from(const struct kloop *l, CXCursor var, const struct source *src)
{
	struct derived_scan d = {var, src, 0};
	cursor_visit(l->function_cursor, scan_derived, &d);
	return d.at;
}

/* A local of the function the copy side's steps or copies assign (find's function_scratch:
 * each iteration assigns it before it reads it, nothing after the loop reads it, nothing the
 * body keeps names it). */
static bool stepped_scratch(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->nstmts; i++)
		if ((l->stmts[i].role == ROLE_COPY_DECL || (l->stmts[i].role == ROLE_COPY && l->stmts[i].writes_locals)) &&
		    !clang_Cursor_isNull(l->stmts[i].advance) && cursor_writes_var(l->stmts[i].cursor, var))
			return true;
	return false;
}

/* A write of shared memory inside a copy statement that is none of its copies: a store the
 * loader would make a tile early (`st_wide(&As[..], v)`, a store function pipefy does not read as
 * one, next to a copy loop's real copies). */
struct stray_scan {
	const struct kloop *l;
	const struct source *src;
	int stmt;
	CXCursor at;
};

/* (a copy's text: its store, or its if and else for `if (g) X = load; else X = 0;`) */
static bool in_copy_text(const struct kloop *l, int stmt, CXCursor c)
{
	struct span at = cursor_span(c);
	for (int i = 0; i < l->ncopies; i++)
		if (l->copies[i].stmt == stmt && l->copies[i].tile >= 0 && span_within(at, l->copies[i].text))
			return true;
	return false;
}

static enum CXChildVisitResult scan_stray_shared(CXCursor c, void *data)
{
	struct stray_scan *s = data;
	CXCursor target, value;
	enum write_kind w = cursor_write_parts(c, &target, &value);
	if (in_copy_text(s->l, s->stmt, c))
		return CXChildVisit_Continue; /* (its value may call a load function: no write) */
	if (w != WRITE_NONE && clang_getCursorKind(c) != CXCursor_CallExpr) {
		CXCursor var = cursor_root_var(target);
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
			s->at = c;
			return CXChildVisit_Break;
		}
	} else if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		struct effects fx = {0};
		effects_of(c, s->src, &fx);
		bool shared = fx.shared;
		effects_free(&fx);
		if (shared) {
			s->at = c;
			return CXChildVisit_Break;
		}
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static void refuse_stray_shared(struct kloop *l, const struct source *src, CXCursor at)
{
	size_t sat = cursor_span(at).begin;
	int line, col;
	pos(src, sat, &line, &col);
	char *n = clang_getCursorKind(at) == CXCursor_CallExpr ? cursor_call_name(at) : NULL;
	if (n && cursor_cast_store_accessor(at))
		kloop_refuse(l, sat,
			     "'%s' at %d:%d stores into a tile through a cast of its pointer to another type than its "
			     "value's: pipefy reads a store accessor only as `*p = v;` or `*(V *)p = v;`, V v's type",
			     n, line, col);
	else if (n)
		kloop_refuse(l, sat, "'%s' at %d:%d, among the copies, writes shared memory, and pipefy does not read it as "
			     "a copy: the loader would run it a tile early", n, line, col);
	else
		kloop_refuse(l, sat, "the store at %d:%d, among the copies, writes shared memory, and pipefy does not read "
			     "it as a copy: the loader would run it a tile early", line, col);
	free(n);
}

/* What a fill helper reads besides its arguments' values: the memory its pointer arguments
 * reach (its source among it, and an index array it reads, `g[.. + sh[slot]]`), and the
 * variables of the program its definition names (a __device__ array), which the compute may
 * write: the loader runs the call a tile early. Into in (bases, vars) and globals. */
struct helper_globals {
	CXCursor def;
	struct cursors *vars, *globals;
};

static enum CXChildVisitResult scan_helper_globals(CXCursor c, CXCursor d, void *data)
{
	(void)c;
	struct helper_globals *g = data;
	if (clang_getCursorKind(d) != CXCursor_VarDecl || cursor_is_shared_var(d) ||
	    (cursor_declared_within(d, cursor_span(g->def)) && clang_Cursor_getStorageClass(d) != CX_SC_Static))
		return CXChildVisit_Continue;
	CXType t = clang_getCursorType(d);
	if (clang_isConstQualifiedType(t) || cursor_has_attr(d, CXCursor_CUDAConstantAttr))
		return CXChildVisit_Continue; /* (nothing the kernel runs writes it) */
	add_cursor(g->vars, d);
	add_cursor(g->globals, d);
	return CXChildVisit_Continue;
}

static void helper_inputs(const struct kloop *l, const struct helper_fill *h, struct input_scan *in,
			  struct cursors *globals)
{
	CXCursor call = cursor_strip(l->stmts[h->stmt].cursor);
	for (int i = 0; i < clang_Cursor_getNumArguments(call); i++) {
		CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
		CXCursor v = cursor_root_var(arg);
		if (clang_getCanonicalType(clang_getCursorType(arg)).kind == CXType_Pointer && !clang_Cursor_isNull(v) &&
		    !cursor_is_shared_var(v) && cursor_is_variable(v))
			add_cursor(&in->bases, v);
	}
	struct helper_globals g = {h->definition, &in->vars, globals};
	cursor_visit_names(h->definition, scan_helper_globals, &g);
}

/* What every statement may do, and whether the copies can be issued a tile early: they, and
 * the locals they read, have no effect but the tile stores; what they read is not changed by
 * the rest of the body (the loop variables only by the increment and the bumps, which the
 * loader replays); and the memory they load is not written by the body, unless the pointers
 * they load through are __restrict__, the user's promise that nothing else writes it. */
static void check_effects(struct kloop *l, const struct source *src, const struct effects *fx)
{
	int line, col;
	int mem_write = -1;
	/* the barrier between the copies and the compute: the rewrite replaces it with its own,
	 * after the next tile's copies, so a store before it is no longer ordered before the
	 * reads after it (found on a probe: `Bs[i] = B[j]` through a pointer parameter, kept in
	 * the compute, lost the barrier its readers waited at) */
	int last_copy = -1, separator = -1;
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY)
			last_copy = i;
	for (int i = last_copy + 1; i < l->nstmts && separator < 0 && last_copy >= 0; i++)
		if (l->stmts[i].role == ROLE_BARRIER)
			separator = i;
	for (int i = 0; i < l->nstmts && l->nrefusals == 0; i++) {
		const struct body_stmt *st = &l->stmts[i];
		const struct effects *e = &fx[i];
		if (i < separator && st->role == ROLE_COMPUTE && e->memory) {
			int bline, bcol;
			pos(src, st->text.begin, &line, &col);
			pos(src, l->stmts[separator].text.begin, &bline, &bcol);
			/* (the write itself, when it is elsewhere: inside a helper the statement calls) */
			char *inner = e->at != (size_t)-1 && e->at != st->text.begin ? xprintf(" (%s)", where(src, e->at))
										     : xstrdup("");
			kloop_refuse(l, st->text.begin,
				     "the statement at %d:%d %s%s before the barrier at %d:%d, which the rewrite moves: a "
				     "thread reading it after that barrier would no longer wait for it",
				     line, col, e->what, inner, bline, bcol);
			free(inner);
			break;
		}
		size_t at = e->at != (size_t)-1 ? e->at : st->text.begin;
		pos(src, at, &line, &col);
		if (kloop_helper_at(l, i))
			continue; /* a fill helper: find read it whole */
		if (is_copy_side(l, i) || st->role == ROLE_BUMP) {
			struct stray_scan stray = {.l = l, .src = src, .stmt = i, .at = clang_getNullCursor()};
			if (st->role == ROLE_COPY && e->shared)
				cursor_visit(st->cursor, scan_stray_shared, &stray);
			if (e->memory || e->unknown || e->syncs) {
				/* (the statement's place, and the effect's where it is outside it: the
				 * function the statement calls) */
				int sline, scol;
				pos(src, st->text.begin, &sline, &scol);
				char *inner = at < st->text.begin || at >= st->text.end ? xprintf(" (%s)", where(src, at))
											  : xstrdup("");
				kloop_refuse(l, at, "the %s at %d:%d %s%s; the loader would run it a tile early",
					     st->role == ROLE_COPY ? "copy" : "statement the copies need", sline, scol, e->what,
					     inner);
				free(inner);
			}
			else if (e->shared && st->role != ROLE_COPY)
				kloop_refuse(l, e->shared_at, "the statement at %d:%d %s; the loader would run it a tile early",
					     line, col, e->shared_what);
			else if (!clang_Cursor_isNull(stray.at))
				refuse_stray_shared(l, src, stray.at);
			continue;
		}
		if (e->shared) {
			at = e->shared_at != (size_t)-1 ? e->shared_at : st->text.begin;
			pos(src, at, &line, &col);
			kloop_refuse(l, at, "the statement at %d:%d %s; pipefy only moves copies it can see", line, col,
				     e->shared_what);
		}
		else if (e->unknown)
			kloop_refuse(l, at, "the compute at %d:%d %s", line, col, e->what);
		else if (e->memory && mem_write < 0)
			mem_write = i;
	}
	if (l->nrefusals > 0)
		return;
	/* what the copy side reads, through the locals it declares */
	struct input_scan in = {.l = l};
	for (int i = 0; i < l->nstmts; i++)
		if (is_copy_side(l, i))
			cursor_visit(l->stmts[i].cursor, scan_inputs, &in);
	struct cursors globals = {0};
	for (int k = 0; k < l->nhelpers; k++)
		if (l->helpers[k].stmt >= 0)
			helper_inputs(l, &l->helpers[k], &in, &globals);
	/* (the program's variables the copies read themselves, `A[.. + shift[slot]]`: a write
	 * through a pointer may reach them too) */
	for (int v = 0; v < in.vars.n; v++) {
		CXCursor d = in.vars.v[v];
		CXType t = clang_getCursorType(d);
		if (clang_getCursorKind(d) == CXCursor_VarDecl && !effects_is_local(d) && !cursor_is_shared_var(d) &&
		    !clang_isConstQualifiedType(t) && !cursor_has_attr(d, CXCursor_CUDAConstantAttr))
			add_cursor(&globals, d);
	}
	for (int v = 0; v < in.vars.n && l->nrefusals == 0; v++) {
		CXCursor var = in.vars.v[v];
		int decl = declaring_stmt(l, var);
		bool fetched = false; /* `ra = A[i];`: a fetch into a local only the loop uses, or that
				       * the compute uses as scratch (the copies then take a register
				       * of their own: fetch_shadow) */
		for (int i = 0; i < l->nstmts && decl < 0; i++)
			if (l->stmts[i].fetch_assign && clang_equalCursors(l->stmts[i].fetch_var, var))
				decl = i, fetched = true;
		/* (a copy loop's fetch into a local of the function: its copies alone read it, after
		 * their fetch writes it, in the order the stash keeps: body.c proves it) */
		if (fetched || loop_fetch_var(l, var) || (l->piped && clang_equalCursors(var, l->pipe)))
			continue; /* (a pipeline the copies went through: its calls are dropped) */
		bool assigned = false; /* (set by guarded fills' load branches alone: the copies read its
					* value; check_assigned_locals proved it) */
		for (int a = 0; a < l->nassigned && !assigned; a++)
			assigned = clang_equalCursors(l->assigned[a].var, var);
		if (assigned || (decl < 0 && copy_side_sets_first(l, var)))
			continue;
		/* declared by the copy side, or a scratch local of the function only its steps assign:
		 * computed again by the loader (its own inputs are in the list), with the copy side's
		 * writes of it in their order; only a write the compute keeps would be missed */
		bool replayed = decl >= 0 ? is_copy_side(l, decl) : stepped_scratch(l, var);
		for (int i = 0; i < l->nstmts; i++) {
			bool bump = l->stmts[i].role == ROLE_BUMP && kloop_ivar(l, var) >= 0;
			if (i == decl || bump || !effects_writes_var(&fx[i], var) || (replayed && is_copy_side(l, i)))
				continue;
			char *name = cursor_name(var);
			pos(src, l->stmts[i].text.begin, &line, &col);
			if (is_copy_side(l, i))
				kloop_refuse(l, l->stmts[i].text.begin, "the copy at %d:%d changes '%s', which the copies read",
					     line, col, name);
			else {
				/* (before the first barrier it is no compute: a second load into a copy's local) */
				bool after_barrier = false;
				for (int j = 0; j < i && !after_barrier; j++)
					after_barrier = l->stmts[j].role == ROLE_BARRIER;
				CXCursor init = cursor_last_child(var);
				bool loaded = clang_getCursorKind(var) == CXCursor_VarDecl && !clang_Cursor_isNull(init) &&
					      body_fetch_value(init);
				kloop_refuse(l, l->stmts[i].text.begin, "the copies read '%s', which the %s at %d:%d writes%s",
					     name, l->stmts[i].role == ROLE_BUMP || !after_barrier ? "statement" : "compute", line,
					     col, !after_barrier && loaded ? " too (pipefy stages a local that one load sets)" : "");
			}
			free(name);
			break;
		}
	}
	/* memory the body writes that the next tile's copies may read (a pointer with no
	 * __restrict__ named first, then a __restrict__ one that makes another) */
	for (int b = 0; b < 2 * in.bases.n && mem_write >= 0 && l->nrefusals == 0; b++) {
		CXCursor base = in.bases.v[b % in.bases.n];
		if (restrict_pointer(base) != (b >= in.bases.n))
			continue;
		enum CXCursorKind bk = clang_getCursorKind(base);
		size_t derived = bk == CXCursor_ParmDecl || bk == CXCursor_VarDecl ? derived_from(l, base, src) : 0;
		if (restrict_pointer(base) && !derived)
			continue;
		const struct effects *e = &fx[mem_write];
		size_t at = e->at != (size_t)-1 ? e->at : l->stmts[mem_write].text.begin;
		pos(src, at, &line, &col);
		char *name = cursor_name(base);
		if (restrict_pointer(base))
			kloop_refuse(l, at,
				     "the compute at %d:%d %s, and the next tile's copies read through '%s', which is "
				     "'__restrict__' but makes another pointer at %s, which may reach what it points at",
				     line, col, e->what, name, where(src, derived - 1));
		else if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Record)
			kloop_refuse(l, at,
				     "the compute at %d:%d %s, and the next tile's copies read through the pointers the "
				     "struct '%s' holds, which may point at it", line, col, e->what, name);
		else
			kloop_refuse(l, at,
				     "the compute at %d:%d %s, and the next tile's copies read through '%s', which may "
				     "point at it ('__restrict__' on '%s' would promise it does not)",
				     line, col, e->what, name, name);
		free(name);
	}
	/* (a local of the kernel the compute writes that a pointer the copies load through was made
	 * from, `psh = &sh` and `A[.. + *psh]`: an attack found it pipelined wrong) */
	for (int b = 0; b < in.bases.n && l->nrefusals == 0; b++) {
		CXCursor base = in.bases.v[b], init = cursor_last_child(base);
		if (clang_getCursorKind(base) != CXCursor_VarDecl || !effects_is_local(base) || clang_Cursor_isNull(init) ||
		    !clang_isExpression(clang_getCursorKind(init)))
			continue;
		struct input_scan from = {.l = l};
		cursor_visit_names_from(init, scan_captured, &from);
		for (int v = 0; v < from.vars.n && l->nrefusals == 0; v++)
			for (int i = 0; i < l->nstmts; i++) {
				if (l->stmts[i].role != ROLE_COMPUTE || !effects_is_local(from.vars.v[v]) ||
				    !effects_writes_var(&fx[i], from.vars.v[v]))
					continue;
				char *n = cursor_name(from.vars.v[v]), *bn = cursor_name(base);
				pos(src, l->stmts[i].text.begin, &line, &col);
				kloop_refuse(l, l->stmts[i].text.begin, "the compute at %d:%d writes '%s', and the next tile's "
					     "copies read through '%s', made from it (%s)", line, col, n, bn,
					     where(src, cursor_span(base).begin));
				free(n);
				free(bn);
				break;
			}
		free(from.vars.v);
	}
	/* (a variable of the program the copies or a fill helper read, which a write through a pointer
	 * may reach) */
	for (int g = 0; g < globals.n && mem_write >= 0 && l->nrefusals == 0; g++) {
		const struct effects *e = &fx[mem_write];
		size_t at = e->at != (size_t)-1 ? e->at : l->stmts[mem_write].text.begin;
		pos(src, at, &line, &col);
		char *name = cursor_name(globals.v[g]);
		kloop_refuse(l, at, "the compute at %d:%d %s, and the copies read '%s' (declared at %s), which that write "
			     "may reach", line, col, e->what, name, where(src, cursor_span(globals.v[g]).begin));
		free(name);
	}
	free(globals.v);
	free(in.vars.v);
	free(in.bases.v);
}

/* A variable the destination of copy b names that a statement from a's to b's writes (its
 * name; NULL when none): then two destinations written alike may name two elements. */
struct dest_vars {
	const struct kloop *l;
	int from, to;
	char *written;
};

static enum CXChildVisitResult scan_dest_vars(CXCursor ref, CXCursor v, void *data)
{
	(void)ref;
	struct dest_vars *d = data;
	for (int i = d->from; i <= d->to && !d->written; i++)
		if (clang_getCursorKind(v) == CXCursor_VarDecl && !cursor_is_shared_var(v) &&
		    cursor_writes_var(d->l->stmts[i].cursor, v))
			d->written = cursor_name(v);
	return d->written ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The variable a for statement's initialization assigns whole, `for (x = E; ..; ..)` with x a
 * local declared elsewhere and E not reading it, that its body does not write: the loop's
 * counter, as one it declared would be. Null when there is none. */
static CXCursor for_counter(CXCursor loop)
{
	CXCursor var, init;
	if (!cursor_for_assigns(loop, &var, &init) || clang_getCursorKind(var) != CXCursor_VarDecl || !effects_is_local(var) ||
	    cursor_first_ref(init, var, (struct span){0, 0}, NULL) || cursor_writes_var(cursor_last_child(loop), var))
		return clang_getNullCursor();
	return var;
}

/* Two asynchronous copies of one thread to one shared address land in no fixed order (the
 * loop as written keeps the second): two copies whose destinations are written alike, or a copy
 * loop's copy whose destination names nothing its loop declares, stores one element twice. */
static char *same_destination(const struct kloop *l, const struct source *src)
{
	int line, col, line2, col2;
	char *why = NULL;
	for (int i = 0; i < l->ncopies && !why; i++) {
		const struct copy *a = &l->copies[i];
		if (a->tile < 0 || a->src.end == a->src.begin)
			continue;
		CXCursor holder = l->stmts[a->stmt].cursor;
		pos(src, a->text.begin, &line, &col);
		/* (each trip of the loops around it stores another element: distinct.c proves it of the
		 * element's address, a local the loop steps once a trip counted as its counter) */
		char *same = distinct_elements(copy_target(a), holder, src);
		if (same)
			why = xprintf("the copy at %d:%d may store one element of '%s' on two trips of its loop (%s): "
				      "asynchronous copies to one address land in no fixed order", line, col,
				      l->tiles[a->tile].name, same);
		free(same);
		char *da = span_squeezed(src, a->dst);
		for (int j = i + 1; j < l->ncopies && !why; j++) {
			const struct copy *b = &l->copies[j];
			if (b->tile != a->tile || b->src.end == b->src.begin)
				continue;
			char *db = span_squeezed(src, b->dst);
			char *apart = strcmp(da, db) == 0 ? NULL
							   : disjoint_copies(copy_target(a), holder, copy_target(b),
									     l->stmts[b->stmt].cursor, src);
			if (apart) {
				pos(src, b->text.begin, &line2, &col2);
				why = xprintf("the copies at %d:%d and %d:%d may store one element of '%s' (%s): asynchronous "
					      "copies to one address land in no fixed order", line, col, line2, col2,
					      l->tiles[a->tile].name, apart);
				free(apart);
			} else if (strcmp(da, db) == 0) {
				pos(src, b->text.begin, &line2, &col2);
				struct dest_vars dv = {.l = l, .from = a->stmt, .to = b->stmt};
				cursor_visit_names(copy_target(b), scan_dest_vars, &dv);
				why = dv.written
					      ? xprintf("pipefy takes the copies at %d:%d and %d:%d for one element of '%s' (both "
							"at '%s', '%s' written between), and async copies to one address land in "
							"no fixed order", line, col, line2, col2, l->tiles[a->tile].name, da,
							dv.written)
					      : xprintf("the copies at %d:%d and %d:%d store the same element of '%s': "
							"asynchronous copies to one address land in no fixed order",
							line, col, line2, col2, l->tiles[a->tile].name);
				free(dv.written);
			}
			free(db);
		}
		free(da);
	}
	return why;
}

/* A copy of a value computed from global memory (`expf(A[i])`): the registers can stage it,
 * the asynchronous copies, which move bytes as they are, cannot. */
static char *computed_copy_why(const struct kloop *l, const struct source *src, const struct copy *cp, const char *more)
{
	char *value = span_squeezed(src, cursor_span(cp->value));
	size_t at = cursor_span(cp->value).begin;
	char *why = strlen(value) <= 40
			    ? xprintf("'%s' stores a value computed at %s (`%s`)%s", l->tiles[cp->tile].name, where(src, at), value, more)
			    : xprintf("'%s' stores a value computed at %s%s", l->tiles[cp->tile].name, where(src, at), more);
	free(value);
	return why;
}

/* Whether the copies can become cp.async: plain 4, 8 or 16-byte copies of one type. */
static bool stmt_reads_ivar(const struct kloop *l, CXCursor c);

void check_cp_async(struct kloop *l, const struct source *src, const struct effects *fx)
{
	(void)fx;
	int line, col;
	l->legal[VARIANT_CP_ASYNC].ok = true;
	if (l->one_stage) {
		l->legal[VARIANT_CP_ASYNC].refusal = xstrdup(l->one_stage);
		l->legal[VARIANT_CP_ASYNC].ok = false;
	}
	for (int i = 0; i < l->ncopies && l->legal[VARIANT_CP_ASYNC].ok; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0 || (cp->src.end == cp->src.begin && !cp->from_register && !cp->computed))
			continue;
		pos(src, cp->text.begin, &line, &col);
		if (cp->computed) {
			l->legal[VARIANT_CP_ASYNC].refusal = computed_copy_why(l, src, cp, "");
			l->legal[VARIANT_CP_ASYNC].ok = false;
		} else if (cp->from_register) {
			char *value = span_text(src, cursor_span(cp->value));
			l->legal[VARIANT_CP_ASYNC].refusal = xprintf("'%s' is stored from register value '%s' at %d:%d; cp.async copies "
								     "memory, not registers", l->tiles[cp->tile].name, value, line, col);
			free(value);
			l->legal[VARIANT_CP_ASYNC].ok = false;
		} else if (cp->conversion) {
			l->legal[VARIANT_CP_ASYNC].refusal = xprintf("the copy at %d:%d converts its value", line, col);
			l->legal[VARIANT_CP_ASYNC].ok = false;
		} else if (stmt_reads_ivar(l, copy_target(cp))) {
			/* (`As[ty][tx + 8 * (t & 1)]`: each trip fills another part of the tile and the
			 * compute reads what earlier trips left; a stage holds one trip's copies only) */
			l->legal[VARIANT_CP_ASYNC].refusal = xprintf("the destination of the copy at %d:%d moves with the loop "
								     "variables: the compute may read what earlier trips stored, "
								     "which another stage holds", line, col);
			l->legal[VARIANT_CP_ASYNC].ok = false;
		} else if (cp->width < 0) {
			l->legal[VARIANT_CP_ASYNC].refusal = xprintf("the size of the copy at %d:%d is unknown until the template is instantiated",
						      line, col);
			l->legal[VARIANT_CP_ASYNC].ok = false;
		} else if (cp->width != 4 && cp->width != 8 && cp->width != 16) {
			l->legal[VARIANT_CP_ASYNC].refusal =
				xprintf("the copy at %d:%d moves %ld byte%s; cp.async moves 4, 8 or 16", line, col, cp->width,
					cp->width == 1 ? "" : "s");
			l->legal[VARIANT_CP_ASYNC].ok = false;
		} else if (cp->guard.end > cp->guard.begin) {
			char *fill = span_text(src, cp->fill);
			bool zero = effects_is_zero(cp->fill_value);
			/* (the address a failed guard copies from, none of its bytes: the load's base pointer
			 * as the file writes it, `A` or `p.a`; none inside a macro's expansion, body.c) */
			bool named = cp->src_base.end > cp->src_base.begin;
			if (!zero) {
				l->legal[VARIANT_CP_ASYNC].refusal = xprintf(
					"the guarded copy at %d:%d fills with '%s', cp.async can only fill zeros", line, col,
					fill);
				l->legal[VARIANT_CP_ASYNC].ok = false;
			} else if (!named) {
				char *load = span_text(src, cp->src);
				load[strcspn(load, "([ \t")] = '\0'; /* (the macro's name) */
				l->legal[VARIANT_CP_ASYNC].refusal = xprintf(
					"the guarded copy at %d:%d loads in macro '%s': cp.async needs its pointer named",
					line, col, load);
				free(load);
				l->legal[VARIANT_CP_ASYNC].ok = false;
			}
			free(fill);
		}
	}
	if (l->legal[VARIANT_CP_ASYNC].ok && (l->legal[VARIANT_CP_ASYNC].refusal = same_destination(l, src)))
		l->legal[VARIANT_CP_ASYNC].ok = false;
}

/* Whether a destination reads the loop variables, directly or through a copy-side local. */
struct ivar_use {
	const struct kloop *loop;
	bool uses;
};

static bool stmt_reads_ivar(const struct kloop *l, CXCursor c);

static enum CXChildVisitResult scan_ivar_use(CXCursor c, CXCursor d, void *data)
{
	(void)c;
	struct ivar_use *u = data;
	if (kloop_ivar(u->loop, d) >= 0)
		u->uses = true;
	struct span ds = cursor_span(d);
	for (int i = 0; i < u->loop->nstmts && !u->uses; i++) {
		const struct body_stmt *st = &u->loop->stmts[i];
		if (st->role == ROLE_COPY_DECL && ds.begin >= st->text.begin && ds.end <= st->text.end)
			u->uses = stmt_reads_ivar(u->loop, st->cursor);
		/* (a local a copy's branch declares, `if (g) { int r = ..; As[r][c] = ..; }`: its value;
		 * a copy loop's locals are the stash's own, copy_loop_ivar_decl) */
		else if (st->role == ROLE_COPY && clang_getCursorKind(d) == CXCursor_VarDecl &&
			 clang_getCursorKind(cursor_unattributed(st->cursor)) == CXCursor_IfStmt &&
			 ds.begin >= st->text.begin && ds.end <= st->text.end)
			u->uses = stmt_reads_ivar(u->loop, d);
	}
	return u->uses ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool stmt_reads_ivar(const struct kloop *l, CXCursor c)
{
	struct ivar_use u = {.loop = l};
	cursor_visit_names(c, scan_ivar_use, &u);
	return u.uses;
}

struct child_list {
	CXCursor *v;
	int *n, max;
};

static enum CXChildVisitResult scan_loops(CXCursor c, void *data)
{
	if (cursor_is_loop(c) || clang_getCursorKind(c) == CXCursor_GotoStmt) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Whether a statement is or holds a loop (or a goto, which can make one): a loop's body may be
 * another loop without braces, `for (q ..) for (c ..) As[..] = ..;`. */
static bool holds_loop(CXCursor stmt)
{
	bool found = false;
	if (scan_loops(stmt, &found) == CXChildVisit_Break)
		return true;
	cursor_visit_code(stmt, scan_loops, &found);
	return found;
}

/* Whether e reads a value the K-loop's body declares, other than a constant it declares
 * (body_constant: the trips' text in front of the loop takes its initializer). */
struct body_reads {
	const struct kloop *loop;
	bool found;
};

static enum CXChildVisitResult scan_body_reads(CXCursor ref, CXCursor decl, void *data)
{
	(void)ref;
	struct body_reads *r = data;
	if (!cursor_declared_within(decl, r->loop->body) || body_constant(decl, r->loop->function_cursor, r->loop->body))
		return CXChildVisit_Recurse;
	r->found = true;
	return CXChildVisit_Break;
}

static bool reads_body_value(const struct kloop *l, CXCursor e)
{
	struct body_reads r = {l, false};
	if (!clang_Cursor_isNull(e))
		cursor_visit_names_from(e, scan_body_reads, &r);
	return r.found;
}

/* Why one loop of a staged copy loop (the statement's, or the one its body is) does not run the
 * same trips in front of the loop; NULL when it does. */
static const char *loop_trips_illegal(const struct kloop *l, const struct copy_loop *cl, bool inner)
{
	struct cursors kids = cursor_children(cl->loop), var = cursor_children(kids.v[0]);
	/* (the step: `i += S`'s S; `++i` has none but the variable) */
	bool inc = clang_getCursorKind(kids.v[2]) == CXCursor_UnaryOperator;
	const char *why = NULL;
	if (reads_body_value(l, cl->limit) || reads_body_value(l, cl->offset))
		why = inner ? "the bound of the loop in its body reads what the K-loop's body declares"
			    : "its bound reads what the K-loop's body declares";
	else if (!inc && reads_body_value(l, cursor_last_child(kids.v[2])))
		why = inner ? "the step of the loop in its body reads what the K-loop's body declares"
			    : "its step reads what the K-loop's body declares";
	else if (cursor_writes_var(kids.v[3], var.v[0]))
		why = inner ? "the loop in its body writes its own variable" : "its body writes its variable";
	free(kids.v);
	free(var.v);
	return why;
}

static enum CXChildVisitResult scan_label(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) == CXCursor_LabelStmt) {
		*(CXCursor *)data = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* l->twice: why the loop as written cannot appear twice in its function, as the fallback of a
 * guard on the block's size writes it: a tile declared in its body (the fallback reads stage 0
 * of the hoisted one), a label (defined twice). */
static void check_twice(struct kloop *l)
{
	for (int i = 0; i < l->ntiles && !l->twice; i++)
		if (l->tiles[i].in_loop)
			l->twice = xprintf("the loop's body declares the tile '%s'", l->tiles[i].name);
	CXCursor label = clang_getNullCursor();
	cursor_visit(cursor_last_child(l->cursor), scan_label, &label);
	if (!l->twice && !clang_Cursor_isNull(label)) {
		char *n = cursor_name(label);
		l->twice = xprintf("the loop's body holds the label '%s'", n);
		free(n);
	}
}

/* Why a copy loop of the shape find reads (cl.bound set) cannot be staged; NULL when it can.
 * Its body may be one more such loop (inner), not strided by the block: registers [trip][trip]. */
static const char *copy_loop_illegal(const struct kloop *l, int stmt)
{
	const struct body_stmt *st = &l->stmts[stmt];
	if (!st->cl.stride && l->twice)
		return "it steps by blockDim.x, and the loop as written, which other block sizes run, cannot appear "
		       "twice in the function";
	const char *why = loop_trips_illegal(l, &st->cl, false);
	const char *holds = "its body holds another loop (staged only as the body's one statement, with a constant bound "
			    "and step)";
	if (why || !holds_loop(cursor_last_child(st->cl.loop)))
		return why;
	if (!st->inner.bound || !st->inner.stride || holds_loop(cursor_last_child(st->inner.loop)))
		return holds;
	return loop_trips_illegal(l, &st->inner, true);
}

/* A copy loop find read the shape of (`for (T i = E0; i < N; i += S)`, see copy_loop_shape)
 * can be staged one register per trip when its trip count means the same in front of the
 * loop: the bound and stride name nothing declared in the body (they are written in the
 * output as they are written here, so a macro the build redefines means what it means
 * there), the body does not move the variable, and with a blockDim.x stride no tile is
 * declared in the body (the fallback for other block sizes re-runs the loop as written). */
static bool copy_loop_legal(const struct kloop *l, int stmt)
{
	return l->stmts[stmt].cl.bound && !copy_loop_illegal(l, stmt);
}

struct ivar_decl {
	const struct kloop *l;
	CXCursor found;
};

/* Whether var is a copy loop's own fetch (its value becomes a register where the stores run the
 * loop again: what it reads is not read there). */
static bool loop_fetch_var(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->nstmts; i++)
		for (int k = 0; k < l->stmts[i].nloop_fetch; k++)
			if (clang_equalCursors(body_loop_fetch_var(l->stmts[i].loop_fetch[k]), var))
				return true;
	return false;
}

static enum CXChildVisitResult scan_ivar_decl(CXCursor c, void *data)
{
	struct ivar_decl *d = data;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && stmt_reads_ivar(d->l, c) && !loop_fetch_var(d->l, c)) {
		d->found = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* A declaration in a copy loop's body whose value reads the K-loop's variables. */
static bool copy_loop_ivar_decl(const struct kloop *l, CXCursor loop, CXCursor *decl)
{
	struct ivar_decl d = {l, clang_getNullCursor()};
	cursor_visit(cursor_last_child(loop), scan_ivar_decl, &d);
	*decl = d.found;
	return !clang_Cursor_isNull(d.found);
}

/* Whether e names a template's parameter, itself or through the initializers of the constants
 * it reads (`constexpr int PER = BM * BK / NT;`). */
struct template_scan {
	bool found;
	int depth;
};

static enum CXChildVisitResult scan_template_param(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct template_scan *t = data;
	enum CXCursorKind dk = clang_getCursorKind(d);
	if (dk == CXCursor_NonTypeTemplateParameter)
		t->found = true;
	else if (dk == CXCursor_VarDecl && t->depth < 4 && clang_isConstQualifiedType(clang_getCursorType(d))) {
		t->depth++;
		cursor_visit_names(d, scan_template_param, t);
		t->depth--;
	}
	return t->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool names_template_param(CXCursor e)
{
	struct template_scan t = {false, 0};
	cursor_visit_names_from(e, scan_template_param, &t);
	return t.found;
}

/* A local a copy's branch declares, `int r = tid / 2;`: a scalar set from arithmetic on what the
 * loop body does not change, on the loop variables (the stash reads the fetched tile's: *ivars),
 * or on the branch's earlier locals; the stash computes it again, to the same value. */
struct branch_local_scan {
	const struct kloop *l;
	struct span branch;
	bool ok, ivars;
	CXCursor changed; /* the variable the loop changes that a local reads, when that is why */
};

static enum CXChildVisitResult scan_branch_local(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct branch_local_scan *b = data;
	if (cursor_declared_within(d, b->branch))
		return CXChildVisit_Continue;
	if (kloop_ivar(b->l, d) >= 0) {
		b->ivars = true;
		return CXChildVisit_Continue;
	}
	b->ok = !cursor_writes_var(cursor_last_child(b->l->cursor), d);
	if (!b->ok)
		b->changed = d;
	return b->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

static bool branch_locals_read(const struct kloop *l, int stmt, CXCursor decl, bool *ivars, CXCursor *changed)
{
	struct cursors vars = cursor_children(decl);
	struct branch_local_scan b = {l, l->stmts[stmt].text, vars.n > 0, false, clang_getNullCursor()};
	for (int i = 0; i < vars.n && b.ok; i++) {
		CXCursor init;
		b.ok = clang_getCursorKind(vars.v[i]) == CXCursor_VarDecl && cursor_value_local(vars.v[i], &init) &&
		       cursor_is_arithmetic(init);
		if (b.ok)
			cursor_visit_names(init, scan_branch_local, &b);
	}
	free(vars.v);
	*ivars |= b.ivars;
	*changed = b.changed;
	return b.ok;
}

static bool branch_locals(const struct kloop *l, int stmt, CXCursor decl, bool *ivars)
{
	CXCursor changed;
	return branch_locals_read(l, stmt, decl, ivars, &changed);
}

/* What reading a branch of copies finds: the copies it holds (n), whether its locals read the
 * loop variables, and the first statement that is neither a copy nor such a local (bad). */
struct branch_read {
	const struct kloop *l;
	int stmt, n;
	bool ivars;
	CXCursor bad;
};

static bool same_every_tile(const struct kloop *l, CXCursor e);

/* Whether the if at `at` is a guarded copy of the branch's statement (its text starts there):
 * counted, *ok when it stores a load. */
static bool guarded_copy_at(struct branch_read *b, struct span at, bool *ok)
{
	for (int i = 0; i < b->l->ncopies; i++) {
		const struct copy *cp = &b->l->copies[i];
		if (cp->stmt != b->stmt || !cp->guard_is_if || cp->text.begin != at.begin)
			continue;
		b->n++;
		*ok = (cp->src.end > cp->src.begin || cp->computed) && !cp->from_register;
		return true;
	}
	return false;
}

static bool branch_of_loads(struct branch_read *b, CXCursor c)
{
	const struct kloop *l = b->l;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor pipe;
	if (l->piped && cursor_pipeline_op(c, &pipe) >= 0)
		return true; /* (a call on the copies' pipeline: dropped) */
	for (int i = 0; i < l->stmts[b->stmt].nloop_fetch; i++) /* (`float4 v = load;`: the fetch's) */
		if (clang_equalCursors(l->stmts[b->stmt].loop_fetch[i], c))
			return true;
	bool ok = false;
	CXCursor lhs, rhs;
	if (k == CXCursor_DeclStmt) {
		ok = branch_locals(l, b->stmt, c, &b->ivars);
	} else if (cursor_write_parts(c, &lhs, &rhs) == WRITE_ASSIGN &&
		   clang_getCursorKind(cursor_strip(lhs)) == CXCursor_DeclRefExpr) {
		/* (a scratch local of the function set to what is the same on every tile, `r =
		 * blockIdx.y * TS + ty;`: set again by the stash, it holds the same value) */
		CXCursor var = clang_getCursorReferenced(cursor_strip(lhs));
		ok = stepped_scratch(l, var) && same_every_tile(l, rhs);
	} else if (k == CXCursor_IfStmt && guarded_copy_at(b, cursor_span(c), &ok)) {
		return ok; /* (`if (g) X = load; else X = 0;`, one guarded copy: a load) */
	} else if (k == CXCursor_IfStmt || k == CXCursor_CompoundStmt) {
		struct cursors kids = cursor_children(c);
		ok = k == CXCursor_CompoundStmt || kids.n == 2 || kids.n == 3;
		for (int i = k == CXCursor_IfStmt; i < kids.n && ok; i++) /* (an if's condition is no branch) */
			ok = branch_of_loads(b, kids.v[i]);
		free(kids.v);
		return ok;
	} else {
		struct span at = cursor_span(c);
		for (int i = 0; i < l->ncopies; i++) {
			const struct copy *cp = &l->copies[i];
			if (cp->stmt == b->stmt && cp->text.begin == at.begin && cp->text.end == at.end) {
				b->n++;
				/* (a load, or a part of the branch's own fetch: `As[..] = v.x;`) */
				ok = !cp->guard_is_if && (((cp->src.end > cp->src.begin || cp->computed) && !cp->from_register) ||
							  (cp->from_register && l->stmts[b->stmt].nloop_fetch > 0));
				break;
			}
		}
	}
	if (!ok && clang_Cursor_isNull(b->bad))
		b->bad = c;
	return ok;
}

/* Whether statement stmt is an if around loads only: `if (g) copy;`, `if (g) { copy; copy; }
 * else copy;` (check_partial_fills has shown each g the same on every tile), or a block of them,
 * `{ copy; copy; }`, with the locals a branch declares from arithmetic (`int r = tid / 2;`) and a
 * branch's own fetch: the fetch loads the registers under the conditions, and the stash,
 * running the statement again, stores them under the same ones. */
static bool plain_if_copies(const struct kloop *l, int stmt, struct branch_read *b)
{
	CXCursor outer = cursor_unattributed(l->stmts[stmt].cursor);
	enum CXCursorKind k = clang_getCursorKind(outer);
	*b = (struct branch_read){.l = l, .stmt = stmt, .bad = clang_getNullCursor()};
	int copies = 0;
	for (int i = 0; i < l->ncopies; i++)
		copies += l->copies[i].stmt == stmt;
	return (k == CXCursor_IfStmt || k == CXCursor_CompoundStmt) && branch_of_loads(b, outer) && b->n == copies &&
	       copies > 0;
}

/* Why a copy inside a statement (a loop or a branch around it) gets no staging registers:
 * the loop's bound, or the branch, named where it is. */
static char *unstaged_copy_why(const struct kloop *l, const struct source *src, const struct copy *cp)
{
	const struct body_stmt *st = &l->stmts[cp->stmt];
	CXCursor outer = cursor_unattributed(st->cursor);
	enum CXCursorKind k = clang_getCursorKind(outer);
	int line, col, ol, oc;
	pos(src, cp->text.begin, &line, &col);
	pos(src, cursor_span(outer).begin, &ol, &oc);
	struct branch_read b;
	if (k == CXCursor_IfStmt && !plain_if_copies(l, cp->stmt, &b) && !clang_Cursor_isNull(b.bad)) {
		/* (the statement that makes it more than a branch of copies and locals) */
		int bl, bc;
		pos(src, cursor_span(b.bad).begin, &bl, &bc);
		CXCursor var = cursor_first_child(b.bad), changed;
		bool pointer = clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer; /* (a view) */
		if (clang_getCursorKind(b.bad) == CXCursor_DeclStmt && !pointer) {
			bool ivars = false;
			branch_locals_read(l, cp->stmt, b.bad, &ivars, &changed);
			char *name = cursor_name(var), *other = clang_Cursor_isNull(changed) ? NULL : cursor_name(changed);
			CXCursor init;
			char *why;
			if (!other && !cursor_value_local(var, &init))
				why = xprintf("the branch at %d:%d declares '%s' (%d:%d) with no value, or as an array or a "
					      "struct: staging registers take a branch's locals set where declared, from arithmetic",
					      ol, oc, name, bl, bc);
			else {
				char *from = other ? xprintf("from '%s', which the loop changes", other)
						   : xstrdup("from what is not arithmetic on locals (memory, a call, a write)");
				why = xprintf("the branch at %d:%d sets '%s' (%d:%d) %s: the registers' stores, a tile later, "
					      "would compute it again", ol, oc, name, bl, bc, from);
				free(from);
			}
			free(name);
			free(other);
			return why;
		}
		bool a_copy = false; /* (a copy register staging cannot take there: the generic remark) */
		for (int i = 0; i < l->ncopies && !a_copy; i++)
			a_copy = span_within(cursor_span(b.bad), l->copies[i].text);
		enum CXCursorKind bk = clang_getCursorKind(b.bad);
		if ((bk == CXCursor_ForStmt || bk == CXCursor_WhileStmt || bk == CXCursor_DoStmt) &&
		    cp->text.begin >= cursor_span(b.bad).begin && cp->text.begin < cursor_span(b.bad).end)
			return xprintf("the copy at %d:%d sits in the loop at %d:%d, under the branch at %d:%d: staging "
				       "registers take a copy loop only as a statement of the body, where its trips are counted",
				       line, col, bl, bc, ol, oc);
		if (clang_getCursorKind(b.bad) != CXCursor_DeclStmt && !a_copy)
			return xprintf("the branch at %d:%d around the copy at %d:%d also runs the statement at %d:%d: "
				       "staging registers take a branch of copies and of locals set from arithmetic",
				       ol, oc, line, col, bl, bc);
	}
	if (k == CXCursor_IfStmt || k == CXCursor_SwitchStmt)
		return xprintf("the copy at %d:%d sits under the branch at %d:%d: staging registers take whole copy "
			       "statements, copies guarded by if/else or ?: with a value for either side, or ifs around "
			       "loads and locals set from arithmetic only",
			       line, col, ol, oc);
	if (k == CXCursor_CompoundStmt)
		return xprintf("the copy at %d:%d sits in the block at %d:%d with other statements: staging registers "
			       "take a block that holds copies alone", line, col, ol, oc);
	if (k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_CXXForRangeStmt)
		return xprintf("the copy at %d:%d sits in the loop at %d:%d: staging registers need a for loop "
			       "(`for (i = E; i < N; i += S)`, N a constant, S a constant or blockDim.x)",
			       line, col, ol, oc);
	if (k != CXCursor_ForStmt) /* (`As[..] = .., Bs[..] = ..;`, one statement) */
		return xprintf("the copy at %d:%d is part of the expression at %d:%d: staging registers take each copy "
			       "as a statement of its own", line, col, ol, oc);
	const char *illegal = st->cl.bound ? copy_loop_illegal(l, cp->stmt) : NULL;
	if (illegal) /* (the shape is one pipefy stages: something else is not) */
		return xprintf("the copy loop at %d:%d cannot be staged: %s", ol, oc, illegal);
	struct cursors kids = cursor_children(outer);
	CXCursor cond = kids.n == 4 ? kids.v[1] : clang_getNullCursor();
	bool templ = !clang_Cursor_isNull(cond) && names_template_param(cond);
	char *test = clang_Cursor_isNull(cond) ? xstrdup("") : span_text(src, cursor_span(cond));
	/* (a bound that is a constant, a step that is not: the step is what pipefy cannot count,
	 * `e += nthread`) */
	CXCursor bound = clang_getCursorKind(cursor_strip(cond)) == CXCursor_BinaryOperator ? cursor_last_child(cursor_strip(cond))
											    : clang_getNullCursor();
	CXCursor inc = kids.n == 4 ? cursor_strip(kids.v[2]) : clang_getNullCursor();
	/* (a template's bound with a step no template fixes, `tr < BLOCK_SIZE; tr += blockDim.y`: the step) */
	bool fixed_bound = !clang_Cursor_isNull(bound) && (cursor_folds_to_constant(bound) || names_template_param(bound));
	char *step = fixed_bound && clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator &&
			     !cursor_folds_to_constant(cursor_last_child(inc)) && !names_template_param(cursor_last_child(inc))
			     ? span_text(src, cursor_span(inc)) : NULL;
	char *by = step ? span_text(src, cursor_span(cursor_last_child(inc))) : NULL;
	bool block_x = by && strcmp(by, "blockDim.x") == 0;
	free(by);
	if (block_x) { /* (a step pipefy takes: the trouble is elsewhere) */
		free(step);
		step = NULL;
	}
	free(kids.v);
	char *why;
	if (st->cl.unsure_start.end > st->cl.unsure_start.begin) {
		char *start = span_text(src, st->cl.unsure_start);
		why = xprintf("the copy loop at %d:%d starts at `%s`, which pipefy cannot show is never negative: "
			      "staging registers count ceil(N / S) trips from 0", ol, oc, start);
		free(start);
	} else if (step)
		why = xprintf("the copy loop at %d:%d steps by `%s`: staging registers need a trip count pipefy can "
			      "compute, the step a constant or blockDim.x (or the block's size, where a launch in the file "
			      "gives it)", ol, oc, step);
	else if (templ)
		why = xprintf("the copy loop at %d:%d runs while `%s`, which depends on the template's parameters: "
			      "staging registers need `i < N` or `i + C <= N`, N, C and the step S fixed by the "
			      "template (S also blockDim.x)",
			      ol, oc, test);
	else
		why = xprintf("the copy loop at %d:%d runs while `%s`: staging registers need a trip count pipefy can "
			      "compute (`for (i = E; i < N; i += S)` or `i + C <= N`, N, C and S constants, S also blockDim.x)",
			      ol, oc, test);
	free(test);
	free(step);
	return why;
}

/* The first statement that advances a local of the body for the copies (a step, `row += 16;`,
 * or a copy loop stepping a lane pointer; find's `advance`), and the local; -1 when none. */
static int copy_side_advance(const struct kloop *l, char **name)
{
	for (int i = 0; i < l->nstmts; i++) {
		bool store;
		CXCursor var = clang_Cursor_isNull(l->stmts[i].advance) ? clang_getNullCursor()
									: cursor_assigned_var(l->stmts[i].advance, &store);
		if (!clang_Cursor_isNull(var)) {
			*name = cursor_name(var);
			return i;
		}
	}
	return -1;
}

/* Whether a copy's destination reads var: the registers' stash computes it again. */
static bool destination_reads(const struct kloop *l, CXCursor var)
{
	struct span at[1];
	for (int i = 0; i < l->ncopies; i++)
		if (cursor_var_refs(copy_target(&l->copies[i]), var, at, 1) != 0)
			return true;
	return false;
}

/* Whether var is declared by a copy-side statement of the body that storing the copies runs
 * again (store_side) before statement `before`: not a local of the function, which a step run
 * again would advance twice. */
static bool stored_before(const struct kloop *l, CXCursor var, int before)
{
	int d = declaring_stmt(l, var);
	return d >= 0 && d < before && l->stmts[d].role == ROLE_COPY_DECL && l->stmts[d].store_side &&
	       clang_getCursorKind(l->stmts[d].cursor) == CXCursor_DeclStmt;
}

/* The first write in a copy statement to a local declared outside it that is not a plain
 * assignment of what is the same on every tile (same_every_tile). */
struct outer_sets {
	const struct kloop *l;
	struct span stmt;
	CXCursor bad;
};

static enum CXChildVisitResult scan_outer_sets(CXCursor c, enum write_kind w, CXCursor target, CXCursor value,
					       void *data)
{
	struct outer_sets *o = data;
	CXCursor root = cursor_root_var(target);
	if (clang_Cursor_isNull(root) || cursor_is_shared_var(root) || cursor_declared_within(root, o->stmt))
		return CXChildVisit_Recurse;
	if (w != WRITE_ASSIGN || clang_getCursorKind(cursor_strip(target)) != CXCursor_DeclRefExpr ||
	    !same_every_tile(o->l, value)) {
		o->bad = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Register staging stores the registers by running the copies again after the compute, with
 * the copy-side statements they read (store_side): a local the body declares is declared again
 * there and stepped as the fetch stepped it. A copy that advances a local declared elsewhere
 * would advance it twice, and a step of such a local a destination depends on would not run. */
static char *advance_ldg_refusal(const struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (clang_Cursor_isNull(st->advance))
			continue;
		bool store;
		CXCursor var = cursor_assigned_var(st->advance, &store);
		if (stored_before(l, var, i))
			continue;
		/* (a scratch local a copy sets, every time, to what is the same on every tile, `r =
		 * blockIdx.y * TS + ty;`: set again, it holds the same value) */
		CXCursor lhs, rhs;
		struct outer_sets os = {.l = l, .stmt = cursor_span(st->cursor), .bad = clang_getNullCursor()};
		if (st->role == ROLE_COPY)
			cursor_visit_writes(st->cursor, scan_outer_sets, &os);
		bool set = st->role == ROLE_COPY && clang_Cursor_isNull(os.bad);
		if (set)
			continue;
		if (st->role == ROLE_COPY) { /* (the first set that is not so) */
			var = cursor_assigned_var(os.bad, &store);
			set = cursor_write_parts(os.bad, &lhs, &rhs) == WRITE_ASSIGN &&
			      clang_getCursorKind(cursor_strip(lhs)) == CXCursor_DeclRefExpr;
		}
		char *name = cursor_name(var), *why = NULL;
		CXCursor counter = for_counter(cursor_unattributed(st->cursor));
		if (st->role == ROLE_COPY && !clang_Cursor_isNull(counter) && clang_equalCursors(counter, var))
			why = xprintf("the copy loop at %s steps '%s', declared outside it: pipefy stages a copy loop in "
				      "registers when the loop declares its variable (`for (int %s = ..`)",
				      where(src, cursor_span(cursor_unattributed(st->cursor)).begin), name, name);
		else if (set)
			why = xprintf("the copy at %s also sets '%s' from what pipefy cannot show the same on every tile: "
				      "storing the registers a tile later would set it again",
				      where(src, cursor_span(cursor_unattributed(st->cursor)).begin), name);
		else if (st->role == ROLE_COPY)
			why = xprintf("the copy at %s also advances '%s', which storing the registers would advance again "
				      "apart from its declaration", where(src, cursor_span(cursor_unattributed(st->cursor)).begin), name);
		else if (destination_reads(l, var))
			why = xprintf("the statement at %s advances '%s', which a copy's destination reads: storing the "
				      "registers runs the copies again, not that statement", where(src, st->text.begin), name);
		free(name);
		if (why)
			return why;
	}
	return NULL;
}

/* Whether c is one of statement stmt's load copies (not a guarded fill), a block of them, or an
 * if, else too, around them; *n counts them. */
/* A local the body declares from a load of global memory (`float v = A[i];`, a fetch) holds
 * one value through the compute: a statement that writes it again (`v = A[j];` for the next
 * copy) would run twice, in the fetch and again in the stash after the compute. Why not, or
 * NULL. */
static char *fetch_written_again(const struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->nstmts; i++) {
		if (l->stmts[i].role != ROLE_FETCH_DECL || l->stmts[i].fetch_assign)
			continue;
		struct cursors vars = cursor_children(l->stmts[i].cursor);
		char *why = NULL;
		for (int v = 0; v < vars.n && !why; v++)
			for (int j = 0; j < l->nstmts && !why; j++)
				if (j != i && clang_getCursorKind(vars.v[v]) == CXCursor_VarDecl &&
				    cursor_writes_var(l->stmts[j].cursor, vars.v[v])) {
					char *name = cursor_name(vars.v[v]), *at = xstrdup(where(src, cursor_span(vars.v[v]).begin));
					why = xprintf("'%s', loaded from global memory at %s for a copy, is written again by the "
						      "statement at %s: staging registers hold one value of each loaded local",
						      name, at, where(src, l->stmts[j].text.begin));
					free(name);
					free(at);
				}
		free(vars.v);
		if (why)
			return why;
	}
	return NULL;
}

/* Whether the copies can be staged through registers: one value per copy statement (or per
 * trip of a copy loop with a bounded trip count), so each gets a register of its own, and
 * destinations that do not move with the loop variables, because the store happens an
 * iteration after the load. */
void check_ldg(struct kloop *l, const struct source *src, const struct effects *fx)
{
	(void)fx;
	int line, col;
	CXCursor decl;
	l->legal[VARIANT_LDG].ok = true;
	if ((l->legal[VARIANT_LDG].refusal = advance_ldg_refusal(l, src)) ||
	    (l->legal[VARIANT_LDG].refusal = fetch_written_again(l, src))) {
		l->legal[VARIANT_LDG].ok = false;
		return;
	}
	for (int i = 0; i < l->ncopies && l->legal[VARIANT_LDG].ok; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0)
			continue;
		const struct body_stmt *st = &l->stmts[cp->stmt];
		pos(src, st->text.begin, &line, &col);
		/* the statement is the assignment itself, not a loop or branch around it */
		struct span ts = cursor_span(st->cursor);
		bool in_copy_loop = ts.begin != cp->text.begin && copy_loop_legal(l, cp->stmt);
		struct branch_read branch;
		bool in_plain_if = ts.begin != cp->text.begin && plain_if_copies(l, cp->stmt, &branch);
		/* (a guarded copy is the statement from its if, or from the constant stored before it, to
		 * its end; one inside a loop or a branch is no more the statement than a plain copy) */
		bool whole = ts.begin == cp->text.begin && ts.end == cp->text.end;
		if (cp->guard_is_if)
			whole = cp->text.begin <= ts.begin && cp->text.end >= ts.end;
		if (!whole && !in_copy_loop && !in_plain_if) {
			l->legal[VARIANT_LDG].refusal = unstaged_copy_why(l, src, cp);
			l->legal[VARIANT_LDG].ok = false;
		} else if (stmt_reads_ivar(l, copy_target(cp))) {
			l->legal[VARIANT_LDG].refusal = xprintf("the destination of the copy at %d:%d moves with the loop variables", line, col);
			l->legal[VARIANT_LDG].ok = false;
		} else if (in_copy_loop && !st->cl.stride && !l->block_threads) {
			/* a copy loop strided by blockDim.x stages one register per trip: the block size
			 * says how many */
			l->legal[VARIANT_LDG].refusal = xprintf("the copy loop at %d:%d strides by blockDim.x and the block size is "
						 "unknown (__launch_bounds__ or --block-size gives it)",
						 line, col);
			l->legal[VARIANT_LDG].ok = false;
		} else if (in_plain_if && branch.ivars) {
			/* the stash runs the branch again: its locals read the fetched tile's variables */
			l->stash_cursor = true;
		} else if (in_copy_loop && copy_loop_ivar_decl(l, cursor_unattributed(st->cursor), &decl)) {
			/* the store of the registers runs the copy loop's body again, after the compute:
			 * a declaration in it that reads the loop variables must read the fetched tile's */
			l->stash_cursor = true;
		}
	}
	/* (so must a copy-side statement it runs again: `int4 *p = A + k0 * 16 + ..;`) */
	for (int i = 0; i < l->nstmts && l->legal[VARIANT_LDG].ok; i++)
		if (l->stmts[i].role == ROLE_COPY_DECL && l->stmts[i].store_side && stmt_reads_ivar(l, l->stmts[i].cursor))
			l->stash_cursor = true;
}

/* A declaration in the body is hoisted in front of the loop, where it would capture every use
 * of its name in the loop and in pipefy's own code. When another variable of that name is
 * used there (a tile, or anything the loop reads), hoisting would change which one is meant. */
struct name_clash {
	CXCursor decl;
	char *name;
	CXCursor other; /* a use of another variable of the same name */
};

static enum CXChildVisitResult scan_name_clash(CXCursor ref, CXCursor r, void *data)
{
	struct name_clash *nc = data;
	CXString n = clang_getCursorSpelling(r);
	bool clash = strcmp(clang_getCString(n), nc->name) == 0 && !clang_equalCursors(r, nc->decl);
	clang_disposeString(n);
	if (!clash)
		return CXChildVisit_Recurse;
	nc->other = ref;
	return CXChildVisit_Break;
}

static enum CXChildVisitResult collect_decls(CXCursor c, void *data)
{
	struct child_list *cl = data;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && *cl->n < cl->max)
		cl->v[(*cl->n)++] = c;
	return CXChildVisit_Continue;
}

/* A local of the function that guarded fills' load branches set and their copies read as its
 * value (body.c's take_branch_assign): the rewrite drops the assignments, so nothing but those
 * branches, from their assignments on, may name it (`int i;` .. `if (g) { i = ..; X = A[i]; }`,
 * the same in B's fill too). */
static void check_assigned_locals(struct kloop *l, const struct source *src)
{
	for (int a = 0; a < l->nassigned && l->nrefusals == 0; a++) {
		CXCursor var = l->assigned[a].var;
		struct span at[64];
		int n = cursor_var_refs(clang_getCursorSemanticParent(var), var, at, 64), other = -1;
		for (int r = 0; r < n && other < 0; r++) {
			bool inside = false;
			for (int b = 0; b < l->nassigned && !inside; b++)
				inside = clang_equalCursors(l->assigned[b].var, var) && span_within(at[r], l->assigned[b].branch);
			if (!inside)
				other = r;
		}
		if (n >= 0 && other < 0)
			continue;
		int line, col, ol = 0, oc = 0;
		pos(src, l->assigned[a].branch.begin, &line, &col);
		if (other >= 0)
			pos(src, at[other].begin, &ol, &oc);
		char *name = cursor_name(var);
		if (other >= 0)
			kloop_refuse(l, l->assigned[a].branch.begin,
				     "'%s' is set at %d:%d, in a guarded fill's load branch, and named at %d:%d too: pipefy "
				     "reads it as its value only where its load branches alone name it", name, line, col, ol, oc);
		else
			kloop_refuse(l, l->assigned[a].branch.begin,
				     "'%s' is set at %d:%d, in a guarded fill's load branch, and named inside a macro or more "
				     "often than pipefy counts: it reads it as its value only where its load branches alone "
				     "name it", name, line, col);
		free(name);
	}
}

static void check_hoisted_names(struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->nstmts && l->nrefusals == 0; i++) {
		if (l->stmts[i].role != ROLE_TILE_DECL)
			continue;
		CXCursor decls[8];
		int n = 0;
		cursor_visit(l->stmts[i].cursor, collect_decls, &(struct child_list){decls, &n, 8});
		for (int d = 0; d < n && l->nrefusals == 0; d++) {
			struct name_clash nc = {.decl = decls[d], .other = clang_getNullCursor()};
			nc.name = cursor_name(decls[d]);
			for (int t = 0; t < l->ntiles && clang_Cursor_isNull(nc.other); t++)
				if (strcmp(l->tiles[t].name, nc.name) == 0 && !clang_equalCursors(l->tiles[t].decl, decls[d]))
					nc.other = l->tiles[t].decl;
			if (clang_Cursor_isNull(nc.other))
				cursor_visit_names(l->cursor, scan_name_clash, &nc);
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

/* ---- every tile element a copy writes, it writes on every tile ---- */

/* A store under a condition (an `if` with no else that fills the element, a copy loop's trip
 * count) writes an element on some tiles and not on others. Where it does not, the loop as
 * written computes with what the previous tile left there; with two stages the element holds
 * the tile before that, or nothing yet. So every condition around a tile store must come out
 * the same on every tile: it may read the block's and thread's indices, constants, parameters
 * and locals nothing in the loop writes, locals of the body initialized from those, and the
 * counters of the copy loops around the store, and nothing else (no memory, no loop variable).
 * A helper's parameter is what the call passes it. The guard of `g ? load : fill` and
 * `if (g) X = load; else X = fill;` may vary: both branches write the element. */
struct cond_ctx {
	const struct kloop *l;
	CXCursor scope;          /* the loop, or the helper's definition */
	struct span scope_span;  /* the loop's body, or the helper's definition */
	CXCursor call;           /* the helper's call in the loop; null for the loop's own stores */
	CXCursor counters[8];    /* the copy loops' variables around the store */
	int ncounters;
	CXCursor bad;            /* what varies */
	CXCursor via;            /* the local of the condition that reads it, when not bad itself */
};

static bool invariant_expr(struct cond_ctx *x, CXCursor e, int depth);

static bool is_counter(const struct cond_ctx *x, CXCursor d)
{
	for (int i = 0; i < x->ncounters; i++)
		if (clang_equalCursors(x->counters[i], d))
			return true;
	return false;
}

static bool invariant_var(struct cond_ctx *x, CXCursor d, int depth)
{
	if (is_counter(x, d))
		return true;
	if (cursor_is_shared_var(d) || kloop_ivar(x->l, d) >= 0 || depth > 6)
		return false;
	if (!clang_Cursor_isNull(x->call) && clang_getCursorKind(d) == CXCursor_ParmDecl &&
	    cursor_declared_within(d, x->scope_span)) {
		/* the helper's parameter: the argument the loop passes, seen from the loop */
		CXCursor def = clang_getCursorSemanticParent(d);
		for (int i = 0; !clang_Cursor_isNull(cursor_nth_param(def, i)); i++)
			if (clang_equalCursors(cursor_nth_param(def, i), d)) {
				if (i >= clang_Cursor_getNumArguments(x->call))
					return false;
				struct cond_ctx loop = {.l = x->l, .scope = x->l->cursor, .scope_span = x->l->body,
							.call = clang_getNullCursor(), .bad = clang_getNullCursor(),
							.via = clang_getNullCursor()};
				bool ok = invariant_expr(&loop, clang_Cursor_getArgument(x->call, (unsigned)i), depth + 1);
				if (!ok && clang_Cursor_isNull(x->bad))
					x->bad = loop.bad;
				return ok;
			}
		return false;
	}
	if (cursor_writes_var(x->scope, d))
		return false;
	if (!clang_Cursor_isNull(x->call) && cursor_writes_var(x->l->cursor, d))
		return false;
	/* (a variable of another file, threadIdx say, is none of its locals) */
	if (cursor_declared_within(d, x->scope_span)) {
		/* a local of the body (or helper): what it is initialized from, every tile */
		CXCursor init = cursor_last_child(d);
		return !clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
		       invariant_expr(x, init, depth + 1);
	}
	CXCursor parent = clang_getCursorSemanticParent(d);
	enum CXCursorKind pk = clang_getCursorKind(parent);
	bool in_function = pk == CXCursor_FunctionDecl || pk == CXCursor_FunctionTemplate ||
			   pk == CXCursor_CXXMethod || pk == CXCursor_LambdaExpr;
	/* a variable of the file: only a constant, or the toolkit's threadIdx and friends */
	return in_function || effects_in_system_header(d) ||
	       clang_isConstQualifiedType(clang_getCursorType(d));
}

struct invariant_scan {
	struct cond_ctx *x;
	int depth;
	bool ok;
};

static enum CXChildVisitResult scan_invariant(CXCursor c, void *data)
{
	struct invariant_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	bool ok = true;
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_LambdaExpr)
		ok = false; /* a memory read: what another thread or tile may change */
	else if (k == CXCursor_UnaryOperator) {
		CXCursor op = cursor_first_child(c);
		CXType t = clang_getCanonicalType(clang_getCursorType(op));
		ok = clang_Cursor_isNull(op) || t.kind != CXType_Pointer ||
		     clang_getCursorUnaryOperatorKind(c) != CXUnaryOperator_Deref;
	} else if (k == CXCursor_MemberRefExpr) {
		CXCursor base = cursor_first_child(c);
		ok = clang_Cursor_isNull(base) ||
		     clang_getCanonicalType(clang_getCursorType(base)).kind != CXType_Pointer;
	} else if (k == CXCursor_CallExpr) {
		ok = effects_pure_call(c);
	} else if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl)
			ok = invariant_var(s->x, d, s->depth);
		else
			ok = dk == CXCursor_EnumConstantDecl || dk == CXCursor_NonTypeTemplateParameter ||
			     dk == CXCursor_FunctionDecl || dk == CXCursor_FunctionTemplate;
	}
	if (!ok) {
		if (clang_Cursor_isNull(s->x->bad))
			s->x->bad = c;
		else if (s->depth == 0 && clang_Cursor_isNull(s->x->via) && k == CXCursor_DeclRefExpr)
			s->x->via = c;
		s->ok = false;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static bool invariant_expr(struct cond_ctx *x, CXCursor e, int depth)
{
	struct invariant_scan s = {.x = x, .depth = depth, .ok = true};
	cursor_visit_from(e, scan_invariant, &s);
	return s.ok;
}

/* Whether e comes out the same on every tile (invariant_expr, over the loop). */
static bool same_every_tile(const struct kloop *l, CXCursor e)
{
	struct cond_ctx x = {.l = l, .scope = l->cursor, .scope_span = l->body, .call = clang_getNullCursor(),
			     .bad = clang_getNullCursor(), .via = clang_getNullCursor()};
	return invariant_expr(&x, e, 0);
}

/* The nodes from `from` down to target, outermost first; false when target is not inside. */
static bool path_to(CXCursor from, CXCursor target, CXCursor *path, int *n, int max)
{
	/* (a cursor reached by another walk may name another parent declaration: compare the
	 * node's kind and raw extent, which tells macro expansions apart) */
	if (clang_equalCursors(from, target) ||
	    (clang_getCursorKind(from) == clang_getCursorKind(target) &&
	     clang_equalRanges(clang_getCursorExtent(from), clang_getCursorExtent(target))))
		return true;
	if (clang_getCursorKind(from) == CXCursor_LambdaExpr)
		return false;
	struct cursors cs = cursor_children(from);
	bool found = false;
	for (int i = 0; i < cs.n && !found; i++) {
		if (*n >= max)
			break;
		int at = (*n)++;
		path[at] = cs.v[i];
		found = path_to(cs.v[i], target, path, n, max);
		if (!found)
			*n = at;
	}
	free(cs.v);
	return found;
}

/* Whether the store inside root (a body statement, or a helper's body) is made on every tile;
 * otherwise *cond is the condition that varies and *bad what in it does. */
static bool store_every_tile(struct cond_ctx *x, CXCursor root, CXCursor store, CXCursor own_if, CXCursor *cond)
{
	CXCursor path[64];
	path[0] = root;
	int n = 1;
	if (!path_to(root, store, path, &n, 64)) {
		*cond = root, x->bad = root;
		return false;
	}
	/* the copy loops' variables first: a condition inside may read them */
	for (int i = 0; i + 1 < n; i++)
		if (clang_getCursorKind(path[i]) == CXCursor_ForStmt) {
			struct cursors kids = cursor_children(path[i]);
			if (kids.n > 0 && clang_getCursorKind(kids.v[0]) == CXCursor_DeclStmt) {
				struct cursors vars = cursor_children(kids.v[0]);
				for (int v = 0; v < vars.n && x->ncounters < 8; v++)
					if (!cursor_writes_var(cursor_last_child(path[i]), vars.v[v]))
						x->counters[x->ncounters++] = vars.v[v];
				free(vars.v);
			} else if (x->ncounters < 8) {
				CXCursor counter = for_counter(path[i]); /* (`for (x = E; ..)`) */
				if (!clang_Cursor_isNull(counter))
					x->counters[x->ncounters++] = counter;
			}
			free(kids.v);
		}
	for (int i = 0; i + 1 < n; i++) {
		CXCursor a = path[i], next = path[i + 1];
		enum CXCursorKind k = clang_getCursorKind(a);
		bool branch = k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
			      k == CXCursor_DoStmt || k == CXCursor_SwitchStmt || k == CXCursor_ConditionalOperator ||
			      (k == CXCursor_BinaryOperator &&
			       (clang_getCursorBinaryOperatorKind(a) == CXBinaryOperator_LAnd ||
				clang_getCursorBinaryOperatorKind(a) == CXBinaryOperator_LOr));
		/* (the guarded copy's own if, found by another walk: by its extent) */
		if (!branch || (k == CXCursor_IfStmt && !clang_Cursor_isNull(own_if) &&
				clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(own_if))))
			continue;
		/* every part of the statement but the branch the store is in */
		struct cursors kids = cursor_children(a);
		bool ok = true;
		for (int j = 0; j < kids.n && ok; j++) {
			if (clang_equalCursors(kids.v[j], next))
				continue;
			if (k == CXCursor_IfStmt && j > 0 && clang_isStatement(clang_getCursorKind(kids.v[j])) &&
			    clang_getCursorKind(kids.v[j]) != CXCursor_DeclStmt)
				continue; /* the other branch */
			if ((k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
			     k == CXCursor_SwitchStmt) && j == kids.n - 1 - (k == CXCursor_DoStmt))
				continue; /* the body */
			if (k == CXCursor_ConditionalOperator && j > 0)
				continue;
			if (clang_getCursorKind(kids.v[j]) == CXCursor_DeclStmt) {
				/* `for (int i = E; ...)`, `if (int v = E)`: E */
				struct cursors vars = cursor_children(kids.v[j]);
				for (int v = 0; v < vars.n && ok; v++) {
					CXCursor init = cursor_last_child(vars.v[v]);
					ok = clang_Cursor_isNull(init) || invariant_expr(x, init, 0);
				}
				free(vars.v);
			} else
				ok = invariant_expr(x, kids.v[j], 0);
		}
		free(kids.v);
		if (!ok) {
			*cond = a;
			return false;
		}
	}
	return true;
}

/* A jump inside root (`continue`, `break`, `return`, `goto`, `goto *p`) may skip the store: each must be
 * taken alike on every tile, as the store's own branches are; otherwise *cond is the branch
 * around it that varies. */
static enum CXChildVisitResult collect_jump(CXCursor c, void *data)
{
	struct cursors *jumps = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	/* (an asm, which may jump too, is refused among the copies: "the asm at 9:13 runs ..") */
	if (k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt ||
	    k == CXCursor_IndirectGotoStmt)
		*VEC_PUSH(jumps->v, jumps->n, jumps->cap) = c;
	return CXChildVisit_Recurse;
}

static bool jumps_every_tile(struct cond_ctx *x, CXCursor root, CXCursor *cond)
{
	struct cursors jumps = {0};
	cursor_visit_code(root, collect_jump, &jumps);
	bool ok = true;
	for (int i = 0; i < jumps.n && ok; i++)
		ok = store_every_tile(x, root, jumps.v[i], clang_getNullCursor(), cond);
	free(jumps.v);
	return ok;
}

static void partial_fill_refuse(struct kloop *l, const struct source *src, size_t at, CXCursor cond,
				const struct cond_ctx *x, const char *where_helper)
{
	int line, col, cl, cc;
	pos(src, at, &line, &col);
	pos(src, cursor_span(cond).begin, &cl, &cc);
	char *what = span_text(src, cursor_span(x->bad));
	char *via = clang_Cursor_isNull(x->via) ? NULL : span_text(src, cursor_span(x->via));
	char *reads = via ? xprintf("'%s', which reads '%s'", via, what) : xprintf("'%s'", what);
	enum CXCursorKind k = clang_getCursorKind(cond);
	const char *kind = k == CXCursor_IfStmt ? "the if" : k == CXCursor_ForStmt ? "the copy loop" : "the condition";
	kloop_refuse(l, at,
		     "the tile store at %d:%d%s may be made on some tiles and not on others (%s at %d:%d depends on %s): "
		     "where it is skipped the tile keeps an earlier tile's value, which a second stage would not "
		     "hold, and pipefy cannot show the compute never reads it; write the element on every tile "
		     "(`g ? load : 0`, or an else)",
		     line, col, where_helper, kind, cl, cc, reads);
	free(what);
	free(via);
	free(reads);
}

/* The stores inside fill helper h, each made on every tile (check_partial_fills). */
static void check_helper_fills(struct kloop *l, const struct source *src, const struct helper_fill *h)
{
	if (h->refusal)
		return;
	CXCursor call = cursor_strip(l->stmts[h->stmt].cursor);
	CXCursor def = h->definition;
	for (int i = 0; i < h->nstores && l->nrefusals == 0; i++) {
		CXCursor cond;
		struct cond_ctx x = {.l = l, .scope = def, .scope_span = h->def, .call = call,
				     .bad = clang_getNullCursor(), .via = clang_getNullCursor()};
		if (!store_every_tile(&x, cursor_last_child(def), h->stores[i].store, clang_getNullCursor(), &cond) ||
		    !jumps_every_tile(&x, cursor_last_child(def), &cond)) {
			char *in = xprintf(" (in '%s')", h->name);
			/* positions inside the helper; the remark is on the loop */
			partial_fill_refuse(l, src, h->stores[i].text.begin, cond, &x, in);
			free(in);
		}
	}
}

/* The if statement that begins where a guarded copy's text does. */
struct if_find {
	struct span at;
	CXCursor found;
};

static enum CXChildVisitResult find_if_at(CXCursor c, void *data)
{
	struct if_find *f = data;
	if (clang_getCursorKind(c) == CXCursor_IfStmt && cursor_span(c).begin == f->at.begin) {
		f->found = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* The copy in the other branch of the if/else cond that stores the element cp stores (the
 * destination written alike), or NULL. */
static const struct copy *other_branch_copy(const struct kloop *l, const struct source *src, const struct copy *cp,
					    CXCursor cond)
{
	if (clang_Cursor_isNull(cond) || clang_getCursorKind(cond) != CXCursor_IfStmt)
		return NULL;
	struct cursors kids = cursor_children(cond);
	const struct copy *found = NULL;
	if (kids.n == 3) {
		bool in_then = span_within(cp->text, cursor_span(kids.v[1]));
		struct span other = cursor_span(kids.v[in_then ? 2 : 1]);
		char *dst = span_text(src, cursor_span(cursor_write_target(cp->store)));
		for (int i = 0; i < l->ncopies && !found; i++) {
			if (&l->copies[i] == cp || !span_within(l->copies[i].text, other))
				continue;
			char *o = span_text(src, cursor_span(cursor_write_target(l->copies[i].store)));
			if (strcmp(o, dst) == 0)
				found = &l->copies[i];
			free(o);
		}
		free(dst);
	}
	free(kids.v);
	return found;
}

static void check_partial_fills(struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->ncopies && l->nrefusals == 0; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->tile < 0)
			continue;
		CXCursor st = l->stmts[cp->stmt].cursor, cond;
		struct cond_ctx x = {.l = l, .scope = l->cursor, .scope_span = l->body, .call = clang_getNullCursor(),
				     .bad = clang_getNullCursor(), .via = clang_getNullCursor()};
		CXCursor own = clang_getNullCursor();
		if (cp->guard_is_if) { /* (the if of `if (g) X = load; else X = 0;`, the statement or inside it) */
			struct if_find f = {.at = cp->text, .found = clang_getNullCursor()};
			cursor_visit_from(st, find_if_at, &f);
			own = clang_Cursor_isNull(f.found) ? st : f.found;
		}
		if (!store_every_tile(&x, st, cp->store, own, &cond) || !jumps_every_tile(&x, st, &cond)) {
			const struct copy *other = other_branch_copy(l, src, cp, cond);
			if (other) {
				char *dst = span_text(src, cursor_span(cursor_write_target(cp->store)));
				char *at_if = xstrdup(where(src, cursor_span(cond).begin));
				char *at_one = xstrdup(where(src, cursor_span(cp->store).begin));
				kloop_refuse(l, cp->text.begin, "the if at %s stores '%s' from a load in either branch (%s, "
					     "%s): pipefy reads an if/else as one guarded copy with a constant in one branch",
					     at_if, dst, at_one, where(src, cursor_span(other->store).begin));
				free(at_if);
				free(at_one);
				free(dst);
			} else
				partial_fill_refuse(l, src, cp->text.begin, cond, &x, "");
		}
	}
	for (int k = 0; k < l->nhelpers && l->nrefusals == 0; k++)
		check_helper_fills(l, src, &l->helpers[k]);
}

/* The first call in a statement handed a shared-memory tile (`st(&As[i][j], v)`): *data. */
static enum CXChildVisitResult scan_tile_call(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) != CXCursor_CallExpr || cursor_is_barrier(c) || cursor_unresolved_operator(c))
		return CXChildVisit_Recurse;
	int n = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < n; i++) {
		CXCursor v = cursor_root_var(clang_Cursor_getArgument(c, (unsigned)i));
		if (!clang_Cursor_isNull(v) && cursor_is_shared_var(v)) {
			*(CXCursor *)data = c;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* ---- the loop's test and step, evaluated a tile early ---- */

/* The loader asks whether there is a next tile, and steps to it, before this tile's compute
 * runs: the test and the step may read only the loop variables (which the loader replays) and
 * what the body does not write. A test that reads memory, or a local the compute changes
 * (`k0 < kend` with `kend = k0` in the compute), would be answered too early: a tile the loop
 * as written never loads would be loaded, perhaps past the end of an array. */
struct header_scan {
	const struct kloop *l;
	const struct source *src;
	bool init;       /* reading the loop's init, which the rewrite evaluates twice */
	CXCursor bad;
	const char *why;
	CXCursor memory; /* the first read of memory */
};

static enum CXChildVisitResult scan_header(CXCursor c, void *data)
{
	struct header_scan *h = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ArraySubscriptExpr ||
	    (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) ||
	    (k == CXCursor_MemberRefExpr && !clang_Cursor_isNull(cursor_first_child(c)) &&
	     clang_getCanonicalType(clang_getCursorType(cursor_first_child(c))).kind == CXType_Pointer)) {
		if (clang_Cursor_isNull(h->memory) && !h->init)
			h->memory = c; /* (fine when the body writes no memory: see check_header; the init
					* runs before the loop, both times) */
		return CXChildVisit_Recurse;
	}
	CXCursor target, value;
	if (h->init && cursor_write_parts(c, &target, &value) != WRITE_NONE &&
	    kloop_ivar(h->l, cursor_root_var(target)) < 0) {
		/* (the loader's cursor starts from the init, and the loop still runs it: twice) */
		h->bad = c, h->why = "writes something other than the loop's variables";
		return CXChildVisit_Break;
	}
	if (k == CXCursor_CallExpr) {
		if (!uniform_pure_call(c, h->src)) {
			h->bad = c, h->why = "calls a function pipefy cannot show depends on its arguments alone";
			return CXChildVisit_Break;
		}
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (cursor_is_variable(d) && kloop_ivar(h->l, d) < 0) {
			if (cursor_is_shared_var(d)) {
				h->bad = c, h->why = "reads shared memory";
				return CXChildVisit_Break;
			}
			if (cursor_writes_var(cursor_last_child(h->l->cursor), d)) {
				h->bad = c, h->why = "reads a variable the body writes";
				return CXChildVisit_Break;
			}
		}
	}
	return CXChildVisit_Recurse;
}

static void check_header(struct kloop *l, const struct source *src, const struct effects *fx)
{
	struct cursors kids = cursor_children(l->cursor);
	struct header_scan h = {.l = l, .src = src, .bad = clang_getNullCursor(), .memory = clang_getNullCursor()};
	for (int i = 0; i + 1 < kids.n && clang_Cursor_isNull(h.bad); i++) {
		struct span s = cursor_span(kids.v[i]);
		h.init = l->init.end > l->init.begin && s.begin >= l->init.begin && s.begin < l->init.end;
		if (span_within(s, l->cond) || span_within(s, l->inc) || h.init)
			cursor_visit_from(kids.v[i], scan_header, &h);
	}
	free(kids.v);
	if (clang_Cursor_isNull(h.bad) && !clang_Cursor_isNull(h.memory)) {
		/* memory the test reads is the same a tile early when nothing in the body writes any */
		for (int i = 0; i < l->nstmts && clang_Cursor_isNull(h.bad); i++)
			if (fx[i].memory || fx[i].unknown)
				h.bad = h.memory, h.why = "reads memory the body may write";
	}
	if (clang_Cursor_isNull(h.bad))
		return;
	int line, col;
	pos(src, cursor_span(h.bad).begin, &line, &col);
	char *what = span_text(src, cursor_span(h.bad));
	kloop_refuse(l, cursor_span(h.bad).begin,
		     "the loop's %s %s ('%s' at %d:%d): pipefy starts the next tile's copies before this tile's "
		     "compute, so whether there is a next tile must not depend on it",
		     span_within(cursor_span(h.bad), l->cond)   ? "test"
		     : cursor_span(h.bad).begin < l->cond.begin ? "start"
								 : "step",
		     h.why, what, line, col);
	free(what);
}

/* Every thread of the block reaches the loop's barriers, as often as the others: the rewrite's
 * barriers and mbarriers are counted for the whole block (the loop as written, reached by some
 * threads only, already reads elements no thread wrote that tile). */
static void refuse_participation(struct kloop *l, const struct source *src, char *why, size_t at)
{
	size_t barrier = l->loop.begin;
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_BARRIER) {
			barrier = l->stmts[i].text.begin;
			break;
		}
	kloop_refuse(l, at, "the barrier at %s may not be reached by every thread of the block: %s", where(src, barrier),
		     why);
	free(why);
}

/* The asm that issues cp.async in the function a call makes (a function template's, for a call
 * of its specialization), wherever it is defined; null when there is none or pipefy cannot see
 * the definition. */
static enum CXChildVisitResult scan_async_asm(CXCursor c, void *data)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	char *tpl = k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt ? effects_asm_template(c) : NULL;
	bool copies = tpl && strstr(tpl, "cp.async") && !strstr(tpl, "cp.async.wait") && !strstr(tpl, "cp.async.commit");
	free(tpl);
	if (copies) {
		*(CXCursor *)data = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static CXCursor async_asm_in(CXCursor call)
{
	CXCursor def = cursor_callee_definition(call), found = clang_getNullCursor();
	if (!clang_Cursor_isNull(def))
		cursor_visit(def, scan_async_asm, &found);
	return found;
}

/* The fill helper's own copies asynchronous already (`fill(&As[..], &A[..], pipe)` whose body is
 * a cuda::memcpy_async, or cp.async in asm): refused so, naming the call inside. */
static bool helper_copies_async(struct kloop *l, const struct source *src)
{
	if (l->nhelpers == 0)
		return false;
	const struct body_stmt *st = &l->stmts[l->helpers[0].stmt];
	CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(cursor_strip(st->cursor)));
	if (clang_Cursor_isNull(def))
		return false;
	struct call_scan cs = {.pipelined = clang_getNullCursor(), .nested_barrier = clang_getNullCursor(), .src = src};
	cursor_visit(def, scan_calls, &cs);
	if (clang_Cursor_isNull(cs.pipelined))
		return false;
	char *fn = cursor_name(def), *what = cursor_call_name(cs.pipelined);
	int line, col;
	CXSourceLocation loc = clang_getCursorLocation(cs.pipelined);
	unsigned ul, uc;
	clang_getExpansionLocation(loc, NULL, &ul, &uc, NULL);
	pos(src, st->text.begin, &line, &col);
	kloop_refuse(l, st->text.begin,
		     "its copies are asynchronous already ('%s' in '%s', called at %d:%d, at %u:%u), which pipefy "
		     "does not stage again",
		     *what ? what : "cp.async", fn, line, col, ul, uc);
	free(fn);
	free(what);
	return true;
}


/* The calls of the body's statements: a pipeline's calls that no copy goes through, copies
 * asynchronous already, barriers nested in a statement; false when refused outright. */
static bool check_calls(struct kloop *l, const struct source *src, const struct kloop *piped)
{
	int line, col;
	for (int i = 0; i < l->nstmts; i++) {
		/* (a pipeline's calls are dropped only where its copies are proven plain ones) */
		if (l->stmts[i].role == ROLE_BARRIER || (piped && l->stmts[i].role == ROLE_PIPE_OP))
			continue;
		if (l->stmts[i].role == ROLE_PIPE_OP && l->ncopies > 0) {
			/* (plain copies, and a pipeline's calls that no copy goes through) */
			char *op = cursor_call_name(cursor_strip(l->stmts[i].cursor));
			pos(src, l->stmts[i].text.begin, &line, &col);
			kloop_refuse(l, l->stmts[i].text.begin,
				     "the loop calls a cuda::pipeline ('%s' at %d:%d) that none of its copies goes through: "
				     "pipefy drops a pipeline's calls only with the memcpy_async copies it makes plain ones",
				     op, line, col);
			free(op);
			return false;
		}
		struct call_scan cs = {.pipelined = clang_getNullCursor(), .nested_barrier = clang_getNullCursor(), .src = src,
				       .piped = piped};
		CXCursor c = l->stmts[i].cursor;
		scan_calls(c, &cs);
		cursor_visit(c, scan_calls, &cs);
		if (!clang_Cursor_isNull(cs.pipelined)) {
			size_t off = cursor_span(cs.pipelined).begin;
			pos(src, off, &line, &col);
			char *n = cursor_call_name(cs.pipelined);
			kloop_refuse(l, off, "its copies are asynchronous already ('%s' at %d:%d), which pipefy does not stage again",
				     *n ? n : "cp.async", line, col);
			free(n);
			return false;
		}
		if (!clang_Cursor_isNull(cs.nested_barrier)) {
			size_t off = cursor_span(cs.nested_barrier).begin;
			pos(src, off, &line, &col);
			kloop_refuse(l, off, "the barrier at %d:%d sits under a condition or inner statement", line, col);
		}
	}
	return true;
}

/* `if (blockDim.x == 256 ...) { pipelined } else { the loop }`, pipefy's own specialization
 * (stage.c): the loop as written, kept for other block sizes, is the else of an if whose then
 * branch holds pipefy's names (names.h). Where the pipelined block starts, or 0. */
struct fallback_find {
	struct span loop;
	size_t found;
};

static enum CXChildVisitResult scan_pipefy_name(CXCursor var, void *data)
{
	size_t *at = data;
	char *n = cursor_name(var);
	bool ours = strcmp(n, STAGE_READ) == 0 || strcmp(n, NAME_LOAD) == 0 || strcmp(n, NAME_FETCH) == 0;
	free(n);
	if (!ours)
		return CXChildVisit_Recurse;
	*at = cursor_span(var).begin;
	return CXChildVisit_Break;
}

/* (the statements around the loop's start) */
static enum CXChildVisitResult scan_fallback(CXCursor c, void *data)
{
	struct fallback_find *f = data;
	if (clang_getCursorKind(c) == CXCursor_IfStmt) {
		struct cursors kids = cursor_children(c);
		if (kids.n == 3 && span_within(f->loop, cursor_span(kids.v[2])))
			cursor_visit_kind(kids.v[1], CXCursor_VarDecl, scan_pipefy_name, &f->found);
		free(kids.v);
		if (f->found)
			return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static size_t pipefy_fallback(const struct kloop *l)
{
	struct fallback_find f = {l->loop, 0};
	cursor_visit_around(l->function_cursor, (struct span){l->loop.begin, l->loop.begin + 1}, scan_fallback, &f);
	return f.found;
}

/* Where a reason's first fact ends: its first ": " outside parentheses, brackets and code
 * (`..`); the reason's end when it has none. */
static size_t first_fact_end(const char *why)
{
	int depth = 0;
	bool code = false;
	for (size_t i = 0; why[i]; i++) {
		char c = why[i];
		if (c == '`')
			code = !code;
		else if (!code && (c == '(' || c == '['))
			depth++;
		else if (!code && (c == ')' || c == ']') && depth > 0)
			depth--;
		else if (!code && depth == 0 && c == ':' && why[i + 1] == ' ')
			return i;
	}
	return strlen(why);
}

/* Two variants' reasons as one: each one's first fact, then what follows each (a remark keeps the
 * first two, --report has all). */
char *check_both_reasons(const char *first_name, const char *first, const char *second_name, const char *second)
{
	size_t c = first_fact_end(first), g = first_fact_end(second);
	if (!first[c] && !second[g])
		return xprintf("%s: %s; %s: %s", first_name, first, second_name, second);
	return xprintf("%s: %.*s; %s: %.*s (%s%s%s%s%s)", first_name, (int)c, first, second_name, (int)g, second,
		       first[c] ? first_name : "", first[c] ? first + c : "", first[c] && second[g] ? "; " : "",
		       second[g] ? second_name : "", second[g] ? second + g : "");
}

/* Neither cp.async nor register staging can take the loop: both reasons, cp.async's first (the
 * planner may put register staging's first where it would have been chosen, and a variant asked
 * for gives its own: kloop.refused_both). */
static void refuse_both(struct kloop *l, const char *cp, const char *ldg)
{
	l->refused_both = true;
	char *why = check_both_reasons("cp.async", cp, "register staging", ldg);
	kloop_refuse(l, l->loop.begin, "%s", why);
	free(why);
}

/* What the loop's counters hand a fill helper (an argument that reads them, and the helper's
 * locals computed from such a parameter) may reach only the addresses it loads from and its
 * copies' zero-fill guards: where it stores, and whether, must be the same on every tile, as
 * the stages are filled the same way and read at the same places (an attack: `load(As, .., (k0
 * / TS) & 1)` storing half a tile at `s[8 * h + r]` was staged, and the compute read the half
 * another stage held). Refuses the loop, naming the first other use; true when it did. */
struct helper_taint {
	const struct kloop *l;
	const struct helper_fill *h;
	struct cursors tainted;
	struct span *ok;      /* where a tainted name may stand: the loads, the guards, what sets a
			       * tainted local */
	int nok, capok;
	bool grew;
	CXCursor bad, bad_var;
};

static bool is_tainted(const struct helper_taint *t, CXCursor d)
{
	for (int i = 0; i < t->tainted.n; i++)
		if (clang_equalCursors(t->tainted.v[i], d))
			return true;
	return false;
}

static enum CXChildVisitResult scan_reads_tainted(CXCursor c, CXCursor d, void *data)
{
	(void)c;
	bool *found = ((void **)data)[1];
	if (is_tainted(((void **)data)[0], d)) {
		*found = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static bool reads_tainted(const struct helper_taint *t, CXCursor e)
{
	bool found = false;
	void *ctx[2] = {(void *)t, &found};
	if (!clang_Cursor_isNull(e))
		cursor_visit_names(e, scan_reads_tainted, ctx);
	return found;
}

static void taint(struct helper_taint *t, CXCursor var, struct span set_by)
{
	/* (what sets a tainted local may name the counters, unless it stands inside where a store
	 * stores, `s[rr = 8 * h + r]`: there it is where the store stores) */
	bool in_dst = false;
	for (int j = 0; j < t->h->nstores && !in_dst; j++)
		in_dst = span_within(set_by, t->h->stores[j].dst);
	if (!in_dst)
		*VEC_PUSH(t->ok, t->nok, t->capok) = set_by;
	if (!is_tainted(t, var)) {
		*VEC_PUSH(t->tainted.v, t->tainted.n, t->tainted.cap) = var;
		t->grew = true;
	}
}

static enum CXChildVisitResult scan_taint_decls(CXCursor c, void *data)
{
	struct helper_taint *t = data;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && !is_tainted(t, c)) {
		CXCursor init = cursor_last_child(c);
		if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) != CXCursor_TypeRef && reads_tainted(t, init))
			taint(t, c, cursor_span(c));
	}
	return CXChildVisit_Recurse;
}

/* Whether var is a tile the helper stores into (its parameter). */
static bool is_tile_param_of(const struct helper_fill *h, CXCursor var)
{
	for (int j = 0; j < h->nstores; j++)
		if (clang_equalCursors(cursor_root_var(cursor_write_target(h->stores[j].store)), var))
			return true;
	return false;
}

static enum CXChildVisitResult scan_taint_writes(CXCursor w, enum write_kind k, CXCursor target, CXCursor value, void *data)
{
	(void)k;
	struct helper_taint *t = data;
	CXCursor var = cursor_root_var(target);
	if (!clang_Cursor_isNull(var) && cursor_declared_within(var, t->h->def) && !is_tile_param_of(t->h, var) &&
	    (reads_tainted(t, value) || (k != WRITE_ASSIGN && is_tainted(t, var))))
		taint(t, var, cursor_span(w));
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult scan_tainted_use(CXCursor c, CXCursor d, void *data)
{
	struct helper_taint *t = data;
	if (!is_tainted(t, d))
		return CXChildVisit_Continue;
	struct span at = cursor_span(c);
	for (int i = 0; i < t->nok; i++)
		if (span_within(at, t->ok[i]))
			return CXChildVisit_Continue;
	t->bad = c;
	t->bad_var = d;
	return CXChildVisit_Break;
}

static bool refuse_helper_moving_store(struct kloop *l, const struct source *src)
{
	for (int k = 0; k < l->nhelpers && l->nrefusals == 0; k++) {
		const struct helper_fill *h = &l->helpers[k];
		if (h->stmt < 0 || h->refusal)
			continue;
		CXCursor call = cursor_strip(l->stmts[h->stmt].cursor);
		struct helper_taint t = {.l = l, .h = h, .bad = clang_getNullCursor()};
		struct cursors kids = cursor_children(h->definition);
		int p = 0, from = -1;
		for (int i = 0; i < kids.n; i++) {
			if (clang_getCursorKind(kids.v[i]) != CXCursor_ParmDecl)
				continue;
			if (p < clang_Cursor_getNumArguments(call) &&
			    stmt_reads_ivar(l, clang_Cursor_getArgument(call, (unsigned)p))) {
				taint(&t, kids.v[i], cursor_span(kids.v[i]));
				if (from < 0)
					from = p;
			}
			p++;
		}
		free(kids.v);
		for (int j = 0; j < h->nstores; j++) {
			*VEC_PUSH(t.ok, t.nok, t.capok) = h->stores[j].src;
			if (h->stores[j].guard.end > h->stores[j].guard.begin)
				*VEC_PUSH(t.ok, t.nok, t.capok) = h->stores[j].guard;
		}
		for (int round = 0; round < 16 && t.tainted.n > 0; round++) {
			t.grew = false;
			cursor_visit(h->definition, scan_taint_decls, &t);
			cursor_visit_writes(h->definition, scan_taint_writes, &t);
			if (!t.grew)
				break;
		}
		if (t.tainted.n > 0)
			cursor_visit_names(h->definition, scan_tainted_use, &t);
		if (!clang_Cursor_isNull(t.bad)) {
			char *v = cursor_name(t.bad_var), *a = xstrdup(where(src, cursor_span(
						clang_Cursor_getArgument(call, (unsigned)from)).begin));
			kloop_refuse(l, cursor_span(call).begin, "'%s' uses '%s' at %s, which the loop's counters set (%s), "
				     "other than in the addresses it loads: where or whether it stores would change with the "
				     "tile", h->name, v, where(src, cursor_span(t.bad).begin), a);
			free(v);
			free(a);
		}
		free(t.tainted.v);
		free(t.ok);
	}
	return l->nrefusals > 0;
}

/* A fill helper pipefy cannot make asynchronous: refused, naming it (true). A loop whose
 * single barrier races as written says so first: that, not how the helper copies, is what
 * keeps it as written. */
static bool refuse_helper_fill(struct kloop *l, const struct source *src)
{
	for (int k = 0; k < l->nhelpers; k++)
		if (l->helpers[k].refusal) {
			if (l->nbarriers == 1) {
				check_shape(l, src);
				if (l->nrefusals > 0)
					return true;
			}
			const struct helper_fill *h = &l->helpers[k];
			int line, col;
			pos(src, h->refusal_at, &line, &col);
			kloop_refuse(l, h->refusal_at, "the tiles are filled by a call that cannot be made asynchronous: %s (%d:%d)",
				     h->refusal, line, col);
			return true;
		}
	return false;
}

/* No copy recognized: what does write the tiles, when a call is handed one (a cast store
 * accessor, a cp.async wrapper, another call), else that nothing is recognized. */
static void refuse_no_copies(struct kloop *l, const struct source *src)
{
	int line, col;
	/* say what does write the tiles, when a call is handed one */
	CXCursor call = clang_getNullCursor(), issue;
	for (int i = 0; i < l->nstmts && clang_Cursor_isNull(call); i++)
		if (l->stmts[i].role != ROLE_BARRIER && l->stmts[i].role != ROLE_TILE_DECL)
			cursor_visit(l->stmts[i].cursor, scan_tile_call, &call);
	if (!clang_Cursor_isNull(call) && cursor_cast_store_accessor(call)) {
		char *n = cursor_call_name(call);
		pos(src, cursor_span(call).begin, &line, &col);
		kloop_refuse(l, cursor_span(call).begin,
			     "'%s' at %d:%d stores into a tile through a cast of its pointer to another type than "
			     "its value's: pipefy reads a store accessor only as `*p = v;` or `*(V *)p = v;`, V "
			     "v's type", n, line, col);
		free(n);
	} else if (!clang_Cursor_isNull(call) && !clang_Cursor_isNull(issue = async_asm_in(call))) {
		/* (a cp.async wrapper, `cp_async<16>(&As[..], &A[..])`, wherever it is defined) */
		CXFile f;
		unsigned al, ac;
		clang_getExpansionLocation(clang_getCursorLocation(issue), &f, &al, &ac, NULL);
		CXString fname = clang_getFileName(f);
		const char *file = clang_getCString(fname) ? clang_getCString(fname) : "";
		const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		char *n = cursor_call_name(call);
		pos(src, cursor_span(call).begin, &line, &col);
		kloop_refuse(l, cursor_span(call).begin,
			     "its copies are asynchronous already: '%s' at %d:%d, handed a tile, issues cp.async (the "
			     "asm at %s:%u:%u), which pipefy does not stage again", n, line, col, base, al, ac);
		free(n);
		clang_disposeString(fname);
	} else if (!clang_Cursor_isNull(call)) {
		char *n = cursor_call_name(call);
		pos(src, cursor_span(call).begin, &line, &col);
		kloop_refuse(l, cursor_span(call).begin,
			     "no copy from global memory into the tiles is recognized: '%s' at %d:%d is handed a tile, "
			     "and pipefy takes a call for a copy only when it is a fill helper handed whole tiles "
			     "(`load_tile(As, Bs, A, B, k0)`) or a function whose whole body is `*p = v;`",
			     n, line, col);
		free(n);
	} else
		kloop_refuse(l, l->loop.begin, "no copy from global memory into the tiles is recognized");
}

static void check_loop(struct kloop *l, const struct source *src, bool other_files)
{
	int line, col;
	struct effects *fx = NULL; /* each statement's, once read */
	const struct kloop *piped = NULL;
	if (l->piped && !l->function_has_errors) {
		/* (first: copies already asynchronous that are no plain copies are the loop's obstacle) */
		size_t at;
		char *why = pipe_problem(l, src, cursor_last_child(l->cursor), &at);
		if (why) {
			pos(src, cursor_span(l->copies[0].store).begin, &line, &col);
			kloop_refuse(l, at, "its copies are asynchronous already ('memcpy_async' at %d:%d) and %s", line, col, why);
			free(why);
			return;
		}
		piped = l;
	}
	/* what find could not read (the header, the body's file, a statement it cannot split) */
	for (int i = 0; i < l->nunknowns; i++)
		kloop_refuse(l, l->unknowns[i].offset, "%s", l->unknowns[i].reason);
	if (l->function_has_errors) {
		kloop_refuse(l, l->loop.begin, "'%s' has parse errors (first at %s)", l->function, l->function_error);
		return;
	}
	if (l->nunknowns > 0)
		return;
	if (l->copy_defined) { /* pipefy's own output: a second run leaves it as it is */
		bool tma = strcmp(l->copy_defined, "tma") == 0;
		kloop_refuse(l, l->loop.begin,
			     "'%s' is the kernel as written, which pipefy keeps beside its %s copy '%s_pipefy_%s' "
			     "for launches from other files and as the launcher's fallback",
			     l->function, tma ? "tensor-copy" : "producer-warp", l->function, l->copy_defined);
		return;
	}
	size_t piped_at = pipefy_fallback(l);
	if (piped_at) { /* pipefy's own output again: its loop as written for other block sizes */
		kloop_refuse(l, l->loop.begin, "already pipelined by pipefy: this is the loop as written, which its "
			     "pipeline at %s keeps for the other block sizes", where(src, piped_at));
		return;
	}
	if (!check_header_macro(l, src) || !check_directives(l, src) || !check_asm(l, src))
		return;
	if (!check_calls(l, src, piped))
		return;
	if (l->nrefusals > 0)
		return;
	if (l->nbarriers == 0) {
		kloop_refuse(l, l->loop.begin,
			     "no block barrier: a warp-synchronous loop (__syncwarp) shares no tile across the block");
		return;
	}
	if (l->ncopies == 0 && l->nhelpers > 0 && helper_copies_async(l, src))
		return;
	if (refuse_helper_fill(l, src))
		return;
	struct flow_scan fs = {.bad = clang_getNullCursor()};
	cursor_visit(l->cursor, scan_flow, &fs);
	if (!clang_Cursor_isNull(fs.bad)) {
		size_t off = cursor_span(fs.bad).begin;
		pos(src, off, &line, &col);
		kloop_refuse(l, off, "'%s' at %d:%d leaves the loop early", fs.what, line, col);
	}
	/* (a condition around the loop that some threads fail is its first obstacle: as written it
	 * already waits at its barriers for threads that never come; the loop's own header is
	 * judged after the copies, whose checks name it better) */
	size_t participation_at = 0;
	char *participation = l->nrefusals ? NULL
					   : uniform_participation(l->function_cursor, l->cursor, src, other_files, &participation_at);
	bool header = participation_at >= l->loop.begin && participation_at < l->loop.end;
	if (participation && !header) {
		refuse_participation(l, src, participation, participation_at);
		participation = NULL;
	}
	check_hoisted_names(l, src);
	check_assigned_locals(l, src);
	check_copies(l, src, other_files);
	/* (a loop that races as written, its copies read, has that for its first obstacle, before
	 * what the checks of its dependences and its compute find) */
	struct body_shape shape = body_shape(l);
	if (l->nrefusals == 0 && refuse_race(l, src, &shape)) {
		free(participation);
		return;
	}
	check_dependences(l, src);
	check_escapes(l, src);
	/* (one barrier in the body races as written, which check_shape says first) */
	if (l->nrefusals == 0 && l->nbarriers != 1)
		check_partial_fills(l, src);
	if (l->nrefusals == 0)
		refuse_helper_moving_store(l, src);
	if (l->nrefusals == 0 && l->ncopies == 0 && l->nhelpers == 0)
		refuse_no_copies(l, src);
	if (l->nrefusals == 0 && check_aliases(l, src)) {
		/* what each statement may do, read once for the checks that need it */
		fx = xcalloc((size_t)(l->nstmts ? l->nstmts : 1), sizeof *fx);
		for (int i = 0; i < l->nstmts; i++)
			if (l->stmts[i].role != ROLE_BARRIER && l->stmts[i].role != ROLE_TILE_DECL)
				effects_of(l->stmts[i].cursor, src, &fx[i]);
		check_effects(l, src, fx);
		if (l->nrefusals == 0)
			check_header(l, src, fx);
	}
	if (participation && l->nrefusals == 0)
		refuse_participation(l, src, participation, participation_at);
	else
		free(participation);
	check_twice(l);
	check_shape(l, src);
	int nrows;
	const struct variant_row *rows = variant_rows(&nrows);
	for (int r = 0; r < nrows; r++)
		if (rows[r].check && rows[r].family != FAMILY_TENSOR)
			rows[r].check(l, src, fx);
	if (l->nhelpers > 0) {
		/* the helper's stores become cp.async in a copy of it; registers would need the helper
		 * split into a load half and a store half */
		l->legal[VARIANT_LDG].ok = false;
		free(l->legal[VARIANT_LDG].refusal);
		l->legal[VARIANT_LDG].refusal = xprintf("the copies sit inside '%s'; only cp.async (in a copy of '%s') can take them",
					 l->helpers[0].name, l->helpers[0].name);
	}
	if (l->nrefusals == 0 && !l->legal[VARIANT_CP_ASYNC].ok && !l->legal[VARIANT_LDG].ok)
		refuse_both(l, l->legal[VARIANT_CP_ASYNC].refusal, l->legal[VARIANT_LDG].refusal);
	for (int r = 0; fx && r < nrows; r++)
		if (rows[r].check && rows[r].family == FAMILY_TENSOR)
			rows[r].check(l, src, fx);
	for (int i = 0; fx && i < l->nstmts; i++)
		effects_free(&fx[i]);
	free(fx);
}

/* The first place in [from, to) where word stands as an identifier (outside comments and
 * strings), or 0. */
static size_t word_in(const struct source *src, size_t from, size_t to, const char *word)
{
	size_t at = 0;
	return source_identifiers(src, (struct span){from, to}, word, &at, 1) ? at : 0;
}

/* Why no variant that copies boxes (box.c) can take the loop, or NULL: every tile one box of
 * an operand, in a plain __global__ kernel whose parameters the loader names. */
static char *box_refusal(struct kloop *l, const struct source *src, const struct effects *fx)
{
	CXCursor fn = l->function_cursor;
	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl || !cursor_has_attr(fn, CXCursor_CUDAGlobalAttr))
		return xprintf("the loop is in '%s', which is not a plain __global__ kernel (templates and "
			       "__device__ functions are left to the other variants)", l->function);
	if (l->one_stage)
		return xstrdup(l->one_stage);
	if (!l->params_end)
		return xprintf("'%s' takes no parameters to copy from", l->function);
	/* (box.c reads a local through its declaration: no goto may jump back over one) */
	size_t g = word_in(src, l->function_span.begin, l->function_span.end, "goto");
	if (g)
		return xprintf("'%s' has a goto at %s", l->function, where(src, g));
	/* The loop's waits are per thread: a warp's threads can reach the compute apart (the thread
	 * that issues the copies first waits for a stage to empty), and an instruction the whole
	 * warp must execute together (mma.sync, ldmatrix, wmma) would then run on part of it: an
	 * H200 run of the bf16 mma.sync GEMM differed so at 8192^3 with two stages. Such a compute
	 * is entered by the whole warp at once (rewrite: __syncwarp after the wait). */
	for (int i = 0; i < l->nstmts && !l->tma_collective; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if ((st->role == ROLE_COMPUTE || (st->also_compute && st->role == ROLE_COPY_DECL)) && fx[i].collective)
			l->tma_collective = xprintf("'%s' (%s)", fx[i].collective, where(src, fx[i].collective_at));
	}
	if (!l->boxed) /* (box.c's facts, read before check) */
		return xstrdup("pipefy did not read the tiles as boxes");
	if (l->box_problem)
		return xstrdup(l->box_problem);
	/* the loader prints the kernel's parameters by name: no local may hide one */
	CXCursor body = cursor_last_child(fn);
	int np = clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < np; i++) {
		char *name = cursor_name(clang_Cursor_getArgument(fn, i));
		struct cursors locals = cursor_vars_named(body, name);
		char *why = !*name     ? xprintf("parameter %d of '%s' has no name", i + 1, l->function)
			    : locals.n ? xprintf("a local at %s has the name of the parameter '%s'",
						 where(src, cursor_offset(locals.v[0])), name)
				       : NULL;
		free(locals.v);
		free(name);
		if (why)
			return why;
	}
	return NULL;
}

/* Whether text holds what, not followed by a digit (`y == 1`, not `y == 16`). */
static bool word_in_text(const char *text, const char *what)
{
	size_t n = strlen(what);
	for (const char *p = text; (p = strstr(p, what)); p += n)
		if (!isdigit((unsigned char)p[n]))
			return true;
	return false;
}

/* A read of memory the producer warp's thread indices could send out of bounds: a subscript of
 * anything but a local array, a dereference, a call into user code. */
struct producer_scan {
	size_t at;
	const char *what;
};

static enum CXChildVisitResult scan_producer_reads(CXCursor c, void *data)
{
	struct producer_scan *ps = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	const char *what = NULL;
	if (k == CXCursor_ArraySubscriptExpr) {
		CXCursor v = cursor_root_var(c);
		if (clang_Cursor_isNull(v) || clang_getCursorKind(v) != CXCursor_VarDecl || cursor_is_shared_var(v) ||
		    clang_getCursorType(v).kind != CXType_ConstantArray || !effects_is_local(v))
			what = "reads an element of memory";
	} else if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
		what = "dereferences a pointer";
	} else if (k == CXCursor_MemberRefExpr && clang_getCursorType(cursor_first_child(c)).kind == CXType_Pointer) {
		what = "reads through a pointer";
	} else if (k == CXCursor_CallExpr) {
		CXCursor callee = clang_getCursorReferenced(c);
		if (effects_library_reads_through(c))
			what = "hands a pointer to a function that may read through it";
		else if (!clang_Cursor_isNull(callee) && clang_getCursorKind(callee) == CXCursor_FunctionDecl &&
			 !effects_in_system_header(callee))
			what = "calls a function of the file";
	}
	if (what && !ps->what) {
		ps->what = what;
		ps->at = cursor_offset(c);
	}
	return ps->what ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* A way out of the kernel before the loop runs (or runs again, in a loop around it): a
 * `return` (not a lambda's), or PTX `exit` in an asm statement of the kernel or of a function
 * of this file it calls there (an asm whose text is not a string literal may be anything). A
 * thread that leaves counts as arrived at __syncthreads(), so the loop as written goes on
 * without it; an mbarrier waits for its arrivals forever (and when it is the thread that
 * initializes the barriers and issues the copies, nothing is copied at all). */
static bool asm_may_exit(CXCursor a, const struct source *src)
{
	struct span s = cursor_span(a);
	char *text = span_text(src, s);
	bool may = strstr(text, "exit") != NULL || strchr(text, '"') == NULL;
	free(text);
	return may;
}

static CXCursor find_exit(CXCursor c, struct span loop, bool around, const struct source *src, int depth)
{
	struct cursors kids = cursor_children(c);
	CXCursor found = clang_getNullCursor();
	for (int i = 0; i < kids.n && clang_Cursor_isNull(found); i++) {
		CXCursor k = kids.v[i];
		enum CXCursorKind kind = clang_getCursorKind(k);
		struct span at = cursor_span(k);
		if (kind == CXCursor_LambdaExpr || (at.begin == loop.begin && at.end == loop.end))
			continue;
		bool reached = at.begin < loop.begin || around;
		if (kind == CXCursor_ReturnStmt && reached && depth == 0)
			found = k;
		else if (kind == CXCursor_AsmStmt && reached && asm_may_exit(k, src))
			found = k;
		else if (kind == CXCursor_CallExpr && reached && depth < 4) {
			CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(k));
			/* (a helper's body: all of it runs before the loop, wherever it is written) */
			if (!clang_Cursor_isNull(def) && cursor_in_main_file(def) &&
			    !clang_Cursor_isNull(find_exit(def, (struct span){0, 0}, true, src, depth + 1)))
				found = k;
		}
		if (clang_Cursor_isNull(found)) {
			bool encloses = (kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt || kind == CXCursor_DoStmt) &&
					at.begin <= loop.begin && at.end >= loop.end;
			found = find_exit(k, loop, around || encloses, src, depth);
		}
	}
	free(kids.v);
	return found;
}

/* A copy written through macros (`FLOAT4(s_a[i]) = FLOAT4(a[j])`, body.c): its box would be read
 * from the macro's expansion, which the launcher's and loader's text cannot name. */
static char *macro_copy_refusal(const struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->ncopies; i++)
		if (l->copies[i].in_macro) {
			int line, col;
			size_t at = l->copies[i].text.begin, n = source_call_word(src, at);
			pos(src, at, &line, &col);
			return xprintf("the copy at %d:%d is written through a macro ('%.*s'): a box is read only from a copy "
				       "written out", line, col, (int)n, src->text + at);
		}
	return NULL;
}

static char *exit_refusal(const struct kloop *l, const struct source *src)
{
	CXCursor x = find_exit(l->function_cursor, l->loop, false, src, 0);
	if (clang_Cursor_isNull(x))
		return NULL;
	enum CXCursorKind k = clang_getCursorKind(x);
	return xprintf("%s at %s may end threads before the loop runs: __syncthreads() counts a thread that has "
		       "ended as arrived, an mbarrier or a named barrier with a thread count does not (its waits would never "
		       "end)",
		       k == CXCursor_ReturnStmt ? "'return'" : k == CXCursor_AsmStmt ? "the asm statement" : "the call",
		       where(src, cursor_span(x).begin));
}

/* What the producer warp changes that pipefy's rewrite of `blockDim` does not reach: `blockDim`
 * read by a helper the kernel calls, or written by a macro's expansion; PTX's %ntid in an asm
 * (or one pipefy cannot read); an asm barrier (a header's helper after the loop: the file's
 * text is all the rest looks at); cooperative groups' view of the block
 * (`this_thread_block().size()`, its `sync()`), which counts the added warp. */
struct block_view_scan {
	const struct source *src;
	int depth;
	CXCursor call; /* (in a helper: the kernel's call that leads there) */
	char *why;
};

static bool in_namespace(CXCursor d, const char *name)
{
	for (CXCursor p = clang_getCursorSemanticParent(d); !clang_Cursor_isNull(p) &&
	     clang_getCursorKind(p) != CXCursor_TranslationUnit; p = clang_getCursorSemanticParent(p))
		if (clang_getCursorKind(p) == CXCursor_Namespace) {
			char *n = cursor_name(p);
			bool is = strcmp(n, name) == 0;
			free(n);
			if (is)
				return true;
		}
	return false;
}

/* Where a scan that follows the kernel's helpers places what it finds at c: c itself, or, in a
 * helper (depth > 0), the kernel's call that leads there (call). */
static size_t scan_place(CXCursor c, int depth, CXCursor call) { return cursor_offset(depth ? call : c); }

/* Whether c names something of cooperative groups (a type, a function, an object): their view
 * of the block and grid is the launch's, whatever pipefy makes of the kernel's. When it does,
 * why not, in *why, for the scans that follow the kernel's helpers (found at `at`; `uses`
 * before, the view after: "the kernel uses cooperative groups (9:13), whose view of the block
 * counts .."). */
static bool cooperative_groups_use(CXCursor c, const struct source *src, size_t at, const char *uses, const char *view,
				   char **why)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor d = clang_getCursorReferenced(c);
	bool names = !clang_Cursor_isNull(d) &&
		     (k == CXCursor_DeclRefExpr || k == CXCursor_TypeRef || k == CXCursor_CallExpr ||
		      k == CXCursor_MemberRefExpr || k == CXCursor_TemplateRef) &&
		     in_namespace(d, "cooperative_groups");
	if (names)
		*why = xprintf("%scooperative groups (%s), whose view of %s", uses, where(src, at), view);
	return names;
}

/* Scans def, the helper c calls, with visit, one call deeper (what it finds is placed at the
 * kernel's call that leads there); true when it finds why not (then in s->why). */
static bool scan_helper(struct block_view_scan *s, CXCursor c, CXCursor def, cursor_visitor visit)
{
	struct block_view_scan inner = {s->src, s->depth + 1, s->depth ? s->call : c, NULL};
	cursor_visit(def, visit, &inner);
	if (!inner.why)
		return false;
	s->why = inner.why;
	return true;
}

static enum CXChildVisitResult scan_block_view(CXCursor c, void *data)
{
	struct block_view_scan *s = data;
	size_t at = scan_place(c, s->depth, s->call);
	if (cooperative_groups_use(c, s->src, at, "the kernel uses ", "the block counts the producer warp", &s->why))
		return CXChildVisit_Break;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor d = clang_getCursorReferenced(c);
	if (k == CXCursor_DeclRefExpr && clang_getCursorKind(d) == CXCursor_VarDecl && effects_in_system_header(d)) {
		char *n = cursor_name(d);
		bool dim = strcmp(n, "blockDim") == 0;
		free(n);
		if (dim && s->depth) {
			char *callee = cursor_name(s->call);
			s->why = xprintf("'%s', called at %s, reads blockDim, which the producer warp changes (pipefy rewrites "
					 "it in the kernel only)", callee, where(s->src, at));
			free(callee);
			return CXChildVisit_Break;
		}
		if (dim && cursor_from_macro(c)) {
			s->why = xprintf("blockDim at %s comes from a macro, which pipefy's rewrite of it for the producer "
					 "warp does not reach", where(s->src, at));
			return CXChildVisit_Break;
		}
	}
	if (k == CXCursor_AsmStmt && effects_asm_mentions(c, "%ntid")) {
		s->why = xprintf("the asm at %s reads the block's size (%%ntid), which the producer warp changes",
				 where(s->src, at));
		return CXChildVisit_Break;
	}
	bool named_barrier = k == CXCursor_AsmStmt && (effects_asm_mentions(c, "bar.") || effects_asm_mentions(c, "barrier."));
	if (k == CXCursor_CallExpr && !clang_Cursor_isNull(d) && effects_in_system_header(d)) { /* `__barrier_sync(id)` */
		char *n = cursor_name(d);
		named_barrier = strncmp(n, "__barrier", 9) == 0;
		free(n);
	}
	if (named_barrier) {
		s->why = xprintf("%s at %s is a barrier of the kernel's own (in a helper after the loop, say), whose "
				 "id and count the producer warp and pipefy's named barriers could collide with",
				 k == CXCursor_AsmStmt ? "the asm" : "the call", where(s->src, at));
		return CXChildVisit_Break;
	}
	if (k == CXCursor_CallExpr && cursor_call_through_pointer(c)) {
		s->why = xprintf("the call at %s goes through a pointer to a function: pipefy cannot see whether it "
				 "reads the block's size", where(s->src, at));
		return CXChildVisit_Break;
	}
	if (k == CXCursor_CallExpr && s->depth == 4 && !clang_Cursor_isNull(d) && !effects_in_system_header(d)) {
		s->why = xprintf("the helpers called at %s call each other too deep for pipefy to see whether they read "
				 "the block's size", where(s->src, at));
		return CXChildVisit_Break;
	}
	if (k == CXCursor_CallExpr && s->depth < 4 && !clang_Cursor_isNull(d) && !effects_in_system_header(d)) {
		CXCursor def = clang_getCursorDefinition(d);
		if (!clang_Cursor_isNull(def) && scan_helper(s, c, def, scan_block_view))
			return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* A barrier of the block's threads other than the loop's own: `__syncthreads()` and its
 * `_count`, `_or` and `_and` forms, `__barrier_sync`, an asm `bar.`/`barrier.` (or an asm pipefy
 * cannot read), in c or a function of the program it calls (depth first, four calls deep; one
 * deeper is taken for one). The producer warp never arrives at any of them: a consumer
 * waiting there would wait forever. */
static const char *const block_barriers[] = {"__syncthreads", "__syncthreads_count", "__syncthreads_or",
					     "__syncthreads_and", "__barrier_sync", "__barrier_sync_count", NULL};

static enum CXChildVisitResult scan_consumer_barrier(CXCursor c, void *data)
{
	struct block_view_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	size_t at = cursor_offset(s->depth ? s->call : c);
	if (k == CXCursor_AsmStmt && (effects_asm_mentions(c, "bar.") || effects_asm_mentions(c, "barrier."))) {
		s->why = xprintf("the asm at %s synchronizes the block, and the producer warp never arrives there",
				 where(s->src, cursor_offset(c)));
		return CXChildVisit_Break;
	}
	if (k != CXCursor_CallExpr && !cursor_is_barrier(c))
		return CXChildVisit_Recurse;
	if (k == CXCursor_CallExpr && cursor_call_through_pointer(c)) {
		s->why = xprintf("the call at %s goes through a pointer to a function: pipefy cannot see whether it "
				 "synchronizes the block", where(s->src, at));
		return CXChildVisit_Break;
	}
	CXCursor d = clang_getCursorReferenced(c);
	char *n = cursor_name(c);
	bool barrier = cursor_is_barrier(c);
	for (int i = 0; block_barriers[i] && !barrier; i++)
		barrier = strcmp(n, block_barriers[i]) == 0;
	if (barrier) {
		if (s->depth) {
			char *callee = cursor_name(s->call);
			s->why = xprintf("'%s', called at %s, synchronizes the block ('%s'), and the producer warp never "
					 "arrives there", callee, where(s->src, at), n);
			free(callee);
		} else
			s->why = xprintf("'%s' at %s synchronizes the block inside the compute, and the producer warp never "
					 "arrives there", n, where(s->src, at));
		free(n);
		return CXChildVisit_Break;
	}
	free(n);
	if (k == CXCursor_CallExpr && !clang_Cursor_isNull(d) && !effects_in_system_header(d)) {
		CXCursor def = clang_getCursorDefinition(d);
		if (clang_Cursor_isNull(def) || s->depth >= 4) {
			char *callee = cursor_name(s->depth ? s->call : c);
			s->why = xprintf("'%s', called at %s, %s: pipefy cannot see whether it synchronizes the block", callee,
					 where(s->src, at), clang_Cursor_isNull(def) ? "has no definition here" : "calls too deep");
			free(callee);
			return CXChildVisit_Break;
		}
		if (scan_helper(s, c, def, scan_consumer_barrier))
			return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static char *consumer_barrier(const struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->nstmts; i++) {
		if (l->stmts[i].role == ROLE_BARRIER)
			continue;
		struct block_view_scan s = {src, 0, clang_getNullCursor(), NULL};
		CXCursor c = l->stmts[i].cursor;
		cursor_visit_from(c, scan_consumer_barrier, &s);
		if (s.why)
			return s.why;
	}
	return NULL;
}

/* What the producer warp runs before the loop that could end it, trap, or never finish: a call
 * of the libraries' that is not a pure function of its arguments (`__trap()`, `assert`,
 * `printf`) nor wmma's, an asm, a goto, a loop whose test is not the same in every thread (the producer's
 * thread indices are past the kernel's). */
struct producer_control {
	const struct source *src;
	CXCursor function;
	char *what;
	size_t at;
};

static enum CXChildVisitResult scan_producer_control(CXCursor c, void *data)
{
	struct producer_control *p = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		/* (wmma's fill_fragment writes its fragment only: the warp runs it whole) */
		bool program = !clang_Cursor_isNull(d) && !effects_in_system_header(d) &&
			       !clang_Cursor_isNull(clang_getCursorDefinition(d)); /* (read by scan_producer_reads) */
		if (!program && !effects_pure_call(c) && !(!clang_Cursor_isNull(d) &&
		    (clang_getCursorKind(d) == CXCursor_Constructor || in_namespace(d, "wmma")))) {
			char *n = cursor_name(c);
			p->what = xprintf("calls '%s'", n);
			free(n);
		}
	} else if (k == CXCursor_AsmStmt)
		p->what = xstrdup("runs an asm statement");
	else if (k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt)
		p->what = xstrdup("jumps (goto)");
	else if (k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_ForStmt) {
		struct cursors kids = cursor_children(c);
		int first = k == CXCursor_DoStmt ? 1 : 0, last = k == CXCursor_DoStmt ? kids.n : kids.n - 1;
		for (int i = first; i < last && !p->what; i++) {
			enum CXCursorKind kk = clang_getCursorKind(kids.v[i]);
			if (kk != CXCursor_DeclStmt && clang_isExpression(kk) && !uniform_value(p->function, kids.v[i], p->src))
				p->what = xstrdup("runs a loop whose test may differ between threads");
		}
		free(kids.v);
	}
	if (p->what) {
		p->at = cursor_offset(c);
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Whether a producer warp can issue the tensor copies (--variant=ws): it is added to a 1-D
 * block after the kernel's threads, runs the code before the loop with them (which must not
 * write memory or return, for its thread indices name no thread of the kernel's), issues every
 * tile in turn, and leaves after the loop (so no barrier may follow it). The kernel's threads
 * see the block they were written for (blockDim is rewritten) and compute as in tma. */
static char *ws_refusal(struct kloop *l, const struct source *src)
{
	if (!l->block_check || !word_in_text(l->block_check, "pipefy_block.y == 1") ||
	    !word_in_text(l->block_check, "pipefy_block.z == 1"))
		return xstrdup("the copies assume a 2-D block; the producer warp is added to a 1-D one");
	if (l->block_threads + 32 > 1024)
		return xprintf("the block has %d threads (%s); with the producer warp it would have %d, over 1024",
			       l->block_threads, l->block_source ? l->block_source : "", l->block_threads + 32);
	if (l->block_threads % 32)
		return xprintf("the block has %d threads (%s), not whole warps: the producer warp would share one",
			       l->block_threads, l->block_source ? l->block_source : "");
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_BUMP)
			return xprintf("the statement at %s moves a loop variable in the body; the producer runs the loop's "
				       "header only", where(src, l->stmts[i].text.begin));
	size_t at = word_in(src, l->loop.begin, l->body.begin, "blockDim");
	if (at)
		return xprintf("the loop's header reads blockDim (%s), which the producer warp changes", where(src, at));
	CXCursor body = cursor_last_child(l->function_cursor);
	struct cursors kids = cursor_children(body);
	char *why = NULL;
	bool top = false;
	for (int i = 0; i < kids.n && !why && !top; i++) {
		struct span s = cursor_span(kids.v[i]);
		if (s.begin <= l->loop.begin && s.end >= l->loop.end) {
			top = s.begin == l->loop.begin || s.end == l->loop.end;
			if (!top)
				why = xprintf("the loop is not a statement of '%s's body: the producer would leave inside "
					      "what holds it", l->function);
			continue;
		}
		struct effects fx = {0};
		effects_of(kids.v[i], src, &fx);
		struct producer_scan ps = {0};
		cursor_visit(kids.v[i], scan_producer_reads, &ps);
		if (!ps.what)
			scan_producer_reads(kids.v[i], &ps);
		struct producer_control pc = {src, l->function_cursor, NULL, 0};
		cursor_visit_code_from(kids.v[i], scan_producer_control, &pc);
		if (pc.what && !ps.what) {
			ps.what = pc.what;
			ps.at = pc.at;
		}
		if (fx.memory || fx.shared || fx.unknown || fx.syncs)
			why = xprintf("the statement at %s, before the loop, %s; the producer warp runs it too",
				      where(src, s.begin), fx.what ? fx.what : fx.shared_what ? fx.shared_what : "writes memory");
		else if (ps.what) {
			char *stmt = xstrdup(where(src, s.begin)); /* (where's buffer is one) */
			why = xprintf("the statement at %s, before the loop, %s (%s); the producer warp runs it too, with "
				      "thread indices past the kernel's", stmt, ps.what, where(src, ps.at));
			free(stmt);
		}
		free(pc.what);
		effects_free(&fx);
	}
	free(kids.v);
	if (why)
		return why;
	if (!top)
		return xprintf("the loop is not a statement of '%s's body", l->function);
	const char *barriers[] = {"__syncthreads", "__syncthreads_and", "__syncthreads_or", "__syncthreads_count",
				  "__barrier_sync", "sync"}; /* ("sync": `block.sync()`) */
	for (size_t b = 0; b < sizeof barriers / sizeof *barriers; b++)
		if ((at = word_in(src, l->loop.end, l->function_span.end, barriers[b])))
			return xprintf("'%s' at %s follows the loop; the producer warp leaves after it", barriers[b], where(src, at));
	struct block_view_scan bv = {src, 0, clang_getNullCursor(), NULL};
	cursor_visit(l->function_cursor, scan_block_view, &bv);
	if (bv.why)
		return bv.why;
	char *barrier = consumer_barrier(l, src);
	if (barrier)
		return barrier;
	/* (and in asm's strings: `bar.sync`, `barrier.sync`, `bar.red`) */
	const char *asm_barriers[] = {"bar.", "barrier."};
	for (size_t b = 0; b < sizeof asm_barriers / sizeof *asm_barriers; b++) {
		const char *g = strstr(src->text + l->loop.end, asm_barriers[b]);
		if (g && g < src->text + l->function_span.end)
			return xprintf("'%s' at %s follows the loop; the producer warp leaves after it", asm_barriers[b],
				       where(src, (size_t)(g - src->text)));
	}
	return NULL;
}

/* Whether the run may use a producer warp (model.no_producers): ws_refusal, a tenth of a run's
 * checks, is skipped where none can be used. */
static bool weigh_producers = true;

/* Whether tensor copies (--variant=tma) and bulk copies (--variant=bulk) can take the loop:
 * every tile one box of an operand (box_refusal); for bulk copies each box row a multiple of
 * 16 bytes, from and to 16-byte multiples; for tensor copies a kernel pipefy can copy (the copy
 * keeps the file's other uses of the kernel as written) and launches in this file to route
 * through the launcher. */
void check_boxes(struct kloop *l, const struct source *src, const struct effects *fx)
{
	l->legal[VARIANT_TMA].ok = l->legal[VARIANT_BULK].ok = l->legal[VARIANT_WS].ok = false;
	if (l->nrefusals > 0)
		return;
	char *why = exit_refusal(l, src);
	if (!why)
		why = macro_copy_refusal(l, src);
	for (int i = 0; i < l->ncopies && !why; i++)
		if (l->copies[i].computed)
			why = computed_copy_why(l, src, &l->copies[i], ", and a tensor copy moves bytes as they are");
	char *name;
	int adv = why ? -1 : copy_side_advance(l, &name);
	if (adv >= 0) {
		why = xprintf("the %s at %s advances '%s', and a box is read from the copies' addresses as their "
			      "declarations give them", l->stmts[adv].role == ROLE_COPY ? "copy" : "statement",
			      where(src, cursor_span(cursor_unattributed(l->stmts[adv].cursor)).begin), name);
		free(name);
	}
	if (!why)
		why = box_refusal(l, src, fx);
	/* (one helpers block a file: a second would define them twice) */
	if (!why && strstr(src->text, "// pipefy: Hopper tensor copies {"))
		why = xstrdup("the file already holds pipefy's tensor- and bulk-copy helpers from an earlier run (run "
			      "pipefy on the file as written)");
	if (why) {
		l->legal[VARIANT_TMA].refusal = why;
		l->legal[VARIANT_BULK].refusal = xstrdup(why);
		l->legal[VARIANT_WS].refusal = xstrdup(why);
		return;
	}
	l->legal[VARIANT_BULK].ok = true;
	for (int b = 0; b < l->nboxes && l->legal[VARIANT_BULK].ok; b++) {
		const struct tma_box *x = &l->boxes[b];
		long row = x->copy_cols * x->elem_bytes, stride = x->box_cols * x->elem_bytes;
		if (row % 16 || stride % 16) {
			l->legal[VARIANT_BULK].ok = false;
			l->legal[VARIANT_BULK].refusal = xprintf("a row of '%s' is %ld bytes%s, not a multiple of 16 (a bulk copy's unit)",
						  l->tiles[x->tile].name, row % 16 ? row : stride, row % 16 ? "" : " with its padding");
		}
	}
	if (l->mangled && strcmp(l->mangled, l->function) == 0) {
		l->legal[VARIANT_TMA].refusal = xprintf("'%s' has C linkage: its copy could not be overloaded or renamed", l->function);
		l->legal[VARIANT_WS].refusal = xstrdup(l->legal[VARIANT_TMA].refusal);
		return;
	}
	size_t cond = open_conditional(src, l->function_span.begin);
	if (cond) {
		l->legal[VARIANT_TMA].refusal = xprintf("'%s' is defined inside the preprocessor conditional at %s: its launches would call "
					 "a launcher a build that takes another branch does not have", l->function,
					 where(src, cond - 1));
		l->legal[VARIANT_WS].refusal = xstrdup(l->legal[VARIANT_TMA].refusal);
		return;
	}
	if (l->kernel_used_at) {
		l->legal[VARIANT_TMA].refusal = xprintf("'%s' is named at %s other than in a launch: what is done to it there (an attribute "
					 "set, a pointer taken) the tensor-copy kernel its launches would run instead would "
					 "not get", l->function, where(src, l->kernel_used_at - 1));
		l->legal[VARIANT_WS].refusal = xstrdup(l->legal[VARIANT_TMA].refusal);
		return;
	}
	if (l->ntma_launches == 0) {
		l->legal[VARIANT_TMA].refusal = xprintf("no launch `%s<<<...>>>(...)` in host code after its definition is in this file%s",
					 l->function, l->other_launches ? " (the ones here are in macros or device code, or come first)" : "");
		l->legal[VARIANT_WS].refusal = xstrdup(l->legal[VARIANT_TMA].refusal);
		return;
	}
	l->legal[VARIANT_TMA].ok = true;
	l->legal[VARIANT_WS].refusal = weigh_producers ? ws_refusal(l, src)
				       : xstrdup("not weighed: a producer warp is weighed where --variant or a hint asks "
						 "for one, or --report (auto never takes one)");
	l->legal[VARIANT_WS].ok = !l->legal[VARIANT_WS].refusal;
}

/* Whether the producer warp can copy the boxes with cp.async and signal with named barriers
 * (--variant=ws-cp.async): what ws needs of the block, the kernel and its launches (which
 * includes no barrier of the kernel's own: pipefy's take ids 1 to 2 x stages + 1); rows (and
 * padded rows) of whole 4-, 8- or 16-byte units, cp.async's sizes. */
void check_ws_cp_async(struct kloop *l, const struct source *src, const struct effects *fx)
{
	(void)fx;
	l->legal[VARIANT_WS_CP_ASYNC].ok = false;
	if (l->nrefusals > 0)
		return;
	if (l->legal[VARIANT_WS].refusal) {
		l->legal[VARIANT_WS_CP_ASYNC].refusal = xstrdup(l->legal[VARIANT_WS].refusal);
		return;
	}
	long chunk = 16;
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		long row = x->copy_cols * x->elem_bytes, stride = x->box_cols * x->elem_bytes;
		while (chunk >= 4 && (row % chunk || stride % chunk))
			chunk /= 2;
		if (chunk < 4) {
			l->legal[VARIANT_WS_CP_ASYNC].refusal = xprintf("a row of '%s' is %ld bytes%s: cp.async copies 4, 8 or 16 bytes",
							 l->tiles[x->tile].name, row % 4 ? row : stride,
							 row % 4 ? "" : " with its padding");
			return;
		}
	}
	if (strstr(src->text, "// pipefy: named barriers {")) {
		l->legal[VARIANT_WS_CP_ASYNC].refusal = xstrdup("the file already holds pipefy's named-barrier helpers from an earlier run "
						 "(run pipefy on the file as written)");
		return;
	}
	l->ws_chunk = chunk;
	l->legal[VARIANT_WS_CP_ASYNC].ok = true;
}

/* ---- static tiles past the static limit: into the launch's dynamic shared memory ---- */

/* An extern __shared__ array the function or a function it calls declares (those of the system
 * headers are taken not to): it would be where the moved tiles are. A call pipefy cannot follow
 * (no body in sight, or through a pointer) leaves the fact unknown. */
struct extern_scan {
	CXCursor found;  /* the declaration, or the call that could not be followed */
	bool unseen;
	CXCursor seen[32];
	int nseen;
};

static enum CXChildVisitResult scan_extern_shared(CXCursor c, void *data)
{
	struct extern_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_VarDecl && cursor_is_shared_var(c) && extern_array(c)) {
		s->found = c;
		return CXChildVisit_Break;
	}
	if (k != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	CXCursor callee = clang_getCursorReferenced(c);
	if (!clang_Cursor_isNull(callee) && effects_in_system_header(callee))
		return CXChildVisit_Recurse;
	if (cursor_builtin_operator_call(c))
		return CXChildVisit_Recurse;
	CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
	if (clang_Cursor_isNull(def) || s->nseen == (int)(sizeof s->seen / sizeof *s->seen)) {
		s->found = c;
		s->unseen = true;
		return CXChildVisit_Break;
	}
	for (int i = 0; i < s->nseen; i++)
		if (clang_equalCursors(s->seen[i], def))
			return CXChildVisit_Recurse;
	s->seen[s->nseen++] = def;
	cursor_visit(def, scan_extern_shared, s);
	return clang_Cursor_isNull(s->found) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* Why tile i's declaration cannot become a reference into the launch's shared memory, or NULL
 * (its statement, from the first character to the ';', in *stmt). */
static char *promote_decl_problem(const struct kloop *l, const struct source *src, int i, struct span *stmt)
{
	const struct tile *t = &l->tiles[i];
	int line, col;
	pos(src, cursor_span(t->decl).begin, &line, &col);
	CXCursor decl_stmt = cursor_find(l->function_cursor, CXCursor_DeclStmt, cursor_declares, t->decl);
	if (t->in_loop || clang_Cursor_isNull(decl_stmt))
		return xprintf("tile '%s' (%d:%d) is declared %s", t->name, line, col,
			       t->in_loop ? "inside the loop" : "outside the kernel's body");
	struct cursors declarators = cursor_children(decl_stmt);
	free(declarators.v);
	if (declarators.n != 1)
		return xprintf("tile '%s' (%d:%d) shares its declaration with another variable", t->name, line, col);
	if (tile_bytes(l, i) <= 0 || t->elem_bytes <= 0 || t->elem_bytes > 128)
		return xprintf("tile '%s' (%d:%d) has no size pipefy can count", t->name, line, col);
	*stmt = cursor_span(decl_stmt);
	struct span var = cursor_span(t->decl);
	size_t n = strlen(t->name);
	if (stmt->end == 0 || src->text[stmt->end - 1] != ';' || var.end <= t->name_end || t->name_end < n ||
	    strncmp(src->text + t->name_end - n, t->name, n) != 0 || src->text[t->name_end] != '[')
		return xprintf("tile '%s' (%d:%d) is declared in a form pipefy does not rewrite", t->name, line, col);
	return NULL;
}

/* Whether loop i's static tiles may move into the launch's dynamic shared memory: l->promote,
 * or the first fact not established in promote_refusal. */
static void check_promote(struct model *m, int i, const struct source *src)
{
	struct kloop *l = &m->loops[i];
	if (l->ntiles == 0 || l->nrefusals > 0)
		return;
	for (int t = 0; t < l->ntiles; t++)
		if (l->tiles[t].dynamic)
			return; /* (the launch's already: enlarge) */
	char *why = l->launch_unknown ? xstrdup(l->launch_unknown) : NULL;
	for (int j = 0; j < m->nloops && !why; j++)
		if (j != i && m->loops[j].function_span.end && m->loops[j].function_span.begin == l->function_span.begin)
			why = xprintf("'%s' holds more than one loop with a barrier", l->function);
	l->promote_decls = xcalloc((size_t)l->ntiles, sizeof *l->promote_decls);
	for (int t = 0; t < l->ntiles && !why; t++)
		why = promote_decl_problem(l, src, t, &l->promote_decls[t]);
	if (!why) {
		struct extern_scan s = {.found = clang_getNullCursor()};
		cursor_visit(l->function_cursor, scan_extern_shared, &s);
		if (!clang_Cursor_isNull(s.found)) {
			int line, col;
			pos(src, cursor_span(s.found).begin, &line, &col);
			char *name = s.unseen ? cursor_call_name(s.found) : cursor_name(s.found);
			why = s.unseen ? xprintf("'%s' calls '%s' (%d:%d), whose body pipefy cannot see", l->function,
						 *name ? name : "a function", line, col)
				       : xprintf("'%s' (%d:%d) is extern __shared__: the launch's dynamic shared memory is "
						 "in use", name, line, col);
			free(name);
		}
	}
	l->promote = !why;
	l->promote_refusal = why;
}

void check_kloops(struct model *m, const struct source *src)
{
	weigh_producers = !m->no_producers;
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		/* (a second run over pipefy's output: the items of a persistent launch are the kernels'
		 * bodies as written, and stay so) */
		if (l->function && strncmp(l->function, "pipefy_queue", 12) == 0)
			kloop_refuse(l, l->loop.begin, "'%s' is pipefy's persistent kernel (--launches=queue), and this its loop "
				     "over tickets", l->function);
		else if (l->function && strstr(l->function, "_pipefy_item"))
			kloop_refuse(l, l->loop.begin, "'%s' is pipefy's copy of a kernel's body as an item of a persistent launch "
				     "(--launches=queue); the kernel it copies is where its loops are pipelined", l->function);
		check_loop(l, src, m->other_files);
	}
	for (int i = 0; i < m->nloops; i++)
		check_promote(m, i, src);
	/* a kernel gets one tensor-copy copy, and one set of entry pointers, for one K-loop (the
	 * tensor family's variants: tma, bulk, ws, ws-cp.async) */
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		bool shared = false;
		for (int j = 0; j < m->nloops && !shared; j++)
			shared = j != i && m->loops[j].function_span.end &&
				 m->loops[j].function_span.begin == l->function_span.begin;
		for (int v = 0; v < VARIANT_COUNT && shared; v++)
			if (variant_is_tensor((enum variant)v) && l->legal[v].ok) {
				l->legal[v].ok = false;
				l->legal[v].refusal = xprintf("'%s' holds more than one loop with a barrier", l->function);
			}
	}
}

/* ---- launch pairs: may the second launch start while the first finishes? ---- */

/* The kernel then waits, first thing, for the grids its launch depends on (griddepcontrol.wait:
 * until they have completed and their writes are visible), so nothing it does can meet what
 * the first kernel does, whatever either reads or writes: that part needs no proof. What
 * does is the rewrite of the launch into pipefy_launch_dependent(kernel, grid, block, bytes,
 * stream, args...): that pipefy knows the one kernel the launch names and can put the wait in
 * its body, and that the call means what the launch meant. */

void launch_pair_refuse(struct launch_pair *p, size_t at, const char *fmt, ...)
{
	if (p->refusal)
		return;
	va_list ap;
	va_start(ap, fmt);
	struct refusal r = refusal_make(at, fmt, ap);
	va_end(ap);
	p->refusal = r.reason;
	p->refusal_at = r.offset;
}

/* What the launch's configuration and its arguments may write, each (helpers followed). */
struct launch_writes {
	const struct source *src;
	struct span config, args;
	bool config_writes, args_writes;
};

static enum CXChildVisitResult find_launch_writes(CXCursor c, void *data)
{
	struct launch_writes *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct span s = cursor_span(c);
	bool in_config = span_within(s, w->config), in_args = span_within(s, w->args);
	if ((in_config || in_args) && (k == CXCursor_CallExpr || cursor_write_parts(c, &(CXCursor){0}, &(CXCursor){0}) != WRITE_NONE)) {
		struct effects fx = {0};
		effects_of(c, w->src, &fx);
		bool writes = fx.memory || fx.unknown || fx.vars.n > 0 || fx.syncs;
		effects_free(&fx);
		w->config_writes |= in_config && writes;
		w->args_writes |= in_args && writes;
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

/* What the launch at call (its arguments args, in the statement stmt) may write in its
 * configuration and in its arguments; false when its text has no `<<<...>>>` (then the
 * configuration is taken to write). */
static bool read_launch_writes(struct launch_writes *w, const struct source *src, struct span call, struct span args,
			       CXCursor stmt)
{
	const char *lt = strstr(src->text + call.begin, "<<<"), *gt = lt ? strstr(lt, ">>>") : NULL;
	*w = (struct launch_writes){src, {0, 0}, args, false, false};
	if (gt)
		w->config = (struct span){(size_t)(lt + 3 - src->text), (size_t)(gt - src->text)};
	cursor_visit(stmt, find_launch_writes, w);
	return gt != NULL;
}

struct pdl_use {
	const struct source *src;
	char *what;
	size_t at;
};

/* Programmatic dependent launch the kernel already does itself. */
static enum CXChildVisitResult find_pdl_use(CXCursor c, void *data)
{
	struct pdl_use *u = data;
	if (cursor_is_call_named(c, "cudaGridDependencySynchronize") ||
	    cursor_is_call_named(c, "cudaTriggerProgrammaticLaunchCompletion"))
		u->what = cursor_name(clang_getCursorReferenced(c));
	else if (clang_getCursorKind(c) == CXCursor_AsmStmt) {
		char *text = span_text(u->src, cursor_span(c));
		if (strstr(text, "griddepcontrol"))
			u->what = xstrdup("griddepcontrol");
		free(text);
	}
	if (u->what) {
		u->at = cursor_offset(c);
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

struct same_name {
	const char *name;
	CXString usr, tmpl_usr;
	CXCursor other;
};

/* Another function of that name (an overload): `&k` would not say which. */
static enum CXChildVisitResult find_overload(CXCursor c, void *data)
{
	struct same_name *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
		return CXChildVisit_Continue;
	CXString n = clang_getCursorSpelling(c);
	bool same = strcmp(clang_getCString(n), s->name) == 0;
	clang_disposeString(n);
	if (!same)
		return CXChildVisit_Continue;
	CXString u = clang_getCursorUSR(c);
	const char *us = clang_getCString(u);
	if (strcmp(us, clang_getCString(s->usr)) != 0 && strcmp(us, clang_getCString(s->tmpl_usr)) != 0)
		s->other = c;
	clang_disposeString(u);
	return clang_Cursor_isNull(s->other) ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Whether the pair's kernel has an overload, which a pointer to it would not tell apart: in the
 * file, then among the declarations of the headers its precompiled preamble holds (the parse
 * walks only the file's own: loading every header's takes most of a run, so they are read here,
 * where they are needed, once a pair has come this far). */
static bool overloaded(struct launch_pair *p, size_t at, const char *preamble)
{
	struct same_name s = {p->second, clang_getCursorUSR(p->ref), clang_getCursorUSR(p->kernel), clang_getNullCursor()};
	cursor_visit_file(clang_Cursor_getTranslationUnit(p->kernel), find_overload, &s);
	CXIndex index = NULL;
	CXTranslationUnit headers = NULL;
	if (clang_Cursor_isNull(s.other) && preamble) {
		index = clang_createIndex(0, 0);
		headers = clang_createTranslationUnit(index, preamble);
		if (headers)
			cursor_visit(clang_getTranslationUnitCursor(headers), find_overload, &s);
		else /* (not readable now: say so rather than guess) */
			launch_pair_refuse(p, at, "pipefy could not read the declarations of the file's headers again (%s) "
					   "to see whether '%s' is overloaded", preamble, p->second);
	}
	clang_disposeString(s.usr);
	clang_disposeString(s.tmpl_usr);
	bool found = !clang_Cursor_isNull(s.other);
	if (found) {
		CXString file;
		unsigned line;
		clang_getPresumedLocation(clang_getCursorLocation(s.other), &file, &line, NULL);
		launch_pair_refuse(p, at, "'%s' is overloaded (another at %s:%u): a pointer to it would not say which",
				   p->second, path_for_user(clang_getCString(file)), line);
		clang_disposeString(file);
	}
	if (headers)
		clang_disposeTranslationUnit(headers);
	if (index)
		clang_disposeIndex(index);
	return found || (preamble && !headers);
}

/* Whether stmt names var anywhere. */
struct names_var {
	CXCursor var;
	bool found;
	bool reads_memory; /* a subscript, a dereference, a member through a pointer, or a call */
};

static enum CXChildVisitResult scan_names_var(CXCursor c, void *data)
{
	struct names_var *n = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr && !clang_Cursor_isNull(n->var) && clang_equalCursors(clang_getCursorReferenced(c), n->var))
		n->found = true;
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_CallExpr ||
	    (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) ||
	    (k == CXCursor_MemberRefExpr && clang_getCanonicalType(clang_getCursorType(cursor_first_child(c))).kind == CXType_Pointer))
		n->reads_memory = true;
	return CXChildVisit_Recurse;
}

/* A statement between the launches that writes what the second launch reads (its grid, block,
 * bytes, stream or arguments: a variable it names, or memory where it reads memory): the
 * statement, with *var the variable (null for memory); null when none does. */
static CXCursor between_write(const struct launch_pair *p, const struct source *src, CXCursor *var)
{
	struct names_var reads = {clang_getNullCursor(), false, false};
	cursor_visit(p->stmt, scan_names_var, &reads);
	for (int i = 0; i < p->between.n; i++) {
		struct effects fx = {0};
		effects_of(p->between.v[i], src, &fx);
		CXCursor hit = clang_getNullCursor();
		for (int v = 0; v < fx.vars.n && clang_Cursor_isNull(hit); v++) {
			struct names_var n = {fx.vars.v[v], false, false};
			cursor_visit(p->stmt, scan_names_var, &n);
			if (n.found)
				hit = fx.vars.v[v];
		}
		bool memory = (fx.memory || fx.unknown) && reads.reads_memory;
		effects_free(&fx);
		if (!clang_Cursor_isNull(hit) || memory) {
			*var = hit;
			return p->between.v[i];
		}
	}
	*var = clang_getNullCursor();
	return clang_getNullCursor();
}

/* The stream both launches name, when a statement between them may write it. */
static char *stream_changed(const struct launch_pair *p, const struct source *src)
{
	CXCursor var, stmt = between_write(p, src, &var);
	if (clang_Cursor_isNull(stmt) || clang_Cursor_isNull(var) || !p->config[3])
		return NULL;
	char *name = cursor_name(var);
	char *why = NULL;
	if (strcmp(name, p->config[3]) == 0)
		why = xprintf("the statement at %s, between the launches, writes '%s', the stream they name: they may not "
			      "run on one stream", where(src, cursor_span(stmt).begin), name);
	free(name);
	return why;
}

static void check_pair(struct launch_pair *p, const struct source *src, const char *preamble)
{
	char *stream = stream_changed(p, src);
	if (stream) {
		launch_pair_refuse(p, p->call.begin, "%s", stream);
		free(stream);
		return;
	}
	size_t at = p->call.begin;
	if (clang_Cursor_isNull(p->ref)) {
		launch_pair_refuse(p, at, "pipefy cannot tell which kernel '%s' is here (a name resolved only when a template "
				   "is instantiated, or not a function)", p->callee);
		return;
	}
	if (clang_Cursor_isNull(p->kernel)) {
		launch_pair_refuse(p, at, "'%s' is not defined in this file, where the wait for '%s' would go", p->second,
				   p->first);
		return;
	}
	if (!cursor_has_attr(p->ref, CXCursor_CUDAGlobalAttr)) {
		launch_pair_refuse(p, at, "'%s' is not a __global__ function", p->second);
		return;
	}
	size_t d = directive_in(src, p->call.begin, p->call.end, false);
	if (d) {
		launch_pair_refuse(p, d - 1, "a preprocessor line inside the launch");
		return;
	}
	/* the wait goes first in the definition this configuration compiles: another must not
	 * compile a different one, nor code before it */
	size_t cond = open_conditional(src, cursor_span(p->kernel).begin);
	if (cond) {
		launch_pair_refuse(p, at, "'%s' is defined inside the preprocessor conditional at %s: a build that takes "
				   "another branch may compile a kernel without the wait", p->second, where(src, cond - 1));
		return;
	}
	CXCursor body = cursor_last_child(p->kernel);
	CXCursor first = cursor_first_child(body);
	size_t body_first = clang_Cursor_isNull(first) ? cursor_span(body).end : cursor_span(first).begin;
	d = directive_in(src, cursor_span(body).begin, body_first, false);
	if (d) {
		launch_pair_refuse(p, at, "a preprocessor line at %s comes before the first statement of '%s', where the wait "
				   "would go: another configuration may run code before it", where(src, d - 1), p->second);
		return;
	}
	struct pdl_use u = {src, NULL, 0};
	cursor_visit(p->kernel, find_pdl_use, &u);
	if (u.what) {
		launch_pair_refuse(p, at, "'%s' already uses programmatic dependent launch ('%s' at %s)", p->second, u.what,
				   where(src, u.at));
		free(u.what);
		return;
	}
	int params = clang_Cursor_getNumArguments(p->ref);
	if (params != p->nargs) {
		launch_pair_refuse(p, at, "'%s' takes %d argument%s and the launch passes %d (default arguments do not follow a "
				   "kernel through a function pointer)", p->second, params, params == 1 ? "" : "s", p->nargs);
		return;
	}
	if (clang_getCursorKind(p->kernel) == CXCursor_FunctionTemplate && !strchr(p->callee, '<')) {
		launch_pair_refuse(p, at, "the launch deduces the template arguments of '%s', which a function pointer "
				   "cannot; name them (%s<...><<<...>>>)", p->second, p->second);
		return;
	}
	if (overloaded(p, at, preamble))
		return;
	/* `<<<...>>>` evaluates its configuration before the arguments; a call does not say: what
	 * either writes, the other may read (the arguments read variables, the configuration too) */
	struct launch_writes w;
	bool spelled = read_launch_writes(&w, src, p->call, p->args, p->stmt);
	if (!spelled || w.config_writes || w.args_writes)
		launch_pair_refuse(p, at, "the launch's %s may write what its %s read%s: a call evaluates them in no fixed "
				   "order, the launch its configuration first",
				   w.config_writes || !spelled ? "configuration" : "arguments",
				   w.config_writes || !spelled ? "arguments" : "configuration",
				   w.config_writes || !spelled ? "" : "s");
}

void check_launch_pairs(struct model *m, const struct source *src)
{
	for (int i = 0; i < m->npairs; i++)
		check_pair(&m->pairs[i], src, m->preamble);
}

/* ---- launch pairs as one persistent launch (--launches=queue) ---- */

/* Both kernels' bodies become items of one persistent kernel (queue.c): each block takes
 * tickets from a counter, runs the first kernel's blocks, then the second's, whose items wait
 * until every item of the first is done. The bodies are copied as written into functions whose
 * parameters blockIdx, gridDim, threadIdx and blockDim stand for the builtins, so what the
 * rewrite relies on is that nothing else sees the persistent block: no helper reads the
 * builtins, no asm reads the special registers or synchronizes, no cooperative group, no
 * launch from the device; that a thread leaving its item early (return) cannot leave a
 * barrier of the item short; and that the second kernel reads what the first wrote through
 * coherent loads (no __ldg, no __restrict__ pointer: the read-only path is not kept coherent
 * with writes of the same launch). */
struct queue_scan {
	const struct source *src;
	int depth;     /* helpers followed */
	CXCursor call; /* the call into the helper being scanned */
	bool second;   /* the kernel launched second */
	bool system;   /* inside a function of CUDA's or the C library's headers */
	size_t barrier_at, return_at; /* offset + 1 */
	char *why;
};

/* Special registers that name a thread, block or grid, or where a block runs: what an asm of
 * a header's function (or a compiler builtin) may read that one persistent launch changes. */
static const char *const block_registers[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%smid", "%nsmid", "%gridid",
					      "%cluster", NULL};
static const char *const block_sregs[] = {"sreg_tid", "sreg_ntid", "sreg_ctaid", "sreg_nctaid", "sreg_smid",
					  "sreg_nsmid", "sreg_gridid", "sreg_cluster", NULL};

static const char *const block_builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", NULL};

static enum CXChildVisitResult scan_queue_body(CXCursor c, void *data)
{
	struct queue_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor d = clang_getCursorReferenced(c);
	size_t at = scan_place(c, s->depth, s->call);
	if (cooperative_groups_use(c, s->src, at, "", "the block and grid is the persistent launch's", &s->why))
		return CXChildVisit_Break;
	if (k == CXCursor_AsmStmt && !s->system) {
		s->why = xprintf("the asm at %s may read the block's or the grid's indices, or synchronize, as pipefy cannot "
				 "tell", where(s->src, at));
		return CXChildVisit_Break;
	}
	for (int i = 0; k == CXCursor_AsmStmt && block_registers[i]; i++)
		if (effects_asm_mentions(c, block_registers[i])) {
			char *callee = cursor_name(s->call);
			s->why = xprintf("'%s', called at %s, reads %s, which one persistent launch changes", callee,
					 where(s->src, at), block_registers[i]);
			free(callee);
			return CXChildVisit_Break;
		}
	if (k == CXCursor_CallExpr && s->depth && !clang_Cursor_isNull(d)) {
		char *n = cursor_name(d);
		for (int i = 0; block_sregs[i] && !s->why; i++)
			if (strstr(n, "read_ptx_") && strstr(n, block_sregs[i])) {
				char *callee = cursor_name(s->call);
				s->why = xprintf("'%s', called at %s, reads a block's or grid's index ('%s'), which one "
						 "persistent launch changes", callee, where(s->src, at), n);
				free(callee);
			}
		free(n);
		if (s->why)
			return CXChildVisit_Break;
	}
	if (k == CXCursor_DeclRefExpr && s->depth && clang_getCursorKind(d) == CXCursor_VarDecl &&
	    effects_in_system_header(d)) {
		char *n = cursor_name(d);
		for (int i = 0; block_builtins[i] && !s->why; i++)
			if (strcmp(n, block_builtins[i]) == 0) {
				char *callee = cursor_name(s->call);
				s->why = xprintf("'%s', called at %s, reads %s, which in one persistent launch is the "
						 "persistent block's (pipefy stands in for it in the kernel's own code only)",
						 callee, where(s->src, at), n);
				free(callee);
			}
		free(n);
		if (s->why)
			return CXChildVisit_Break;
	}
	if (k == CXCursor_ReturnStmt && !s->depth && !s->return_at)
		s->return_at = cursor_offset(c) + 1;
	if (k == CXCursor_CallExpr && !clang_Cursor_isNull(d) && effects_in_system_header(d)) {
		char *n = cursor_name(d);
		if (strncmp(n, "__syncthreads", 13) == 0 && !s->barrier_at)
			s->barrier_at = at + 1;
		else if (strncmp(n, "__barrier", 9) == 0 || strcmp(n, "cudaGridDependencySynchronize") == 0 ||
			 strcmp(n, "cudaTriggerProgrammaticLaunchCompletion") == 0)
			s->why = xprintf("the call to '%s' at %s synchronizes in a way one persistent launch changes", n,
					 where(s->src, at));
		else if (s->second && strncmp(n, "__ldg", 5) == 0)
			s->why = xprintf("a read through the read-only cache ('%s' at %s), which is not kept coherent "
					 "with what the kernel ahead writes in the same launch", n, where(s->src, at));
		free(n);
		if (s->why)
			return CXChildVisit_Break;
	}
	/* (a header's function is followed where its definition is there to read: CUB's block-wide
	 * helpers read threadIdx; one that is only declared is the compiler's or libdevice's) */
	bool sys = !clang_Cursor_isNull(d) && effects_in_system_header(d);
	CXCursor def = k == CXCursor_CallExpr && !clang_Cursor_isNull(d) ? clang_getCursorDefinition(d) : d;
	if (k == CXCursor_CallExpr && sys && clang_Cursor_isNull(def))
		return CXChildVisit_Recurse;
	if (k == CXCursor_CallExpr && s->depth == 4 && !clang_Cursor_isNull(d)) {
		s->why = xprintf("the helpers called at %s call each other too deep for pipefy to see what they read",
				 where(s->src, at));
		return CXChildVisit_Break;
	}
	if (k == CXCursor_CallExpr && s->depth < 4 && !clang_Cursor_isNull(d)) {
		char *callee = cursor_name(d);
		bool builtin = strncmp(callee, "__builtin_", 10) == 0; /* (the compiler's: INFINITY is __builtin_inff()) */
		free(callee);
		if (builtin)
			return CXChildVisit_Recurse;
		if (clang_Cursor_isNull(def)) {
			char *n = cursor_name(d);
			s->why = xprintf("'%s', called at %s, has no definition pipefy can read", n, where(s->src, at));
			free(n);
			return CXChildVisit_Break;
		}
		struct queue_scan inner = {s->src, s->depth + 1, s->depth ? s->call : c, s->second, s->system || sys, 0, 0, NULL};
		cursor_visit(def, scan_queue_body, &inner);
		if (!s->barrier_at && inner.barrier_at)
			s->barrier_at = at + 1;
		if (inner.why) {
			s->why = inner.why;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* What keeps one kernel of the pair from being an item of the persistent launch, or NULL. */
static char *queue_kernel_refusal(const struct launch_pair *p, CXCursor kernel, CXCursor host, bool second,
				  const struct source *src)
{
	const char *name = second ? p->second : p->first;
	if (clang_Cursor_isNull(kernel))
		return xprintf("'%s' is not defined in this file", name);
	if (clang_getCursorKind(kernel) != CXCursor_FunctionDecl)
		return xprintf("'%s' is a template (pipefy makes one persistent launch of plain kernels only)", name);
	if (clang_getCursorKind(clang_getCursorSemanticParent(kernel)) != CXCursor_TranslationUnit)
		return xprintf("'%s' is not defined at file scope", name);
	struct span ks = cursor_span(kernel);
	if (ks.end > cursor_span(host).begin)
		return xprintf("'%s' is defined after the function that launches it, where the persistent kernel goes",
			       name);
	size_t cond = open_conditional(src, ks.begin);
	if (cond)
		return xprintf("'%s' is defined inside the preprocessor conditional at %s", name, where(src, cond - 1));
	CXCursor body = cursor_last_child(kernel);
	struct span bs = cursor_span(body);
	size_t dir = directive_in(src, bs.begin, bs.end, true); /* (a #pragma is copied with the body) */
	if (dir)
		return xprintf("a preprocessor line at %s in '%s', whose body pipefy copies", where(src, dir - 1), name);
	char *text = span_text(src, bs);
	const char *bad = word_in_text(text, "__func__") ? "__func__"
			  : word_in_text(text, "__FUNCTION__") ? "__FUNCTION__"
			  : word_in_text(text, "__PRETTY_FUNCTION__") ? "__PRETTY_FUNCTION__"
			  : word_in_text(text, "extern") ? "extern"
			  : strstr(text, "<<<") ? "a launch (<<<)"
							 : NULL;
	free(text);
	if (bad)
		return xprintf("'%s' names %s in its body, which its copy as an item would change", name, bad);
	int n = clang_Cursor_getNumArguments(kernel);
	for (int i = 0; i < n; i++) {
		CXCursor prm = clang_Cursor_getArgument(kernel, (unsigned)i);
		char *pt = span_text(src, cursor_span(prm));
		char *nm = cursor_name(prm);
		size_t np = strlen(nm), po = cursor_offset(prm);
		bool written = po + np <= src->len && strncmp(src->text + po, nm, np) == 0 && !cursor_from_macro(prm);
		const char *why = !*nm ? "has no name"
				  : !written ? "is named by a macro"
				  : strstr(pt, "__grid_constant__") ? "is __grid_constant__"
				  : second && strstr(pt, "restrict") ? "is __restrict__: its loads may take the read-only path, "
								       "which is not kept coherent with what the kernel ahead writes in the same launch"
				  : second && (strstr(pt, "Texture") || strstr(pt, "Surface")) ? "is a texture or surface"
												: NULL;
		char *r = why ? xprintf("parameter %d of '%s' (%s) %s", i + 1, name, pt, why) : NULL;
		free(pt);
		free(nm);
		if (r)
			return r;
	}
	struct queue_scan qs = {src, 0, clang_getNullCursor(), second, false, 0, 0, NULL};
	cursor_visit(body, scan_queue_body, &qs);
	if (qs.why) {
		char *in = xprintf("in '%s', %s", name, qs.why);
		free(qs.why);
		qs.why = in;
	}
	if (!qs.why && qs.barrier_at && qs.return_at) {
		char *b = xstrdup(where(src, qs.barrier_at - 1));
		qs.why = xprintf("'%s' returns at %s and synchronizes the block at %s: as an item of one persistent launch, "
				 "a thread that returns does not leave the block, and the barrier would wait for it", name,
				 where(src, qs.return_at - 1), b);
		free(b);
	}
	return qs.why;
}

static void queue_refuse(struct launch_pair *p, char *why)
{
	if (p->queue_refusal)
		free(why);
	else
		p->queue_refusal = why;
}

void check_pair_queue(struct launch_pair *p, const struct source *src)
{
	if (p->refusal) {
		queue_refuse(p, xstrdup(p->refusal));
		return;
	}
	char *host = clang_Cursor_isNull(p->host) ? NULL : cursor_name(p->host);
	bool own = host && strncmp(host, "pipefy_", 7) == 0;
	free(host);
	if (own) {
		queue_refuse(p, xstrdup("the launches are pipefy's own, in its launcher"));
		return;
	}
	if (clang_Cursor_isNull(p->host) || clang_getCursorKind(clang_getCursorSemanticParent(p->host)) != CXCursor_TranslationUnit) {
		queue_refuse(p, xstrdup("the launches are not in a function at file scope, where pipefy would put the "
					    "persistent kernel before it"));
		return;
	}
	for (int i = 0; i < 2; i++) {
		const char *bytes = i ? p->config[2] : p->first_config[2];
		if (bytes && strcmp(bytes, "0") != 0) {
			queue_refuse(p, xprintf("the launch of '%s' asks for dynamic shared memory (%s)", i ? p->second : p->first,
						    bytes));
			return;
		}
	}
	if (clang_Cursor_isNull(p->first_ref) || !cursor_has_attr(p->first_ref, CXCursor_CUDAGlobalAttr)) {
		queue_refuse(p, xprintf("pipefy cannot tell which __global__ function '%s' is here", p->first));
		return;
	}
	size_t d = directive_in(src, p->first_call.begin, p->call.end, false);
	if (d) {
		queue_refuse(p, xstrdup("a preprocessor line inside or between the launches"));
		return;
	}
	if (clang_Cursor_getNumArguments(p->first_ref) != p->first_nargs) {
		queue_refuse(p, xprintf("'%s' takes %d arguments and the launch passes %d", p->first,
					    clang_Cursor_getNumArguments(p->first_ref), p->first_nargs));
		return;
	}
	/* the second launch's configuration and arguments are read where the first launch was: what
	 * a statement between them writes, they must not read */
	CXCursor var, stmt = between_write(p, src, &var);
	if (!clang_Cursor_isNull(stmt)) {
		char *name = clang_Cursor_isNull(var) ? NULL : cursor_name(var);
		if (name)
			queue_refuse(p, xprintf("the statement at %s, between the launches, writes '%s', which the launch of "
						    "'%s' reads: one persistent launch reads it where the first launch was",
						    where(src, cursor_span(stmt).begin), name, p->second));
		else
			queue_refuse(p, xprintf("the statement at %s, between the launches, may write memory the launch of "
						    "'%s' reads: one persistent launch reads it where the first launch was",
						    where(src, cursor_span(stmt).begin), p->second));
		free(name);
		return;
	}
	/* both launches' configurations and arguments are evaluated where the first was: none may write */
	struct launch_writes w;
	bool spelled = read_launch_writes(&w, src, p->first_call, p->first_args, p->first_stmt);
	if (!spelled || w.config_writes || w.args_writes) {
		queue_refuse(p, xprintf("the launch of '%s' may write memory or variables in its %s: one persistent launch "
					    "evaluates both launches' arguments where the first was", p->first,
					    w.config_writes || !spelled ? "configuration" : "arguments"));
		return;
	}
	for (int i = 0; i < 2; i++) {
		char *why = queue_kernel_refusal(p, i ? p->kernel : p->first_kernel, p->host, i, src);
		if (why) {
			queue_refuse(p, why);
			return;
		}
	}
}

void check_launch_queues(struct model *m, const struct source *src, int arch)
{
	for (int i = 0; i < m->npairs; i++) {
		check_pair_queue(&m->pairs[i], src);
		if (arch < 70)
			queue_refuse(&m->pairs[i], xprintf("sm_%d: the queue's waits need sm_70 or later", arch));
	}
}
