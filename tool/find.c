/* find.c: walks kernels and __device__ functions and builds a K-loop model for each loop
 * whose body fills __shared__ tiles and synchronizes the block. */
#include "pipefy.h"

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

void kloop_refuse(struct kloop *l, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	struct refusal *r = VEC_PUSH(l->refusals, l->nrefusals, l->caprefusals);
	r->offset = offset;
	r->reason = xstrdup(buf);
}

static int find_ivar(struct kloop *l, CXCursor decl)
{
	for (int i = 0; i < l->nivars; i++)
		if (clang_equalCursors(l->ivars[i].decl, decl))
			return i;
	return -1;
}

static struct induction *add_ivar(struct kloop *l, CXCursor decl, const char *init)
{
	int i = find_ivar(l, decl);
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

static bool span_within(struct span inner, struct span outer)
{
	return inner.begin >= outer.begin && inner.end <= outer.end;
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
		add_ivar(l, v, NULL);
	else
		kloop_refuse(l, cursor_span(c).begin, "the loop increment is not a plain update of loop variables");
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
				kloop_refuse(l, cursor_offset(var), "loop variable '%s' has no initial value", name);
				free(name);
				continue;
			}
			char *text = span_text(src, cursor_span(init));
			add_ivar(l, var, text)->in_header = true;
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
			kloop_refuse(l, cursor_span(c).begin, "the loop initializer is not a plain assignment");
			return;
		}
		char *text = span_text(src, cursor_span(cursor_last_child(c)));
		add_ivar(l, v, text)->in_header = true;
		free(text);
	} else {
		kloop_refuse(l, cursor_span(c).begin, "the loop initializer is not a declaration or assignment");
	}
}

/* ---- stores into shared memory ---- */

struct store_scan {
	struct kloop *loop;
	const struct source *src;
	int nstores;      /* assignments into __shared__ arrays */
	int nother;       /* assignments to variables declared outside the statement */
	struct span stmt; /* the statement being scanned */
	bool record;      /* add the stores to loop->copies */
	CXCursor first_other;
};

static int tile_index(struct kloop *l, CXCursor decl)
{
	for (int i = 0; i < l->ntiles; i++)
		if (clang_equalCursors(l->tiles[i].decl, decl))
			return i;
	return -1;
}

static long array_elem(CXType t, CXType *elem)
{
	while (t.kind == CXType_ConstantArray || t.kind == CXType_DependentSizedArray ||
	       t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray)
		t = clang_getArrayElementType(t);
	*elem = t;
	return clang_Type_getSizeOf(t);
}

static int add_tile(struct kloop *l, CXCursor decl)
{
	int i = tile_index(l, decl);
	if (i >= 0)
		return i;
	struct tile *t = VEC_PUSH(l->tiles, l->ntiles, l->captiles);
	t->decl = decl;
	t->name = cursor_name(decl);
	t->name_end = cursor_offset(decl) + strlen(t->name);
	t->body_stmt = -1;
	CXType type = clang_getCursorType(decl), elem;
	t->elem_bytes = array_elem(type, &elem);
	t->elem_type = type_spelling(elem);
	t->bytes = clang_Type_getSizeOf(type);
	t->in_loop = span_within(cursor_span(decl), l->body);
	return l->ntiles - 1;
}

static bool same_type(CXType a, CXType b)
{
	return clang_equalTypes(clang_getCanonicalType(clang_getUnqualifiedType(clang_getCanonicalType(a))),
				clang_getCanonicalType(clang_getUnqualifiedType(clang_getCanonicalType(b))));
}

/* `__ldg(&A[i])` and the other cache-hinted loads read A[i]: the copy's source is A[i]. The
 * register variant keeps the call as written; cp.async has its own cache policy. */
static CXCursor unwrap_cache_hint(CXCursor c)
{
	static const char *const hinted[] = {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"};
	bool hint = false;
	for (size_t i = 0; i < sizeof hinted / sizeof *hinted; i++)
		hint |= cursor_is_call_named(c, hinted[i]);
	if (!hint)
		return c;
	struct cursors args = cursor_children(cursor_strip(c));
	CXCursor arg = args.n >= 1 ? cursor_strip(args.v[args.n - 1]) : clang_getNullCursor();
	free(args.v);
	if (args.n < 1 || clang_getCursorKind(arg) != CXCursor_UnaryOperator ||
	    clang_getCursorUnaryOperatorKind(arg) != CXUnaryOperator_AddrOf)
		return c;
	return cursor_strip(cursor_last_child(arg));
}

/* The span of the DeclRefExpr naming decl inside c, for a source that stays valid. */
struct ref_find {
	CXCursor decl;
	struct span found;
	bool ok;
};

static enum CXChildVisitResult find_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct ref_find *rf = data;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
	    clang_equalCursors(clang_getCursorReferenced(c), rf->decl)) {
		rf->found = cursor_span(c);
		rf->ok = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static void record_store(struct store_scan *s, CXCursor assign, CXCursor tile_decl)
{
	struct kloop *l = s->loop;
	CXCursor lhs, rhs_value;
	enum write_kind w = cursor_write_parts(assign, &lhs, &rhs_value);
	struct copy *cp = VEC_PUSH(l->copies, l->ncopies, l->capcopies);
	cp->store = assign;
	cp->value = rhs_value;
	cp->text = cursor_span(assign);
	cp->dst = cursor_span(lhs);
	cp->tile = add_tile(l, tile_decl);
	CXCursor dst = cursor_strip(lhs);
	if (clang_getCursorKind(dst) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(dst) == CXUnaryOperator_Deref) {
		cp->dst_is_deref = true;
		cp->dst_ptr = cursor_span(cursor_last_child(dst));
	}
	CXType dst_type = clang_getCursorType(lhs);
	cp->type = type_spelling(dst_type);
	cp->width = clang_Type_getSizeOf(dst_type);
	if (cp->type[0] == '<' && clang_getCursorKind(dst) == CXCursor_ArraySubscriptExpr) {
		/* In a template `As[ty][tx]` has a dependent type; the tile's element type is spelled
		 * in the template's own terms (`float`, or `T`). */
		const struct tile *t = &l->tiles[cp->tile];
		free(cp->type);
		cp->type = xstrdup(t->elem_type);
		cp->width = t->elem_bytes;
	}

	CXCursor rhs = cursor_strip(rhs_value), load = rhs, base;
	if (clang_getCursorKind(rhs) == CXCursor_ConditionalOperator) {
		struct cursors cs = cursor_children(rhs);
		if (cs.n == 3) {
			cp->guard = cursor_span(cs.v[0]);
			load = cursor_strip(cs.v[1]);
			cp->fill = cursor_span(cs.v[2]);
			cp->fill_value = cs.v[2];
		}
		free(cs.v);
	}
	/* An explicit conversion of the load, `(float)A[i]`, is still a copy, with conversion. */
	while (cursor_kind_is_cast(clang_getCursorKind(load))) {
		cp->conversion = true;
		load = cursor_strip(cursor_last_child(load));
	}
	load = unwrap_cache_hint(load);
	if (w == WRITE_ASSIGN && cursor_global_load(load, &base)) {
		cp->src = cursor_span(load);
		if (dst_type.kind == CXType_Dependent || dst_type.kind == CXType_Unexposed) {
			/* a tile whose size is a template parameter: the element type as declared */
			char *from = type_spelling(clang_getUnqualifiedType(clang_getCanonicalType(clang_getCursorType(load))));
			cp->conversion |= strcmp(from, l->tiles[cp->tile].elem_type) != 0;
			free(from);
		} else if (!same_type(clang_getCursorType(load), dst_type))
			cp->conversion = true;
		if (clang_getCursorKind(load) == CXCursor_UnaryOperator) {
			cp->src_is_deref = true;
			cp->src_ptr = cursor_span(cursor_last_child(load));
		}
		struct ref_find rf = {.decl = base};
		clang_visitChildren(load, find_ref, &rf);
		cp->src_base = rf.ok ? rf.found : cp->src;
	} else {
		cp->src = (struct span){0, 0}; /* not a load: check refuses it */
		cp->guard = (struct span){0, 0};
	}
	if (cursor_from_macro(assign) || cursor_from_macro(lhs))
		cp->tile = -1 - cp->tile; /* marks a copy check must refuse: inside a macro */
}

static enum CXChildVisitResult scan_stores(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct store_scan *s = data;
	bool store;
	CXCursor var = cursor_assigned_var(c, &store);
	if (store) {
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
			s->nstores++;
			if (s->record)
				record_store(s, cursor_strip(c), var);
		} else if (clang_Cursor_isNull(var) || !span_within(cursor_span(var), s->stmt)) {
			if (!s->nother++)
				s->first_other = c;
		}
	}
	return CXChildVisit_Recurse;
}

/* Lines the statement owns: from its line's start when only blanks precede it, through the
 * newline when only blanks (and a ';') follow. Deleting those keeps the layout clean. */
static struct span whole_lines(const struct source *src, struct span s)
{
	size_t b = s.begin < src->len ? s.begin : src->len, e = s.end < src->len ? s.end : src->len;
	while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
		e++;
	if (e < src->len && src->text[e] == ';')
		e++;
	size_t text_end = e;
	while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
		e++;
	size_t lb = b;
	while (lb > 0 && (src->text[lb - 1] == ' ' || src->text[lb - 1] == '\t'))
		lb--;
	bool own_start = lb == 0 || src->text[lb - 1] == '\n';
	bool own_end = e >= src->len || src->text[e] == '\n';
	if (own_start && own_end)
		return (struct span){lb, e < src->len ? e + 1 : e};
	return (struct span){b, text_end};
}

/* Reads no shared memory and nothing declared in the body: the same amount every trip. */
struct invariance {
	struct span body;
	CXCursor body_cursor;
	CXCursor target;
	bool invariant;
	bool reads_target;
};

static enum CXChildVisitResult scan_invariance(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct invariance *inv = data;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (clang_equalCursors(d, inv->target)) {
			inv->reads_target = true;
			return CXChildVisit_Continue;
		}
		if (cursor_is_shared_var(d) || span_within(cursor_span(d), inv->body) || cursor_writes_var(inv->body_cursor, d)) {
			inv->invariant = false;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* An induction step: an integer or pointer declared outside the body, advanced by an
 * invariant amount. A float accumulator (`acc += ...`) is compute, not a bump. */
static bool is_bump(struct kloop *l, CXCursor stmt, CXCursor var)
{
	if (clang_Cursor_isNull(var) || span_within(cursor_span(var), l->body))
		return false;
	CXCursor target, value;
	enum write_kind w = cursor_write_parts(stmt, &target, &value);
	if (w == WRITE_NONE || clang_getCursorKind(cursor_strip(target)) != CXCursor_DeclRefExpr)
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(var));
	bool integer = t.kind >= CXType_Char_U && t.kind <= CXType_Int128 && t.kind != CXType_Char16 &&
		       t.kind != CXType_Char32 && t.kind != CXType_WChar && t.kind != CXType_Bool;
	if (!integer && t.kind != CXType_Pointer)
		return false;
	/* `x = x + s` must read x; `x = f(...)` is a plain assignment, not a step */
	struct invariance inv = {.body = l->body, .body_cursor = cursor_last_child(l->cursor), .target = var, .invariant = true};
	if (!clang_Cursor_isNull(value))
		clang_visitChildren(value, scan_invariance, &inv);
	if (!clang_Cursor_isNull(value) && clang_getCursorKind(cursor_strip(value)) == CXCursor_DeclRefExpr)
		scan_invariance(cursor_strip(value), value, &inv);
	return inv.invariant && (w == WRITE_UPDATE || inv.reads_target);
}

/* The single statement of a branch: `X = v;` or `{ X = v; }`. */
static CXCursor only_stmt(CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_CompoundStmt)
		return c;
	struct cursors cs = cursor_children(c);
	CXCursor r = cs.n == 1 ? cs.v[0] : clang_getNullCursor();
	free(cs.v);
	return r;
}

/* `if (g) X = load; else X = fill;` is one guarded copy, the same as `X = g ? load : fill`. */
static bool record_if_copy(struct store_scan *s, CXCursor ifstmt)
{
	struct cursors cs = cursor_children(ifstmt);
	bool ok = false;
	if (cs.n == 3) {
		CXCursor then_store = only_stmt(cs.v[1]), else_store = only_stmt(cs.v[2]);
		CXCursor t_dst, t_val, e_dst, e_val, base;
		if (!clang_Cursor_isNull(then_store) && !clang_Cursor_isNull(else_store) &&
		    cursor_write_parts(then_store, &t_dst, &t_val) == WRITE_ASSIGN &&
		    cursor_write_parts(else_store, &e_dst, &e_val) == WRITE_ASSIGN && cursor_is_shared_var(cursor_root_var(t_dst))) {
			char *a = span_text(s->src, cursor_span(t_dst)), *b = span_text(s->src, cursor_span(e_dst));
			ok = strcmp(a, b) == 0 && cursor_global_load(cursor_strip(t_val), &base) && !cursor_global_load(cursor_strip(e_val), &base);
			free(a);
			free(b);
		}
		if (ok) {
			record_store(s, cursor_strip(then_store), cursor_root_var(t_dst));
			struct copy *cp = &s->loop->copies[s->loop->ncopies - 1];
			cp->text = cursor_span(ifstmt);
			cp->guard = cursor_span(cs.v[0]);
			cp->fill = cursor_span(e_val);
			cp->fill_value = e_val;
			cp->guard_is_if = true;
		}
	}
	free(cs.v);
	return ok;
}

/* Comments, pragmas and blank lines before a statement travel with it (`#pragma unroll`
 * stays on its loop); those after the last statement are the body's tail. */
static void attach_leading_lines(const struct source *src, struct kloop *l)
{
	size_t prev = l->body.begin + 1;
	while (prev < src->len && (src->text[prev] == ' ' || src->text[prev] == '\t'))
		prev++;
	if (prev < src->len && src->text[prev] == '\n')
		prev++;
	else
		prev = (size_t)-1;
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		bool owns_start = st->span.begin == 0 || src->text[st->span.begin - 1] == '\n';
		if (owns_start && prev != (size_t)-1 && prev <= st->span.begin)
			st->span.begin = prev;
		prev = st->span.end > 0 && src->text[st->span.end - 1] == '\n' ? st->span.end : (size_t)-1;
	}
	size_t close = l->body.end - 1; /* the '}' */
	size_t line = close;
	while (line > 0 && (src->text[line - 1] == ' ' || src->text[line - 1] == '\t'))
		line--;
	if (prev != (size_t)-1 && line > 0 && src->text[line - 1] == '\n' && prev < line)
		l->tail = (struct span){prev, line};
}

static void classify_body(struct finder *f, struct kloop *l, CXCursor body)
{
	const struct source *src = f->src;
	struct cursors cs = cursor_children(body);
	for (int i = 0; i < cs.n; i++) {
		CXCursor c = cs.v[i];
		struct body_stmt *st = VEC_PUSH(l->stmts, l->nstmts, l->capstmts);
		st->cursor = c;
		st->text = cursor_span(c);
		st->span = whole_lines(src, st->text);
		/* the statement's text ends at its ';' */
		if (st->span.end > st->text.end && src->text[st->span.end - 1] != '\n')
			st->text.end = st->span.end;
		else {
			size_t e = st->text.end;
			while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
				e++;
			if (e < src->len && src->text[e] == ';')
				st->text.end = e + 1;
		}
		st->role = ROLE_COMPUTE;
		if (cursor_is_barrier(c)) {
			st->role = ROLE_BARRIER;
			l->nbarriers++;
			continue;
		}
		if (cursor_is_call_named(c, "__syncwarp"))
			l->nwarp_syncs++;
		if (clang_getCursorKind(c) == CXCursor_IfStmt) {
			struct store_scan rec = {.loop = l, .src = src, .stmt = cursor_span(c), .record = true};
			if (record_if_copy(&rec, c)) {
				st->role = ROLE_COPY;
				l->copies[l->ncopies - 1].stmt = l->nstmts - 1;
				l->copies[l->ncopies - 1].text = st->text; /* its replacement ends the statement */
				continue;
			}
		}
		if (clang_getCursorKind(c) == CXCursor_DeclStmt) {
			struct cursors vars = cursor_children(c);
			bool shared = false;
			for (int j = 0; j < vars.n; j++)
				if (cursor_is_shared_var(vars.v[j]))
					shared = true;
			free(vars.v);
			if (shared) {
				st->role = ROLE_TILE_DECL;
				continue;
			}
		}
		struct store_scan s = {.loop = l, .src = src, .stmt = cursor_span(c)};
		clang_visitChildren(c, scan_stores, &s);
		/* An expression statement is itself the assignment: scan it too. */
		{
			bool store;
			CXCursor var = cursor_assigned_var(c, &store);
			if (store) {
				if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var))
					s.nstores++;
				else if (!s.nother++)
					s.first_other = c;
			}
		}
		if (s.nstores > 0) {
			st->role = ROLE_COPY;
			struct store_scan rec = {.loop = l, .src = src, .stmt = cursor_span(c), .record = true};
			bool store;
			CXCursor var = cursor_assigned_var(c, &store);
			int before = l->ncopies;
			if (store && !clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
				record_store(&rec, cursor_strip(c), var);
			} else
				clang_visitChildren(c, scan_stores, &rec);
			for (int k = before; k < l->ncopies; k++)
				l->copies[k].stmt = l->nstmts - 1;
			if (s.nother > 0)
				kloop_refuse(l, cursor_span(s.first_other).begin,
					     "a statement that fills a tile also writes other state");
			continue;
		}
		bool store;
		CXCursor var = cursor_assigned_var(c, &store);
		if (store && is_bump(l, c, var)) {
			/* `A += BK;`, `++k;`: an induction variable the body advances. */
			st->role = ROLE_BUMP;
			add_ivar(l, var, NULL);
		}
	}
	free(cs.v);
	attach_leading_lines(src, l);
}

/* A local declared in the body that the copies read is computed again by the loader. */
struct ref_scan {
	CXCursor decl;
	bool found;
};

static enum CXChildVisitResult scan_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct ref_scan *r = data;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
	    clang_equalCursors(clang_getCursorReferenced(c), r->decl)) {
		r->found = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static bool references(CXCursor in, CXCursor decl)
{
	struct ref_scan r = {.decl = decl};
	clang_visitChildren(in, scan_ref, &r);
	return r.found;
}

/* `float4 a = *p;` initializes through float4's copy constructor: a call of one argument. */
static bool is_copy_construct(CXCursor c)
{
	c = cursor_strip(c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return false;
	CXCursor callee = clang_getCursorReferenced(c);
	struct cursors cs = cursor_children(c);
	bool r = clang_getCursorKind(callee) == CXCursor_Constructor && cs.n == 1;
	free(cs.v);
	return r;
}

/* `float4 a = *(const float4 *)&A[i];`: every variable loaded straight from global memory. */
static bool is_fetch_decl(CXCursor decl_stmt)
{
	struct cursors vars = cursor_children(decl_stmt);
	bool all = vars.n > 0;
	for (int v = 0; v < vars.n && all; v++) {
		CXCursor init = cursor_last_child(vars.v[v]), base;
		while (!clang_Cursor_isNull(init) && (cursor_kind_is_cast(clang_getCursorKind(cursor_strip(init))) || is_copy_construct(init)))
			init = cursor_last_child(cursor_strip(init));
		all = clang_getCursorKind(vars.v[v]) == CXCursor_VarDecl && !clang_Cursor_isNull(init) &&
		      cursor_global_load(init, &base);
	}
	free(vars.v);
	return all;
}

/* Copies that store a fetched local are register-staged copies, not computed values. */
static void mark_register_copies(struct kloop *l)
{
	for (int i = 0; i < l->ncopies; i++) {
		struct copy *cp = &l->copies[i];
		if (cp->src.end > cp->src.begin || clang_Cursor_isNull(cp->value))
			continue;
		CXCursor v = cursor_root_var(cp->value);
		if (clang_Cursor_isNull(v))
			continue;
		for (int j = 0; j < l->nstmts; j++)
			if (l->stmts[j].role == ROLE_FETCH_DECL && span_within(cursor_span(v), l->stmts[j].text))
				cp->from_register = true;
	}
}

/* Whether statement `user` reads a variable the declaration statement `decl` declares. */
static bool stmt_reads_decl(CXCursor user, CXCursor decl)
{
	struct cursors vars = cursor_children(decl);
	bool found = false;
	for (int v = 0; v < vars.n && !found; v++)
		found = clang_getCursorKind(vars.v[v]) == CXCursor_VarDecl && references(user, vars.v[v]);
	free(vars.v);
	return found;
}

/* Locals the copies need, directly or through other such locals, go with the copies; those
 * the compute reads too stay in the body as well. */
static void mark_copy_decls(struct kloop *l)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (int i = 0; i < l->nstmts; i++) {
			struct body_stmt *st = &l->stmts[i];
			if (st->role != ROLE_COMPUTE || clang_getCursorKind(st->cursor) != CXCursor_DeclStmt)
				continue;
			for (int j = i + 1; j < l->nstmts && st->role == ROLE_COMPUTE; j++) {
				enum stmt_role r = l->stmts[j].role;
				if ((r == ROLE_COPY || r == ROLE_COPY_DECL) && stmt_reads_decl(l->stmts[j].cursor, st->cursor)) {
					st->role = ROLE_COPY_DECL;
					changed = true;
				}
			}
		}
	}
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		if (st->role != ROLE_COPY_DECL)
			continue;
		if (is_fetch_decl(st->cursor))
			st->role = ROLE_FETCH_DECL;
		for (int j = i + 1; j < l->nstmts; j++) {
			enum stmt_role r = l->stmts[j].role;
			if (r != ROLE_COPY && r != ROLE_COPY_DECL && r != ROLE_FETCH_DECL &&
			    stmt_reads_decl(l->stmts[j].cursor, st->cursor))
				st->also_compute = true;
		}
	}
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_TILE_DECL) {
			struct cursors vars = cursor_children(l->stmts[i].cursor);
			for (int v = 0; v < vars.n; v++) {
				int t = tile_index(l, vars.v[v]);
				if (t >= 0)
					l->tiles[t].body_stmt = i;
			}
			free(vars.v);
		}
}

struct tile_ref_scan {
	struct kloop *loop;
	int stmt;
	bool outside; /* scanning the function around the loop */
};

static enum CXChildVisitResult scan_tile_refs(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct tile_ref_scan *s = data;
	struct kloop *l = s->loop;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	int t = tile_index(l, clang_getCursorReferenced(c));
	if (t < 0)
		return CXChildVisit_Continue;
	struct span at = cursor_span(c);
	if (s->outside) {
		if (!span_within(at, l->loop) && !l->tiles[t].outside_use)
			l->tiles[t].outside_use = at.begin + 1;
		return CXChildVisit_Continue;
	}
	struct tile_ref *r = VEC_PUSH(l->refs, l->nrefs, l->caprefs);
	r->at = at;
	r->tile = t;
	r->stmt = s->stmt;
	r->in_macro = cursor_from_macro(c);
	return CXChildVisit_Continue;
}

static void collect_tile_refs(struct kloop *l, CXCursor function)
{
	for (int i = 0; i < l->nstmts; i++) {
		struct tile_ref_scan s = {.loop = l, .stmt = i};
		CXCursor c = l->stmts[i].cursor;
		if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
			scan_tile_refs(c, c, &s);
		else
			clang_visitChildren(c, scan_tile_refs, &s);
	}
	struct tile_ref_scan s = {.loop = l, .outside = true};
	clang_visitChildren(function, scan_tile_refs, &s);
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
static enum CXChildVisitResult scan_tile_args(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && cursor_is_shared_var(clang_getCursorReferenced(c))) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* What a body does with tiles: stores whose value reads global memory, and calls that are
 * handed a tile (a helper, or an asynchronous copy). */
struct tile_use {
	int global_stores;
	int tile_calls;
	int tile_stores;  /* from anything: a register a previous trip loaded, say */
	int global_reads;
};

static enum CXChildVisitResult scan_global_read(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	CXCursor base;
	if (cursor_global_load(c, &base)) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult scan_tile_use(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct tile_use *u = data;
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) == WRITE_ASSIGN && cursor_is_shared_var(cursor_root_var(target))) {
		bool global = false;
		if (!clang_Cursor_isNull(value)) {
			scan_global_read(value, c, &global);
			clang_visitChildren(value, scan_global_read, &global);
		}
		u->global_stores += global;
		u->tile_stores++;
	} else if (clang_getCursorKind(c) == CXCursor_CallExpr || clang_getCursorKind(c) == CXCursor_UnexposedExpr) {
		bool tile = false;
		clang_visitChildren(c, scan_tile_args, &tile);
		u->tile_calls += tile && clang_getCursorKind(c) == CXCursor_CallExpr;
	}
	CXCursor base;
	u->global_reads += cursor_global_load(c, &base);
	return CXChildVisit_Recurse;
}

/* A K-loop candidate: the body synchronizes (the block, or warps) at its top level, and
 * fills tiles from global memory (directly, or through registers it loads) or hands them to
 * a call. A loop that only moves shared data around (a reduction) is not one. */
static bool is_candidate(CXCursor body)
{
	struct cursors cs = cursor_children(body);
	bool sync = false;
	for (int i = 0; i < cs.n; i++)
		if (cursor_is_barrier(cs.v[i]) || cursor_is_call_named(cs.v[i], "__syncwarp"))
			sync = true;
	free(cs.v);
	if (!sync)
		return false;
	struct tile_use u = {0};
	clang_visitChildren(body, scan_tile_use, &u);
	/* tiles stored from registers while the body loads global memory: a register prefetch,
	 * refused by check with that reason rather than passed over in silence */
	return u.global_stores > 0 || u.tile_calls > 0 || (u.tile_stores > 0 && u.global_reads > 0);
}

/* ---- a helper that fills the tiles ---- */

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
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	h->refusal = xstrdup(buf);
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
	struct helper_store st = {.text = cursor_span(assign), .dst = cursor_span(lhs)};
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
	load = unwrap_cache_hint(load);
	if (!cursor_global_load(load, &base)) {
		char *v = span_text(hs->src, cursor_span(value));
		helper_refuse(h, assign, "'%s' stores '%s' into a tile, not a load from global memory", h->name, v);
		free(v);
		return;
	}
	if (!same_type(clang_getCursorType(load), clang_getCursorType(lhs))) {
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
		if (clang_Cursor_isNull(var) || !span_within(cursor_span(var), hs->h->def) ||
		    clang_getCursorKind(var) == CXCursor_ParmDecl) {
			char *t = span_text(hs->src, cursor_span(target));
			helper_refuse(hs->h, c, "'%s' writes '%s', not only the tiles", hs->h->name, t);
			free(t);
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* `load_tile(As, Bs, A, B, row, col, k0)`: the callee, defined in this file before the loop,
 * must only copy global memory into the tiles it is handed, and the arguments must not change
 * inside the loop except by the loop's own variables. Sets helper.refusal when it cannot be
 * pipelined. */
static void analyze_helper(struct finder *f, struct kloop *l, CXCursor body)
{
	const struct source *src = f->src;
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
			add_tile(l, var);
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
			if (clang_getCursorKind(refs.v[r]) == CXCursor_VarDecl && find_ivar(l, refs.v[r]) < 0 &&
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
		const char *p = src->text + prev;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			break;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "pragma", 6) != 0 || src->text[s.begin - 2] == '\\')
			break;
		s.begin = prev;
	}
	return s;
}

/* `for (T i = E0; i < N; i += S) { ...copies... }` at the top of the body, N a constant and S
 * a constant or blockDim.x: the register variant can stage such a loop with one register per
 * trip. Records its numbers and parts in the statement (whether its trip count means the same
 * in front of the loop is check's question). */
static void copy_loop_shape(struct body_stmt *st, const struct source *src)
{
	struct cursors kids = cursor_children(st->cursor), var = {0};
	if (kids.n != 4 || clang_getCursorKind(kids.v[0]) != CXCursor_DeclStmt ||
	    clang_getCursorKind(kids.v[1]) != CXCursor_BinaryOperator ||
	    clang_getCursorBinaryOperatorKind(kids.v[1]) != CXBinaryOperator_LT ||
	    clang_getCursorKind(kids.v[2]) != CXCursor_CompoundAssignOperator ||
	    clang_getCursorBinaryOperatorKind(kids.v[2]) != CXBinaryOperator_AddAssign)
		goto done;
	/* the bound: a constant; the stride: a constant, or blockDim.x */
	bool ok;
	CXCursor bound = cursor_last_child(kids.v[1]), step = cursor_last_child(kids.v[2]);
	long N = cursor_evaluate_int(bound, &ok);
	if (!ok)
		N = 0;
	long S = cursor_evaluate_int(step, &ok);
	if (!ok)
		S = -1;
	char *step_text = span_text(src, cursor_span(step));
	bool block_stride = strcmp(step_text, "blockDim.x") == 0;
	free(step_text);
	if (N <= 0 || (S <= 0 && !block_stride))
		goto done;
	/* one variable, initialized */
	var = cursor_children(kids.v[0]);
	if (var.n != 1 || clang_getCursorKind(var.v[0]) != CXCursor_VarDecl)
		goto done;
	CXCursor init = cursor_last_child(var.v[0]);
	if (clang_Cursor_isNull(init))
		goto done;
	st->copy_bound_expr = cursor_span(bound);
	st->copy_stride_expr = cursor_span(step);
	st->copy_bound = N;
	st->copy_stride = block_stride ? 0 : S;
	/* `int i`: from the declaration's start through the variable's name */
	unsigned name_at;
	clang_getExpansionLocation(clang_getCursorLocation(var.v[0]), NULL, NULL, NULL, &name_at);
	char *name = cursor_name(var.v[0]);
	st->copy_var = (struct span){cursor_span(kids.v[0]).begin, name_at + strlen(name)};
	free(name);
	st->copy_init = cursor_span(init);
	st->copy_cond = cursor_span(kids.v[1]);
	st->copy_body = cursor_span(kids.v[3]);
done:
	free(kids.v);
	free(var.v);
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
	for (int i = 0; i < f->parsed->ndiags; i++) {
		const struct diag *d = &f->parsed->diags[i];
		if (d->offset != (size_t)-1 && d->offset >= f->function_span.begin && d->offset < f->function_span.end) {
			l->function_has_errors = true;
			l->function_error = xprintf("%d:%d: %s", d->line, d->col, d->message);
			break;
		}
	}
	if (!split_header(l, f->parsed->tu, loop)) {
		kloop_refuse(l, l->loop.begin, "cannot read the loop header");
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
		kloop_refuse(l, l->body.begin, "the loop body takes statements from another file (an #include inside it)");
		free(stmts.v);
		return;
	}
	free(stmts.v);
	classify_body(f, l, body);
	for (int i = 0; i < l->nstmts && l->ncopies == 0 && !l->helper_fill; i++) {
		bool tile_call = false;
		if (clang_getCursorKind(cursor_strip(l->stmts[i].cursor)) == CXCursor_CallExpr)
			clang_visitChildren(l->stmts[i].cursor, scan_tile_args, &tile_call);
		if (tile_call)
			l->helper_fill = l->stmts[i].text.begin + 1;
	}
	l->helper.stmt = -1;
	if (l->ncopies == 0 && l->helper_fill)
		analyze_helper(f, l, body);
	/* after the helper's call became a copy: the locals it reads go with it (found by the
	 * program generator, seed 142: `int k0 = t * TS;` stayed behind, and validation refused
	 * the rewrite that named an undeclared k0) */
	mark_copy_decls(l);
	mark_register_copies(l);
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY && clang_getCursorKind(l->stmts[i].cursor) == CXCursor_ForStmt)
			copy_loop_shape(&l->stmts[i], src);
	collect_tile_refs(l, f->function);
	l->function_cursor = f->function;
	l->function_span = f->function_span;
	l->unit = unit_of(src, l);
}

struct loop_scan {
	struct finder *f;
};

static enum CXChildVisitResult scan_loops(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct loop_scan *ls = data;
	if (clang_getCursorKind(c) == CXCursor_ForStmt) {
		CXCursor body = cursor_last_child(c);
		if (clang_getCursorKind(body) == CXCursor_CompoundStmt && is_candidate(body)) {
			build_kloop(ls->f, c, body);
			return CXChildVisit_Continue; /* its inner loops are the copies and the compute */
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult scan_functions(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
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
	struct loop_scan ls = {f};
	clang_visitChildren(c, scan_loops, &ls);
	free(f->function_name);
	f->function_name = NULL;
	return CXChildVisit_Continue;
}

void find_kloops(struct model *m, const struct parsed *p, const struct source *src)
{
	struct finder f = {.parsed = p, .src = src, .model = m};
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu), scan_functions, &f);
}

long kloop_tile_bytes(const struct kloop *l)
{
	long sum = 0;
	for (int i = 0; i < l->ntiles; i++) {
		if (l->tiles[i].bytes < 0)
			return -1;
		sum += l->tiles[i].bytes;
	}
	return sum;
}

void model_free(struct model *m)
{
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		free(l->function);
		free(l->function_error);
		for (int j = 0; j < l->helper.nstores; j++) {
			free(l->helper.stores[j].base);
			free(l->helper.stores[j].type);
		}
		free(l->helper.stores);
		free(l->helper.name);
		free(l->helper.refusal);
		free(l->block_source);
		free(l->mangled);
		for (int j = 0; j < l->noptions; j++)
			free(l->options[j].verdict);
		free(l->indent);
		free(l->unit);
		for (int j = 0; j < l->nivars; j++) {
			free(l->ivars[j].name);
			free(l->ivars[j].type);
			free(l->ivars[j].init);
		}
		free(l->ivars);
		for (int j = 0; j < l->ntiles; j++) {
			free(l->tiles[j].name);
			free(l->tiles[j].elem_type);
		}
		free(l->tiles);
		for (int j = 0; j < l->ncopies; j++)
			free(l->copies[j].type);
		free(l->copies);
		free(l->stmts);
		free(l->refs);
		for (int j = 0; j < l->nrefusals; j++)
			free(l->refusals[j].reason);
		free(l->refusals);
		free(l->cp_async_refusal);
		free(l->ldg_refusal);
		free(l->plan_note);
		free(l->plan_reason);
	}
	free(m->loops);
	memset(m, 0, sizeof *m);
}
