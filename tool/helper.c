/* helper.c: a __device__ helper the loop calls to fill the tiles (part of find): followed into
 * its definition, its stores read as copies when it does nothing else. */
#include "cursor.h"
#include "find.h"

#include <ctype.h>
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

/* The type of the tile element lhs writes: clang's, or, where a template leaves it dependent
 * (`out[r][c]`, out a parameter `float out[H][W]`), the parameter's element type, when lhs
 * subscripts every level of it. */
static CXType element_type(CXCursor lhs)
{
	CXType t = clang_getCursorType(lhs);
	if (t.kind != CXType_Dependent)
		return t;
	int depth = 0;
	CXCursor c = cursor_strip(lhs);
	for (; clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr; depth++)
		c = cursor_strip(cursor_first_child(c));
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return t;
	CXType e = clang_getCursorType(clang_getCursorReferenced(c));
	if (e.kind == CXType_LValueReference) /* (`float (&S)[R][C]`) */
		e = clang_getPointeeType(e);
	for (; depth > 0 && e.kind != CXType_Invalid; depth--)
		e = e.kind == CXType_Pointer ? clang_getPointeeType(e) : clang_getArrayElementType(e);
	enum CXTypeKind k = clang_getCanonicalType(e).kind;
	bool array = k == CXType_ConstantArray || k == CXType_DependentSizedArray || k == CXType_IncompleteArray;
	return e.kind == CXType_Invalid || array ? t : e;
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
		/* (`const float *const &src`: a load, through a pointer pipefy would have to follow
		 * to the caller's) */
		CXCursor root = cursor_root_var(load);
		CXType rt = clang_getCanonicalType(clang_getCursorType(root));
		bool by_ref = !clang_Cursor_isNull(root) && rt.kind == CXType_LValueReference &&
			      clang_getCanonicalType(clang_getPointeeType(rt)).kind == CXType_Pointer;
		/* (`const int v = *(const int *)p; dst[i] = v;`: a load, into a local first) */
		CXCursor init = clang_getCursorKind(load) == CXCursor_DeclRefExpr && clang_getCursorKind(root) == CXCursor_VarDecl
					? cursor_last_child(root) : clang_getNullCursor();
		CXCursor from;
		if (by_ref) {
			char *r = cursor_name(root);
			helper_refuse(h, assign, "'%s' loads '%s' through '%s', a reference to a pointer, which pipefy "
				      "does not follow", h->name, v, r);
			free(r);
		} else if (!clang_Cursor_isNull(init) && cursor_global_load(cursor_unwrap_cache_hint(cursor_strip(init)), &from)) {
			int dl, dc;
			source_line_col(hs->src, cursor_span(root).begin, &dl, &dc);
			helper_refuse(h, assign, "'%s' stores '%s', a local loaded from global memory at %d:%d, into a tile: "
				      "pipefy takes a helper's copy where the store itself loads (`X[..] = G[..]`)", h->name, v,
				      dl, dc);
		} else
			helper_refuse(h, assign, "'%s' stores '%s' into a tile, not a load from global memory", h->name, v);
		free(v);
		return;
	}
	CXType elem = element_type(lhs);
	if (!cursor_same_type(clang_getCursorType(load), elem)) {
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
	st.type = type_spelling(elem);
	st.width = clang_Type_getSizeOf(elem);
	if (st.width < 0) {
		helper_refuse(h, assign, "'%s' copies elements whose size its template's parameters decide ('%s')", h->name, st.type);
		free(st.base);
		free(st.type);
		return;
	}
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
static enum CXChildVisitResult scan_helper(CXCursor c, void *data)
{
	struct helper_scan *hs = data;
	if (hs->h->refusal)
		return CXChildVisit_Break;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr) {
		char *name = cursor_name(c);
		/* (a toolkit type's constructor: `float4 v = ..` copies a vector) */
		CXCursor callee = clang_getCursorReferenced(c);
		bool allowed = strncmp(name, "__fetch_builtin", 15) == 0 || strncmp(name, "__ld", 4) == 0 ||
			       strncmp(name, "operator", 8) == 0 || *name == '\0' ||
			       (clang_getCursorKind(callee) == CXCursor_Constructor && effects_in_system_header(callee));
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
			if (clang_getCursorKind(cursor_strip(target)) == CXCursor_DeclRefExpr) {
				char *n = cursor_name(var);
				helper_refuse(hs->h, c, "'%s' moves '%s', the tile it is handed, which pipefy does not follow",
					      hs->h->name, n);
				free(n);
			} else if (w != WRITE_ASSIGN)
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

/* Two asynchronous copies of one thread to one shared address land in no fixed order (the
 * helper as written keeps the second): each tile parameter is stored at one place, and that
 * store, in loops of the helper's, stores another element on every trip (distinct.c). */
static enum CXChildVisitResult collect_loop(CXCursor c, void *data)
{
	struct cursors *loops = data;
	if (cursor_is_loop(c))
		*VEC_PUSH(loops->v, loops->n, loops->cap) = c;
	return CXChildVisit_Recurse;
}

static void refuse_same_element(struct helper_fill *h, const struct source *src)
{
	int line, col, line2, col2;
	for (int i = 0; i < h->nstores && !h->refusal; i++) {
		CXCursor target = cursor_write_target(h->stores[i].store), tile = cursor_root_var(target);
		char *name = cursor_name(tile);
		source_line_col(src, h->stores[i].text.begin, &line, &col);
		for (int j = i + 1; j < h->nstores && !h->refusal; j++)
			if (clang_equalCursors(cursor_root_var(cursor_write_target(h->stores[j].store)), tile)) {
				source_line_col(src, h->stores[j].text.begin, &line2, &col2);
				helper_refuse(h, h->stores[j].store, "'%s' stores into '%s' twice (%d:%d, %d:%d), which pipefy does "
					      "not show are different elements: asynchronous copies to one address land in no "
					      "fixed order", h->name, name, line, col, line2, col2);
			}
		struct cursors loops = {0}; /* (the loops around the store: distinct.c reads from the outermost) */
		cursor_visit_around(h->definition, cursor_span(h->stores[i].store), collect_loop, &loops);
		int outer = -1;
		for (int k = 0; k < loops.n; k++)
			if (outer < 0 || cursor_span(loops.v[k]).begin < cursor_span(loops.v[outer]).begin)
				outer = k;
		char *same = outer >= 0 && !h->refusal ? distinct_elements(target, loops.v[outer], src) : NULL;
		if (same) {
			source_line_col(src, cursor_span(loops.v[outer]).begin, &line2, &col2);
			helper_refuse(h, h->stores[i].store, "'%s' may store one element of '%s' on two trips of the loop at "
				      "%d:%d (%s): asynchronous copies to one address land in no fixed order",
				      h->name, name, line2, col2, same);
		}
		free(same);
		free(loops.v);
		free(name);
	}
}

/* Whether the helper writes through its parameter param (a store into the tile it names). */
struct param_write {
	CXCursor param;
	bool found;
};

static enum CXChildVisitResult scan_param_write(CXCursor w, enum write_kind k, CXCursor target, CXCursor value, void *data)
{
	(void)w, (void)k, (void)value;
	struct param_write *p = data;
	if (clang_equalCursors(cursor_root_var(target), p->param)) {
		p->found = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static bool writes_through_param(CXCursor def, CXCursor param)
{
	struct param_write p = {param, false};
	if (clang_Cursor_isNull(param))
		return true; /* (not read: left to the checks that follow) */
	cursor_visit_writes(def, scan_param_write, &p);
	return p.found;
}

/* Whether the loop's fill call before h (an earlier helper's) is handed tile var too. */
static bool handed_before(const struct kloop *l, const struct helper_fill *h, CXCursor var)
{
	for (const struct helper_fill *o = l->helpers; o < h; o++) {
		CXCursor call = cursor_strip(l->stmts[o->stmt].cursor);
		for (int i = 0; i < clang_Cursor_getNumArguments(call); i++) {
			CXCursor arg = cursor_strip(clang_Cursor_getArgument(call, (unsigned)i));
			if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
			    clang_equalCursors(clang_getCursorReferenced(arg), var))
				return true;
		}
	}
	return false;
}

/* The definition a fill call reaches: a function's, or its function template's (`load<BM,
 * BK>(..)`: a specialization where the call is resolved, the one candidate where a template
 * leaves it unresolved); null otherwise. */
static CXCursor helper_definition(CXCursor call)
{
	CXCursor fn = cursor_callee(call);
	CXCursor tmpl = clang_Cursor_isNull(fn) ? fn : clang_getSpecializedCursorTemplate(fn);
	return clang_getCursorDefinition(clang_Cursor_isNull(tmpl) ? fn : tmpl);
}

/* What else the translation unit says of the helper (def, named name), in one walk over it: a
 * specialization of the template written in the file (`template <> void load<16>(..) {..}`),
 * which a call may reach instead of the template pipefy read and the asynchronous copy lacks;
 * another function the name may mean (an overload in any namespace or class, a using
 * declaration), which a call a template leaves unresolved may reach once it is looked up again
 * at instantiation, by its arguments' types too; and the helper's declarations in this file (a
 * default template argument, a namespace's declaration of a function defined outside it), which
 * its asynchronous copy needs too (into h->decls). */
struct related_scan {
	const struct source *src;
	struct helper_fill *h;
	CXCursor def, spec, other;
};

static void add_declaration(struct related_scan *r, CXCursor c)
{
	struct helper_fill *h = r->h;
	struct span s = cursor_span(c);
	while (s.end < r->src->len && r->src->text[s.end] != ';')
		s.end++;
	if (s.end == r->src->len)
		return;
	h->decls = xrealloc(h->decls, (size_t)(h->ndecls + 1) * sizeof *h->decls);
	h->decl_names = xrealloc(h->decl_names, (size_t)(h->ndecls + 1) * sizeof *h->decl_names);
	h->decls[h->ndecls] = (struct span){s.begin, s.end + 1};
	h->decl_names[h->ndecls++] = cursor_offset(c);
}

static enum CXChildVisitResult scan_related(CXCursor c, void *data)
{
	struct related_scan *r = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl || k == CXCursor_StructDecl ||
	    k == CXCursor_ClassTemplate || k == CXCursor_FriendDecl || k == CXCursor_UnionDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod &&
	    k != CXCursor_UsingDeclaration)
		return CXChildVisit_Continue;
	char *n = cursor_name(c);
	bool named = strcmp(n, r->h->name) == 0;
	free(n);
	if (!named)
		return CXChildVisit_Continue;
	/* (an instantiation is visited too, where the template is written) */
	bool of_template = clang_equalCursors(clang_getSpecializedCursorTemplate(c), r->def);
	bool instantiation = of_template && cursor_offset(c) == cursor_offset(r->def);
	if (clang_equalCursors(clang_getCanonicalCursor(c), clang_getCanonicalCursor(r->def))) {
		if (!clang_isCursorDefinition(c) && cursor_in_main_file(c))
			add_declaration(r, c);
	} else if (of_template && !instantiation && clang_Cursor_isNull(r->spec)) {
		r->spec = c;
	} else if (!instantiation && clang_Cursor_isNull(r->other)) {
		r->other = c;
	}
	return CXChildVisit_Continue;
}

/* Where the helper's name is in the call (`ns::load<BM>(..)`: at `load`, its first mention as a
 * whole name in the callee's text that no `::` follows, `load::load<BM>`'s second); false when
 * the callee's text does not name it (a macro). */
static bool callee_name_at(const struct source *src, CXCursor call, const char *name, size_t *at)
{
	struct span s = cursor_span(cursor_first_child(call));
	size_t n = strlen(name);
	for (size_t off = s.begin; off + n <= s.end && off + n <= src->len; off++) {
		bool before = off > 0 && (isalnum((unsigned char)src->text[off - 1]) || src->text[off - 1] == '_');
		bool after = off + n < src->len && (isalnum((unsigned char)src->text[off + n]) || src->text[off + n] == '_');
		size_t next = off + n;
		while (next < s.end && isspace((unsigned char)src->text[next]))
			next++;
		bool qualifier = next + 1 < src->len && src->text[next] == ':' && src->text[next + 1] == ':';
		if (!before && !after && !qualifier && strncmp(src->text + off, name, n) == 0) {
			*at = off;
			return true;
		}
	}
	return false;
}

/* `load_tile(As, Bs, A, B, row, col, k0)` or `load<BM, BK>(As, A, lda)`: the callee, a
 * function or function template defined in this file before the loop, must only copy global
 * memory into the tiles it is handed, and the arguments must not change inside the loop except
 * by the loop's own variables. Sets h->refusal when it cannot be pipelined. */
void find_helper(struct kloop *l, const struct source *src, CXCursor body, struct helper_fill *h)
{
	CXCursor call = cursor_strip(l->stmts[h->stmt].cursor);
	CXCursor def = helper_definition(call);
	h->name = clang_Cursor_isNull(def) ? cursor_name(call) : cursor_name(def);
	if (!*h->name) {
		/* an unresolved call (a template's) of no one candidate: the callee as written, `Loader::load` */
		free(h->name);
		char *t = span_text(src, cursor_span(call));
		t[strcspn(t, "(<")] = '\0';
		h->name = t;
	}
	if (clang_getCursorKind(call) != CXCursor_CallExpr) {
		helper_refuse(h, l->stmts[h->stmt].cursor, "the tiles are filled in a call ('%s')", h->name);
		return;
	}
	if (clang_Cursor_isNull(cursor_callee(call))) {
		helper_refuse(h, call, "'%s' depends on the template's parameters: the function it calls is known "
			      "only at instantiation", h->name);
		return;
	}
	enum CXCursorKind dk = clang_getCursorKind(def);
	enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(def));
	if (clang_Cursor_isNull(def) || (dk != CXCursor_FunctionDecl && dk != CXCursor_FunctionTemplate)) {
		helper_refuse(h, call, "'%s' is no function or function template whose definition pipefy can read", h->name);
		return;
	}
	if (!cursor_in_main_file(def)) {
		helper_refuse(h, call, "'%s' is defined in another file, not the one pipefy rewrites", h->name);
		return;
	}
	if (pk != CXCursor_TranslationUnit && pk != CXCursor_Namespace) {
		helper_refuse(h, call, "'%s' is a member of a class, where pipefy does not add its asynchronous copy", h->name);
		return;
	}
	struct related_scan rel = {.src = src, .h = h, .def = def, .spec = clang_getNullCursor(), .other = clang_getNullCursor()};
	cursor_visit(clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(def)), scan_related, &rel);
	/* (a resolved call names its function: another of the name is no matter) */
	CXCursor other = clang_Cursor_isNull(clang_getCursorReferenced(call)) ? rel.other : clang_getNullCursor();
	if (!clang_Cursor_isNull(other)) {
		CXString file;
		unsigned line, col;
		CXSourceLocation at = clang_getCursorLocation(other);
		clang_getPresumedLocation(at, &file, &line, &col);
		/* (this file's by line and column; a header's by its path) */
		char *place = clang_Location_isFromMainFile(at) ? xprintf("%u:%u", line, col)
								 : xprintf("%s:%u", path_for_user(clang_getCString(file)), line);
		helper_refuse(h, call, "'%s' is declared again at %s, which the template's call may reach once "
			      "instantiated", h->name, place);
		free(place);
		clang_disposeString(file);
		return;
	}
	CXCursor spec = rel.spec;
	if (!clang_Cursor_isNull(spec)) {
		int line, col;
		source_line_col(src, cursor_span(spec).begin, &line, &col);
		helper_refuse(h, call, "'%s' has a specialization of its own at %d:%d, which a call may reach instead of the "
			      "template pipefy read", h->name, line, col);
		return;
	}
	h->definition = def;
	h->def = cursor_span(def);
	h->name_at = cursor_offset(def);
	if (!callee_name_at(src, call, h->name, &h->callee.begin)) {
		helper_refuse(h, call, "the call of '%s' does not name it as written where it is defined", h->name);
		return;
	}
	h->callee.end = h->callee.begin + strlen(h->name);
	if (h->def.end > l->loop.begin) {
		helper_refuse(h, call, "'%s' is defined after the loop that calls it", h->name);
		return;
	}
	int nargs = clang_Cursor_getNumArguments(call);
	int nparams = 0;
	while (!clang_Cursor_isNull(cursor_nth_param(def, nparams)))
		nparams++;
	CXCursor tile_params[16];
	struct helper_scan hs = {.l = l, .src = src, .h = h, .tile_params = tile_params};
	for (int i = 0; i < nargs; i++) {
		CXCursor arg = cursor_strip(clang_Cursor_getArgument(call, (unsigned)i));
		CXCursor var = clang_getCursorKind(arg) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(arg)
										 : clang_getNullCursor();
		if (cursor_names_shared(arg) && (clang_Cursor_isNull(var) || !cursor_is_shared_var(var))) {
			/* (`As[0]`, `&As[r][0]`, `As[0][0]`: part of a tile, or a value read from one, which
			 * the loader would take a tile early) */
			char *t = span_text(src, cursor_span(arg));
			helper_refuse(h, arg, "'%s' is handed '%s', which names __shared__ memory other than as a whole tile",
				      h->name, t);
			free(t);
			break;
		}
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var) && i < nparams &&
		    !writes_through_param(def, cursor_nth_param(def, i))) {
			/* (a __shared__ input, an index table the helper reads) */
			char *t = cursor_name(var), *pn = cursor_name(cursor_nth_param(def, i));
			helper_refuse(h, arg, "'%s' is handed the __shared__ array '%s' as '%s', which it only reads: pipefy "
				      "takes the __shared__ arrays a fill helper is handed for the tiles it fills", h->name, t, pn);
			free(t);
			free(pn);
			break;
		}
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var) && handed_before(l, h, var)) {
			char *t = cursor_name(var);
			helper_refuse(h, arg, "'%s' is handed to an earlier fill call too (pipefy does not show they write "
				      "different elements): asynchronous copies to one address land in no fixed order", t);
			free(t);
			break;
		}
		int twice = -1; /* (an earlier argument of this call that is the same tile) */
		for (int j = 0; j < i && !clang_Cursor_isNull(var) && twice < 0; j++) {
			CXCursor o = cursor_strip(clang_Cursor_getArgument(call, (unsigned)j));
			if (clang_getCursorKind(o) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(o), var))
				twice = j;
		}
		if (twice >= 0 && cursor_is_shared_var(var)) {
			char *t = cursor_name(var);
			helper_refuse(h, arg, "'%s' is handed '%s' twice (arguments %d and %d), so two of its stores may write "
				      "one element: asynchronous copies to one address land in no fixed order",
				      h->name, t, twice + 1, i + 1);
			free(t);
			break;
		}
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
			if (hs.ntile_params < 16 && i < nparams)
				tile_params[hs.ntile_params++] = cursor_nth_param(def, i);
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
	cursor_visit(def, scan_helper, &hs);
	if (!h->refusal)
		refuse_same_element(h, src);
	if (!h->refusal && h->nstores == 0)
		helper_refuse(h, call, "'%s' copies nothing into the tiles it is handed", h->name);
	if (!h->refusal)
		l->stmts[h->stmt].role = ROLE_COPY;
}

/* Whole `#pragma` lines directly above the line at offset (only blanks before it there). */
