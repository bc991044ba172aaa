/* helper.c: a __device__ helper the loop calls to fill the tiles (part of find): followed into
 * its definition, its stores read as copies when it does nothing else. */
#include "find.h"

#include <stdarg.h>
#include <stdlib.h>

struct helper_scan {
	struct kloop *l;
	const struct source *src;
	struct helper_fill *h;
	CXCursor *tile_params;
	int ntile_params;
};

/* The first reason the helper cannot be pipelined; fmt names the helper with its first %s. */
static void helper_refuse(struct helper_fill *h, CXCursor at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void helper_refuse(struct helper_fill *h, CXCursor at, const char *fmt, ...)
{
	if (h->refusal)
		return;
	va_list ap;
	va_start(ap, fmt);
	h->refusal = vxprintf(fmt, ap);
	va_end(ap);
	h->refusal_at = cursor_span(at).begin;
}

static bool is_tile_param(const struct helper_scan *hs, CXCursor var)
{
	for (int i = 0; i < hs->ntile_params; i++)
		if (clang_equalCursors(hs->tile_params[i], var))
			return true;
	return false;
}

/* One store into a tile parameter: `X[..] = G[..]`, `X[..] = g ? G[..] : 0`, hints allowed. */
static void record_helper_store(struct helper_scan *hs, CXCursor assign, CXCursor lhs, CXCursor value)
{
	struct helper_fill *h = hs->h;
	struct helper_store st = {.store = assign, .text = cursor_span(assign), .dst = cursor_span(lhs)};
	CXCursor load = cursor_strip(value), base;
	if (clang_getCursorKind(load) == CXCursor_ConditionalOperator) {
		struct cursors cs = cursor_children(load);
		if (cs.n == 3) {
			st.guard = cursor_span(cs.v[0]);
			st.fill = cursor_span(cs.v[2]);
			st.fill_value = cs.v[2];
			load = cursor_strip(cs.v[1]);
		}
		free(cs.v);
	}
	load = cursor_unwrap_cache_hint(load);
	if (!cursor_global_load(load, &base)) {
		char *v = span_text(hs->src, cursor_span(value));
		helper_refuse(h, assign, "'%s' stores '%s' into a tile, not a load from global memory", h->name, v);
		free(v);
		return;
	}
	if (!cursor_same_type(clang_getCursorType(load), clang_getCursorType(lhs))) {
		helper_refuse(h, assign, "'%s' converts the value it copies", h->name);
		return;
	}
	if (st.guard.end > st.guard.begin && !effects_is_zero(st.fill_value)) {
		char *v = span_text(hs->src, st.fill);
		helper_refuse(h, assign, "'%s' fills with '%s' when its guard fails; cp.async can only fill zeros", h->name, v);
		free(v);
		return;
	}
	st.src = cursor_span(load);
	st.base = cursor_name(base);
	st.type = type_spelling(clang_getCursorType(lhs));
	st.width = clang_Type_getSizeOf(clang_getCursorType(lhs));
	if (st.width != 4 && st.width != 8 && st.width != 16) {
		helper_refuse(h, assign, "'%s' copies %ld-byte elements (%s); cp.async moves 4, 8 or 16", h->name, st.width, st.type);
		free(st.base);
		free(st.type);
		return;
	}
	*VEC_PUSH(h->stores, h->nstores, h->capstores) = st;
}

/* The helper may declare locals, loop, branch and read anything; it may write only its own
 * locals and, by plain copies from global memory, the tiles it was handed. */
static enum CXChildVisitResult scan_helper(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct helper_scan *hs = data;
	if (hs->h->refusal)
		return CXChildVisit_Break;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr) {
		char *name = cursor_name(c);
		bool allowed = strncmp(name, "__fetch_builtin", 15) == 0 || strncmp(name, "__ld", 4) == 0 ||
			       strncmp(name, "operator", 8) == 0 || *name == '\0';
		if (cursor_is_barrier(c))
			helper_refuse(hs->h, c, "'%s' synchronizes ('%s')", hs->h->name, name);
		else if (!allowed)
			helper_refuse(hs->h, c, "'%s' calls '%s'", hs->h->name, name);
		free(name);
		if (hs->h->refusal)
			return CXChildVisit_Break;
	}
	CXCursor target, value;
	enum write_kind w = cursor_write_parts(c, &target, &value);
	if (w != WRITE_NONE) {
		CXCursor var = cursor_root_var(target);
		if (!clang_Cursor_isNull(var) && is_tile_param(hs, var)) {
			if (w != WRITE_ASSIGN)
				helper_refuse(hs->h, c, "'%s' updates a tile in place", hs->h->name);
			else
				record_helper_store(hs, c, target, value);
			return CXChildVisit_Continue;
		}
		if (clang_Cursor_isNull(var) || !cursor_declared_within(var, hs->h->def) ||
		    clang_getCursorKind(var) == CXCursor_ParmDecl) {
			char *t = span_text(hs->src, cursor_span(target));
			helper_refuse(hs->h, c, "'%s' writes '%s', not only the tiles", hs->h->name, t);
			free(t);
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* `ns::load<T, T>(...)` or `Loader::load(...)` inside a template: clang resolves the call only
 * once the template is instantiated. Where the name has one candidate, a function template, the
 * remark names it: pipefy follows a fill into a function, not into a function template. */
static void refuse_unresolved(struct helper_fill *h, CXCursor call)
{
	CXCursor only = cursor_callee(call);
	if (clang_getCursorKind(only) != CXCursor_FunctionTemplate) {
		helper_refuse(h, call, "'%s' depends on the template's parameters: the function it calls is known "
			      "only at instantiation", h->name);
		return;
	}
	CXString file;
	unsigned line, col;
	CXSourceLocation at = clang_getCursorLocation(only);
	clang_getPresumedLocation(at, &file, &line, &col);
	/* (this file by line and column; a header by its path) */
	char *place = clang_Location_isFromMainFile(at) ? xprintf("%u:%u", line, col)
							 : xprintf("%s:%u", path_for_user(clang_getCString(file)), line);
	char *name = cursor_name(only);
	helper_refuse(h, call, "'%s' is a function template (%s), and pipefy follows a fill only into a function (not a template) "
		      "defined in this file", name, place);
	free(name);
	free(place);
	clang_disposeString(file);
}

/* `load_tile(As, Bs, A, B, row, col, k0)`: the callee, defined in this file before the loop,
 * must only copy global memory into the tiles it is handed, and the arguments must not change
 * inside the loop except by the loop's own variables. Sets helper.refusal when it cannot be
 * pipelined. */
void find_helper(struct kloop *l, const struct source *src, CXCursor body)
{
	struct helper_fill *h = &l->helper;
	for (int i = 0; i < l->nstmts && h->stmt < 0; i++)
		if (l->stmts[i].text.begin + 1 == l->helper_fill)
			h->stmt = i;
	CXCursor call = h->stmt >= 0 ? cursor_strip(l->stmts[h->stmt].cursor) : clang_getNullCursor();
	CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(call));
	h->name = clang_Cursor_isNull(call) ? xstrdup("?") : cursor_name(call);
	if (!*h->name) {
		/* an unresolved call (a template's): the callee as written, `load_tiles<TS>` */
		free(h->name);
		char *t = span_text(src, cursor_span(call));
		t[strcspn(t, "(")] = '\0';
		h->name = t;
	}
	if (clang_Cursor_isNull(call) || clang_getCursorKind(call) != CXCursor_CallExpr) {
		helper_refuse(h, l->stmts[h->stmt < 0 ? 0 : h->stmt].cursor, "the tiles are filled in a call ('%s')", h->name);
		return;
	}
	if (clang_Cursor_isNull(clang_getCursorReferenced(call))) {
		refuse_unresolved(h, call);
		return;
	}
	if (clang_Cursor_isNull(def) || !cursor_in_main_file(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl) {
		helper_refuse(h, call, "'%s' is not a function defined in this file", h->name);
		return;
	}
	h->def = cursor_span(def);
	h->name_at = cursor_offset(def);
	h->callee = cursor_span(call);
	h->callee.end = h->callee.begin + strlen(h->name);
	if (h->def.end > l->loop.begin) {
		helper_refuse(h, call, "'%s' is defined after the loop that calls it", h->name);
		return;
	}
	int nargs = clang_Cursor_getNumArguments(call);
	CXCursor tile_params[16];
	struct helper_scan hs = {.l = l, .src = src, .h = h, .tile_params = tile_params};
	for (int i = 0; i < nargs; i++) {
		CXCursor arg = cursor_strip(clang_Cursor_getArgument(call, (unsigned)i));
		CXCursor var = clang_getCursorKind(arg) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(arg)
										 : clang_getNullCursor();
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
			if (hs.ntile_params < 16 && i < clang_Cursor_getNumArguments(def))
				tile_params[hs.ntile_params++] = clang_Cursor_getArgument(def, (unsigned)i);
			kloop_add_tile(l, var);
			continue;
		}
		/* every variable an argument reads: unchanged in the body, or a loop variable */
		struct cursors refs = {0};
		struct cursors stack = cursor_children(arg);
		*VEC_PUSH(stack.v, stack.n, stack.cap) = arg;
		while (stack.n > 0) {
			CXCursor c = stack.v[--stack.n];
			if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
				*VEC_PUSH(refs.v, refs.n, refs.cap) = clang_getCursorReferenced(c);
			struct cursors kids = cursor_children(c);
			for (int k = 0; k < kids.n; k++)
				*VEC_PUSH(stack.v, stack.n, stack.cap) = kids.v[k];
			free(kids.v);
		}
		for (int r = 0; r < refs.n && !h->refusal; r++)
			if (clang_getCursorKind(refs.v[r]) == CXCursor_VarDecl && kloop_ivar(l, refs.v[r]) < 0 &&
			    cursor_writes_var(body, refs.v[r])) {
				char *n = cursor_name(refs.v[r]);
				helper_refuse(h, arg, "an argument of '%s' reads '%s', which the loop body changes", h->name, n);
				free(n);
			}
		free(refs.v);
		free(stack.v);
	}
	if (h->refusal)
		return;
	clang_visitChildren(def, scan_helper, &hs);
	if (!h->refusal && h->nstores == 0)
		helper_refuse(h, call, "'%s' copies nothing into the tiles it is handed", h->name);
	if (!h->refusal)
		l->stmts[h->stmt].role = ROLE_COPY;
}

/* Whole `#pragma` lines directly above the line at offset (only blanks before it there). */
