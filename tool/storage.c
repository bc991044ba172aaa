/* storage.c: where a loop's tiles' storage is reached (facts for check.c).
 *
 * A tile given more stages moves to a stage's copy only where the loop names it (`As` becomes
 * `As[stage]`, or `pipefy_at(As, stage, stride)` for a tile in the launch's dynamic shared
 * memory). Every other way to its bytes would keep reaching the first stage: the tile's name
 * outside the loop, the `extern __shared__` array a dynamic tile points into (all of them alias
 * each other: they are all the launch's dynamic shared memory) or another view of it, anywhere
 * in the kernel and in the functions it calls, before, inside or after the loop. The facts are
 * read positively: a call pipefy cannot follow into a definition is a way it cannot rule out. */
#include "pipefy.h"

#include <stdlib.h>
#include <string.h>

#define STORAGE_DEPTH 4 /* helpers followed, calls deep */

struct storage_scan {
	const struct kloop *l;
	const struct source *src;
	bool dynamic;     /* a tile is in the launch's dynamic shared memory */
	bool file_scope;  /* a tile is declared outside the function (a helper may name it) */
	int depth;        /* 0: the function holding the loop */
	CXCursor call;    /* (in a helper: the function's call that leads there) */
	char *why;
	size_t at;
};

static int tile_of(const struct kloop *l, CXCursor var)
{
	CXCursor v = clang_getCanonicalCursor(var); /* (a declaration found by another walk) */
	for (int i = 0; i < l->ntiles; i++)
		if (clang_equalCursors(clang_getCanonicalCursor(l->tiles[i].decl), v))
			return i;
	return -1;
}

/* Inside a tile's own declaration, where a view takes its address once (`float *Bs = sm + 256;`). */
static bool in_tile_decl(const struct kloop *l, struct span at)
{
	for (int i = 0; i < l->ntiles; i++)
		if (span_within(at, cursor_span(l->tiles[i].decl)))
			return true;
	return false;
}

static bool dynamic_memory(CXCursor var)
{
	CXCursor a = cursor_shared_array(var);
	return !clang_Cursor_isNull(a) && clang_getCanonicalType(clang_getCursorType(a)).kind == CXType_IncompleteArray;
}

static const char *when(const struct kloop *l, size_t at)
{
	return at < l->loop.begin ? "before the loop" : at >= l->loop.end ? "after the loop" : "in the loop";
}

static void found(struct storage_scan *s, CXCursor ref, const char *fmt_name)
{
	char *name = cursor_name(clang_getCursorReferenced(ref));
	size_t at = cursor_offset(s->depth ? s->call : ref);
	int line, col;
	source_line_col(s->src, at, &line, &col);
	if (s->depth) {
		char *callee = cursor_name(s->call);
		s->why = xprintf("'%s', called at %d:%d, reaches %s through '%s'", callee, line, col, fmt_name, name);
		free(callee);
	} else {
		s->why = xprintf("'%s' at %d:%d, %s, reaches %s by another name than the loop's", name, line, col,
				 when(s->l, at), fmt_name);
	}
	s->at = at;
	free(name);
}

static enum CXChildVisitResult scan_storage(CXCursor c, void *data)
{
	struct storage_scan *s = data;
	const struct kloop *l = s->l;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		struct span at = cursor_span(c);
		int t = tile_of(l, d);
		if (t >= 0) {
			if (s->depth == 0 && (span_within(at, l->loop) || in_tile_decl(l, at)))
				return CXChildVisit_Continue;
			if (s->depth == 0) {
				int line, col;
				source_line_col(s->src, at.begin, &line, &col);
				s->why = xprintf("tile '%s' is also used outside the loop at %d:%d", l->tiles[t].name, line, col);
				s->at = at.begin;
			} else
				found(s, c, "a tile");
			return CXChildVisit_Break;
		}
		if (s->dynamic && clang_getCursorKind(d) == CXCursor_VarDecl && cursor_is_shared_var(d) &&
		    dynamic_memory(d) && !(s->depth == 0 && in_tile_decl(l, at))) {
			found(s, c, "the tiles' dynamic shared memory");
			return CXChildVisit_Break;
		}
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_CallExpr && (s->dynamic || s->file_scope)) {
		CXCursor callee = clang_getCursorReferenced(c);
		if (cursor_call_through_pointer(c)) {
			size_t at = cursor_offset(s->depth ? s->call : c);
			int line, col;
			source_line_col(s->src, at, &line, &col);
			char *name = s->depth ? cursor_name(s->call) : NULL;
			s->why = name ? xprintf("'%s', called at %d:%d, calls through a pointer to a function: pipefy cannot see "
						"what that reaches, the tiles' shared memory included", name, line, col)
				      : xprintf("the call at %d:%d goes through a pointer to a function: pipefy cannot see what "
						"it reaches, the tiles' shared memory included", line, col);
			s->at = at;
			free(name);
			return CXChildVisit_Break;
		}
		if (!clang_Cursor_isNull(callee) && effects_in_system_header(callee))
			return CXChildVisit_Recurse;
		/* (no callee: a call through a pointer, or one only an instantiation resolves, whose
		 * reach cannot be read; but for an operator's call of a builtin type) */
		if (cursor_builtin_operator_call(c))
			return CXChildVisit_Recurse;
		CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
		if (clang_Cursor_isNull(def)) {
			CXCursor pattern = clang_Cursor_isNull(callee) ? callee : clang_getSpecializedCursorTemplate(callee);
			def = clang_Cursor_isNull(pattern) ? pattern : clang_getCursorDefinition(pattern);
		}
		if (!clang_Cursor_isNull(def) && cursor_in_main_file(def) && span_within(cursor_span(def), l->function_span))
			return CXChildVisit_Recurse; /* (a lambda of the function: its body is read where it is written) */
		size_t at = cursor_offset(s->depth ? s->call : c);
		int line, col;
		source_line_col(s->src, at, &line, &col);
		char *name = cursor_name(s->depth ? s->call : c);
		enum CXCursorKind ck = clang_Cursor_isNull(callee) ? CXCursor_NoDeclFound : clang_getCursorKind(callee);
		if (clang_Cursor_isNull(def) && (ck == CXCursor_Constructor || ck == CXCursor_Destructor)) {
			/* (an implicit one: it copies members, and names no shared memory) */
		} else if (clang_Cursor_isNull(def)) {
			s->why = xprintf("'%s', called at %d:%d, has no definition pipefy can read: it may reach the tiles' "
					 "shared memory", name, line, col);
			s->at = at;
		} else if (s->depth + 1 >= STORAGE_DEPTH) {
			s->why = xprintf("the functions called at %d:%d call each other too deep for pipefy to see what "
					 "shared memory they reach", line, col);
			s->at = at;
		} else {
			struct storage_scan inner = *s;
			inner.depth = s->depth + 1;
			inner.call = s->depth ? s->call : c;
			inner.why = NULL;
			cursor_visit(def, scan_storage, &inner);
			s->why = inner.why;
			s->at = inner.at;
		}
		free(name);
		return s->why ? CXChildVisit_Break : CXChildVisit_Recurse;
	}
	return CXChildVisit_Recurse;
}

/* A tile of file scope named in another function of the file (`sizeof(As)` in another kernel
 * too: a second stage changes the declaration every function sees). */
static enum CXChildVisitResult scan_other_functions(CXCursor c, void *data)
{
	struct storage_scan *s = data;
	struct span at = cursor_span(c);
	if (span_within(at, s->l->function_span))
		return CXChildVisit_Continue; /* (the function's own: scan_storage read them) */
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && tile_of(s->l, clang_getCursorReferenced(c)) >= 0 &&
	    !in_tile_decl(s->l, at)) {
		int t = tile_of(s->l, clang_getCursorReferenced(c)), line, col;
		source_line_col(s->src, at.begin, &line, &col);
		s->why = xprintf("tile '%s' is also used outside the loop at %d:%d", s->l->tiles[t].name, line, col);
		s->at = at.begin;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

char *storage_outside(const struct kloop *l, const struct source *src, size_t *at)
{
	struct storage_scan s = {.l = l, .src = src, .call = clang_getNullCursor()};
	for (int i = 0; i < l->ntiles; i++) {
		s.dynamic |= l->tiles[i].dynamic;
		s.file_scope |= !cursor_declared_within(l->tiles[i].decl, l->function_span);
	}
	cursor_visit(l->function_cursor, scan_storage, &s);
	if (!s.why && s.file_scope)
		cursor_visit_file(clang_Cursor_getTranslationUnit(l->function_cursor), scan_other_functions, &s);
	*at = s.at;
	return s.why;
}
