/* find.c: walks kernels and __device__ functions and builds a K-loop model for each loop
 * whose body fills __shared__ tiles and synchronizes the block (its statements are read by
 * body.c and helper.c), and a short entry, with the reason, for every other loop that
 * synchronizes the block and writes shared memory. */
#include "cursor.h"
#include "find.h"

#include <ctype.h>
#include <stdlib.h>

/* ---- building one loop ---- */

struct finder {
	const struct parsed *parsed;
	const struct source *src;
	struct model *model;
	struct span function_span;
	char *function_name;
	CXCursor function;
};

void kloop_unknown(struct kloop *l, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	*VEC_PUSH(l->unknowns, l->nunknowns, l->capunknowns) = refusal_make(offset, fmt, ap);
	va_end(ap);
}

int kloop_ivar(const struct kloop *l, CXCursor decl)
{
	for (int i = 0; i < l->nivars; i++)
		if (clang_equalCursors(l->ivars[i].decl, decl))
			return i;
	return -1;
}

struct induction *kloop_add_ivar(struct kloop *l, CXCursor decl, const char *init)
{
	int i = kloop_ivar(l, decl);
	if (i >= 0)
		return &l->ivars[i];
	struct induction *v = VEC_PUSH(l->ivars, l->nivars, l->capivars);
	v->decl = decl;
	v->name = cursor_name(decl);
	v->type = type_spelling(clang_getCursorType(decl));
	v->init = xstrdup(init ? init : v->name);
	return v;
}

/* Header parts from the tokens: `for ( init ; cond ; inc ) body`. */
static bool split_header(struct kloop *l, CXTranslationUnit tu, CXCursor loop)
{
	CXToken *toks;
	unsigned n;
	clang_tokenize(tu, clang_getCursorExtent(loop), &toks, &n);
	int depth = 0, semis = 0;
	size_t semi[2] = {0, 0}, lparen = 0, rparen = 0;
	bool ok = false;
	for (unsigned i = 0; i < n && !ok; i++) {
		CXString s = clang_getTokenSpelling(tu, toks[i]);
		const char *t = clang_getCString(s);
		unsigned off;
		clang_getExpansionLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
		if (strcmp(t, "(") == 0 || strcmp(t, "{") == 0 || strcmp(t, "[") == 0) {
			if (depth++ == 0 && t[0] == '(')
				lparen = off;
		} else if (strcmp(t, ")") == 0 || strcmp(t, "}") == 0 || strcmp(t, "]") == 0) {
			if (--depth == 0 && t[0] == ')') {
				rparen = off;
				ok = semis == 2;
			}
		} else if (strcmp(t, ";") == 0 && depth == 1 && semis < 2) {
			semi[semis++] = off;
		}
		clang_disposeString(s);
	}
	clang_disposeTokens(tu, toks, n);
	if (!ok)
		return false;
	l->init = (struct span){lparen + 1, semi[0]};
	l->cond = (struct span){semi[0] + 1, semi[1]};
	l->inc = (struct span){semi[1] + 1, rparen};
	return true;
}

/* Every variable the increment writes: `++t`, `a += s, b += t`. */
static void collect_inc_vars(struct kloop *l, const struct source *src, CXCursor c)
{
	c = cursor_strip(c);
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator &&
	    clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Comma) {
		struct cursors cs = cursor_children(c);
		for (int i = 0; i < cs.n; i++)
			collect_inc_vars(l, src, cs.v[i]);
		free(cs.v);
		return;
	}
	bool store;
	CXCursor v = cursor_assigned_var(c, &store);
	if (store && !clang_Cursor_isNull(v))
		kloop_add_ivar(l, v, NULL);
	else
		kloop_unknown(l, cursor_span(c).begin, "the loop increment is not a plain update of loop variables");
}

static void collect_init(struct kloop *l, const struct source *src, CXCursor c)
{
	c = cursor_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclStmt) {
		struct cursors vars = cursor_children(c);
		for (int i = 0; i < vars.n; i++) {
			CXCursor var = vars.v[i];
			if (clang_getCursorKind(var) != CXCursor_VarDecl)
				continue;
			CXCursor init = cursor_last_child(var);
			if (clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init))) {
				char *name = cursor_name(var); /* found by the fuzzer: the CXString leaked */
				kloop_unknown(l, cursor_offset(var), "loop variable '%s' has no initial value", name);
				free(name);
				continue;
			}
			char *text = span_text(src, cursor_span(init));
			kloop_add_ivar(l, var, text)->in_header = true;
			free(text);
		}
		free(vars.v);
	} else if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Comma) {
		struct cursors cs = cursor_children(c);
		for (int i = 0; i < cs.n; i++)
			collect_init(l, src, cs.v[i]);
		free(cs.v);
	} else if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
		CXCursor v = cursor_root_var(cursor_first_child(c));
		if (clang_Cursor_isNull(v) || clang_getCursorKind(cursor_strip(cursor_first_child(c))) != CXCursor_DeclRefExpr) {
			kloop_unknown(l, cursor_span(c).begin, "the loop initializer is not a plain assignment");
			return;
		}
		char *text = span_text(src, cursor_span(cursor_last_child(c)));
		kloop_add_ivar(l, v, text)->in_header = true;
		free(text);
	} else {
		kloop_unknown(l, cursor_span(c).begin, "the loop initializer is not a declaration or assignment");
	}
}

struct tile_ref_scan {
	struct kloop *loop;
	int stmt;
	bool outside; /* scanning the function around the loop */
};

static enum CXChildVisitResult scan_tile_refs(CXCursor ref, CXCursor d, void *data)
{
	struct tile_ref_scan *s = data;
	struct kloop *l = s->loop;
	int t = kloop_tile(l, d);
	if (t < 0)
		return CXChildVisit_Continue;
	struct span at = cursor_span(ref);
	if (s->outside) {
		if (!span_within(at, l->loop) && !l->tiles[t].outside_use)
			l->tiles[t].outside_use = at.begin + 1;
		return CXChildVisit_Continue;
	}
	bool in_macro = cursor_from_macro(ref);
	if (in_macro && cursor_written_in_file(ref)) {
		/* a macro's argument (`FLOAT4(s_a[i])`): the name where the file writes it, once however
		 * often the macro uses its argument */
		at = cursor_written_span(ref);
		in_macro = false;
		for (int i = 0; i < l->nrefs; i++)
			if (l->refs[i].at.begin == at.begin)
				return CXChildVisit_Continue;
	}
	struct tile_ref *r = VEC_PUSH(l->refs, l->nrefs, l->caprefs);
	r->at = at;
	r->tile = t;
	r->stmt = s->stmt;
	r->in_macro = in_macro;
	return CXChildVisit_Continue;
}

static void collect_tile_refs(struct kloop *l, CXCursor function)
{
	for (int i = 0; i < l->nstmts; i++) {
		struct tile_ref_scan s = {.loop = l, .stmt = i};
		/* (a guarded fill read as one statement, `X = 0; if (g) X = A[i];`: both stores) */
		if (!clang_Cursor_isNull(l->stmts[i].fill_first))
			cursor_visit_names_from(l->stmts[i].fill_first, scan_tile_refs, &s);
		cursor_visit_names_from(l->stmts[i].cursor, scan_tile_refs, &s);
	}
	struct tile_ref_scan s = {.loop = l, .outside = true};
	cursor_visit_names(function, scan_tile_refs, &s);
}

static char *unit_of(const struct source *src, struct kloop *l)
{
	if (l->nstmts > 0) {
		char *inner = source_line_indent(src, l->stmts[0].text.begin);
		size_t n = strlen(l->indent);
		if (strlen(inner) > n && strncmp(inner, l->indent, n) == 0) {
			char *u = xstrdup(inner + n);
			free(inner);
			return u;
		}
		free(inner);
	}
	return xstrdup("    ");
}

/* Whether a call passes a __shared__ array: a helper that fills or reads tiles. */
/* What a body does with tiles: stores whose value reads global memory, and calls that are
 * handed a tile (a helper, or an asynchronous copy). */
struct tile_use {
	int global_stores;
	int tile_calls;
	int tile_stores;  /* from anything: a register a previous trip loaded, say */
	int global_reads;
	int helper_stores; /* from a value that calls a function of the program's (`GetValue(A, K, r, c)`),
			    * which may read global memory where find does not look */
};

static enum CXChildVisitResult scan_tile_use(CXCursor c, void *data)
{
	struct tile_use *u = data;
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) == WRITE_ASSIGN && cursor_is_shared_var(cursor_root_var(target))) {
		bool global = cursor_loads_global(value);
		u->global_stores += global;
		u->tile_stores++;
		u->helper_stores += !clang_Cursor_isNull(value) && !clang_Cursor_isNull(effects_program_call(value));
	} else if (clang_getCursorKind(c) == CXCursor_CallExpr && !cursor_unresolved_operator(c))
		/* (not `acc += As[i]` in a template, an operator its dependent operands leave unresolved) */
		u->tile_calls += cursor_names_shared(c);
	CXCursor base;
	u->global_reads += cursor_global_load(c, &base) || cursor_texture_fetch(c);
	return CXChildVisit_Recurse;
}

/* A K-loop candidate: the body synchronizes (the block, or warps) at its top level, and
 * fills tiles from global memory (directly, or through registers it loads) or hands them to
 * a call. A loop that only moves shared data around (a reduction) is not one. */
static bool top_level_sync(CXCursor body)
{
	struct cursors cs = cursor_children(body);
	bool sync = false;
	for (int i = 0; i < cs.n; i++)
		if (cursor_is_barrier(cs.v[i]) || cursor_is_call_named(cs.v[i], "__syncwarp"))
			sync = true;
	free(cs.v);
	return sync;
}

static bool is_candidate(CXCursor body);

static enum CXChildVisitResult scan_inner_candidate(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) == CXCursor_ForStmt) {
		CXCursor body = cursor_last_child(c);
		if (clang_getCursorKind(body) == CXCursor_CompoundStmt && is_candidate(body)) {
			*(bool *)data = true;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static bool is_candidate(CXCursor body)
{
	if (!top_level_sync(body))
		return false;
	/* a persistent or grid-stride loop around a K-loop, with barriers of its own (an epilogue
	 * staged through shared memory): the inner loop is the candidate */
	bool inner = false;
	cursor_visit(body, scan_inner_candidate, &inner);
	if (inner)
		return false;
	struct tile_use u = {0};
	cursor_visit(body, scan_tile_use, &u);
	/* tiles stored from registers while the body loads global memory: a register prefetch,
	 * refused by check with that reason rather than passed over in silence; and tiles stored
	 * from a call of the program's own function, which check reads into or refuses, naming it */
	return u.global_stores > 0 || u.tile_calls > 0 || (u.tile_stores > 0 && u.global_reads > 0) || u.helper_stores > 0;
}

static struct span leading_pragmas(const struct source *src, size_t at)
{
	size_t line = at;
	while (line > 0 && (src->text[line - 1] == ' ' || src->text[line - 1] == '\t'))
		line--;
	struct span s = {line, line};
	if (line > 0 && src->text[line - 1] != '\n')
		return s;
	while (s.begin > 0) {
		size_t prev = s.begin - 1; /* the '\n' ending the line above */
		while (prev > 0 && src->text[prev - 1] != '\n')
			prev--;
		const char *p = source_directive(src->text + prev);
		if (!p || strncmp(p, "pragma", 6) != 0 || src->text[s.begin - 2] == '\\')
			break;
		s.begin = prev;
	}
	return s;
}

/* The first error clang reported inside s of the main file, or NULL. */
static const struct diag *first_error_in(const struct finder *f, struct span s)
{
	for (int i = 0; i < f->parsed->ndiags; i++) {
		const struct diag *d = &f->parsed->diags[i];
		if (d->is_error && d->offset != (size_t)-1 && d->offset >= s.begin && d->offset < s.end)
			return d;
	}
	return NULL;
}

static void build_kloop(struct finder *f, CXCursor loop, CXCursor body)
{
	struct kloop *l = VEC_PUSH(f->model->loops, f->model->nloops, f->model->caploops);
	const struct source *src = f->src;
	l->cursor = loop;
	l->function = xstrdup(f->function_name);
	l->loop = cursor_span(loop);
	l->body = cursor_span(body);
	l->indent = source_line_indent(src, l->loop.begin);
	l->pragmas = leading_pragmas(src, l->loop.begin);
	const struct diag *d = first_error_in(f, f->function_span);
	if (d) {
		l->function_has_errors = true;
		l->function_error = xprintf("%d:%d: %s", d->line, d->col, d->message);
	}
	if (!split_header(l, f->parsed->tu, loop)) {
		kloop_unknown(l, l->loop.begin, "cannot read the loop header");
		return;
	}
	struct cursors parts = cursor_children(loop);
	for (int i = 0; i < parts.n; i++) {
		/* a DeclStmt's extent takes in the ';' that ends the init */
		struct span s = cursor_span(parts.v[i]);
		if (s.begin >= l->init.begin && s.end <= l->init.end + 1 && s.end > s.begin)
			collect_init(l, src, parts.v[i]);
	}
	for (int i = 0; i < parts.n; i++) {
		struct span s = cursor_span(parts.v[i]);
		if (span_within(s, l->inc) && s.end > s.begin)
			collect_inc_vars(l, src, parts.v[i]);
	}
	free(parts.v);
	/* statements from an #include inside the body have offsets into that other file (a macro
	 * expanded in the body is still in this one: its expansion location is) */
	struct cursors stmts = cursor_children(body);
	CXFile loop_file;
	clang_getExpansionLocation(clang_getCursorLocation(loop), &loop_file, NULL, NULL, NULL);
	for (int i = 0; i < stmts.n; i++) {
		CXFile file;
		clang_getExpansionLocation(clang_getCursorLocation(stmts.v[i]), &file, NULL, NULL, NULL);
		if (clang_File_isEqual(file, loop_file))
			continue;
		kloop_unknown(l, l->body.begin, "the loop body takes statements from another file (an #include inside it)");
		free(stmts.v);
		return;
	}
	free(stmts.v);
	find_body(l, src, body);
	/* the first call handed a tile, and the calls right after it handed tiles too (`load(As, A);
	 * load(Bs, B);`): fill helpers, when nothing in the body copies */
	for (int i = 0; i < l->nstmts && l->ncopies == 0; i++) {
		bool fills = clang_getCursorKind(cursor_strip(l->stmts[i].cursor)) == CXCursor_CallExpr &&
			     cursor_names_shared(l->stmts[i].cursor);
		if (!fills && l->nhelpers > 0)
			break;
		if (!fills)
			continue;
		l->helpers = xrealloc(l->helpers, (size_t)(l->nhelpers + 1) * sizeof *l->helpers);
		l->helpers[l->nhelpers++] = (struct helper_fill){.stmt = i};
	}
	for (int h = 0; h < l->nhelpers; h++)
		find_helper(l, src, body, &l->helpers[h]);
	/* after the helper's call became a copy: the locals it reads go with it (found by the
	 * program generator, seed 142: `int k0 = t * TS;` stayed behind, and validation refused
	 * the rewrite that named an undeclared k0) */
	l->function_cursor = f->function;
	l->function_span = f->function_span;
	find_body_locals(l, src);
	collect_tile_refs(l, f->function);
	l->unit = unit_of(src, l);
}

/* ---- loops that are not K-loops, so that none is passed over in silence ---- */

struct sync_scan {
	CXCursor barrier;   /* the first block barrier inside, or null */
	CXCursor candidate; /* the first K-loop candidate inside, or null */
	CXCursor via_pointer; /* the first store of a global load through a pointer, or null */
	CXCursor pointer_store; /* the first store of anything through a pointer, or null */
	CXCursor ldg;         /* the first load intrinsic (`__ldg(p)`), or null */
	bool shared_write;
	CXCursor pipefy_call; /* a call of pipefy's own loaders (`pipefy_fetch()`): its output */
	CXCursor asm_store; /* the first asm that stores to shared memory (`st.shared`), or null */
	CXCursor asm_load;  /* the first asm that loads from global memory (`ld.global`), or null */
	CXCursor async_copy; /* the first asynchronous copy (`cuda::memcpy_async`, `__pipeline_memcpy_async`) */
	CXCursor call_store; /* the first store into shared memory, or through a pointer, of a value
			      * from a call of the program's member function (`As[i] = A(r, c);`) */
	CXCursor method;     /* that call */
	CXCursor async_wait; /* the first call of a function that waits for cp.async groups, or of the
			      * toolkit's __pipeline_wait_prior or __pipeline_commit */
	CXCursor asm_wait;   /* the first asm of the loop's own that waits for cp.async groups */
	CXCursor user_call;  /* the first call of a function of the program's (not the toolkit's) that
			      * returns nothing */
};

/* The first call in a value of a member function of the program's (`A(r, c)`, MatrixView's
 * operator()), whose loads pipefy does not read; null when none. */
static enum CXChildVisitResult scan_member_call(CXCursor c, void *data)
{
	CXCursor callee = clang_getCursorReferenced(c);
	if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_getCursorKind(callee) == CXCursor_CXXMethod &&
	    !effects_in_system_header(callee)) {
		*(CXCursor *)data = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static CXCursor member_call_in(CXCursor value)
{
	CXCursor found = clang_getNullCursor();
	cursor_visit_from(value, scan_member_call, &found);
	return found;
}

/* The instructions of an asm cp.async copy (.ca or .cg; a bulk copy into shared memory), not a
 * wait or a commit. */
static const char *const async_copy_ops[] = {"cp.async.ca", "cp.async.cg", "cp.async.bulk.shared",
					     "cp.async.bulk.tensor", NULL};

/* Whether an asm may copy asynchronously: its template names one of them, or cannot be read. */
static bool asm_copies_async(CXCursor c)
{
	bool copies = false;
	for (const char *const *op = async_copy_ops; *op && !copies; op++)
		copies = effects_asm_mentions(c, *op);
	return copies;
}

/* Whether an asm surely copies asynchronously: its template, read, names one (a remark's claim
 * needs the fact). */
static bool asm_surely_copies_async(CXCursor c)
{
	char *tpl = effects_asm_template(c);
	bool copies = false;
	for (const char *const *op = async_copy_ops; *op && tpl && !copies; op++)
		copies = strstr(tpl, *op) != NULL;
	free(tpl);
	return copies;
}

/* What a function's asm does asynchronously: issues cp.async copies (copies), or waits for
 * cp.async groups (`cp.async.wait_group N`, `cp.async.wait_all`: waits), whose copies are
 * asynchronous already wherever they are issued. */
struct asm_async {
	bool copies, waits;
};

static enum CXChildVisitResult scan_asm_async(CXCursor c, void *data)
{
	struct asm_async *a = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) {
		a->copies = a->copies || asm_copies_async(c);
		a->waits = a->waits || effects_asm_mentions(c, "cp.async.wait_group") ||
			   effects_asm_mentions(c, "cp.async.wait_all");
	}
	return a->copies && a->waits ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The asm of the function a call makes (`cp_async(dst, src)` wrapping it), read once a call. */
static struct asm_async callee_asm(CXCursor call)
{
	CXCursor def = cursor_callee_definition(call);
	struct asm_async a = {false, false};
	if (!clang_Cursor_isNull(def))
		cursor_visit(def, scan_asm_async, &a);
	return a;
}

/* Whether a local pointer (or each of an array of them) is set where declared from a pointer
 * parameter, `float *c = C + off;`: global memory, no tile. */
static bool points_at_parameter(CXCursor var)
{
	CXCursor init = cursor_last_child(var);
	if (clang_getCursorKind(init) == CXCursor_InitListExpr)
		init = cursor_first_child(init);
	CXCursor root = clang_Cursor_isNull(init) ? init : cursor_root_var(init);
	return !clang_Cursor_isNull(root) && clang_getCursorKind(root) == CXCursor_ParmDecl;
}

static enum CXChildVisitResult scan_sync(CXCursor c, void *data)
{
	struct sync_scan *s = data;
	CXCursor target, value;
	if (clang_Cursor_isNull(s->barrier) && cursor_is_barrier(c))
		s->barrier = c;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (clang_Cursor_isNull(s->pipefy_call) && k == CXCursor_DeclRefExpr) {
		/* (the lambdas pipefy's rewrite calls) */
		char *n = cursor_name(c);
		if (strcmp(n, "pipefy_fetch") == 0 || strcmp(n, "pipefy_stash") == 0 || strcmp(n, "pipefy_load") == 0)
			s->pipefy_call = c;
		free(n);
	}
	CXCursor d, from, size, pipe;
	if (k == CXCursor_CallExpr && (clang_Cursor_isNull(s->async_copy) || clang_Cursor_isNull(s->async_wait))) {
		struct asm_async a = callee_asm(c);
		if (clang_Cursor_isNull(s->async_copy) &&
		    (cursor_async_copy(c, &d, &from, &size, &pipe) || cursor_is_call_named(c, "__pipeline_memcpy_async") ||
		     a.copies))
			s->async_copy = c;
		/* (the toolkit's primitives: their waits are for cp.async groups too) */
		if (clang_Cursor_isNull(s->async_wait) &&
		    (a.waits || cursor_is_call_named(c, "__pipeline_wait_prior") || cursor_is_call_named(c, "__pipeline_commit")))
			s->async_wait = c;
	}
	if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) {
		if (clang_Cursor_isNull(s->async_copy) && asm_copies_async(c))
			s->async_copy = c;
		if (clang_Cursor_isNull(s->asm_wait) && (effects_asm_mentions(c, "cp.async.wait_group") ||
							 effects_asm_mentions(c, "cp.async.wait_all")))
			s->asm_wait = c;
		if (clang_Cursor_isNull(s->asm_store) && effects_asm_mentions(c, "st.shared"))
			s->asm_store = c;
		if (clang_Cursor_isNull(s->asm_load) && effects_asm_mentions(c, "ld.global"))
			s->asm_load = c;
	}
	if (cursor_write_parts(c, &target, &value) != WRITE_NONE) {
		CXCursor root = cursor_root_var(target);
		CXType t = clang_getCanonicalType(clang_getCursorType(root));
		/* (through a pointer, or an array of them: `p[i] = v;`, `*p = v;`, `to_As[i][0] = v;`; not
		 * `p += 256;` or `ps[i] = A + 256;`, which set the pointers themselves) */
		CXCursor lv = cursor_strip(target);
		enum CXCursorKind lk = clang_getCursorKind(lv);
		bool via = lk == CXCursor_ArraySubscriptExpr ||
			   (lk == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(lv) == CXUnaryOperator_Deref);
		CXCursor through = via ? cursor_strip(lk == CXCursor_ArraySubscriptExpr ? cursor_first_child(lv)
										 : cursor_last_child(lv))
				       : clang_getNullCursor();
		/* (`(*p)[i][j] = v;`, p a pointer to a whole array: through the pointer too) */
		CXCursor base = through;
		while (!clang_Cursor_isNull(base) && clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr)
			base = cursor_strip(cursor_first_child(base));
		bool whole_array = via && lk == CXCursor_ArraySubscriptExpr && t.kind == CXType_Pointer &&
				   clang_getCursorKind(base) == CXCursor_UnaryOperator &&
				   clang_getCursorUnaryOperatorKind(base) == CXUnaryOperator_Deref;
		bool pointer = whole_array ||
			       (via && clang_getCanonicalType(clang_getCursorType(through)).kind == CXType_Pointer &&
				(t.kind == CXType_Pointer ||
				 (t.kind == CXType_ConstantArray &&
				  clang_getCanonicalType(clang_getArrayElementType(t)).kind == CXType_Pointer)));
		CXCursor m = clang_getNullCursor();
		if (clang_Cursor_isNull(s->call_store) && (cursor_is_shared_var(root) || pointer) &&
		    !clang_Cursor_isNull(m = member_call_in(value))) {
			s->call_store = c;
			s->method = m;
		}
		if (cursor_is_shared_var(root))
			s->shared_write = true;
		else if (clang_Cursor_isNull(s->via_pointer) && pointer && cursor_loads_global(value))
			s->via_pointer = c;
		else if (clang_Cursor_isNull(s->pointer_store) && pointer && clang_getCursorKind(root) == CXCursor_VarDecl &&
			 !points_at_parameter(root))
			s->pointer_store = c;
	}
	if (clang_Cursor_isNull(s->user_call) && k == CXCursor_CallExpr) {
		CXCursor callee = clang_getCursorReferenced(c);
		enum CXCursorKind ck = clang_getCursorKind(callee);
		/* (one that returns nothing, as a fill helper does: not an accessor or a selector) */
		if ((ck == CXCursor_FunctionDecl || ck == CXCursor_FunctionTemplate || ck == CXCursor_CXXMethod) &&
		    !effects_in_system_header(callee) && !cursor_is_barrier(c) &&
		    clang_getCursorType(c).kind == CXType_Void)
			s->user_call = c;
	}
	if (clang_Cursor_isNull(s->ldg) && k == CXCursor_CallExpr) {
		char *n = cursor_name(c);
		if (strncmp(n, "__ld", 4) == 0)
			s->ldg = c;
		free(n);
	}
	if (clang_Cursor_isNull(s->candidate) && clang_getCursorKind(c) == CXCursor_ForStmt) {
		CXCursor body = cursor_last_child(c);
		if (clang_getCursorKind(body) == CXCursor_CompoundStmt && is_candidate(body))
			s->candidate = c;
	}
	return CXChildVisit_Recurse;
}

/* A loop that synchronizes the block and writes shared memory, or memory a pointer may take
 * there (itself, or in a helper it calls), but is no K-loop candidate gets a model entry of
 * its own that says why, so that its remark is one line like every other. within: the K-loop
 * it sits in, when it does. */
/* An integer the loop's body writes, declared outside the loop, in a store's address: the
 * place the store fills moves from one iteration to the next. */
struct moved_slot {
	CXCursor loop, body, var;
};

/* Whether a statement of the body's own (not inside an inner statement) steps var:
 * `buf ^= 128;`, `off += 256;`, `s = 1 - s;`. */
static bool body_steps(CXCursor body, CXCursor var)
{
	return cursor_any_child(body, cursor_steps_var, var);
}

static enum CXChildVisitResult scan_moved_slot(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct moved_slot *m = data;
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(d)).kind;
	bool integer = k >= CXType_Bool && k <= CXType_Int128;
	if (clang_getCursorKind(d) != CXCursor_VarDecl || !integer || cursor_declared_within(d, cursor_span(m->loop)) ||
	    !body_steps(m->body, d))
		return CXChildVisit_Continue;
	m->var = d;
	return CXChildVisit_Break;
}

/* A register prefetch written by hand, in source order: a register declared outside the loop
 * loaded from global memory (and written nothing else in the loop), then a read of a __shared__
 * array, then the register stored into that array. */
struct prefetch_scan {
	CXCursor loop;
	CXCursor regs[16];
	bool dropped[16];    /* written with something else too: no register a prefetch keeps */
	int nregs;
	size_t load_at;      /* where the first register's load stands */
	CXCursor read[16];   /* the __shared__ arrays read since */
	int nread;
	bool saw;            /* the last expression walked names one */
	CXCursor store, tile, reg;
	bool found;
};

static int prefetch_reg(const struct prefetch_scan *p, CXCursor var)
{
	for (int i = 0; i < p->nregs; i++)
		if (clang_equalCursors(p->regs[i], var))
			return i;
	return -1;
}

static bool read_since(const struct prefetch_scan *p, CXCursor array)
{
	for (int i = 0; i < p->nread; i++)
		if (clang_equalCursors(p->read[i], array))
			return true;
	return false;
}

/* The __shared__ arrays an expression names, once each, from the first register's load on. */
static enum CXChildVisitResult scan_shared_name(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct prefetch_scan *p = data;
	p->saw |= cursor_is_shared_var(d);
	if (cursor_is_shared_var(d) && p->nregs > 0 && !read_since(p, d) && p->nread < 16)
		p->read[p->nread++] = d;
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult scan_prefetch(CXCursor c, void *data)
{
	struct prefetch_scan *p = data;
	CXCursor target, value;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && p->nregs > 0)
		cursor_visit_names(c, scan_shared_name, p); /* (`float a = As[..][k];`: a read of the compute's) */
	if (cursor_write_parts(c, &target, &value) == WRITE_NONE)
		return CXChildVisit_Recurse;
	CXCursor root = cursor_root_var(target), from = cursor_root_var(value);
	int r = clang_Cursor_isNull(from) ? -1 : prefetch_reg(p, from);
	if (cursor_is_shared_var(root) && r >= 0 && !p->dropped[r] && read_since(p, root)) {
		p->store = c, p->tile = root, p->reg = from, p->found = true;
		return CXChildVisit_Break;
	}
	p->saw = false;
	cursor_visit_names(value, scan_shared_name, p);
	bool reads_shared = p->saw;
	if (clang_getCursorKind(root) == CXCursor_VarDecl && !cursor_is_shared_var(root) &&
	    !cursor_declared_within(root, cursor_span(p->loop))) {
		int w = prefetch_reg(p, root);
		if (cursor_loads_global(value) && !reads_shared && w < 0 && p->nregs < 16) {
			if (p->nregs == 0)
				p->load_at = cursor_span(c).begin;
			p->regs[p->nregs++] = root;
		} else if (w >= 0 && (!cursor_loads_global(value) || reads_shared))
			p->dropped[w] = true;
	}
	return CXChildVisit_Continue;
}

static bool hand_prefetch(CXCursor loop, CXCursor body, struct prefetch_scan *p)
{
	*p = (struct prefetch_scan){.loop = loop};
	cursor_visit(body, scan_prefetch, p);
	return p->found;
}

/* Whether the function a call makes stores into a __shared__ array by its name (a file-scope
 * tile the helper fills itself). */
static enum CXChildVisitResult scan_shared_write(CXCursor w, enum write_kind k, CXCursor target, CXCursor value,
						 void *data)
{
	(void)w, (void)k, (void)value;
	bool *found = data;
	*found = cursor_is_shared_var(cursor_root_var(target));
	return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool callee_writes_shared(CXCursor call)
{
	CXCursor def = cursor_callee_definition(call);
	bool found = false;
	if (!clang_Cursor_isNull(def))
		cursor_visit_writes(def, scan_shared_write, &found);
	return clang_Cursor_isNull(def) || found;
}

/* The first cp.async copy code issues before offset `before`: in its asm, the toolkit's calls,
 * or the functions it calls, three calls deep (a helper that calls the helper with the asm). */
struct async_find {
	size_t before;
	int depth;
	CXCursor at; /* the call or asm in the code walked first */
};

static bool callee_copies_async(CXCursor call, int depth);

static enum CXChildVisitResult scan_copies_async(CXCursor c, void *data)
{
	struct async_find *a = data;
	if (cursor_span(c).begin >= a->before)
		return CXChildVisit_Break;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor d, from, size, pipe;
	/* (an asm whose template pipefy reads and names cp.async: a claim needs the fact, where
	 * asm_copies_async takes a template it cannot read for one that may) */
	bool found = ((k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) && asm_surely_copies_async(c)) ||
		     (k == CXCursor_CallExpr &&
		      (cursor_async_copy(c, &d, &from, &size, &pipe) || cursor_is_call_named(c, "__pipeline_memcpy_async") ||
		       (a->depth > 0 && callee_copies_async(c, a->depth - 1))));
	if (found)
		a->at = c;
	return found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static CXCursor first_async_copy(CXCursor code, size_t before, int depth)
{
	struct async_find a = {before, depth, clang_getNullCursor()};
	cursor_visit(code, scan_copies_async, &a);
	return a.at;
}

static bool callee_copies_async(CXCursor call, int depth)
{
	/* (not the toolkit's functions: their copies are the calls scan_copies_async names) */
	CXCursor callee = clang_getCursorReferenced(call);
	CXCursor def = clang_Cursor_isNull(callee) || effects_in_system_header(callee) ? clang_getNullCursor()
											  : cursor_callee_definition(call);
	return !clang_Cursor_isNull(def) && !clang_Cursor_isNull(first_async_copy(def, (size_t)-1, depth));
}

/* The first statement of body's own (not inside an inner statement) that assigns var itself
 * (`nxt = tmp;`, not a store through it); null when none does. */
static CXCursor set_in(CXCursor body, CXCursor var)
{
	struct cursors cs = cursor_children(body);
	CXCursor set = clang_getNullCursor();
	for (int i = 0; i < cs.n && clang_Cursor_isNull(set); i++)
		if (cursor_names_var(cursor_write_target(cs.v[i]), var))
			set = cs.v[i];
	free(cs.v);
	return set;
}

/* The remark of a loop that stores through a pointer (store): a slot the body moves, a
 * parameter, a pointer the body sets again, one pipefy cannot follow. */
static void refuse_pointer_store(struct finder *f, struct kloop *l, CXCursor loop, CXCursor body, CXCursor store)
{
	int pl, pc;
	source_line_col(f->src, cursor_span(store).begin, &pl, &pc);
	CXCursor var = cursor_root_var(cursor_write_target(store)), use = clang_getNullCursor();
	char *name = cursor_name(var);
	if (clang_getCursorKind(var) == CXCursor_VarDecl)
		cursor_view_problem(var, &use);
	struct moved_slot slot = {loop, body, clang_getNullCursor()};
	cursor_visit_names(cursor_write_target(store), scan_moved_slot, &slot);
	CXCursor set = set_in(body, var);
	if (!clang_Cursor_isNull(slot.var)) {
		/* (a hand double buffer: `*(sh_A + double_buffer + tid) = ..`, `double_buffer ^= 128`) */
		char *sn = cursor_name(slot.var);
		kloop_unknown(l, l->loop.begin, "the store at %d:%d goes through the pointer '%s' at '%s', which the body "
			      "changes: the loop moves its tiles itself, where pipefy stages tiles filled in one place",
			      pl, pc, name, sn);
		free(sn);
	} else if (!clang_Cursor_isNull(set)) {
		/* (buffers swapped through pointers: `tmp = cur; cur = nxt; nxt = tmp;`) */
		int wl, wc;
		source_line_col(f->src, cursor_span(set).begin, &wl, &wc);
		kloop_unknown(l, l->loop.begin, "the store at %d:%d goes through the pointer '%s', which the body "
			      "sets again at %d:%d: the loop moves its tiles itself, where pipefy stages tiles filled in "
			      "one place", pl, pc, name, wl, wc);
	} else if (clang_getCursorKind(var) == CXCursor_ParmDecl)
		kloop_unknown(l, l->loop.begin, "the store at %d:%d goes through '%s', a parameter: pipefy cannot "
			      "tell whether it points into shared or global memory", pl, pc, name);
	else if (!clang_Cursor_isNull(use)) {
		int ul, uc;
		source_line_col(f->src, cursor_span(use).begin, &ul, &uc);
		kloop_unknown(l, l->loop.begin, "the store at %d:%d goes through the pointer '%s', whose use at %d:%d "
			      "pipefy does not read as leaving it unchanged: it takes a pointer for a tile only when it "
			      "is set once, to an address inside a __shared__ array", pl, pc, name, ul, uc);
	} else
		kloop_unknown(l, l->loop.begin, "the store at %d:%d goes through the pointer '%s', which pipefy "
			      "cannot trace to an address inside a __shared__ array (as it can `float *As = "
			      "smem + 256;`), so it cannot tell that it points into shared memory", pl, pc, name);
	free(name);
}

/* What kind of loop other than a counted `for` it is, in the remark's words. */
static const char *loop_word(CXCursor loop)
{
	switch (clang_getCursorKind(loop)) {
	case CXCursor_WhileStmt:
		return "while";
	case CXCursor_DoStmt:
		return "do-while";
	default:
		return "range-based for";
	}
}

static void note_other_loop(struct finder *f, CXCursor loop, const char *within)
{
	bool is_for = clang_getCursorKind(loop) == CXCursor_ForStmt;
	CXCursor body = clang_getCursorKind(loop) == CXCursor_DoStmt ? cursor_first_child(loop) : cursor_last_child(loop);
	struct sync_scan s = {.barrier = clang_getNullCursor(), .candidate = clang_getNullCursor(),
			      .via_pointer = clang_getNullCursor(), .pointer_store = clang_getNullCursor(),
			      .ldg = clang_getNullCursor(), .pipefy_call = clang_getNullCursor(),
			      .asm_store = clang_getNullCursor(), .asm_load = clang_getNullCursor(),
			      .async_copy = clang_getNullCursor(), .call_store = clang_getNullCursor(),
			      .method = clang_getNullCursor(), .async_wait = clang_getNullCursor(),
			      .asm_wait = clang_getNullCursor(), .user_call = clang_getNullCursor()};
	cursor_visit(loop, scan_sync, &s);
	if (clang_Cursor_isNull(s.async_copy)) /* (through a helper's helper) */
		s.async_copy = first_async_copy(loop, (size_t)-1, 3);
	struct effects fx = {0};
	effects_of(body, f->src, &fx);
	/* (a write through a pointer may be to shared memory: a helper's `float *buf`; an
	 * asynchronous copy writes it, in a helper's asm too) */
	bool syncs = !clang_Cursor_isNull(s.barrier) || fx.syncs,
	     writes = s.shared_write || fx.shared || fx.memory || !clang_Cursor_isNull(s.asm_store) ||
		      !clang_Cursor_isNull(s.async_copy);
	/* (a call pipefy cannot see into, `L.load(b)` on a loader whose type the template decides,
	 * may fill the tiles: such a loop is named too, with that call) */
	char *unseen = !writes && fx.unseen && fx.unseen_at != (size_t)-1 ? xstrdup(fx.unseen) : NULL;
	size_t unseen_at = fx.unseen_at;
	effects_free(&fx);
	/* (the function's first error: what pipefy cannot read may be the copies; one in the loop
	 * leaves what it writes unknown) */
	const struct diag *error = first_error_in(f, f->function_span);
	if (!syncs || (!writes && !unseen && !first_error_in(f, cursor_span(loop)))) {
		free(unseen);
		return;
	}
	struct kloop *l = VEC_PUSH(f->model->loops, f->model->nloops, f->model->caploops);
	l->cursor = loop;
	l->not_kloop = true;
	l->function = xstrdup(f->function_name);
	l->loop = cursor_span(loop);
	l->body = cursor_span(body);
	int line = 0, col = 0;
	struct prefetch_scan pre = {0};
	CXCursor at = !clang_Cursor_isNull(s.candidate) ? s.candidate : s.barrier;
	if (!clang_Cursor_isNull(at))
		source_line_col(f->src, cursor_span(at).begin, &line, &col);
	if (within)
		kloop_unknown(l, l->loop.begin, "it sits inside the K-loop at %s, whose remark says what became of it", within);
	else if (!clang_Cursor_isNull(s.candidate))
		kloop_unknown(l, l->loop.begin, "it holds the K-loop at %d:%d, which is the candidate", line, col);
	else if (error)
		kloop_unknown(l, l->loop.begin, "'%s' has parse errors (first at %d:%d: %s)", f->function_name, error->line,
			      error->col, error->message);
	/* (copies already asynchronous, or pipefy's own output: the first fact whatever the loop's form) */
	else if (!clang_Cursor_isNull(s.pipefy_call)) {
		int pl, pc;
		char *n = cursor_name(s.pipefy_call);
		source_line_col(f->src, cursor_span(s.pipefy_call).begin, &pl, &pc);
		kloop_unknown(l, l->loop.begin, "already pipelined by pipefy ('%s' at %d:%d)", n, pl, pc);
		free(n);
	} else if (!clang_Cursor_isNull(s.async_copy)) {
		int al, ac;
		bool in_asm = clang_getCursorKind(s.async_copy) != CXCursor_CallExpr;
		char *n = in_asm ? xstrdup("cp.async") : cursor_call_name(s.async_copy);
		source_line_col(f->src, cursor_span(s.async_copy).begin, &al, &ac);
		kloop_unknown(l, l->loop.begin, "its copies are asynchronous already ('%s'%s at %d:%d), which pipefy does not "
			      "stage again", n, in_asm ? " in the asm" : "", al, ac);
		free(n);
	} else if (!clang_Cursor_isNull(s.via_pointer) ||
		 (!clang_Cursor_isNull(s.pointer_store) && (!clang_Cursor_isNull(s.ldg) || cursor_loads_global(body)))) {
		/* (a store through a pointer, of a load or, where the loop loads, of a local) */
		refuse_pointer_store(f, l, loop, body, !clang_Cursor_isNull(s.via_pointer) ? s.via_pointer : s.pointer_store);
	} else if (!is_for && hand_prefetch(loop, body, &pre)) {
		char *tile = cursor_name(pre.tile), *reg = cursor_name(pre.reg);
		int sl, sc, ll, lc;
		source_line_col(f->src, cursor_span(pre.store).begin, &sl, &sc);
		source_line_col(f->src, pre.load_at, &ll, &lc);
		kloop_unknown(l, l->loop.begin, "already pipelined: '%s' is stored from register '%s' at %d:%d, loaded from "
			      "global memory at %d:%d before the compute reads the tiles (register prefetch, a %s loop)", tile,
			      reg, sl, sc, ll, lc, loop_word(loop));
		free(tile);
		free(reg);
	} else if (!is_for)
		kloop_unknown(l, l->loop.begin, "a %s loop; pipefy pipelines counted `for` loops whose body fills tiles "
			      "from global memory and synchronizes at its top level", loop_word(loop));
	else if (clang_Cursor_isNull(s.barrier))
		kloop_unknown(l, l->loop.begin, "the loop synchronizes only inside a function it calls");
	else if (clang_getCursorKind(body) == CXCursor_CompoundStmt && !top_level_sync(body))
		kloop_unknown(l, l->loop.begin, "its barrier (%d:%d) is nested inside a statement, not at the top of the "
			      "loop body", line, col);
	else if (!clang_Cursor_isNull(s.asm_store) || !clang_Cursor_isNull(s.asm_load)) {
		/* (copies written in PTX: `ld.global.nc` into a register, `st.shared` to an address) */
		bool store = !clang_Cursor_isNull(s.asm_store);
		int al, ac;
		source_line_col(f->src, cursor_span(store ? s.asm_store : s.asm_load).begin, &al, &ac);
		kloop_unknown(l, l->loop.begin, "the asm at %d:%d %s ('%s'), which pipefy does not read as a tile's %s", al,
			      ac, store ? "stores to shared memory" : "loads from global memory", store ? "st.shared" : "ld.global",
			      store ? "copy" : "load");
	} else if (!cursor_loads_global(body) && clang_Cursor_isNull(s.ldg) &&
		   (!clang_Cursor_isNull(s.async_wait) || (!clang_Cursor_isNull(s.asm_wait) &&
		     !clang_Cursor_isNull(first_async_copy(f->function, cursor_span(loop).begin, 3))))) {
		/* (a wait in the loop's own asm counts where the function issues cp.async before it) */
		CXCursor wait = !clang_Cursor_isNull(s.async_wait) ? s.async_wait : s.asm_wait;
		int wl, wc;
		bool in_asm = clang_getCursorKind(wait) != CXCursor_CallExpr;
		char *n = in_asm ? xstrdup("cp.async.wait_group") : cursor_name(wait);
		source_line_col(f->src, cursor_span(wait).begin, &wl, &wc);
		bool commit = cursor_is_call_named(wait, "__pipeline_commit");
		kloop_unknown(l, l->loop.begin, "its copies are asynchronous already: it %s cp.async groups ('%s'%s at "
			      "%d:%d), issued %s; it does not stage them again", commit ? "commits" : "waits for", n,
			      in_asm ? " in the asm" : "", wl, wc, in_asm ? "before the loop" : "in calls pipefy does not read");
		free(n);
	} else if (!cursor_loads_global(body) && clang_Cursor_isNull(s.ldg) && !clang_Cursor_isNull(s.call_store)) {
		int sl, sc;
		source_line_col(f->src, cursor_span(s.call_store).begin, &sl, &sc);
		CXCursor m = clang_getCursorReferenced(s.method);
		char *n = cursor_name(m), *cls = cursor_name(clang_getCursorSemanticParent(m));
		kloop_unknown(l, l->loop.begin, "no tile is filled from global memory that pipefy reads: the store at %d:%d "
			      "takes a call of '%s::%s', a member function it does not read as a load", sl, sc, cls, n);
		free(n);
		free(cls);
	} else if (unseen) {
		int ul, uc;
		source_line_col(f->src, unseen_at, &ul, &uc);
		kloop_unknown(l, l->loop.begin, "at %d:%d the loop %s, so pipefy cannot tell whether it fills tiles", ul, uc,
			      unseen);
	} else if (!cursor_loads_global(body) && clang_Cursor_isNull(s.ldg) && !clang_Cursor_isNull(s.user_call) &&
		   !callee_writes_shared(s.user_call)) {
		/* (a helper that fills through what pipefy does not read: a view's operator(), say) */
		int cl, cc;
		char *n = cursor_name(clang_getCursorReferenced(s.user_call));
		source_line_col(f->src, cursor_span(s.user_call).begin, &cl, &cc);
		kloop_unknown(l, l->loop.begin, "no tile is filled from global memory that pipefy reads: no load it reads in "
			      "the statements, and no store into a __shared__ array by name in '%s' (%d:%d)", n, cl, cc);
		free(n);
	} else if (!cursor_loads_global(body) && clang_Cursor_isNull(s.ldg))
		kloop_unknown(l, l->loop.begin, "no tile is filled from global memory in the loop (pipefy sees no load of "
			      "global memory in its statements)");
	else
		kloop_unknown(l, l->loop.begin, "no tile is filled from global memory in the loop: pipefy finds no store "
			      "of a global load into a __shared__ array (`As[i][j] = A[k]`, also in a helper handed the tile)");
	free(unseen);
}

struct loop_scan {
	struct finder *f;
	const char *within; /* "line:col" of the K-loop being scanned inside, or NULL */
};

static bool is_loop(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_CXXForRangeStmt;
}

static enum CXChildVisitResult scan_loops(CXCursor c, void *data)
{
	struct loop_scan *ls = data;
	if (!is_loop(c))
		return CXChildVisit_Recurse;
	/* (an explicit instantiation after an `extern template` declaration holds the template's
	 * body again, its loops at the same places: one entry a loop of the file) */
	for (int i = 0; i < ls->f->model->nloops; i++)
		if (ls->f->model->loops[i].loop.begin == cursor_span(c).begin)
			return CXChildVisit_Continue;
	CXCursor body = cursor_last_child(c);
	if (!ls->within && clang_getCursorKind(c) == CXCursor_ForStmt &&
	    clang_getCursorKind(body) == CXCursor_CompoundStmt && is_candidate(body)) {
		build_kloop(ls->f, c, body);
		/* its inner loops are the copies and the compute; one that synchronizes is noted */
		int line, col;
		source_line_col(ls->f->src, cursor_span(c).begin, &line, &col);
		char within[32];
		snprintf(within, sizeof within, "%d:%d", line, col);
		struct loop_scan inner = {ls->f, within};
		cursor_visit(body, scan_loops, &inner);
		return CXChildVisit_Continue;
	}
	note_other_loop(ls->f, c, ls->within);
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult scan_functions(CXCursor c, void *data)
{
	struct finder *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
	    k == CXCursor_StructDecl || k == CXCursor_ClassTemplate)
		return cursor_in_main_file(c) ? CXChildVisit_Recurse : CXChildVisit_Continue;
	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod)
		return CXChildVisit_Continue;
	if (!cursor_in_main_file(c) || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	if (!cursor_has_attr(c, CXCursor_CUDAGlobalAttr) && !cursor_has_attr(c, CXCursor_CUDADeviceAttr))
		return CXChildVisit_Continue;
	f->function_span = cursor_span(c);
	f->function = c;
	f->function_name = cursor_name(c);
	struct loop_scan ls = {f, NULL};
	cursor_visit(c, scan_loops, &ls);
	free(f->function_name);
	f->function_name = NULL;
	return CXChildVisit_Continue;
}

void find_kloops(struct model *m, const struct parsed *p, const struct source *src)
{
	struct finder f = {.parsed = p, .src = src, .model = m};
	m->other_files = p->other_files;
	pure_headers(p->pch);
	cursor_visit_file(p->tu, scan_functions, &f);
}

