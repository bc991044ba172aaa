/* body.c: the K-loop body read statement by statement (part of find): which statements fill
 * the tiles and how (the copies, guarded or not, straight or through registers, in copy
 * loops), which are barriers, bumps of the loop variables, locals the copies need, and the
 * tiles themselves. */
#include "cursor.h"
#include "find.h"

#include <stdlib.h>

struct store_scan {
	struct kloop *loop;
	const struct source *src;
	int nstores;      /* assignments into __shared__ arrays */
	int nother;       /* assignments to variables declared outside the statement */
	struct span stmt; /* the statement being scanned */
	bool record;      /* add the stores to loop->copies */
	CXCursor first_other;
	int nfar;         /* of those, writes that are not to a local the body declared before it,
			   * nor to a local of the function (which may be scratch: mark_copy_decls) */
	CXCursor first_far;
	int nouter;       /* writes that are not to a local the body declared before it */
	CXCursor first_outer;
};

static CXCursor register_lvalue_var(CXCursor e);

int kloop_tile(const struct kloop *l, CXCursor decl)
{
	for (int i = 0; i < l->ntiles; i++)
		if (clang_equalCursors(l->tiles[i].decl, decl))
			return i;
	return -1;
}

int kloop_add_tile(struct kloop *l, CXCursor decl)
{
	int i = kloop_tile(l, decl);
	if (i >= 0)
		return i;
	struct tile *t = VEC_PUSH(l->tiles, l->ntiles, l->captiles);
	t->decl = decl;
	t->name = cursor_name(decl);
	t->name_end = cursor_offset(decl) + strlen(t->name);
	t->body_stmt = -1;
	CXType type = clang_getCursorType(decl), elem;
	enum CXTypeKind k = clang_getCanonicalType(type).kind;
	if (k == CXType_Pointer) /* a view: elements of what it points at, as many as the launch gives */
		type = clang_getPointeeType(clang_getCanonicalType(type));
	elem = type_array_element(type);
	t->elem_bytes = clang_Type_getSizeOf(elem);
	t->elem_type = type_spelling(elem);
	t->dynamic = k == CXType_Pointer || k == CXType_IncompleteArray;
	t->bytes = t->dynamic ? -1 : clang_Type_getSizeOf(type);
	t->in_loop = cursor_declared_within(decl, l->body);
	return l->ntiles - 1;
}

static bool is_conversion_call(CXCursor c);

/* The load inside `(float)A[i]`, `__half2float(A[i])` or a copy-construction of it by a type
 * of the toolkit's headers (a `half` ternary's branch); *conversion is set when the value is
 * converted on the way. */
static CXCursor strip_conversions(CXCursor load, bool *conversion)
{
	for (load = cursor_strip(load);; load = cursor_strip(cursor_last_child(load))) {
		if (cursor_kind_is_cast(clang_getCursorKind(load)) || is_conversion_call(load))
			*conversion = true;
		else if (!cursor_copy_construct(load) || !effects_in_system_header(clang_getCursorReferenced(load)))
			return load;
	}
}

/* `__half2float(x)`, `__float2bfloat16(x)`: a conversion between CUDA's number types, declared
 * in the toolkit's headers, of one argument. */
static bool is_conversion_call(CXCursor c)
{
	static const char *const conversions[] = {"__half2float", "__float2half", "__float2half_rn", "__bfloat162float",
						  "__float2bfloat16", "__float2bfloat16_rn", "__int2float_rn",
						  "__half2int_rn", "__int2half_rn", NULL};
	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 1)
		return false;
	CXCursor callee = clang_getCursorReferenced(c);
	char *name = cursor_name(c);
	bool r = false;
	for (const char *const *k = conversions; *k && !r; k++)
		r = strcmp(name, *k) == 0;
	free(name);
	return r && effects_in_system_header(callee);
}

/* One side of a copy as the file writes it: written out, or one macro's whole use whose expansion
 * is no operator expression (`&M(x)`, `M(x) = r` and `r = M(x)` then mean what the expansion
 * does: `c ? a : b` or `a, b` would not). */
static bool side_span(const struct source *src, CXCursor c, struct span *out)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BinaryOperator || k == CXCursor_ConditionalOperator || k == CXCursor_CompoundAssignOperator)
		return false;
	if (cursor_written_in_file(c)) {
		*out = cursor_written_span(c);
		return true;
	}
	return cursor_macro_use(src, c, out);
}

/* A copy written with macros around its sides, `FLOAT4(s_a[i]) = FLOAT4(a[j]);` (public kernels'
 * vector copies), or storing a register (`FLOAT4(s_b[k][n]) = FLOAT4(r[0]);`, check reads its
 * value): each side written out or one macro's whole use, the '=' between them written in the
 * file; then its parts are where the file writes them, and the tile's name, written as a
 * macro's argument, takes its stage there (find.c). Guarded and `*p` forms stay refused. */
static bool macro_copy(const struct source *src, CXCursor lhs, CXCursor rhs, struct copy *cp)
{
	struct span d, v;
	if (cp->guard.end > cp->guard.begin || cp->dst_is_deref || cp->src_is_deref || !side_span(src, lhs, &d) ||
	    !side_span(src, rhs, &v))
		return false;
	size_t p = d.end;
	while (p < src->len && strchr(" \t\r\n", src->text[p]) && src->text[p])
		p++;
	if (p + 1 >= src->len || src->text[p] != '=' || src->text[p + 1] == '=')
		return false;
	for (p++; p < src->len && strchr(" \t\r\n", src->text[p]) && src->text[p];)
		p++;
	if (p != v.begin)
		return false;
	cp->text = (struct span){d.begin, v.end};
	cp->dst = d;
	if (cp->src.end > cp->src.begin) /* (a load; a register's copy has none) */
		cp->src = cp->src_base = v;
	cp->value_span = v;
	cp->in_macro = true;
	return true;
}

/* Whether a value is computed from global memory alone: it loads from it, names no __shared__
 * variable and calls only pure functions of the toolkit and the C library (`expf`, `fmaxf`:
 * what they read is their arguments; effects_pure_call); check's effects judge the rest. */
struct computed_scan {
	bool load, bad;
};

static enum CXChildVisitResult scan_computed(CXCursor c, void *data)
{
	struct computed_scan *s = data;
	CXCursor base;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr && cursor_is_shared_var(clang_getCursorReferenced(c)))
		s->bad = true;
	else if (k == CXCursor_CallExpr && cursor_load_function(c))
		s->load = true; /* (`GetValue(A, K, r, c)`, `return Mat[r * N + c];`: its arguments are
				 * scanned on, a tile's name among them refused) */
	else if (k == CXCursor_CallExpr && effects_load_function(c))
		s->load = true;
	else if (k == CXCursor_CallExpr && cursor_plain_copy_construct(c))
		; /* (a plain struct handed by value, `GetElement(Asub, r, c)`: its copy runs no code) */
	else if (k == CXCursor_CallExpr && !effects_pure_call(c) && !pure_program_call(c))
		s->bad = true; /* (a clock, another lane, a write: not a value to compute a tile early) */
	else if (k == CXCursor_LambdaExpr || k == CXCursor_StmtExpr)
		s->bad = true;
	else if (cursor_global_load(c, &base))
		s->load = true;
	return s->bad ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool computed_from_global(CXCursor value)
{
	struct computed_scan s = {0};
	scan_computed(value, &s);
	if (!s.bad)
		cursor_visit(value, scan_computed, &s);
	return s.load && !s.bad;
}



static bool references(CXCursor in, CXCursor decl);

/* Whether e names no shared variable but array. */
static enum CXChildVisitResult scan_other_shared(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	CXCursor *array = data;
	if (!cursor_is_shared_var(d) || clang_equalCursors(d, *array))
		return CXChildVisit_Recurse;
	*array = clang_getNullCursor();
	return CXChildVisit_Break;
}

/* A view the loop's body declares (`float4 *const A4s = (float4 *)&As[ty][t4x];`, then
 * `*A4s = *A4;`): the static __shared__ array its initializer names, and no other shared
 * variable, is the copy's tile, reached through the view's declaration (*view; check proves
 * that the copies alone use it). Any other store target is its own tile. */
static CXCursor copy_view_array(const struct kloop *l, CXCursor decl, CXCursor *view)
{
	*view = clang_getNullCursor();
	if (cursor_is_shared_decl(decl) || !cursor_declared_within(decl, l->body))
		return decl;
	CXCursor array = cursor_shared_array(decl), init = cursor_last_child(decl);
	enum CXTypeKind k = clang_Cursor_isNull(array) ? CXType_Invalid : clang_getCanonicalType(clang_getCursorType(array)).kind;
	if (k != CXType_ConstantArray && k != CXType_DependentSizedArray)
		return decl;
	CXCursor only = array;
	cursor_visit_names(init, scan_other_shared, &only);
	if (clang_Cursor_isNull(only) || !references(init, array))
		return decl;
	*view = decl;
	return array;
}

static void record_store(struct store_scan *s, CXCursor assign, CXCursor tile_decl)
{
	struct kloop *l = s->loop;
	CXCursor lhs, rhs_value;
	enum write_kind w = cursor_write_parts(assign, &lhs, &rhs_value);
	/* (a class's operator= can show twice, as the call and as the expression wrapping it: one
	 * store, one copy) */
	struct span at = cursor_span(assign);
	for (int i = 0; i < l->ncopies; i++)
		if (l->copies[i].text.begin == at.begin && l->copies[i].text.end == at.end)
			return;
	struct copy *cp = VEC_PUSH(l->copies, l->ncopies, l->capcopies);
	cp->store = assign;
	cp->value = rhs_value;
	cp->text = cursor_span(assign);
	cp->dst = cursor_span(lhs);
	cp->tile = kloop_add_tile(l, copy_view_array(l, tile_decl, &cp->view));
	CXCursor dst = cursor_strip(lhs), unused_addr, unused_value;
	CXType dst_type = clang_getCursorType(lhs), stored_type;
	if (clang_getCursorKind(dst) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(dst) == CXUnaryOperator_Deref) {
		cp->dst_is_deref = true;
		cp->dst_ptr = cursor_span(cursor_last_child(dst));
	} else if (cursor_store_accessor_cast(assign, &unused_addr, &unused_value, &stored_type, &cp->dst_cast)) {
		/* `st(&As[i], v)`: lhs is the address it stores at, the value's type what it stores */
		cp->dst_is_deref = cp->dst_is_address = true;
		cp->dst_ptr = cursor_span(lhs);
		dst_type = stored_type;
	}
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
	/* An explicit conversion of the load, `(float)A[i]` or `__half2float(A[i])`, is still a
	 * copy, with conversion; so is `half` copy-constructing the load (a ternary's branch). */
	load = strip_conversions(load, &cp->conversion);
	load = cursor_unwrap_cache_hint(load);
	CXCursor via; /* `ld(&A[i])`, a load accessor: a load at its argument */
	bool accessor_load = false;
	if (cursor_load_accessor(load, &via)) {
		/* the pointer it reads through is a variable pointing at elements, not at a struct whose
		 * member holds the pointer (`&p->A[i]`: the load is through p->A, which p's read gives) */
		base = cursor_root_var(via);
		CXType bt = clang_Cursor_isNull(base) ? (CXType){0} : clang_getCanonicalType(clang_getCursorType(base));
		CXType elem = bt.kind == CXType_Pointer ? clang_getCanonicalType(clang_getPointeeType(bt)) : bt;
		accessor_load = !clang_Cursor_isNull(base) && !cursor_is_shared_var(base) && bt.kind == CXType_Pointer &&
				(elem.kind != CXType_Record ||
				 cursor_same_type(elem, clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(via)))));
	}
	if (w == WRITE_ASSIGN && (accessor_load || cursor_global_load(load, &base))) {
		cp->src = cursor_span(load);
		if (dst_type.kind == CXType_Dependent || dst_type.kind == CXType_Unexposed) {
			/* a tile whose size is a template parameter: its element type as declared, both
			 * sides canonical (`half` is `__half`; gen seed 399 took it for a conversion) */
			CXType tile_type = clang_getCursorType(l->tiles[cp->tile].decl);
			if (clang_getCanonicalType(tile_type).kind == CXType_Pointer)
				tile_type = clang_getPointeeType(clang_getCanonicalType(tile_type));
			CXType elem = type_array_element(tile_type);
			cp->conversion |= !cursor_same_type(clang_getCursorType(load), elem);
		} else if (!cursor_same_type(clang_getCursorType(load), dst_type))
			cp->conversion = true;
		if (accessor_load) {
			cp->src_is_deref = true;
			cp->src_ptr = cursor_span(via);
		} else if (clang_getCursorKind(load) == CXCursor_UnaryOperator) {
			cp->src_is_deref = true;
			cp->src_ptr = cursor_span(cursor_last_child(load));
		}
		if (!cursor_first_ref(load, base, (struct span){0, 0}, &cp->src_base))
			cp->src_base = cp->src;
		/* `p.a[i]`: the valid address is the member, not the struct */
		CXCursor ptr = cursor_strip(clang_getCursorKind(load) == CXCursor_ArraySubscriptExpr ? cursor_first_child(load)
											 : cursor_last_child(load));
		if (clang_getCursorKind(ptr) == CXCursor_MemberRefExpr)
			cp->src_base = cursor_span(ptr);
		/* (the pointer inside a macro's expansion, `B_AT(r, c)`, `LOADB`: the file does not
		 * name it where the copy is; none to fall back on) */
		if (cursor_from_macro(ptr))
			cp->src_base = (struct span){0, 0};
	} else {
		cp->src = (struct span){0, 0}; /* not a load: check refuses it, unless computed */
		cp->guard = (struct span){0, 0};
		cp->computed = w == WRITE_ASSIGN && computed_from_global(rhs_value);
	}
	cp->value_span = cursor_span(rhs_value);
	if ((cursor_from_macro(assign) || cursor_from_macro(lhs)) && !macro_copy(s->src, lhs, rhs_value, cp))
		cp->tile = -1 - cp->tile; /* marks a copy check must refuse: inside a macro */
}

/* The bytes a memcpy_async's size argument copies: an integer constant (`sizeof(float4)`), or a
 * cuda::aligned_size_t built from one (`cuda::aligned_size_t<16>(sizeof(float4))`: the value its
 * constructor is handed, not the alignment its template argument promises), also through a
 * const local holding it; 0 when pipefy cannot read it. */
static bool integral(CXCursor e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(e));
	return t.kind >= CXType_Bool && t.kind <= CXType_Int128;
}

/* The argument of the one-argument constructor call inside e (`aligned_size_t<A>(N)`: N). */
struct ctor_find {
	CXCursor arg;
};

static enum CXChildVisitResult find_ctor_arg(CXCursor c, void *data)
{
	struct ctor_find *f = data;
	if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 1 &&
	    integral(clang_Cursor_getArgument(c, 0))) {
		f->arg = clang_Cursor_getArgument(c, 0);
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

long body_async_bytes(CXCursor size)
{
	CXCursor e = cursor_strip(size);
	for (int depth = 0; depth < 3; depth++) {
		bool ok;
		if (integral(e)) {
			long v = cursor_evaluate_int(e, &ok);
			return ok && v > 0 ? v : 0;
		}
		if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
			/* (a const local holding it: its initializer) */
			CXCursor d = clang_getCursorReferenced(e);
			if (clang_getCursorKind(d) != CXCursor_VarDecl || !clang_isConstQualifiedType(clang_getCursorType(d)))
				return 0;
			e = cursor_strip(cursor_last_child(d));
			continue;
		}
		/* (the aligned_size_t, or its copy into the parameter: the constructor's argument, or the
		 * object it copies) */
		struct ctor_find f = {clang_getNullCursor()};
		cursor_visit_from(e, find_ctor_arg, &f);
		if (!clang_Cursor_isNull(f.arg)) {
			long v = cursor_evaluate_int(f.arg, &ok);
			return ok && v > 0 ? v : 0;
		}
		struct cursors kids = cursor_children(e);
		CXCursor only = kids.n == 1 ? cursor_strip(kids.v[0]) : clang_getNullCursor();
		free(kids.v);
		if (clang_Cursor_isNull(only))
			return 0;
		e = only;
	}
	return 0;
}

/* A memcpy_async destination pipefy reads as a tile's element: `&As[i][j]` (or `&As[i]`) of a
 * __shared__ array, which the rewrite can index by stage; not a pointer variable. */
static bool async_tile_address(CXCursor dst)
{
	CXCursor e = cursor_strip(dst);
	if (clang_getCursorKind(e) != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf)
		return false;
	CXCursor x = cursor_strip(cursor_first_child(e));
	if (clang_getCursorKind(x) != CXCursor_ArraySubscriptExpr)
		return false;
	while (clang_getCursorKind(x) == CXCursor_ArraySubscriptExpr)
		x = cursor_strip(cursor_first_child(x));
	return clang_getCursorKind(x) == CXCursor_DeclRefExpr && cursor_is_shared_var(clang_getCursorReferenced(x));
}

/* `cuda::memcpy_async(&As[i][j], &A[k], size, pipe)`: a copy of size's bytes from address to
 * address, as an integer type that wide (check proves the addresses aligned to it). */
static void record_async_copy(struct store_scan *s, CXCursor call, CXCursor tile_decl)
{
	struct kloop *l = s->loop;
	CXCursor dst, from, size, pipe;
	cursor_async_copy(call, &dst, &from, &size, &pipe);
	struct copy *cp = VEC_PUSH(l->copies, l->ncopies, l->capcopies);
	cp->store = cursor_strip(call);
	cp->value = from;
	cp->text = cursor_span(cp->store);
	cp->tile = kloop_add_tile(l, copy_view_array(l, tile_decl, &cp->view));
	cp->dst = cp->dst_ptr = cursor_span(dst);
	cp->dst_is_deref = cp->dst_is_address = cp->dst_cast = true;
	cp->src = cp->src_ptr = cp->src_base = cp->value_span = cursor_span(from);
	cp->src_is_deref = true;
	cp->async = true;
	cp->width = body_async_bytes(size);
	/* (the tile's own element type, or its vector, as CUDA code copies them; bytes as integers
	 * for any other element) */
	const struct tile *t = &l->tiles[cp->tile];
	const char *base = t->elem_type && (strcmp(t->elem_type, "float") == 0 || strcmp(t->elem_type, "double") == 0 ||
					    strcmp(t->elem_type, "int") == 0)
				   ? t->elem_type
				   : "int";
	long unit = strcmp(base, "double") == 0 ? 8 : 4;
	if (cp->width == unit)
		cp->type = xstrdup(base);
	else if (cp->width > unit && cp->width <= 4 * unit && cp->width % unit == 0)
		cp->type = xprintf("%s%ld", base, cp->width / unit);
	else
		cp->type = xstrdup("char"); /* (check refuses the width) */
	if (!l->piped)
		l->pipe = pipe;
	l->piped = true;
	if (cursor_from_macro(call))
		cp->tile = -1 - cp->tile; /* marks a copy check must refuse: inside a macro */
}

/* Whether var is declared by one of the body's statements before the one being read (a
 * top-level declaration of the K-loop's body: a fresh one each iteration). */
static bool body_local(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i + 1 < l->nstmts; i++)
		if (cursor_declares(l->stmts[i].cursor, var))
			return true;
	return false;
}

/* A write c makes to something other than a tile: counted, and apart when it is not straight
 * into a local of the body (`p = p + 16;`, `idx += 8;`; not `*p = v`, nor a variable of the
 * function), which a statement that also fills a tile may only write where the copies alone use
 * it (find_body_locals). */
static bool outer_fetch(const struct kloop *l, CXCursor c);

static void note_other_write(struct store_scan *s, CXCursor c)
{
	/* (a copy loop's fetch into a local of the function: mark_loop_fetches proves it one, or
	 * refuses the loop) */
	if (outer_fetch(s->loop, c))
		return;
	if (!s->nother++)
		s->first_other = c;
	CXCursor var = register_lvalue_var(cursor_write_target(c));
	/* (a local of the function may be the copies' scratch: mark_copy_decls decides, once the
	 * whole body is read) */
	bool scratch = !clang_Cursor_isNull(var) && clang_getCursorKind(var) == CXCursor_VarDecl &&
		       effects_is_local(var);
	if ((clang_Cursor_isNull(var) || !(body_local(s->loop, var) || scratch)) && !s->nfar++)
		s->first_far = c;
	if ((clang_Cursor_isNull(var) || !body_local(s->loop, var)) && !s->nouter++)
		s->first_outer = c;
}

static bool record_if_copy(struct store_scan *s, CXCursor ifstmt);

static enum CXChildVisitResult scan_stores(CXCursor c, void *data)
{
	struct store_scan *s = data;
	CXCursor dst, from, size, pipe;
	/* (`if (g) X = load; else X = 0;` inside a statement, a copy loop's body: one guarded copy, as
	 * at the top of the body) */
	if (!s->record && clang_getCursorKind(c) == CXCursor_IfStmt && record_if_copy(s, c)) {
		/* (counting: one store, and nothing else the branch writes is another's) */
		s->nstores++;
		return CXChildVisit_Continue;
	}
	if (s->record && clang_getCursorKind(c) == CXCursor_IfStmt && record_if_copy(s, c)) {
		struct copy *cp = &s->loop->copies[s->loop->ncopies - 1];
		size_t e = cp->text.end; /* (through its ';': its replacement ends the statement) */
		while (e < s->src->len && (s->src->text[e] == ' ' || s->src->text[e] == '\t'))
			e++;
		if (e < s->src->len && s->src->text[e] == ';')
			cp->text.end = e + 1;
		s->nstores++;
		return CXChildVisit_Continue;
	}
	if (cursor_async_copy(c, &dst, &from, &size, &pipe) && async_tile_address(dst)) {
		s->nstores++;
		if (s->record)
			record_async_copy(s, c, cursor_root_var(dst));
		return CXChildVisit_Continue;
	}
	bool store;
	CXCursor var = cursor_assigned_var(c, &store);
	if (store) {
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
			s->nstores++;
			if (s->record)
				record_store(s, cursor_strip(c), var);
		} else if (clang_Cursor_isNull(var) || !cursor_declared_within(var, s->stmt)) {
			note_other_write(s, c);
		}
	}
	return CXChildVisit_Recurse;
}

/* A call handed a __shared__ array (`block_copy(local_codes, src, n, ..)`): a helper's fill. */
static bool calls_with_tile(CXCursor stmt)
{
	return clang_getCursorKind(cursor_strip(stmt)) == CXCursor_CallExpr && cursor_names_shared(stmt);
}

/* The barrier the statement being read follows when copies, or a call handed a tile, come
 * before that barrier: the statement is the compute's (index into l->stmts), or -1. */
static int compute_barrier(const struct kloop *l)
{
	int i = l->nstmts - 1;
	while (--i >= 0 && l->stmts[i].role != ROLE_BARRIER)
		;
	for (int j = i - 1; i >= 0 && j >= 0 && l->stmts[j].role != ROLE_BARRIER; j--)
		if (l->stmts[j].role == ROLE_COPY || calls_with_tile(l->stmts[j].cursor))
			return i;
	return -1;
}

/* A name of shared memory in a statement outside the destinations of its copies (copies
 * `from` on): the statement reads a tile. */
struct shared_reads {
	const struct kloop *l;
	int from;
	bool found;
};

static enum CXChildVisitResult scan_shared_reads(CXCursor ref, CXCursor d, void *data)
{
	struct shared_reads *r = data;
	if (!cursor_is_shared_var(d))
		return CXChildVisit_Recurse;
	struct span at = cursor_span(ref);
	bool dst = false;
	for (int k = r->from; k < r->l->ncopies && !dst; k++)
		dst = span_within(at, r->l->copies[k].dst);
	r->found |= !dst;
	return r->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether a write stores a load of global memory into reg (or into a part of it). */
struct loads_into {
	CXCursor reg;
	CXCursor at;
};

static enum CXChildVisitResult scan_loads_into(CXCursor w, enum write_kind k, CXCursor target, CXCursor value, void *data)
{
	struct loads_into *li = data;
	if (k == WRITE_ASSIGN && clang_equalCursors(cursor_root_var(target), li->reg) && cursor_loads_global(value)) {
		li->at = w;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* A statement whose copies, in a macro's expansion, store a register declared before the loop
 * that an earlier statement of the body loads from global memory, the statements between
 * reading shared memory: the loop's own register prefetch, said so; NULL when it is none. */
static char *macro_prefetch(const struct kloop *l, const struct source *src, CXCursor stmt, size_t n)
{
	int at = -1;
	for (int i = 0; i < l->nstmts && at < 0; i++)
		if (clang_equalCursors(l->stmts[i].cursor, stmt))
			at = i;
	for (int k = 0; k < l->ncopies && at >= 0; k++) {
		const struct copy *cp = &l->copies[k];
		CXCursor reg = clang_Cursor_isNull(cp->value) ? cp->value : cursor_root_var(cp->value);
		if (cp->stmt != at || clang_Cursor_isNull(reg) || clang_getCursorKind(reg) != CXCursor_VarDecl ||
		    cursor_is_shared_var(reg) || cursor_span(reg).begin >= l->body.begin)
			continue;
		struct loads_into li = {reg, clang_getNullCursor()};
		int j = at;
		while (--j >= 0 && clang_Cursor_isNull(li.at))
			cursor_visit_writes(l->stmts[j].cursor, scan_loads_into, &li);
		bool read = false;
		for (int m = j + 2; m < at && !read; m++) {
			struct shared_reads sr = {l, 0, false};
			cursor_visit_names(l->stmts[m].cursor, scan_shared_reads, &sr);
			read = sr.found;
		}
		if (clang_Cursor_isNull(li.at) || !read)
			continue;
		int sl, sc, ll, lc;
		source_line_col(src, cursor_span(cursor_unattributed(stmt)).begin, &sl, &sc);
		source_line_col(src, cursor_span(l->stmts[j + 1].cursor).begin, &ll, &lc);
		char *name = cursor_name(reg);
		char *why = xprintf("already pipelined: '%.*s' at %d:%d stores register '%s', loaded from global memory at "
				    "%d:%d before the compute reads the tiles (register prefetch)",
				    (int)n, src->text + cursor_span(cursor_unattributed(stmt)).begin, sl, sc, name, ll, lc);
		free(name);
		return why;
	}
	return NULL;
}

/* A statement that fills a tile and also writes something its copies may not take along (the
 * write named, with both places, and why: `why` follows the write's place). */
static void refuse_other_write(struct kloop *l, const struct source *src, CXCursor stmt, CXCursor write, const char *why)
{
	bool store;
	CXCursor var = cursor_assigned_var(write, &store);
	char *name = clang_Cursor_isNull(var) ? NULL : cursor_name(var);
	size_t at = cursor_span(write).begin;
	int sl, sc, wl, wc;
	source_line_col(src, cursor_span(cursor_unattributed(stmt)).begin, &sl, &sc);
	source_line_col(src, at, &wl, &wc);
	size_t stmt_at = cursor_span(cursor_unattributed(stmt)).begin, n = source_call_word(src, stmt_at);
	char *prefetch = !cursor_written_in_file(write) && n > 0 ? macro_prefetch(l, src, stmt, n) : NULL;
	if (prefetch)
		kloop_unknown(l, at, "%s", prefetch);
	else if (!cursor_written_in_file(write) && n > 0) /* (`LOAD(1)`: the write is the macro's, not the file's) */
		kloop_unknown(l, at, "the statement at %d:%d fills a tile inside the expansion of '%.*s', whose body "
			      "pipefy cannot rewrite", sl, sc, (int)n, src->text + stmt_at);
	else if (name)
		kloop_unknown(l, at, "the statement at %d:%d fills a tile and also writes '%s' (%d:%d)%s", sl, sc, name, wl,
			      wc, why);
	else
		kloop_unknown(l, at, "the statement at %d:%d fills a tile and also writes memory through a pointer (%d:%d)%s",
			      sl, sc, wl, wc, why);
	free(prefetch);
	free(name);
}

/* Reads no shared memory and nothing declared in the body: the same amount every trip. */
struct invariance {
	struct span body;
	CXCursor body_cursor;
	CXCursor target;
	bool invariant;
	bool reads_target;
};

static enum CXChildVisitResult scan_invariance(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct invariance *inv = data;
	if (clang_equalCursors(d, inv->target)) {
		inv->reads_target = true;
		return CXChildVisit_Continue;
	}
	if (cursor_is_shared_var(d) || cursor_declared_within(d, inv->body) || cursor_writes_var(inv->body_cursor, d)) {
		inv->invariant = false;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* An induction step: an integer or pointer declared outside the body, advanced by an
 * invariant amount. A float accumulator (`acc += ...`) is compute, not a bump. */
static bool is_bump(struct kloop *l, CXCursor stmt, CXCursor var)
{
	if (clang_Cursor_isNull(var) || cursor_declared_within(var, l->body))
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
	if (!clang_Cursor_isNull(value)) {
		cursor_visit_names(value, scan_invariance, &inv);
		if (clang_getCursorKind(cursor_strip(value)) == CXCursor_DeclRefExpr)
			scan_invariance(cursor_strip(value), clang_getCursorReferenced(cursor_strip(value)), &inv);
	}
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

struct assigned_locals {
	struct assigned_local *v;
	int n, cap;
};

/* Each use of var in stmts[from..] (its own declaration's name aside) recorded in values as
 * value's text, the locals before it replaced as they are there, cast to var's type:
 * `((int)(r * K + c))`. False when a use is where no edit can reach. */
static bool record_local_value(const struct source *src, CXCursor var, CXCursor value, const struct cursors *stmts,
			       int from, struct edits *values)
{
	char *v = NULL, *err = NULL;
	struct span is = cursor_span(value);
	bool ok = edits_apply_range(values, src->text, is.begin, is.end, &v, &err);
	free(err);
	char *t = ok ? type_spelling(clang_getUnqualifiedType(clang_getCursorType(var))) : NULL;
	char *text = ok ? xprintf("((%s)(%s))", t, v) : NULL;
	struct span at[64];
	for (int j = from; ok && j < stmts->n; j++) {
		int n = cursor_var_refs(stmts->v[j], var, at, 64);
		ok = n >= 0;
		for (int r = 0; r < n; r++)
			if (!span_within(at[r], cursor_span(var)))
				edits_add(values, at[r].begin, at[r].end - at[r].begin, text);
	}
	free(t);
	free(text);
	free(v);
	return ok;
}

/* One local a branch declares before its store (stmts[i] .. the store after it): set from
 * arithmetic, changed nowhere after, read only where an edit can reach; each of its uses after
 * recorded in values as its value. */
static bool take_branch_local(const struct source *src, CXCursor var, const struct cursors *stmts, int i,
			      struct edits *values)
{
	CXCursor init;
	bool ok = cursor_value_local(var, &init) && cursor_is_arithmetic(init);
	for (int j = i; ok && j < stmts->n; j++)
		ok = !cursor_writes_var(stmts->v[j], var) && !cursor_escapes(stmts->v[j], var);
	return ok && record_local_value(src, var, init, stmts, i, values);
}

/* `i = q * TS + ty;` in the load branch, i a scalar local of the function declared outside it
 * (`int i;` before the loop), changed nowhere after in this branch: a branch local in all but
 * its declaration (ECE408's convolutions write `i = ..; Bs[..] = in_4d(.., i / (K * K), ..);`).
 * The copy reads its value; the assignment goes with the branch. Recorded in taken with the
 * branch's statements from here on: check.c refuses the loop unless nothing but such branches
 * names i. */
static bool take_branch_assign(const struct source *src, const struct kloop *l, CXCursor stmt,
			       const struct cursors *stmts, int i, struct edits *values, struct assigned_locals *taken)
{
	CXCursor var, value;
	if (cursor_write_parts(cursor_strip(stmt), &var, &value) != WRITE_ASSIGN)
		return false;
	var = cursor_strip(var);
	if (clang_getCursorKind(var) != CXCursor_DeclRefExpr)
		return false;
	var = clang_getCursorReferenced(var);
	/* (a number: a pointer's value would also stand for the address a failed guard copies from) */
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(var)).kind;
	bool number = (tk >= CXType_Bool && tk <= CXType_LongDouble) || tk == CXType_Enum;
	if (clang_getCursorKind(var) != CXCursor_VarDecl || !number || cursor_is_shared_decl(var) ||
	    clang_Cursor_getStorageClass(var) != CX_SC_None || !cursor_is_arithmetic(value) || cursor_var_refs(value, var, NULL, 0) != 0 ||
	    !span_within(l->loop, cursor_span(clang_getCursorSemanticParent(var))))
		return false;
	bool ok = true;
	for (int j = i + 1; ok && j < stmts->n; j++)
		ok = !cursor_writes_var(stmts->v[j], var) && !cursor_escapes(stmts->v[j], var);
	ok = ok && record_local_value(src, var, value, stmts, i + 1, values);
	if (ok)
		*VEC_PUSH(taken->v, taken->n, taken->cap) =
			(struct assigned_local){var, {cursor_span(stmt).begin, cursor_span(stmts->v[stmts->n - 1]).end}};
	return ok;
}

/* `{ const int off = r * K + c; X = A[off]; }`: the load branch of a guarded fill may declare
 * locals its store reads (take_branch_local), or set a local of the function that nothing else
 * names (take_branch_assign); the copy is rewritten as one expression, where the declarations
 * are not in scope, so each use is recorded in values as the local's value. Returns the store,
 * or null when the branch holds anything else. */
static CXCursor store_after_locals(const struct source *src, const struct kloop *l, CXCursor branch, struct edits *values,
				   struct assigned_locals *taken)
{
	if (clang_getCursorKind(branch) != CXCursor_CompoundStmt)
		return branch;
	struct cursors cs = cursor_children(branch);
	CXCursor store = cs.n > 0 ? cs.v[cs.n - 1] : clang_getNullCursor();
	for (int i = 0; i + 1 < cs.n && !clang_Cursor_isNull(store); i++) {
		if (!cursor_from_macro(cs.v[i]) && take_branch_assign(src, l, cs.v[i], &cs, i, values, taken))
			continue;
		bool ok = clang_getCursorKind(cs.v[i]) == CXCursor_DeclStmt && !cursor_from_macro(cs.v[i]);
		struct cursors vars = ok ? cursor_children(cs.v[i]) : (struct cursors){0};
		for (int d = 0; ok && d < vars.n; d++)
			ok = take_branch_local(src, vars.v[d], &cs, i, values);
		free(vars.v);
		if (!ok)
			store = clang_getNullCursor();
	}
	free(cs.v);
	return store;
}

/* The copy of a guarded store (`if (g) X = load;`, an else or the statement before giving the
 * fill), recorded: its guard, the fill stored where the guard fails, and (a macro's copy) still
 * refused. */
static struct copy *record_guarded_store(struct store_scan *s, CXCursor store, CXCursor dst, CXCursor guard, CXCursor fill)
{
	record_store(s, cursor_strip(store), cursor_root_var(dst));
	struct copy *cp = &s->loop->copies[s->loop->ncopies - 1];
	cp->guard = cursor_span(guard);
	cp->fill = cursor_span(fill);
	cp->fill_value = fill;
	cp->guard_is_if = true;
	if (cp->in_macro && cp->tile >= 0) /* (guarded macro copies stay refused, as in record_store) */
		cp->tile = -1 - cp->tile;
	return cp;
}

/* `if (g) X = load; else X = fill;` is one guarded copy, the same as `X = g ? load : fill`;
 * and `if (g) X = fill; else X = load;` the same as `X = !(g) ? load : fill`. */
static bool record_if_copy(struct store_scan *s, CXCursor ifstmt)
{
	struct cursors cs = cursor_children(ifstmt);
	bool ok = false, negated = false;
	if (cs.n == 3) {
		struct edits values = {0};
		struct assigned_locals taken = {0};
		CXCursor then_store = store_after_locals(s->src, s->loop, cs.v[1], &values, &taken),
			 else_store = store_after_locals(s->src, s->loop, cs.v[2], &values, &taken);
		CXCursor t_dst, t_val, e_dst, e_val, base;
		if (!clang_Cursor_isNull(then_store) && !clang_Cursor_isNull(else_store) &&
		    cursor_write_parts(then_store, &t_dst, &t_val) == WRITE_ASSIGN &&
		    cursor_write_parts(else_store, &e_dst, &e_val) == WRITE_ASSIGN && cursor_is_shared_var(cursor_root_var(t_dst))) {
			char *a = span_text(s->src, cursor_span(t_dst)), *b = span_text(s->src, cursor_span(e_dst));
			bool conversion = false;
			if (strcmp(a, b) == 0 &&
			    (cursor_global_load(cursor_unwrap_cache_hint(strip_conversions(t_val, &conversion)), &base) ||
			     computed_from_global(t_val)) &&
			    !cursor_global_load(cursor_unwrap_cache_hint(cursor_strip(e_val)), &base))
				ok = true;
			else if (strcmp(a, b) == 0 &&
				 (cursor_global_load(cursor_unwrap_cache_hint(strip_conversions(e_val, &conversion)), &base) ||
				  computed_from_global(e_val)) &&
				 !cursor_global_load(cursor_unwrap_cache_hint(cursor_strip(t_val)), &base) &&
				 !computed_from_global(t_val)) {
				ok = negated = true;
				CXCursor t = then_store;
				then_store = else_store, else_store = t;
				t = t_val;
				t_val = e_val, e_val = t;
				t = t_dst;
				t_dst = e_dst, e_dst = t;
			}
			free(a);
			free(b);
		}
		/* (a branch's locals only in the load: the element stored and the fill as written) */
		for (int i = 0; ok && i < values.n; i++) {
			struct span at = {values.v[i].offset, values.v[i].offset + values.v[i].length};
			ok = !span_within(at, cursor_span(t_dst)) && !span_within(at, cursor_span(e_dst)) &&
			     !span_within(at, cursor_span(e_val));
		}
		for (int i = 0; ok && s->record && i < values.n; i++)
			edits_add(&s->loop->local_values, values.v[i].offset, values.v[i].length, values.v[i].text);
		for (int i = 0; ok && s->record && i < taken.n; i++)
			*VEC_PUSH(s->loop->assigned, s->loop->nassigned, s->loop->capassigned) = taken.v[i];
		edits_free(&values);
		free(taken.v);
		if (ok && s->record) {
			struct copy *cp = record_guarded_store(s, then_store, t_dst, cs.v[0], e_val);
			cp->text = cursor_span(ifstmt);
			cp->guard_negated = negated;
		}
	}
	free(cs.v);
	return ok;
}

/* `X = c; if (g) X = load;`: a constant into a tile's element, then a copy into the same element
 * under an if with no else, the next statement. One guarded copy, the same as `X = g ? load : c`
 * (luckboy/unmtx-gpu fills its tiles so). */
static bool record_fill_first(struct store_scan *s, CXCursor first, CXCursor ifstmt)
{
	if (clang_getCursorKind(ifstmt) != CXCursor_IfStmt)
		return false;
	struct cursors cs = cursor_children(ifstmt);
	bool ok = false;
	CXCursor then_store = cs.n == 2 ? only_stmt(cs.v[1]) : clang_getNullCursor(), f_dst, f_val, t_dst, t_val, base;
	if (!clang_Cursor_isNull(then_store) && clang_isExpression(clang_getCursorKind(cs.v[0])) &&
	    cursor_write_parts(cursor_strip(first), &f_dst, &f_val) == WRITE_ASSIGN &&
	    cursor_write_parts(then_store, &t_dst, &t_val) == WRITE_ASSIGN && cursor_is_shared_var(cursor_root_var(t_dst)) &&
	    cursor_folds_to_constant(f_val)) {
		char *a = span_text(s->src, cursor_span(t_dst)), *b = span_text(s->src, cursor_span(f_dst));
		bool conversion = false;
		ok = strcmp(a, b) == 0 &&
		     (cursor_global_load(strip_conversions(t_val, &conversion), &base) || computed_from_global(t_val));
		free(a);
		free(b);
	}
	if (ok) {
		record_guarded_store(s, then_store, t_dst, cs.v[0], f_val);
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

/* A body statement's text, through its ';', and the lines it owns. */
static void stmt_text(const struct source *src, CXCursor c, struct body_stmt *st)
{
	st->text = cursor_span(c);
	st->span = source_whole_lines(src, st->text);
	if (st->span.end > st->text.end && src->text[st->span.end - 1] != '\n')
		st->text.end = st->span.end;
	else {
		size_t e = st->text.end;
		while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
			e++;
		if (e < src->len && src->text[e] == ';')
			st->text.end = e + 1;
	}
}

/* A pipeline call inside a statement: removed with its ';' (and its line, when it has one of its
 * own) where it stands as a statement; elsewhere the call alone. */
struct pipe_scan {
	struct kloop *l;
	const struct source *src;
};

static enum CXChildVisitResult scan_pipe_ops(CXCursor c, CXCursor parent, CXClientData data)
{
	struct pipe_scan *p = data;
	CXCursor pipe;
	if (cursor_pipeline_op(c, &pipe) < 0)
		return CXChildVisit_Recurse;
	const char *t = p->src->text;
	struct span at = cursor_span(c);
	if (clang_getCursorKind(parent) == CXCursor_CompoundStmt) {
		size_t e = at.end;
		while (e < p->src->len && (t[e] == ' ' || t[e] == '\t'))
			e++;
		if (e < p->src->len && t[e] == ';')
			at.end = e + 1;
		struct span line = source_whole_lines(p->src, at);
		size_t b = line.begin;
		while (b < at.begin && (t[b] == ' ' || t[b] == '\t'))
			b++;
		e = at.end;
		while (e < line.end && (t[e] == ' ' || t[e] == '\t' || t[e] == '\n'))
			e++;
		if (b == at.begin && e == line.end)
			at = line;
	}
	*VEC_PUSH(p->l->pipe_ops, p->l->npipe_ops, p->l->cappipe_ops) = (struct pipe_op){at, pipe};
	return CXChildVisit_Continue;
}

void find_body(struct kloop *l, const struct source *src, CXCursor body)
{
	struct cursors cs = cursor_children(body);
	l->pipe = clang_getNullCursor();
	for (int i = 0; i < cs.n; i++) {
		CXCursor c = cs.v[i], pipe;
		struct body_stmt *st = VEC_PUSH(l->stmts, l->nstmts, l->capstmts);
		st->cursor = c;
		st->advance = clang_getNullCursor();
		st->fill_first = clang_getNullCursor();
		stmt_text(src, c, st);
		st->role = ROLE_COMPUTE;
		if (cursor_pipeline_op(c, &pipe) >= 0) {
			st->role = ROLE_PIPE_OP;
			continue;
		}
		struct pipe_scan ps = {l, src};
		clang_visitChildren(c, scan_pipe_ops, &ps);
		if (cursor_is_barrier(c)) {
			st->role = ROLE_BARRIER;
			l->nbarriers++;
			continue;
		}
		if (cursor_is_call_named(c, "__syncwarp"))
			l->nwarp_syncs++;
		if (i + 1 < cs.n && clang_isExpression(clang_getCursorKind(c))) {
			struct store_scan rec = {.loop = l, .src = src, .stmt = cursor_span(cs.v[i + 1]), .record = true};
			if (record_fill_first(&rec, c, cs.v[i + 1])) {
				/* one statement from the constant's store to the if's end */
				size_t begin = st->span.begin;
				st->fill_first = c;
				st->cursor = cs.v[++i];
				stmt_text(src, st->cursor, st);
				st->span.begin = begin;
				st->text.begin = cursor_span(c).begin;
				st->role = ROLE_COPY;
				l->copies[l->ncopies - 1].stmt = l->nstmts - 1;
				l->copies[l->ncopies - 1].text = st->text;
				continue;
			}
		}
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
				if (cursor_is_shared_decl(vars.v[j]))
					shared = true;
			free(vars.v);
			if (shared) {
				st->role = ROLE_TILE_DECL;
				continue;
			}
		}
		struct store_scan s = {.loop = l, .src = src, .stmt = cursor_span(c)};
		cursor_visit(c, scan_stores, &s);
		/* An expression statement is itself the assignment: scan it too. */
		{
			bool store;
			CXCursor var = cursor_assigned_var(c, &store), dst, from, size;
			if (store) {
				if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var))
					s.nstores++;
				else
					note_other_write(&s, c);
			} else if (cursor_async_copy(c, &dst, &from, &size, &pipe) && async_tile_address(dst))
				s.nstores++;
		}
		if (s.nstores > 0) {
			st->role = ROLE_COPY;
			struct store_scan rec = {.loop = l, .src = src, .stmt = cursor_span(c), .record = true};
			bool store;
			CXCursor var = cursor_assigned_var(c, &store);
			int before = l->ncopies;
			CXCursor dst, from, size;
			if (store && !clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
				record_store(&rec, cursor_strip(c), var);
			} else if (cursor_async_copy(c, &dst, &from, &size, &pipe) && async_tile_address(dst)) {
				record_async_copy(&rec, c, cursor_root_var(dst));
			} else
				cursor_visit(c, scan_stores, &rec);
			for (int k = before; k < l->ncopies; k++)
				l->copies[k].stmt = l->nstmts - 1;
			int barrier = compute_barrier(l);
			if (s.nouter > 0 && barrier >= 0) {
				/* (`__syncthreads(); .. ap[TS]++; saved = ap[TS];`: no copy but the compute's
				 * own store) */
				int sl, sc, bl, bc;
				source_line_col(src, cursor_span(c).begin, &sl, &sc);
				source_line_col(src, l->stmts[barrier].text.begin, &bl, &bc);
				/* (copies of global memory that read no shared memory but their own
				 * destinations: a second fill, not the compute's) */
				bool loads = false;
				for (int k = before; k < l->ncopies; k++)
					loads |= l->copies[k].src.end > l->copies[k].src.begin;
				struct shared_reads sr = {.l = l, .from = before};
				cursor_visit_names(c, scan_shared_reads, &sr);
				loads &= !sr.found;
				if (loads)
					kloop_unknown(l, cursor_span(c).begin, "the statement at %d:%d fills a tile after the barrier at "
						      "%d:%d, and copies before that barrier fill tiles too: pipefy stages a loop "
						      "whose fill comes before one barrier", sl, sc, bl, bc);
				else if (before < l->ncopies) {
					/* (the array and where: a tile the copies fill, or the compute's own scratch) */
					const struct copy *w = &l->copies[before];
					CXCursor root = cursor_root_var(cursor_write_target(w->store));
					enum CXTypeKind rk = clang_getCanonicalType(clang_getCursorType(root)).kind;
					char *name = cursor_name(root), *type = type_spelling(clang_getCursorType(root));
					/* (the array or variable by its name, a template's array too, or a pointer into
					 * one) */
					const char *what = !cursor_is_shared_var(root) || rk == CXType_Pointer ? "shared memory through"
							   : strchr(type, '[')				  ? "the __shared__ array"
													  : "the __shared__ variable";
					free(type);
					int wl, wc;
					source_line_col(src, w->text.begin, &wl, &wc);
					kloop_unknown(l, cursor_span(c).begin, "the compute after the barrier at %d:%d writes %s '%s' at "
						      "%d:%d: pipefy stages loops whose compute only reads shared memory", bl, bc, what,
						      name, wl, wc);
					free(name);
				} else
					kloop_unknown(l, cursor_span(c).begin, "the statement at %d:%d, in the compute after the barrier "
						      "at %d:%d, writes a tile: the compute writes the tile, which pipefy does not stage",
						      sl, sc, bl, bc);
			} else if (s.nfar > 0)
				refuse_other_write(l, src, c, s.first_far,
						   ", declared outside it: pipefy moves a tile's copies only with what they alone write");
			else
				st->writes_locals = s.nother > 0;
			continue;
		}
		bool store;
		CXCursor var = cursor_assigned_var(c, &store);
		if (store && is_bump(l, c, var)) {
			/* `A += BK;`, `++k;`: an induction variable the body advances. */
			st->role = ROLE_BUMP;
			kloop_add_ivar(l, var, NULL);
		}
	}
	free(cs.v);
	attach_leading_lines(src, l);
}

/* Whether a name below `in` is decl's (a local declared in the body that the copies read is
 * computed again by the loader). */
static bool references(CXCursor in, CXCursor decl) { return cursor_first_ref(in, decl, (struct span){0, 0}, NULL); }


/* `float4 a = *(const float4 *)&A[i];`: every variable loaded straight from global memory. */
/* Whether a register's value is fetched from global memory: `*(const float4 *)&A[i]`,
 * `(float)A[i]`, `__half2float(A[i])`, or `g ? load : fill` (the loader evaluates it whole, a
 * tile early; check proves that its inputs are the same then). */
bool body_fetch_value(CXCursor init)
{
	CXCursor base;
	init = cursor_strip(init);
	if (clang_getCursorKind(init) == CXCursor_ConditionalOperator) {
		struct cursors cs = cursor_children(init);
		init = cs.n == 3 ? cs.v[1] : clang_getNullCursor();
		free(cs.v);
	}
	while (!clang_Cursor_isNull(init) && (cursor_kind_is_cast(clang_getCursorKind(cursor_strip(init))) ||
					      cursor_copy_construct(init) || is_conversion_call(cursor_strip(init))))
		init = cursor_last_child(cursor_strip(init));
	return !clang_Cursor_isNull(init) && (cursor_global_load(init, &base) || cursor_texture_fetch(cursor_strip(init)));
}

static bool is_fetch_decl(CXCursor decl_stmt)
{
	struct cursors vars = cursor_children(decl_stmt);
	bool all = vars.n > 0;
	for (int v = 0; v < vars.n && all; v++)
		all = clang_getCursorKind(vars.v[v]) == CXCursor_VarDecl && body_fetch_value(cursor_last_child(vars.v[v]));
	free(vars.v);
	return all;
}

/* Every use of a fetched local: in a statement of the body that fetches into it (the
 * assignment's own left-hand side, checked by the caller, or another fetch into the same local:
 * `FLOAT4(r[0]) = ..; FLOAT4(r[4]) = ..;`), a copy after the last of them, or a statement after
 * `after`; `at`, the first use that is none of those. */
struct fetched_uses {
	const struct kloop *l;
	CXCursor var;
	const bool *fetches; /* per statement: whether it fetches into a local (its fetch_var) */
	int last;            /* the last statement that fetches into it */
	int after;           /* statements after this one may use it as they like; nstmts: none */
	bool ok;
	size_t at;
};

static enum CXChildVisitResult scan_fetch_uses(CXCursor ref, CXCursor d, void *data)
{
	(void)d;
	struct fetched_uses *u = data;
	size_t at = cursor_span(ref).begin;
	int in = kloop_stmt_at(u->l, at);
	bool fetch = in >= 0 && u->fetches[in] && clang_equalCursors(u->l->stmts[in].fetch_var, u->var);
	bool copy = in > u->last && u->l->stmts[in].role == ROLE_COPY;
	u->ok = in >= 0 && (fetch || copy || in > u->after);
	if (!u->ok)
		u->at = at;
	return u->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

static CXCursor register_address_var(CXCursor e);

/* The local an lvalue lies in without reading memory through a pointer: `ra`, `ra[1]`, `v.x`,
 * `reinterpret_cast<float4 *>(&(ra[0]))[0]` (a vector macro's `FLOAT4(ra[0])`), `*(float2 *)&v`;
 * a null cursor for anything else (`p[0]` with `p` a pointer writes what p points at). */
static CXCursor register_lvalue_var(CXCursor e)
{
	e = cursor_strip(e);
	CXCursor base = cursor_first_child(e);
	enum CXTypeKind bk = clang_getCanonicalType(clang_getCursorType(cursor_strip(base))).kind;
	switch (clang_getCursorKind(e)) {
	case CXCursor_DeclRefExpr:
		return clang_getCursorReferenced(e);
	case CXCursor_ArraySubscriptExpr:
		return type_kind_is_sized_array(bk) ? register_lvalue_var(base) : register_address_var(base);
	case CXCursor_MemberRefExpr: /* `v.x`, not `p->x` */
		return bk == CXType_Record || bk == CXType_Elaborated ? register_lvalue_var(base) : clang_getNullCursor();
	case CXCursor_UnaryOperator:
		return clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref ? register_address_var(cursor_last_child(e))
										   : clang_getNullCursor();
	default:
		return clang_getNullCursor();
	}
}

/* The local a pointer expression takes the address of: `&ra[0]`, `(float4 *)&v`, `ra`. */
static CXCursor register_address_var(CXCursor e)
{
	e = cursor_strip(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (cursor_kind_is_cast(k))
		return register_address_var(cursor_last_child(e));
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf)
		return register_lvalue_var(cursor_last_child(e));
	if (k == CXCursor_DeclRefExpr && type_kind_is_sized_array(clang_getCanonicalType(clang_getCursorType(e)).kind))
		return clang_getCursorReferenced(e); /* (an array's name, decayed) */
	return clang_getNullCursor();
}

/* How a statement first touches a variable: not at all, by a whole assignment (`v = e;`, e not
 * reading v) before any read on every way through it, or otherwise (a read, a part written). */
enum touch { TOUCH_NONE, TOUCH_WRITES, TOUCH_READS };

static enum touch first_touch(CXCursor s, CXCursor var);

/* Whether e is var or names it inside. */
static bool names(CXCursor e, CXCursor var)
{
	CXCursor x = cursor_strip(e);
	return (clang_getCursorKind(x) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(x), var)) ||
	       references(e, var);
}

/* Whether the function names var only inside the loop's body. */
static bool in_loop_only(const struct kloop *l, CXCursor var)
{
	return !cursor_first_ref(l->function_cursor, var, l->body, NULL);
}

static enum touch first_touch_seq(const CXCursor *v, int n, CXCursor var)
{
	for (int i = 0; i < n; i++) {
		enum touch t = first_touch(v[i], var);
		if (t != TOUCH_NONE)
			return t;
	}
	return TOUCH_NONE;
}

static enum CXChildVisitResult scan_any_jump(CXCursor c, void *data)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt ||
	    k == CXCursor_IndirectGotoStmt || k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Whether a loop's body may leave a trip early (a break, continue, return, goto or asm in it,
 * an inner loop's too): the statements after it may not run on the first trip. */
static bool jumps_in(CXCursor body)
{
	bool found = false;
	cursor_visit(body, scan_any_jump, &found);
	return found;
}

/* Whether a for statement's body surely runs once: `for (int i = C0; i op C1; ..)` (or `i =
 * C0`), constants from 0 to INT_MAX that pass the test, i an int or wider. */
static bool runs_once(CXCursor loop)
{
	struct cursors kids = cursor_children(loop);
	bool ok = false;
	CXCursor var = clang_getNullCursor(), init = clang_getNullCursor();
	if (clang_getCursorKind(loop) == CXCursor_ForStmt && kids.n == 4 && clang_getCursorKind(kids.v[0]) == CXCursor_DeclStmt) {
		var = cursor_first_child(kids.v[0]);
		init = cursor_last_child(var);
	} else
		cursor_for_assigns(loop, &var, &init);
	CXCursor cond = kids.n == 4 ? cursor_strip(kids.v[1]) : clang_getNullCursor();
	if (!clang_Cursor_isNull(var) && !clang_Cursor_isNull(init) && clang_getCursorKind(cond) == CXCursor_BinaryOperator &&
	    clang_getCursorKind(cursor_strip(cursor_first_child(cond))) == CXCursor_DeclRefExpr &&
	    clang_equalCursors(clang_getCursorReferenced(cursor_strip(cursor_first_child(cond))), var)) {
		bool a, b;
		long c0 = cursor_evaluate_int(init, &a), c1 = cursor_evaluate_int(cursor_last_child(cond), &b);
		switch (clang_getCursorBinaryOperatorKind(cond)) {
		case CXBinaryOperator_LT: ok = c0 < c1; break;
		case CXBinaryOperator_LE: ok = c0 <= c1; break;
		case CXBinaryOperator_GT: ok = c0 > c1; break;
		case CXBinaryOperator_GE: ok = c0 >= c1; break;
		case CXBinaryOperator_NE: ok = c0 != c1; break;
		default: break;
		}
		/* (both in [0, INT_MAX] and a counter of int's width or wider: the test compares what
		 * they are, whatever the operands' signedness; `i = -1; i < 4u` never runs) */
		enum CXTypeKind vk = clang_getCanonicalType(clang_getCursorType(var)).kind;
		bool wide = vk == CXType_Int || vk == CXType_UInt || vk == CXType_Long || vk == CXType_ULong ||
			    vk == CXType_LongLong || vk == CXType_ULongLong;
		ok = ok && a && b && wide && c0 >= 0 && c1 >= 0 && c0 <= 2147483647L && c1 <= 2147483647L;
	}
	free(kids.v);
	return ok;
}

static enum touch first_touch(CXCursor s, CXCursor var)
{
	s = cursor_unattributed(s);
	if (!references(s, var))
		return TOUCH_NONE;
	enum CXCursorKind k = clang_getCursorKind(s);
	struct cursors cs = cursor_children(s);
	enum touch t = TOUCH_READS;
	if (k == CXCursor_CompoundStmt) {
		t = first_touch_seq(cs.v, cs.n, var);
	} else if (k == CXCursor_ForStmt && cs.n == 4 && first_touch(cs.v[0], var) == TOUCH_WRITES) {
		/* `for (x = e; ..; ..)`: the initialization runs first, whatever the trips */
		t = TOUCH_WRITES;
	} else if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
		/* the header reads nothing of it, and each trip assigns before it reads: no trip
		 * reads what came in; after none, it is not assigned (after one at least, as a
		 * do-while's or a counted loop's first, it is) */
		bool header = false;
		int body = k == CXCursor_DoStmt ? 0 : cs.n - 1;
		for (int i = 0; i < cs.n; i++)
			header |= i != body && names(cs.v[i], var);
		enum touch b = cs.n ? first_touch(cs.v[body], var) : TOUCH_READS;
		bool once = (k == CXCursor_DoStmt || runs_once(s)) && !jumps_in(cs.v[body]);
		t = header || b == TOUCH_READS ? TOUCH_READS : b == TOUCH_WRITES && once ? TOUCH_WRITES : TOUCH_NONE;
	} else if (k == CXCursor_IfStmt && (cs.n == 2 || cs.n == 3) && clang_isExpression(clang_getCursorKind(cs.v[0])) &&
		   !references(cs.v[0], var)) {
		enum touch a = first_touch(cs.v[1], var), b = cs.n == 3 ? first_touch(cs.v[2], var) : TOUCH_NONE;
		t = a == TOUCH_READS || b == TOUCH_READS     ? TOUCH_READS
		    : a == TOUCH_WRITES && b == TOUCH_WRITES ? TOUCH_WRITES
							 : TOUCH_NONE;
	} else {
		CXCursor lhs, rhs;
		if (cursor_write_parts(s, &lhs, &rhs) == WRITE_ASSIGN && clang_getCursorKind(cursor_strip(lhs)) == CXCursor_DeclRefExpr &&
		    clang_equalCursors(clang_getCursorReferenced(cursor_strip(lhs)), var) && !names(rhs, var))
			t = TOUCH_WRITES;
	}
	free(cs.v);
	return t;
}

bool body_sets_first(CXCursor stmt, CXCursor var)
{
	return first_touch(stmt, var) == TOUCH_WRITES;
}

static enum CXChildVisitResult scan_jumps(CXCursor c, void *data)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt || k == CXCursor_LabelStmt ||
	    k == CXCursor_SwitchStmt || k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* A fetch into a local the compute also uses (`Av = *(float4 *)&A[i]; ((float4 *)As)[tx] = Av;`
 * and later `Av = *(float4 *)&As[..]; acc += Av.x * ..`): the fetched value is still only the
 * copies' when the compute assigns the local whole before it reads it, on every way through
 * (a loop's trips each assigning first, an if's both branches); then the fetch and the copies
 * can take a register of their own (st->fetch_shadow), every name of the local in them
 * written in the file where the rewrite can rename it. Nothing before the first fetch, and
 * nothing between it and the last copy from the local but other fetches and copies, uses it;
 * nothing outside the loop does; no jump or asm in the body. */
static bool scratch_in_compute(const struct kloop *l, CXCursor var, const bool *fetches)
{
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(var)).kind;
	bool jumps = false;
	cursor_visit(l->cursor, scan_jumps, &jumps);
	if (type_kind_is_sized_array(k) || k == CXType_IncompleteArray || jumps)
		return false;
	struct span where[64];
	int first = -1, last_copy = -1;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool fetch = fetches[i] && clang_equalCursors(st->fetch_var, var);
		if (fetch && first < 0)
			first = i;
		if (fetch || (st->role == ROLE_COPY && cursor_var_refs(st->cursor, var, where, 64) > 0)) {
			if (cursor_var_refs(st->cursor, var, where, 64) < 0 || (!fetch && first < 0))
				return false;
			if (!fetch)
				last_copy = i;
		}
	}
	if (first < 0 || last_copy < 0)
		return false;
	CXCursor *after = xcalloc((size_t)l->nstmts + 1, sizeof *after);
	int n = 0;
	bool ok = true;
	for (int i = 0; i < l->nstmts && ok; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool fetch = fetches[i] && clang_equalCursors(st->fetch_var, var);
		if (i > last_copy)
			after[n++] = st->cursor;
		else if (!fetch && st->role != ROLE_COPY && references(st->cursor, var))
			ok = false; /* (before the first fetch, or between it and the last copy) */
	}
	ok = ok && first_touch_seq(after, n, var) != TOUCH_READS;
	free(after);
	return ok;
}

bool body_kept_sides(const struct source *src, const struct body_stmt *st, struct span *lhs, struct span *rhs,
		     bool *whole)
{
	CXCursor l, r;
	*whole = false;
	if (cursor_write_parts(st->cursor, &l, &r) != WRITE_ASSIGN)
		return false;
	*lhs = cursor_span(l);
	*rhs = cursor_span(r);
	if (lhs->begin >= st->text.begin && lhs->begin < lhs->end && lhs->end <= rhs->begin && rhs->begin < rhs->end &&
	    rhs->end <= st->text.end)
		return true;
	/* (`MEM2REG(AV, A);`, the statement one macro's use, expanding to `AV = *((float4 *)(A))`,
	 * its left side the argument as written) */
	struct span use = {st->text.begin, source_call_end(src, st->text.begin)};
	size_t after = use.end;
	while (after < st->text.end && (src->text[after] == ' ' || src->text[after] == '\t'))
		after++;
	if (!use.end || !cursor_written_in_file(l) || !(after == st->text.end || src->text[after] == ';'))
		return false;
	*lhs = cursor_written_span(l);
	*rhs = use;
	*whole = true;
	return use.begin >= st->text.begin && use.end <= st->text.end && lhs->begin > use.begin && lhs->begin < lhs->end &&
	       lhs->end < use.end;
}

/* Where a fetched local is also read other than by its copies (hackgiter's `CO[0] =
 * *((float4 *)A); .. sa[..] = CO[0]; .. __syncthreads(); .. CO[0] = *(float4 *)&sa[..];` and the
 * product read from CO after the loop): the fetch may still load a register of its own a tile
 * early when its statement stays, assigning the local from that register where the stash stores
 * the copies (st->fetch_keep). The local then takes the same values in the same order as
 * written, so long as every statement that reads or writes it is a fetch into it, a copy after
 * the last such fetch, or a statement after the body's last copy (the compute, whose place
 * against the stash the rewrite keeps); outside the loop anything may use it. No jump or asm in
 * the body, and no statement among the copies but fetches and copies names it. */
static bool kept_fetch(const struct kloop *l, const struct source *src, CXCursor var, const bool *fetches, int fetch)
{
	/* (the rewrite writes the register in place of the left side in the fetch, and in place
	 * of the right side in the stash: two spans of the file, one before the other) */
	struct span lhs, rhs;
	bool whole;
	if (!body_kept_sides(src, &l->stmts[fetch], &lhs, &rhs, &whole))
		return false;
	bool jumps = false;
	cursor_visit(l->cursor, scan_jumps, &jumps);
	if (jumps)
		return false;
	struct fetched_uses u = {.l = l, .var = var, .fetches = fetches, .last = fetch, .after = -1, .ok = true};
	for (int i = 0; i < l->nstmts; i++) {
		if (fetches[i] && clang_equalCursors(l->stmts[i].fetch_var, var))
			u.last = i;
		if (l->stmts[i].role == ROLE_COPY)
			u.after = i; /* (the body's last copy: the compute after it reads the local) */
	}
	if (u.after < u.last)
		return false;
	/* (the copy side alone between the load and the last copy: a compute or a barrier there
	 * makes a register prefetch, the next tile's load around this tile's compute) */
	for (int i = fetch; i < u.after; i++)
		if ((l->stmts[i].role == ROLE_COMPUTE && !fetches[i]) || l->stmts[i].role == ROLE_BARRIER)
			return false;
	cursor_visit_refs(l->cursor, var, scan_fetch_uses, &u);
	return u.ok;
}

/* `ra = A[i];` at the top of the body, `ra` a local of the function declared before the loop
 * (`float ra, rb;`), or a vector load into a local array (`FLOAT4(ra[0]) = FLOAT4(A[i]);`,
 * `float ra[4];`): a fetch into a register exactly as `float ra = A[i];` would be, when
 * nothing outside the loop uses `ra` (its last value is never read), no statement before the
 * first such assignment reads it (no value crosses the back edge: that would be a register
 * prefetch), and only copies after the last do (the compute never sees it). */
static void mark_fetch_assigns(struct kloop *l, const struct source *src)
{
	bool *fetches = xcalloc((size_t)l->nstmts + 1, sizeof *fetches);
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		CXCursor lhs, rhs;
		/* (`a = b` of a class type, bfloat16's, is a call of its operator=) */
		if (st->role != ROLE_COMPUTE || cursor_write_parts(st->cursor, &lhs, &rhs) != WRITE_ASSIGN ||
		    !body_fetch_value(rhs))
			continue;
		CXCursor var = register_lvalue_var(lhs);
		if (clang_Cursor_isNull(var))
			continue;
		struct span d = cursor_span(var);
		enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(var)).kind;
		if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_Cursor_getStorageClass(var) != CX_SC_None ||
		    cursor_is_shared_var(var) || k == CXType_LValueReference || k == CXType_RValueReference ||
		    k == CXType_Pointer || d.begin < l->function_span.begin || d.end > l->loop.begin || references(rhs, var))
			continue;
		st->fetch_var = var;
		fetches[i] = true;
	}
	/* (two fetches into one local each load a part of it, `FLOAT4(r[0]) = ..; FLOAT4(r[4]) = ..;`:
	 * two into the whole of it with a use between, `v = A[i]; As[..] = v; v = A[j]; Bs[..] = v;`,
	 * would hand the first copy the second value, each register being the local's one) */
	for (int i = 0; i < l->nstmts; i++)
		for (int j = i + 1; j < l->nstmts && fetches[i]; j++) {
			CXCursor li, ri, lj, rj;
			if (!fetches[j] || !clang_equalCursors(l->stmts[i].fetch_var, l->stmts[j].fetch_var) ||
			    cursor_write_parts(l->stmts[i].cursor, &li, &ri) != WRITE_ASSIGN ||
			    cursor_write_parts(l->stmts[j].cursor, &lj, &rj) != WRITE_ASSIGN)
				continue;
			char *a = span_text(src, cursor_span(li)), *b = span_text(src, cursor_span(lj));
			bool whole = clang_getCursorKind(cursor_strip(li)) == CXCursor_DeclRefExpr ||
				     clang_getCursorKind(cursor_strip(lj)) == CXCursor_DeclRefExpr || strcmp(a, b) == 0;
			free(a);
			free(b);
			/* (with nothing reading it between, the first load is dead: the second holds) */
			bool read_between = false;
			for (int k = i + 1; k < j && whole && !read_between; k++)
				read_between = references(l->stmts[k].cursor, l->stmts[i].fetch_var);
			if (whole && read_between) {
				CXCursor var = l->stmts[i].fetch_var;
				for (int k = i; k < l->nstmts; k++)
					if (fetches[k] && clang_equalCursors(l->stmts[k].fetch_var, var)) {
						fetches[k] = false;
						l->stmts[k].fetch_var = clang_getNullCursor();
						l->stmts[k].fetch_again = l->stmts[k == i ? j : i].text.begin + 1;
					}
			}
		}
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		if (!fetches[i])
			continue;
		struct fetched_uses u = {.l = l, .var = st->fetch_var, .fetches = fetches, .last = i, .after = l->nstmts, .ok = true};
		for (int j = i + 1; j < l->nstmts; j++)
			if (fetches[j] && clang_equalCursors(l->stmts[j].fetch_var, u.var))
				u.last = j;
		cursor_visit_refs(l->function_cursor, u.var, scan_fetch_uses, &u);
		bool shadow = !u.ok && in_loop_only(l, u.var) && scratch_in_compute(l, u.var, fetches);
		bool keep = !u.ok && !shadow && kept_fetch(l, src, u.var, fetches, i);
		if (!u.ok && !shadow && !keep) {
			st->fetch_blocker = u.at + 1;
			continue;
		}
		st->fetch_shadow = shadow;
		st->fetch_keep = keep;
		st->role = ROLE_FETCH_DECL;
		st->fetch_assign = true;
	}
	free(fetches);
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
			if (l->stmts[j].role == ROLE_FETCH_DECL &&
			    (l->stmts[j].fetch_assign ? clang_equalCursors(v, l->stmts[j].fetch_var)
						      : cursor_declared_within(v, l->stmts[j].text)))
				cp->from_register = true;
	}
}

/* Whether every use of var inside `in` is in the value a copy of statement stmt stores. */
struct loop_fetch_uses {
	const struct kloop *l;
	int stmt;
	CXCursor var;
	bool ok;
};

static enum CXChildVisitResult scan_loop_fetch_uses(CXCursor ref, CXCursor d, void *data)
{
	struct loop_fetch_uses *u = data;
	if (!clang_equalCursors(d, u->var))
		return CXChildVisit_Recurse;
	struct span at = cursor_span(ref);
	bool in_value = false;
	for (int i = 0; i < u->l->ncopies && !in_value; i++) {
		const struct copy *cp = &u->l->copies[i];
		in_value = cp->stmt == u->stmt && cp->tile >= 0 && !clang_Cursor_isNull(cp->value) && cp->src.end == cp->src.begin &&
			   span_within(at, cursor_span(cp->value));
	}
	u->ok = in_value;
	return u->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* `*(float4 *)&r[i] = load;` (wangzyon's `FETCH_FLOAT4(ldg_a_reg[i]) = FETCH_FLOAT4(A[..])`):
 * a whole assignment of a global load into a local of the kernel (an array or a value, no
 * pointer or reference, not static) declared before the loop; the candidate for a copy loop's
 * own fetch that mark_loop_fetches proves. */
/* Whether var is a local of the function that holds the loop. */
static bool in_loop_function(const struct kloop *l, CXCursor var)
{
	CXCursor fn = clang_getCursorSemanticParent(var);
	enum CXCursorKind k = clang_getCursorKind(fn);
	return (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && span_within(l->loop, cursor_span(fn));
}

static bool outer_fetch(const struct kloop *l, CXCursor c)
{
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) != WRITE_ASSIGN || !body_fetch_value(value))
		return false;
	CXCursor var = register_lvalue_var(target);
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(var)).kind;
	return !clang_Cursor_isNull(var) && clang_getCursorKind(var) == CXCursor_VarDecl &&
	       clang_Cursor_getStorageClass(var) == CX_SC_None && !cursor_is_shared_var(var) && k != CXType_Pointer &&
	       k != CXType_LValueReference && k != CXType_RValueReference &&
	       in_loop_function(l, var) &&
	       cursor_span(var).end <= l->loop.begin && !references(value, var);
}

CXCursor body_loop_fetch_value(CXCursor fetch)
{
	return clang_getCursorKind(fetch) == CXCursor_DeclStmt ? cursor_last_child(cursor_first_child(fetch))
							       : cursor_last_child(cursor_strip(fetch));
}

CXCursor body_loop_fetch_var(CXCursor fetch)
{
	return clang_getCursorKind(fetch) == CXCursor_DeclStmt ? cursor_first_child(fetch)
							       : register_lvalue_var(cursor_write_target(fetch));
}

CXType body_loop_fetch_type(CXCursor fetch)
{
	CXCursor written = clang_getCursorKind(fetch) == CXCursor_DeclStmt ? cursor_first_child(fetch)
									   : cursor_strip(cursor_write_target(fetch));
	return clang_getUnqualifiedType(clang_getCursorType(written));
}

/* Whether what e names is there, with the tile's values, where the stash runs again: the
 * array itself, a local of the K-loop's body (the copy loop's counter and trip locals, the
 * body's locals the stash declares again), or a variable the K-loop never writes. The K-loop's
 * own variables and what it bumps hold the tile being computed there, not the one stored. */
struct stash_scan {
	const struct kloop *l;
	CXCursor var;
	bool ok;
};

static enum CXChildVisitResult scan_stash_names(CXCursor ref, CXCursor d, void *data)
{
	(void)ref;
	struct stash_scan *s = data;
	if (cursor_is_variable(d) && !clang_equalCursors(d, s->var) &&
	    !span_within(cursor_span(d), s->l->body))
		s->ok = !span_within(cursor_span(d), s->l->loop) && !cursor_writes_var(s->l->cursor, d);
	return s->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

static bool stash_names(const struct kloop *l, CXCursor e, CXCursor var)
{
	struct stash_scan s = {.l = l, .var = var, .ok = true};
	cursor_visit_names(e, scan_stash_names, &s);
	return s.ok;
}

/* Whether every reference to var in the loop's function is, once, the target of the fetch, or
 * the whole value a copy of statement stmt after it stores (`As[..] = r[i + 1]`: a value that
 * also loads is evaluated with the loads, before the stash writes r again); what the target and
 * those values name, stash_names. */
enum fetch_uses { USES_OK, USES_ELSEWHERE, USES_MIXED, USES_LOOP_NAMES };

static enum fetch_uses outer_fetch_uses(const struct kloop *l, int stmt, CXCursor fetch, CXCursor var)
{
	struct span refs[64];
	int n = cursor_var_refs(clang_getCursorSemanticParent(var), var, refs, 64);
	CXCursor target = cursor_write_target(fetch);
	int in_target = 0;
	for (int r = 0; r < n; r++) {
		if (span_within(refs[r], cursor_span(target))) {
			in_target++;
			continue;
		}
		const struct copy *in = NULL;
		for (int i = 0; i < l->ncopies && !in; i++) {
			const struct copy *cp = &l->copies[i];
			if (cp->stmt == stmt && cp->tile >= 0 && !clang_Cursor_isNull(cp->value) &&
			    cp->src.end == cp->src.begin && cursor_span(cp->value).begin >= cursor_span(fetch).end &&
			    span_within(refs[r], cursor_span(cp->value)))
				in = cp;
		}
		if (!in)
			return USES_ELSEWHERE;
		if (!clang_equalCursors(cursor_root_var(in->value), var) || computed_from_global(in->value))
			return USES_MIXED;
		if (!stash_names(l, in->value, var))
			return USES_LOOP_NAMES;
	}
	return n <= 0 || in_target != 1 ? USES_ELSEWHERE : stash_names(l, target, var) ? USES_OK : USES_LOOP_NAMES;
}

/* A write outer_fetch accepted (note_other_write let it through) that is none of the statement's
 * loop fetches: *at, the first. */
struct unproven_fetch {
	const struct kloop *l;
	const struct body_stmt *st;
	CXCursor at;
};

static bool is_loop_fetch(const struct body_stmt *st, CXCursor c)
{
	/* (by the place of what it writes: the statement and the expression inside it are both
	 * the assignment) */
	struct span at = cursor_span(cursor_write_target(c));
	for (int k = 0; k < st->nloop_fetch; k++) {
		struct span f = cursor_span(cursor_write_target(st->loop_fetch[k]));
		if (clang_getCursorKind(st->loop_fetch[k]) != CXCursor_DeclStmt && f.begin == at.begin && f.end == at.end)
			return true;
	}
	return false;
}

static enum CXChildVisitResult scan_unproven_fetch(CXCursor c, void *data)
{
	struct unproven_fetch *u = data;
	if (outer_fetch(u->l, c) && !is_loop_fetch(u->st, c)) {
		u->at = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* The copies of statement stmt that store var (or a part of it): from a register. */
static void mark_from_register(struct kloop *l, int stmt, CXCursor var)
{
	for (int c = 0; c < l->ncopies; c++) {
		struct copy *cp = &l->copies[c];
		if (cp->stmt == stmt && cp->tile >= 0 && !clang_Cursor_isNull(cp->value) && cp->src.end == cp->src.begin &&
		    clang_equalCursors(cursor_root_var(cp->value), var)) {
			cp->from_register = true;
			cp->computed = false;
		}
	}
}

/* A copy loop's own fetch: `float4 v = *(const float4 *)&A[..];` among the statements of its
 * body (siboehm's `float4 tmp = ..; As[..] = tmp.x; ..`), one variable, no pointer or reference,
 * written only by its declaration and read only by the values of the loop's copies, after it.
 * The register variant stages v a trip at a time; the copies from it store registers
 * (from_register), which cp.async and tensor copies refuse. */
static void mark_loop_fetches(struct kloop *l, const struct source *src)
{
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		/* (or a branch with no else, `if (tid < 128) { float4 v = load; As[..] = v.x; .. }`: a
		 * loop of one trip or none, whose fetch is not indexed) */
		CXCursor loop = cursor_unattributed(st->cursor);
		enum CXCursorKind lk = clang_getCursorKind(loop);
		struct cursors parts = lk == CXCursor_IfStmt ? cursor_children(loop) : (struct cursors){0};
		free(parts.v);
		if (st->role != ROLE_COPY || (lk != CXCursor_ForStmt && (lk != CXCursor_IfStmt || parts.n != 2)))
			continue;
		CXCursor body = cursor_last_child(loop);
		struct cursors stmts = clang_getCursorKind(body) == CXCursor_CompoundStmt ? cursor_children(body) : (struct cursors){0};
		for (int s = 0; s < stmts.n && st->nloop_fetch < 4; s++) {
			struct cursors vars = clang_getCursorKind(stmts.v[s]) == CXCursor_DeclStmt ? cursor_children(stmts.v[s])
												  : (struct cursors){0};
			CXCursor var = vars.n == 1 ? vars.v[0] : clang_getNullCursor();
			free(vars.v);
			if (outer_fetch(l, stmts.v[s])) {
				/* (the variable lives on after the loop: no use but the copies', which the
				 * stash runs in their order after writing it again) */
				var = body_loop_fetch_var(stmts.v[s]);
				if (outer_fetch_uses(l, i, stmts.v[s], var) != USES_OK ||
				    cursor_writes_var(cursor_last_child(stmts.v[s]), var))
					continue;
				st->loop_fetch[st->nloop_fetch++] = stmts.v[s];
				mark_from_register(l, i, var);
				continue;
			}
			enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(var)).kind;
			if (clang_Cursor_isNull(var) || clang_getCursorKind(var) != CXCursor_VarDecl ||
			    clang_Cursor_getStorageClass(var) != CX_SC_None || k == CXType_LValueReference ||
			    k == CXType_RValueReference || k == CXType_Pointer || k == CXType_ConstantArray ||
			    !body_fetch_value(cursor_last_child(var)) || references(cursor_last_child(var), var) ||
			    cursor_writes_var(body, var))
				continue;
			struct loop_fetch_uses u = {.l = l, .stmt = i, .var = var, .ok = true};
			for (int r = s + 1; r < stmts.n && u.ok; r++)
				cursor_visit_names_from(stmts.v[r], scan_loop_fetch_uses, &u);
			if (!u.ok)
				continue;
			st->loop_fetch[st->nloop_fetch++] = stmts.v[s];
			mark_from_register(l, i, var);
		}
		free(stmts.v);
	}
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY) {
			struct unproven_fetch u = {.l = l, .st = &l->stmts[i], .at = clang_getNullCursor()};
			cursor_visit(l->stmts[i].cursor, scan_unproven_fetch, &u);
			if (outer_fetch(l, l->stmts[i].cursor) && !is_loop_fetch(u.st, l->stmts[i].cursor))
				u.at = l->stmts[i].cursor;
			if (clang_Cursor_isNull(u.at))
				continue;
			enum fetch_uses uses = outer_fetch_uses(l, i, u.at, body_loop_fetch_var(u.at));
			refuse_other_write(l, src, l->stmts[i].cursor, u.at,
					   uses == USES_OK ? ", declared outside it, from a load: pipefy stages such a fetch "
							     "only as a statement of a copy loop's body, not under a branch "
							     "or in a nested loop"
					   : uses == USES_MIXED ? ", declared outside it, which a copy reads with other values: "
								  "pipefy stages such a fetch only where each store "
								  "copies an element of it"
					   : uses == USES_LOOP_NAMES ? ", declared outside it, with indices that name what the "
								       "K-loop changes: pipefy stores such a fetch a tile "
								       "later, when those hold another tile's values"
								     : ", declared outside it, which the statement's stores "
								       "do not alone read: pipefy moves a tile's copies only "
								       "with what they alone write");
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

/* Declarations the copy side reads (copies, other such declarations) become ROLE_COPY_DECL;
 * whether any did. */
static bool mark_decls_copies_read(struct kloop *l)
{
	bool any = false, changed = true;
	while (changed) {
		changed = false;
		for (int i = 0; i < l->nstmts; i++) {
			struct body_stmt *st = &l->stmts[i];
			if (st->role != ROLE_COMPUTE || clang_getCursorKind(st->cursor) != CXCursor_DeclStmt)
				continue;
			for (int j = i + 1; j < l->nstmts && st->role == ROLE_COMPUTE; j++) {
				enum stmt_role r = l->stmts[j].role;
				if ((r == ROLE_COPY || r == ROLE_COPY_DECL || r == ROLE_FETCH_DECL) &&
				    stmt_reads_decl(l->stmts[j].cursor, st->cursor)) {
					st->role = ROLE_COPY_DECL;
					changed = any = true;
				}
			}
		}
	}
	return any;
}

/* Whether the statement stays in the body the rewrite keeps (the compute's side). */
static bool stays_in_body(const struct body_stmt *st)
{
	if (st->role == ROLE_COPY_DECL || st->role == ROLE_FETCH_DECL)
		return st->also_compute;
	return st->role != ROLE_COPY;
}

/* The copy-side declaration (ROLE_COPY_DECL) of a local of the body, or -1. */
static int copy_decl_of(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY_DECL && cursor_declares(l->stmts[i].cursor, var))
			return i;
	return -1;
}

/* A number or a pointer, not volatile: its assignment is whole and runs nothing. */
static bool scratch_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return ((t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Pointer ||
		t.kind == CXType_Enum) &&
	       !clang_isVolatileQualifiedType(t);
}

static enum CXChildVisitResult scan_lambda_names(CXCursor c, void *data)
{
	CXCursor *var = data;
	if (clang_getCursorKind(c) == CXCursor_LambdaExpr && references(c, *var)) {
		*var = clang_getNullCursor();
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Whether the value var holds when the loop ends is never read: going out from the loop, the
 * statements after it in each block around it assign var whole before they read it, or do not
 * name it, and no loop around it names var elsewhere (its next trip could read what this one
 * left); no lambda names var (it could run after the loop wherever it is written), its address
 * is not taken, and the function jumps nowhere (goto, switch). */
static bool dead_after_loop(const struct kloop *l, CXCursor var)
{
	CXCursor v = var;
	bool jumps = false;
	cursor_visit(l->function_cursor, scan_jumps, &jumps);
	cursor_visit(l->function_cursor, scan_lambda_names, &v);
	if (jumps || clang_Cursor_isNull(v) || cursor_aliased(l->function_cursor, var))
		return false;
	CXCursor path[64];
	int n = 0;
	struct span loop = cursor_span(l->cursor);
	/* (down to the loop, known by its place: l->cursor may be another cursor of it) */
	for (CXCursor node = cursor_last_child(l->function_cursor);
	     cursor_span(node).begin != loop.begin || cursor_span(node).end != loop.end;) {
		if (n == 64)
			return false;
		path[n++] = node;
		struct cursors kids = cursor_children(node);
		int k = 0;
		while (k < kids.n && !span_within(loop, cursor_span(kids.v[k])))
			k++;
		bool found = k < kids.n;
		if (found)
			node = kids.v[k];
		free(kids.v);
		if (!found)
			return false;
	}
	bool dead = true, decided = false;
	for (int d = n - 1; d >= 0 && !decided; d--) {
		enum CXCursorKind k = clang_getCursorKind(path[d]);
		struct cursors kids = cursor_children(path[d]);
		if (k == CXCursor_CompoundStmt) {
			int at = 0;
			while (at < kids.n && !span_within(loop, cursor_span(kids.v[at])))
				at++;
			enum touch t = at < kids.n ? first_touch_seq(kids.v + at + 1, kids.n - at - 1, var) : TOUCH_READS;
			decided = t != TOUCH_NONE;
			dead = t != TOUCH_READS;
		} else if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
			   k == CXCursor_CXXForRangeStmt) {
			/* (a later trip would come back to what is before the loop: any name of var in
			 * the loop around it but in the loop itself) */
			if (cursor_first_ref(path[d], var, loop, NULL))
				decided = true, dead = false;
		} else if (k != CXCursor_IfStmt && k != CXCursor_UnexposedStmt) {
			decided = true, dead = false; /* (anything else: not read here) */
		}
		free(kids.v);
	}
	return dead;
}

/* Which statements of the body a first touch is read over: all, those that stay in the body,
 * or the copy side's (what a loader runs). */
enum touch_side { SIDE_ALL, SIDE_KEPT, SIDE_COPIES };

static enum touch first_touch_of(const struct kloop *l, CXCursor var, enum touch_side side)
{
	CXCursor *v = xcalloc((size_t)l->nstmts + 1, sizeof *v);
	int n = 0;
	for (int i = 0; i < l->nstmts; i++) {
		enum stmt_role r = l->stmts[i].role;
		bool copies = r == ROLE_COPY || r == ROLE_COPY_DECL || r == ROLE_FETCH_DECL || r == ROLE_BUMP;
		if (side == SIDE_ALL || (side == SIDE_KEPT ? stays_in_body(&l->stmts[i]) : copies))
			v[n++] = l->stmts[i].cursor;
	}
	enum touch t = first_touch_seq(v, n, var);
	free(v);
	return t;
}

/* A local of the function, declared before the loop, that every iteration assigns whole before
 * it reads it, where it is read at all (`int idx; for (..) { idx = ..; .. A[idx] .. }`), and
 * whose value after the loop nothing reads (only the loop's body names it, or dead_after_loop):
 * a step or a copy may write it too, the loader then assigning it a tile early, where its value
 * carries nothing from one iteration to the next and nothing after the loop reads it. */
static bool function_scratch(const struct kloop *l, CXCursor var)
{
	if (clang_getCursorKind(var) != CXCursor_VarDecl || cursor_is_shared_var(var) ||
	    !cursor_declared_within(var, l->function_span) || cursor_declared_within(var, l->body))
		return false;
	/* (reached by its name alone: a reference to it would read or write what the loader's own
	 * leaves alone) */
	if (!scratch_type(clang_getCursorType(var)) || cursor_aliased(l->function_cursor, var))
		return false;
	for (int i = 0; i < l->nivars; i++) /* (a loop variable is the cursor's: `row += 5;` each trip) */
		if (cursor_offset(l->ivars[i].decl) == cursor_offset(var))
			return false;
	bool jumps = false;
	cursor_visit(l->cursor, scan_jumps, &jumps);
	/* (the loop's own header runs after each trip's body: it must not name it either) */
	if (jumps || cursor_first_ref(l->cursor, var, l->body, NULL) || !(in_loop_only(l, var) || dead_after_loop(l, var)))
		return false;
	/* (a trip that assigns it on one branch only reads it on none: `if (c) { r = ..; X[r] = ..; }`) */
	return first_touch_of(l, var, SIDE_ALL) != TOUCH_READS;
}

/* Whether the statements that stay in the body set var, a scratch local of the function,
 * before they read it (`row = ty; .. row ..`): the loader's own is then no value of theirs. */
static bool kept_sets_first(const struct kloop *l, CXCursor var)
{
	return first_touch_of(l, var, SIDE_KEPT) == TOUCH_WRITES;
}

/* Whether a statement that stays in the body names var. */
static bool body_keeps_use(const struct kloop *l, CXCursor var)
{
	for (int i = 0; i < l->nstmts; i++)
		if (stays_in_body(&l->stmts[i]) && references(l->stmts[i].cursor, var))
			return true;
	return false;
}

/* The locals a statement writes straight into, other than the tiles and its own: the
 * copy-side locals of the body (`v`, up to 8, each with its first write), or anything else
 * (*other, with the write: through a pointer, a variable of the function; in a step, any
 * call, which might write what it is handed). */
struct local_writes {
	const struct kloop *l;
	CXCursor stmt;
	bool step; /* a statement that fills no tile: it may call nothing */
	CXCursor v[8], at[8];
	int n;
	bool other;
	CXCursor other_at;
};

static enum CXChildVisitResult scan_local_writes(CXCursor c, void *data)
{
	struct local_writes *w = data;
	if (w->step && clang_getCursorKind(c) == CXCursor_CallExpr) {
		w->other = true;
		w->other_at = c;
		return CXChildVisit_Break;
	}
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) == WRITE_NONE)
		return CXChildVisit_Recurse;
	CXCursor root = cursor_root_var(target);
	if (!clang_Cursor_isNull(root) && cursor_is_shared_var(root))
		return CXChildVisit_Recurse; /* a tile's store */
	CXCursor var = register_lvalue_var(target);
	if (!clang_Cursor_isNull(var) && cursor_declared_within(var, cursor_span(w->stmt)))
		return CXChildVisit_Recurse; /* (a copy loop's own counter) */
	if (clang_Cursor_isNull(var) || w->n == 8 ||
	    (copy_decl_of(w->l, var) < 0 && !function_scratch(w->l, var))) {
		w->other = true;
		w->other_at = c;
		return CXChildVisit_Break;
	}
	bool seen = false;
	for (int i = 0; i < w->n; i++)
		seen |= clang_equalCursors(w->v[i], var);
	if (!seen) {
		w->at[w->n] = c;
		w->v[w->n++] = var;
	}
	return CXChildVisit_Recurse;
}

static struct local_writes local_writes_of(const struct kloop *l, CXCursor stmt, bool step)
{
	struct local_writes w = {.l = l, .stmt = stmt, .step = step};
	if (scan_local_writes(stmt, &w) == CXChildVisit_Recurse) /* (itself the write) */
		cursor_visit(stmt, scan_local_writes, &w);
	return w;
}

/* Whether every local w holds is one only the copy side uses: its declaration is the copies'
 * and nothing that stays in the body reads it, or a scratch local of the function
 * (function_scratch) that nothing staying in the body names. */
static bool copies_alone_use(const struct kloop *l, const struct local_writes *w)
{
	for (int i = 0; i < w->n; i++) {
		int d = copy_decl_of(l, w->v[i]);
		if (d >= 0 ? l->stmts[d].also_compute : body_keeps_use(l, w->v[i]) && !kept_sets_first(l, w->v[i]))
			return false;
	}
	return !w->other && w->n > 0;
}

/* also_compute: a copy-side declaration some statement that stays in the body reads, directly
 * or through another such declaration (which then stays too); and a copy-side step that sets a
 * scratch local of the function (function_scratch) such a statement reads: it stays too, and
 * each loader sets a local of its own (kloop.scratch). */
static void mark_also_compute(struct kloop *l)
{
	for (int i = 0; i < l->nstmts; i++)
		l->stmts[i].also_compute = false;
	bool changed = true;
	while (changed) {
		changed = false;
		for (int i = 0; i < l->nstmts; i++) {
			struct body_stmt *st = &l->stmts[i];
			if ((st->role != ROLE_COPY_DECL && st->role != ROLE_FETCH_DECL) || st->also_compute)
				continue;
			if (clang_getCursorKind(st->cursor) == CXCursor_DeclStmt) {
				for (int j = i + 1; j < l->nstmts && !st->also_compute; j++)
					if (stays_in_body(&l->stmts[j]) && stmt_reads_decl(l->stmts[j].cursor, st->cursor))
						st->also_compute = changed = true;
				continue;
			}
			if (st->role != ROLE_COPY_DECL)
				continue;
			struct local_writes w = local_writes_of(l, st->cursor, true);
			for (int v = 0; v < w.n && !w.other && !st->also_compute; v++)
				for (int j = 0; j < l->nstmts && copy_decl_of(l, w.v[v]) < 0 && !st->also_compute; j++)
					if (j != i && stays_in_body(&l->stmts[j]) && references(l->stmts[j].cursor, w.v[v]))
						st->also_compute = changed = true;
		}
	}
}

/* Whether a statement other than `except` names var: one that stays in the body, or (copy)
 * one of the copy side. */
static bool named_apart(const struct kloop *l, int except, CXCursor var, bool copy)
{
	for (int j = 0; j < l->nstmts; j++) {
		enum stmt_role r = l->stmts[j].role;
		bool side = copy ? r == ROLE_COPY || r == ROLE_COPY_DECL || r == ROLE_FETCH_DECL : stays_in_body(&l->stmts[j]);
		if (j != except && side && references(l->stmts[j].cursor, var))
			return true;
	}
	return false;
}

/* The locals a step (statement i) sets: the copies' alone (copies_alone_use), or scratch locals
 * of the function that the copy side reads, whatever else reads them: the step then stays in
 * the compute as well (mark_also_compute), and each loader sets its own. */
static bool step_locals_ok(const struct kloop *l, int i, const struct local_writes *w)
{
	for (int v = 0; v < w->n; v++) {
		int d = copy_decl_of(l, w->v[v]);
		if (d >= 0 ? l->stmts[d].also_compute
			   : named_apart(l, i, w->v[v], false) && !named_apart(l, i, w->v[v], true))
			return false;
	}
	return !w->other && w->n > 0;
}

/* Statements of the compute that only advance locals the copies alone use (`row += 16;`
 * between their declaration and the copy loop; `idx = ..;` before each copy, idx a scratch
 * local of the function) go with the copies, each in its place among them: the loader runs
 * declarations, steps and copies in the body's order. All such statements are taken first
 * (two steps of one local each name it), then any whose locals something the body keeps also
 * names is given back to the compute, the roles worked out again from those before the steps
 * each round, until none is. */
static void mark_copy_steps(struct kloop *l)
{
	enum stmt_role *before = xcalloc((size_t)l->nstmts + 1, sizeof *before);
	bool *step = xcalloc((size_t)l->nstmts + 1, sizeof *step);
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		before[i] = st->role;
		if (st->role != ROLE_COMPUTE || !clang_isExpression(clang_getCursorKind(st->cursor)))
			continue;
		struct local_writes w = local_writes_of(l, st->cursor, true);
		step[i] = !w.other && w.n > 0;
	}
	bool changed = true;
	while (changed) {
		changed = false;
		for (int i = 0; i < l->nstmts; i++) {
			l->stmts[i].role = step[i] ? ROLE_COPY_DECL : before[i];
			l->stmts[i].advance = clang_getNullCursor();
		}
		mark_decls_copies_read(l);
		mark_also_compute(l);
		for (int i = 0; i < l->nstmts; i++) {
			if (!step[i])
				continue;
			struct local_writes w = local_writes_of(l, l->stmts[i].cursor, true);
			if (step_locals_ok(l, i, &w))
				l->stmts[i].advance = w.at[0];
			else
				step[i] = false, changed = true;
		}
	}
	free(step);
	free(before);
}

/* A statement that fills a tile and advances a local of the body that the copies do not use
 * alone: the loader would advance it a tile early, apart from its other readers. */
static void refuse_shared_local(struct kloop *l, const struct source *src, const struct body_stmt *st,
				const struct local_writes *w)
{
	CXCursor write = w->other ? w->other_at : w->n ? w->at[0] : st->cursor;
	CXCursor var = register_lvalue_var(cursor_write_target(write));
	const char *why = !clang_Cursor_isNull(var) && !body_local(l, var)
				  ? ", declared outside it: pipefy moves a tile's copies only with what they alone write"
				  : ": pipefy moves a tile's copies only with the locals they alone use";
	/* (a local of the function: which of function_scratch's facts fails) */
	if (w->other && !clang_Cursor_isNull(var) && effects_is_local(var) && !body_local(l, var) &&
	    scratch_type(clang_getCursorType(var))) {
		if (cursor_aliased(l->function_cursor, var))
			why = ", which a reference or its address also reaches: they would not reach the loader's own";
		else if (cursor_first_ref(l->cursor, var, l->body, NULL))
			why = ", which the loop's own header reads after each trip: the loader would write it a tile "
			      "early";
		else if (first_touch_of(l, var, SIDE_ALL) == TOUCH_READS)
			why = ", which an iteration may read as the one before left it: the loader would write it a "
			      "tile early";
		else if (!in_loop_only(l, var) && !dead_after_loop(l, var))
			why = ", whose value after the loop pipefy cannot show unread (a later statement, an "
			      "enclosing loop, a lambda or a pointer may read it)";
	}
	if (w->other && !clang_Cursor_isNull(var) && effects_is_local(var) && !body_local(l, var) &&
	    !scratch_type(clang_getCursorType(var)))
		why = ", declared outside it, and no number or pointer: pipefy gives the loader its own of those "
		      "alone";
	for (int i = 0; i < w->n && !w->other; i++) {
		int d = copy_decl_of(l, w->v[i]);
		if (d >= 0 ? l->stmts[d].also_compute : body_keeps_use(l, w->v[i]) && !kept_sets_first(l, w->v[i])) {
			write = w->at[i];
			why = d >= 0 ? ", which the compute reads too: the loader would advance it a tile early"
				     : ", which the compute reads too: the loader would write it a tile early";
			break;
		}
	}
	refuse_other_write(l, src, st->cursor, write, why);
}

/* Locals the copies need, directly or through other such locals, go with the copies; those
 * the compute reads too stay in the body as well. So do the statements that only advance
 * them; a copy that writes such a local (writes_locals) keeps it only where the copies alone
 * use it. */
static void mark_copy_decls(struct kloop *l, const struct source *src)
{
	mark_decls_copies_read(l);
	mark_also_compute(l);
	mark_copy_steps(l);
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY_DECL && is_fetch_decl(st->cursor))
			st->role = ROLE_FETCH_DECL;
		if (st->role != ROLE_COPY || !st->writes_locals)
			continue;
		struct local_writes w = local_writes_of(l, st->cursor, false);
		if (copies_alone_use(l, &w))
			st->advance = w.at[0];
		else
			refuse_shared_local(l, src, st, &w);
	}
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_TILE_DECL) {
			struct cursors vars = cursor_children(l->stmts[i].cursor);
			for (int v = 0; v < vars.n; v++) {
				int t = kloop_tile(l, vars.v[v]);
				if (t >= 0)
					l->tiles[t].body_stmt = i;
			}
			free(vars.v);
		}
}

/* Whether anything in the function writes var (or lets it be written) besides its declaration,
 * which must be one of the function body's statements (a declaration further in is taken for a
 * write: it may run again). */
static bool assigned_after_init(CXCursor function, CXCursor var)
{
	struct cursors top = cursor_children(cursor_last_child(function));
	bool written = false, declared = false;
	for (int i = 0; i < top.n && !written; i++) {
		struct cursors vars = cursor_children(top.v[i]);
		bool decl = false;
		for (int v = 0; v < vars.n && clang_getCursorKind(top.v[i]) == CXCursor_DeclStmt; v++)
			decl |= clang_equalCursors(vars.v[v], var);
		declared |= decl;
		if (!decl)
			written = cursor_writes_var(top.v[i], var);
		for (int v = 0; v < vars.n && decl; v++) /* (`int tid = .., *p = &tid;`) */
			written |= !clang_equalCursors(vars.v[v], var) && cursor_writes_var(vars.v[v], var);
		free(vars.v);
	}
	free(top.v);
	return written || !declared;
}

/* A local of the function that is not const but holds one value: an integer declared with an
 * initializer, which nothing else writes, takes the address of or binds a reference to
 * (`int stride = thread_num / BK;`); its initializer a constant (template_constant, the
 * caller's question), the declaration gives it that value each time it runs. Its name is no
 * constant expression: a bound written in front of the loop takes its initializer in its place
 * (constant_text). */
static bool single_value_local(CXCursor d, CXCursor function)
{
	CXCursor init = cursor_last_child(d);
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(d)).kind;
	if (clang_getCursorKind(d) != CXCursor_VarDecl || clang_isConstQualifiedType(clang_getCursorType(d)) ||
	    tk < CXType_Bool || tk > CXType_Int128 || clang_Cursor_isNull(function) ||
	    !clang_equalCursors(clang_getCursorSemanticParent(d), function) || clang_Cursor_getStorageClass(d) != CX_SC_None ||
	    cursor_is_shared_var(d) || clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init)))
		return false;
	return !assigned_after_init(function, d) || !cursor_writes_var(cursor_last_child(function), d);
}

/* An integer a template's instantiation fixes: template parameters, enumerators, literals,
 * sizeof, and const locals or globals initialized so, or locals holding one such value
 * (single_value_local), through operators (at most 8 constants deep:
 * `const uint threads = BM * BN / (TM * TN); const uint stride = threads / BK;`). */
static bool template_constant(CXCursor e, CXCursor function, int depth)
{
	if (clang_Cursor_isNull(e) || depth > 8)
		return false;
	enum CXCursorKind k = clang_getCursorKind(e);
	switch (k) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
	case CXCursor_UnaryExpr:
		return true;
	case CXCursor_DeclRefExpr: {
		CXCursor d = clang_getCursorReferenced(e);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if (dk == CXCursor_NonTypeTemplateParameter || dk == CXCursor_EnumConstantDecl)
			return true;
		CXType t = clang_getCursorType(d);
		CXCursor init = cursor_last_child(d);
		if (single_value_local(d, function))
			return template_constant(init, function, depth + 1);
		return dk == CXCursor_VarDecl && clang_isConstQualifiedType(t) && !clang_Cursor_isNull(init) &&
		       clang_isExpression(clang_getCursorKind(init)) && template_constant(init, function, depth + 1);
	}
	case CXCursor_UnaryOperator: {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus && op != CXUnaryOperator_Not &&
		    op != CXUnaryOperator_LNot)
			return false;
	}
		/* fall through */
	case CXCursor_ParenExpr:
	case CXCursor_BinaryOperator:
	case CXCursor_ConditionalOperator:
	case CXCursor_CStyleCastExpr:
	case CXCursor_CXXStaticCastExpr:
	case CXCursor_CXXFunctionalCastExpr:
	case CXCursor_UnexposedExpr: {
		if (k == CXCursor_BinaryOperator) {
			enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
			if (op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma)
				return false;
		}
		struct cursors kids = cursor_children(e);
		bool ok = kids.n > 0;
		for (int i = 0; i < kids.n && ok; i++) {
			enum CXCursorKind ck = clang_getCursorKind(kids.v[i]);
			if (clang_isReference(ck) || clang_isDeclaration(ck))
				continue; /* (a cast's type) */
			ok = template_constant(kids.v[i], function, depth); /* (depth counts constants followed) */
		}
		free(kids.v);
		return ok;
	}
	default:
		return false;
	}
}

/* Whether e is never negative: a literal or constant >= 0, CUDA's builtin indices, or built of
 * such with +, *, /, %, >> and &, through locals the function never assigns after their
 * initializer (`int tid = threadIdx.x;`). An unsigned type alone proves nothing: converted to
 * the loop's `int`, `threadIdx.x - 32` is negative. A copy loop starting there runs at most
 * ceil(N / S) trips, the number its staged form counts; one starting below 0 would run more.
 * (A local declared further in, that nothing else writes, takes its initializer's value each
 * time its declaration runs.) */
static bool never_negative(CXCursor e, CXCursor function, int depth)
{
	e = cursor_strip(e);
	if (clang_Cursor_isNull(e) || depth > 8)
		return false;
	bool ok;
	long v = cursor_evaluate_int(e, &ok);
	if (ok)
		return v >= 0;
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_MemberRefExpr) { /* `threadIdx.x`: CUDA's builtin indices are unsigned */
		CXCursor base = cursor_strip(cursor_first_child(e));
		char *name = clang_getCursorKind(base) == CXCursor_DeclRefExpr ? cursor_name(base) : xstrdup("");
		bool builtin = strcmp(name, "threadIdx") == 0 || strcmp(name, "blockIdx") == 0 ||
			       strcmp(name, "blockDim") == 0 || strcmp(name, "gridDim") == 0;
		free(name);
		return builtin && effects_in_system_header(clang_getCursorReferenced(base));
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e), init = cursor_last_child(d);
		/* (declared in a loop it runs again, with a value never negative each time) */
		return clang_getCursorKind(d) == CXCursor_VarDecl && !clang_Cursor_isNull(init) &&
		       clang_isExpression(clang_getCursorKind(init)) &&
		       (!assigned_after_init(function, d) || !cursor_writes_var(cursor_last_child(function), d)) &&
		       never_negative(init, function, depth + 1);
	}
	if (k != CXCursor_BinaryOperator)
		return false;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
	return (op == CXBinaryOperator_Add || op == CXBinaryOperator_Mul || op == CXBinaryOperator_Div ||
		op == CXBinaryOperator_Rem || op == CXBinaryOperator_Shr || op == CXBinaryOperator_And) &&
	       never_negative(cursor_first_child(e), function, depth) && never_negative(cursor_last_child(e), function, depth);
}

/* Whether e is threadIdx.x, or a local set to it once: below blockDim.x in every thread. */
static bool thread_index_x(const struct source *src, CXCursor e, CXCursor function, int depth)
{
	e = cursor_strip(e);
	if (clang_Cursor_isNull(e) || depth > 8)
		return false;
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_MemberRefExpr) { /* (the member is a property: its text names it) */
		CXCursor base = cursor_strip(cursor_first_child(e));
		char *name = clang_getCursorKind(base) == CXCursor_DeclRefExpr ? cursor_name(base) : xstrdup("");
		char *text = span_text(src, cursor_span(e));
		size_t n = strlen(text);
		bool x = strcmp(name, "threadIdx") == 0 && n > 2 && strcmp(text + n - 2, ".x") == 0 &&
			 effects_in_system_header(clang_getCursorReferenced(base));
		free(name);
		free(text);
		return x;
	}
	if (k != CXCursor_DeclRefExpr)
		return false;
	CXCursor d = clang_getCursorReferenced(e), init = cursor_last_child(d);
	return clang_getCursorKind(d) == CXCursor_VarDecl && !clang_Cursor_isNull(init) &&
	       clang_isExpression(clang_getCursorKind(init)) &&
	       (!assigned_after_init(function, d) || !cursor_writes_var(cursor_last_child(function), d)) &&
	       thread_index_x(src, init, function, depth + 1);
}

/* Whether the function declares no other variable named as d: a name written in front of the
 * K-loop then means d there too. */
static bool name_unique(CXCursor function, CXCursor d)
{
	char *name = cursor_name(d);
	struct cursors stack = cursor_children(function);
	bool unique = true;
	while (stack.n > 0 && unique) {
		CXCursor c = stack.v[--stack.n];
		if (cursor_is_variable(c) && !clang_equalCursors(c, d)) {
			char *n = cursor_name(c);
			unique = strcmp(n, name) != 0;
			free(n);
		}
		struct cursors kids = cursor_children(c);
		for (int i = 0; i < kids.n; i++)
			*VEC_PUSH(stack.v, stack.n, stack.cap) = kids.v[i];
		free(kids.v);
	}
	free(stack.v);
	free(name);
	return unique;
}

/* The names a constant's text takes in place of a local holding one value, and where. */
struct constant_subst {
	CXCursor function;
	struct span body; /* the K-loop's body: a const local declared there is out of scope in front */
	const struct source *src;
	struct span at[16];
	char *with[16];
	int n;
	bool bad;
};

static char *constant_text(const struct source *src, CXCursor e, CXCursor function, struct span body, int depth);

/* A const integer the K-loop's body declares from constants (`const int n = BM * BK;`): one
 * value, but its name means nothing in front of the loop. */
bool body_constant(CXCursor d, CXCursor function, struct span body)
{
	struct span ds = cursor_span(d);
	CXCursor init = cursor_last_child(d);
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(d)).kind;
	return clang_getCursorKind(d) == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(d)) &&
	       tk >= CXType_Bool && tk <= CXType_Int128 && !clang_Cursor_isNull(function) &&
	       clang_equalCursors(clang_getCursorSemanticParent(d), function) && ds.begin >= body.begin &&
	       ds.end <= body.end && body.end > body.begin && !clang_Cursor_isNull(init) &&
	       clang_isExpression(clang_getCursorKind(init)) && template_constant(init, function, 1);
}

static bool subst_ref(struct constant_subst *s, CXCursor ref, int depth)
{
	CXCursor d = clang_getCursorReferenced(ref);
	if (!single_value_local(d, s->function) && !body_constant(d, s->function, s->body)) {
		/* (a local named as written must mean it in front of the loop too) */
		if (clang_getCursorKind(d) == CXCursor_VarDecl && !name_unique(s->function, d))
			s->bad = true;
		return !s->bad;
	}
	char *init = s->n < 16 && !cursor_from_macro(ref) && name_unique(s->function, d) &&
			     template_constant(cursor_last_child(d), s->function, depth + 1)
			     ? constant_text(s->src, cursor_last_child(d), s->function, s->body, depth + 1)
			     : NULL;
	if (!init) {
		s->bad = true;
		return false;
	}
	/* (cast to its type where its initializer has another) */
	CXType t = clang_getUnqualifiedType(clang_getCanonicalType(clang_getCursorType(d)));
	char *type = type_spelling(t);
	s->at[s->n] = cursor_span(ref);
	if (clang_equalTypes(t, clang_getCanonicalType(clang_getCursorType(cursor_last_child(d)))))
		s->with[s->n++] = xprintf("(%s)", init);
	else
		s->with[s->n++] = xprintf("((%s)(%s))", type, init);
	free(type);
	free(init);
	return true;
}

static enum CXChildVisitResult collect_substs(CXCursor ref, CXCursor d, void *data)
{
	(void)d;
	return subst_ref(data, ref, 0) ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* e's text as a constant expression in front of the K-loop: each local holding one value
 * (single_value_local) replaced by its initializer (cast to its type where that differs), so
 * that `int stride = thread_num / BK;` sizes an array as `((BM * BN / TM) / BK)`.
 * NULL when such a name sits in a macro's expansion, or a name could mean another variable. */
static char *constant_text(const struct source *src, CXCursor e, CXCursor function, struct span body, int depth)
{
	if (depth > 8)
		return NULL;
	struct constant_subst s = {.function = function, .body = body, .src = src};
	if (clang_getCursorKind(e) == CXCursor_DeclRefExpr)
		subst_ref(&s, e, depth);
	else
		cursor_visit_names(e, collect_substs, &s);
	struct span whole = cursor_span(e);
	struct strbuf sb = {0};
	size_t at = whole.begin;
	for (int i = 0; i < s.n && !s.bad; i++) { /* (in the order of the text: the visit's) */
		if (s.at[i].begin < at || s.at[i].end > whole.end) {
			s.bad = true;
			break;
		}
		sb_printf(&sb, "%.*s%s", (int)(s.at[i].begin - at), src->text + at, s.with[i]);
		at = s.at[i].end;
	}
	for (int i = 0; i < s.n; i++)
		free(s.with[i]);
	char *text = sb_take(&sb);
	if (s.bad) {
		free(text);
		return NULL;
	}
	char *r = xprintf("%s%.*s", text ? text : "", (int)(whole.end - at), src->text + at);
	free(text);
	return r;
}

/* Whether c names var (through parentheses and conversions). */
static bool names_var(CXCursor c, CXCursor var)
{
	c = cursor_strip(c);
	return clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), var);
}

/* A copy loop's test read as `i < B`: `i < N`, `i <= N`, `i + C < N`, `i + C <= N` (C + i too),
 * N and C constants or fixed by the template. B's text is a constant expression in front of the
 * loop (wider than the test's type where C is subtracted: `(long long)(N) - (long long)(C) + 1`);
 * *n its value, -1 when the template fixes it; false when the test is none of those. A loop of
 * `i = E0 + j * S`, E0 >= 0, passes the test at most ceil(B / S) times (i + C <= N means
 * i < N - C + 1). */
static bool copy_loop_bound(struct copy_loop *cl, const struct source *src, CXCursor cond, CXCursor var,
			    CXCursor function, struct span body, long *n)
{
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
		return false;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
	if (op != CXBinaryOperator_LT && op != CXBinaryOperator_LE)
		return false;
	CXCursor lhs = cursor_strip(cursor_first_child(cond)), limit = cursor_last_child(cond), offset = clang_getNullCursor();
	if (clang_getCursorKind(lhs) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(lhs) == CXBinaryOperator_Add) {
		CXCursor a = cursor_first_child(lhs), b = cursor_last_child(lhs);
		offset = names_var(a, var) ? b : names_var(b, var) ? a : clang_getNullCursor();
		if (clang_Cursor_isNull(offset))
			return false;
	} else if (!names_var(lhs, var))
		return false;
	bool ok_n, ok_c = true;
	long N = cursor_evaluate_int(limit, &ok_n), C = clang_Cursor_isNull(offset) ? 0 : cursor_evaluate_int(offset, &ok_c);
	if ((!ok_n && !template_constant(limit, function, 0)) || (!ok_c && !template_constant(offset, function, 0)))
		return false;
	long B = N - C + (op == CXBinaryOperator_LE);
	if (ok_n && ok_c && B <= 0) /* (a loop that never runs: nothing to stage) */
		return false;
	char *lt = constant_text(src, limit, function, body, 0);
	char *ct = clang_Cursor_isNull(offset) ? NULL : constant_text(src, offset, function, body, 0);
	if (!lt || (!clang_Cursor_isNull(offset) && !ct)) {
		free(lt);
		free(ct);
		return false;
	}
	if (ct)
		cl->bound_text = xprintf("(long long)(%s) - (long long)(%s)%s", lt, ct, op == CXBinaryOperator_LE ? " + 1" : "");
	else if (op == CXBinaryOperator_LE)
		cl->bound_text = xprintf("(%s) + 1", lt);
	else
		cl->bound_text = xstrdup(lt);
	free(lt);
	free(ct);
	cl->limit = limit;
	cl->offset = offset;
	*n = ok_n && ok_c ? B : -1;
	return true;
}

/* `for (T i = E0; i < N; i += S) { ...copies... }` (or `++i`, `i++`: S = 1; other tests
 * copy_loop_bound reads) at the top of the body, N a constant and S a constant or blockDim.x:
 * the register variant can stage such a loop with one register per trip. Records its numbers
 * and parts in the statement (whether its trip count means the same in front of the loop is
 * check's question). */
static void copy_loop_shape(struct copy_loop *cl, CXCursor loop, const struct source *src, CXCursor function,
			    struct span body)
{
	struct cursors kids = cursor_children(loop), var = {0};
	cl->loop = loop;
	bool add = kids.n == 4 && clang_getCursorKind(kids.v[2]) == CXCursor_CompoundAssignOperator &&
		   clang_getCursorBinaryOperatorKind(kids.v[2]) == CXBinaryOperator_AddAssign;
	bool inc = kids.n == 4 && clang_getCursorKind(kids.v[2]) == CXCursor_UnaryOperator &&
		   (clang_getCursorUnaryOperatorKind(kids.v[2]) == CXUnaryOperator_PreInc ||
		    clang_getCursorUnaryOperatorKind(kids.v[2]) == CXUnaryOperator_PostInc);
	if (kids.n != 4 || clang_getCursorKind(kids.v[0]) != CXCursor_DeclStmt || !(add || inc))
		goto done;
	/* one variable, initialized, and the one the loop steps */
	var = cursor_children(kids.v[0]);
	if (var.n != 1 || clang_getCursorKind(var.v[0]) != CXCursor_VarDecl ||
	    !clang_equalCursors(cursor_root_var(cursor_first_child(kids.v[2])), var.v[0]))
		goto done;
	CXCursor init = cursor_last_child(var.v[0]);
	/* (an unsigned counter cannot start below 0; a signed one must be shown not to) */
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(var.v[0])).kind;
	bool unsigned_var = tk == CXType_UInt || tk == CXType_ULong || tk == CXType_ULongLong;
	if (clang_Cursor_isNull(init))
		goto done;
	if (!unsigned_var && !never_negative(init, function, 0)) {
		cl->unsure_start = cursor_span(init);
		goto done;
	}
	cl->thread_start = thread_index_x(src, init, function, 0);
	/* the bound: a constant; the stride: a constant, or blockDim.x */
	long N;
	if (!copy_loop_bound(cl, src, kids.v[1], var.v[0], function, body, &N))
		goto done;
	bool ok;
	CXCursor step = inc ? clang_getNullCursor() : cursor_last_child(kids.v[2]);
	long S = 1;
	bool block_stride = false;
	if (!inc) {
		S = cursor_evaluate_int(step, &ok);
		if (!ok)
			S = template_constant(step, function, 0) ? -2 : -1;
		char *step_text = span_text(src, cursor_span(step));
		block_stride = strcmp(step_text, "blockDim.x") == 0;
		free(step_text);
		cl->stride_text = block_stride || S == -1 ? NULL : constant_text(src, step, function, body, 0);
		if (!block_stride)
			cl->step = cursor_span(step);
	}
	if ((S == -1 && !block_stride) || S == 0 || S < -2 || (!inc && !block_stride && !cl->stride_text)) {
		free(cl->bound_text);
		free(cl->stride_text);
		cl->bound_text = cl->stride_text = NULL;
		goto done;
	}
	cl->bound = N;
	cl->stride = block_stride ? 0 : S == -2 ? -1 : S;
	/* `int i`: from the declaration's start through the variable's name */
	unsigned name_at;
	clang_getExpansionLocation(clang_getCursorLocation(var.v[0]), NULL, NULL, NULL, &name_at);
	char *name = cursor_name(var.v[0]);
	cl->var = (struct span){cursor_span(kids.v[0]).begin, name_at + strlen(name)};
	free(name);
	cl->init = cursor_span(init);
	cl->cond = cursor_span(kids.v[1]);
	cl->body = cursor_span(kids.v[3]);
done:
	free(kids.v);
	free(var.v);
}


/* A copy loop whose body is one loop and nothing else (`for (i ..) { for (j ..) As[..] = ..; }`):
 * *inner that loop. */
static bool inner_copy_loop(CXCursor loop, CXCursor *inner)
{
	CXCursor body = cursor_last_child(loop);
	if (clang_getCursorKind(body) == CXCursor_CompoundStmt) {
		struct cursors kids = cursor_children(body);
		body = kids.n == 1 ? kids.v[0] : clang_getNullCursor();
		free(kids.v);
	}
	if (clang_Cursor_isNull(body))
		return false;
	*inner = cursor_unattributed(body);
	return clang_getCursorKind(*inner) == CXCursor_ForStmt;
}

/* A computed value that reads a local a fetch loads (`As[i] = Av.x * A[k]`) is not one pipefy
 * stages: the register's value and the load's would come from two different places. */
static void settle_computed(struct kloop *l)
{
	for (int i = 0; i < l->ncopies; i++) {
		struct copy *cp = &l->copies[i];
		for (int j = 0; j < l->nstmts && cp->computed; j++) {
			const struct body_stmt *st = &l->stmts[j];
			if (st->role == ROLE_FETCH_DECL &&
			    (st->fetch_assign ? references(cp->value, st->fetch_var) : stmt_reads_decl(cp->value, st->cursor)))
				cp->computed = false;
		}
	}
}

/* Whether statement j, run again with each direct copy storing a register in place of its load
 * (`dst = reg`) and each loop fetch's value replaced, still reads var. */
static bool stores_read(const struct kloop *l, int j, CXCursor var)
{
	const struct body_stmt *st = &l->stmts[j];
	struct span at[64];
	int n = cursor_var_refs(st->cursor, var, at, 64);
	if (n < 0)
		return true;
	for (int r = 0; r < n; r++) {
		bool replaced = false;
		for (int c = 0; c < l->ncopies && !replaced; c++) {
			const struct copy *cp = &l->copies[c];
			replaced = cp->stmt == j && cp->tile >= 0 && !cp->from_register && span_within(at[r], cp->text) &&
				   !span_within(at[r], cp->dst);
		}
		for (int k = 0; k < st->nloop_fetch && !replaced; k++)
			replaced = span_within(at[r], cursor_span(body_loop_fetch_value(st->loop_fetch[k])));
		if (!replaced)
			return true;
	}
	return false;
}

/* The locals a copy-side statement declares, or the one it advances (a step); *n of them. */
static int copy_side_locals(const struct body_stmt *st, CXCursor *out, int max)
{
	int n = 0;
	bool store;
	if (!clang_Cursor_isNull(st->advance)) {
		out[n++] = cursor_assigned_var(st->advance, &store);
		return n;
	}
	struct cursors vars = cursor_children(st->cursor);
	for (int v = 0; v < vars.n && n < max; v++)
		if (clang_getCursorKind(vars.v[v]) == CXCursor_VarDecl)
			out[n++] = vars.v[v];
	free(vars.v);
	return n;
}

/* store_side: from the last statement back, a copy-side statement is needed to store the copies
 * again when a copy statement, stored again, or a later such statement reads what it declares or
 * advances. */
static void mark_store_side(struct kloop *l)
{
	for (int i = l->nstmts - 1; i >= 0; i--) {
		struct body_stmt *st = &l->stmts[i];
		if (st->role != ROLE_COPY_DECL)
			continue;
		CXCursor vars[16];
		int n = copy_side_locals(st, vars, 16);
		for (int j = i + 1; j < l->nstmts && !st->store_side; j++) {
			const struct body_stmt *u = &l->stmts[j];
			for (int v = 0; v < n && !st->store_side; v++)
				st->store_side = u->role == ROLE_COPY ? stores_read(l, j, vars[v])
						 : u->role == ROLE_COPY_DECL && u->store_side && references(u->cursor, vars[v]);
		}
	}
}

/* kloop.scratch: the scratch locals of the function (function_scratch) the copy side sets, where
 * the copy side's own statements set each before they read it (the loader runs them alone). */
static void collect_scratch(struct kloop *l)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool step = st->role == ROLE_COPY_DECL && clang_getCursorKind(st->cursor) != CXCursor_DeclStmt;
		if (!step && !(st->role == ROLE_COPY && st->writes_locals))
			continue;
		struct local_writes w = local_writes_of(l, st->cursor, step);
		for (int v = 0; v < w.n && !w.other; v++) {
			bool seen = copy_decl_of(l, w.v[v]) >= 0 || !function_scratch(l, w.v[v]) ||
				    first_touch_of(l, w.v[v], SIDE_COPIES) == TOUCH_READS;
			/* (one local, however its cursors were reached: by where its name is declared;
			 * `int row, col;` gives both declarations one extent) */
			for (int k = 0; k < l->nscratch && !seen; k++)
				seen = cursor_offset(l->scratch[k]) == cursor_offset(w.v[v]);
			if (!seen) {
				l->scratch = xrealloc(l->scratch, (size_t)(l->nscratch + 1) * sizeof *l->scratch);
				l->scratch[l->nscratch++] = w.v[v];
			}
		}
	}
}

void find_body_locals(struct kloop *l, const struct source *src)
{
	mark_fetch_assigns(l, src); /* first: the locals such a fetch reads go with it (seed 138) */
	mark_copy_decls(l, src);
	mark_register_copies(l);
	mark_loop_fetches(l, src);
	settle_computed(l);
	for (int i = 0; i < l->nstmts; i++) {
		struct body_stmt *st = &l->stmts[i];
		CXCursor loop = cursor_unattributed(st->cursor), in;
		if (st->role != ROLE_COPY || clang_getCursorKind(loop) != CXCursor_ForStmt)
			continue;
		copy_loop_shape(&st->cl, loop, src, l->function_cursor, l->body);
		if (st->cl.bound && inner_copy_loop(loop, &in))
			copy_loop_shape(&st->inner, in, src, l->function_cursor, l->body);
	}
	mark_store_side(l);
	collect_scratch(l);
	for (int c = 0; c < l->ncopies; c++) {
		int d = clang_Cursor_isNull(l->copies[c].view) ? -1 : copy_decl_of(l, l->copies[c].view);
		if (d >= 0)
			l->stmts[d].declares_view = true;
	}
}
