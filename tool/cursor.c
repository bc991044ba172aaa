/* cursor.c: reading libclang cursors: extents in the main file, names, types, the shapes
 * every stage looks for (barriers, writes, the variable an lvalue is rooted at). */
#include "cursor.h"

#include <ctype.h>
#include <stdlib.h>

/* ---- cursor helpers ---- */

static enum CXChildVisitResult collect_child(CXCursor c, void *data)
{
	struct cursors *cs = data;
	*VEC_PUSH(cs->v, cs->n, cs->cap) = c;
	return CXChildVisit_Continue;
}

struct cursors cursor_children(CXCursor c)
{
	struct cursors cs = {0};
	cursor_visit(c, collect_child, &cs);
	return cs;
}

bool cursor_is_ref_to(CXCursor c, CXCursor decl)
{
	return clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), decl);
}

/* The walks that hand on only some cursors (the names, the writes; those a test takes: of one
 * kind, around a span, not lambdas): `each` asked of those, with data; the answer for the others
 * is `other`. */
struct walk {
	union {
		name_visitor name;
		write_visitor write;
		cursor_visitor cursor;
	} each;
	void *data;
	bool (*takes)(CXCursor c, const struct walk *w);
	enum CXChildVisitResult other;
	enum CXCursorKind kind;
	struct span at;
};

/* cursor_visit's walk: libclang's visitor, `each` asked without the parent. */
static enum CXChildVisitResult visit_each(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct walk *w = data;
	return w->each.cursor(c, w->data);
}

void cursor_visit(CXCursor c, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data};
	clang_visitChildren(c, visit_each, &w);
}

void cursor_visit_from(CXCursor c, cursor_visitor each, void *data)
{
	if (each(c, data) == CXChildVisit_Recurse)
		cursor_visit(c, each, data);
}

/* cursor_visit_names' walk: each name handed to `each`, with what it names. */
static enum CXChildVisitResult visit_name(CXCursor c, void *data)
{
	struct walk *w = data;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	return w->each.name(c, clang_getCursorReferenced(c), w->data);
}

void cursor_visit_names(CXCursor c, name_visitor each, void *data)
{
	struct walk w = {.each.name = each, .data = data};
	cursor_visit(c, visit_name, &w);
}

/* cursor_visit_refs' walk: the names of decl handed on, the others walked into. */
struct ref_walk {
	CXCursor decl;
	struct walk to;
};

static enum CXChildVisitResult visit_ref(CXCursor ref, CXCursor decl, void *data)
{
	struct ref_walk *w = data;
	return clang_equalCursors(decl, w->decl) ? w->to.each.name(ref, decl, w->to.data) : CXChildVisit_Recurse;
}

void cursor_visit_refs(CXCursor c, CXCursor decl, name_visitor each, void *data)
{
	struct ref_walk w = {decl, {.each.name = each, .data = data}};
	cursor_visit_names(c, visit_ref, &w);
}

void cursor_visit_names_from(CXCursor c, name_visitor each, void *data)
{
	struct walk w = {.each.name = each, .data = data};
	cursor_visit_from(c, visit_name, &w);
}

/* cursor_visit_writes' walk: each write handed to `each`, with its parts. */
static enum CXChildVisitResult visit_write(CXCursor c, void *data)
{
	struct walk *w = data;
	CXCursor target, value;
	enum write_kind k = cursor_write_parts(c, &target, &value);
	return k == WRITE_NONE ? CXChildVisit_Recurse : w->each.write(c, k, target, value, w->data);
}

void cursor_visit_writes(CXCursor c, write_visitor each, void *data)
{
	struct walk w = {.each.write = each, .data = data};
	cursor_visit(c, visit_write, &w);
}


/* The walks of what a test takes: c handed to `each` when the test takes it. */
static enum CXChildVisitResult visit_taken(CXCursor c, void *data)
{
	struct walk *w = data;
	return w->takes(c, w) ? w->each.cursor(c, w->data) : w->other;
}

/* The tests: a cursor of the walk's kind, one whose extent holds its span, any but a lambda. */
static bool of_kind(CXCursor c, const struct walk *w) { return clang_getCursorKind(c) == w->kind; }
static bool around(CXCursor c, const struct walk *w) { return span_within(w->at, cursor_span(c)); }
static bool not_lambda(CXCursor c, const struct walk *w)
{
	(void)w;
	return clang_getCursorKind(c) != CXCursor_LambdaExpr;
}

void cursor_visit_kind(CXCursor c, enum CXCursorKind k, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data, .takes = of_kind, .other = CXChildVisit_Recurse, .kind = k};
	cursor_visit(c, visit_taken, &w);
}

void cursor_visit_kind_from(CXCursor c, enum CXCursorKind k, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data, .takes = of_kind, .other = CXChildVisit_Recurse, .kind = k};
	cursor_visit_from(c, visit_taken, &w);
}

void cursor_visit_around(CXCursor c, struct span at, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data, .takes = around, .other = CXChildVisit_Continue, .at = at};
	cursor_visit(c, visit_taken, &w);
}

struct call_at {
	size_t at;
	bool by_callee;
	const char *name;
	CXCursor call;
};

static enum CXChildVisitResult find_call_at(CXCursor c, void *data)
{
	struct call_at *f = data;
	if (clang_getCursorKind(c) != CXCursor_CallExpr ||
	    cursor_span(f->by_callee ? cursor_first_child(c) : c).begin != f->at ||
	    (f->name && !cursor_is_call_named(c, f->name)))
		return CXChildVisit_Recurse;
	f->call = c;
	return CXChildVisit_Break;
}

CXCursor cursor_call_at(CXCursor c, size_t at, bool by_callee, const char *name)
{
	struct call_at f = {at, by_callee, name, clang_getNullCursor()};
	cursor_visit_around(c, (struct span){at, at + 1}, find_call_at, &f);
	return f.call;
}

void cursor_visit_code(CXCursor c, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data, .takes = not_lambda, .other = CXChildVisit_Continue};
	cursor_visit(c, visit_taken, &w);
}

void cursor_visit_code_from(CXCursor c, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data, .takes = not_lambda, .other = CXChildVisit_Continue};
	cursor_visit_from(c, visit_taken, &w);
}

/* cursor_vars_named's walk: the variables of that name, collected. */
struct vars_named {
	const char *name;
	struct cursors found;
};

static enum CXChildVisitResult collect_var_named(CXCursor var, void *data)
{
	struct vars_named *v = data;
	char *n = cursor_name(var);
	if (strcmp(n, v->name) == 0)
		*VEC_PUSH(v->found.v, v->found.n, v->found.cap) = var;
	free(n);
	return CXChildVisit_Recurse;
}

struct cursors cursor_vars_named(CXCursor c, const char *name)
{
	struct vars_named v = {name, {0}};
	cursor_visit_kind(c, CXCursor_VarDecl, collect_var_named, &v);
	return v.found;
}

void cursor_first_why(char **why, size_t *why_at, CXCursor at, char *what)
{
	if (!*why) {
		*why = what;
		*why_at = cursor_span(at).begin;
	} else
		free(what);
}

/* Byte offsets of a cursor's extent, mapped through macro expansions to the main file. */
struct span cursor_span(CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	unsigned b, e;
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
	return (struct span){b, e < b ? b : e};
}

size_t cursor_offset(CXCursor c)
{
	unsigned off;
	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
	return off;
}

bool cursor_in_main_file(CXCursor c)
{
	CXSourceLocation loc = clang_getCursorLocation(c);
	CXFile f;
	clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
	return f && clang_Location_isFromMainFile(loc);
}

/* A function the parse instantiated from a template (or a class template's member): it hands
 * those over as top-level declarations, at the template's own place, after the file's. */
static bool instantiation(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor &&
	    k != CXCursor_Destructor && k != CXCursor_ConversionFunction)
		return false;
	CXCursor t = clang_getSpecializedCursorTemplate(c);
	return !clang_Cursor_isNull(t) && clang_equalLocations(clang_getCursorLocation(c), clang_getCursorLocation(t));
}

/* cursor_visit_file's walk: the declarations handed on but the instantiations. */
static bool not_instantiation(CXCursor c, const struct walk *w)
{
	(void)w;
	return !instantiation(c);
}

void cursor_visit_file(CXTranslationUnit tu, cursor_visitor each, void *data)
{
	struct walk w = {.each.cursor = each, .data = data, .takes = not_instantiation, .other = CXChildVisit_Continue};
	cursor_visit(clang_getTranslationUnitCursor(tu), visit_taken, &w);
}

/* Where a location is written in the main file: a macro argument's token where the argument is
 * written, a macro body's token at the macro's use (*in_body). */
static size_t written_offset(CXSourceLocation loc, bool *in_body)
{
	CXFile ff, sf;
	unsigned fo, so;
	clang_getFileLocation(loc, &ff, NULL, NULL, &fo);
	clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
	*in_body = !clang_File_isEqual(ff, sf) || fo != so;
	return fo;
}

bool cursor_macro_use(const struct source *src, CXCursor c, struct span *out)
{
	CXSourceRange r = clang_getCursorExtent(c);
	bool body_b, body_e;
	size_t b = written_offset(clang_getRangeStart(r), &body_b), e = written_offset(clang_getRangeEnd(r), &body_e);
	/* (the extent of a macro's whole expansion reaches from its name to its ')': clang hands the
	 * end over as the use's end, or as a token of the macro's body, at the use) */
	size_t end = body_b ? source_call_end(src, b) : 0;
	if (!end || !(e == end || (body_e && e == b)))
		return false;
	*out = (struct span){b, end};
	return true;
}

struct span cursor_written_span(CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	bool body_b, body_e;
	size_t b = written_offset(clang_getRangeStart(r), &body_b), e = written_offset(clang_getRangeEnd(r), &body_e);
	return (struct span){b, e < b ? b : e};
}

bool cursor_written_in_file(CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	bool body_b, body_e;
	written_offset(clang_getRangeStart(r), &body_b);
	written_offset(clang_getRangeEnd(r), &body_e);
	return !body_b && !body_e;
}

/* True when the cursor's text comes out of a macro expansion, where no edit can go. */
bool cursor_from_macro(CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation ends[2] = {clang_getRangeStart(r), clang_getRangeEnd(r)};
	for (int i = 0; i < 2; i++) {
		CXFile ef, sf;
		unsigned eo, so;
		clang_getExpansionLocation(ends[i], &ef, NULL, NULL, &eo);
		clang_getSpellingLocation(ends[i], &sf, NULL, NULL, &so);
		if (!clang_File_isEqual(ef, sf) || eo != so)
			return true;
	}
	return false;
}

char *span_text(const struct source *src, struct span s)
{
	if (s.end > src->len)
		s.end = src->len;
	if (s.begin > s.end)
		s.begin = s.end;
	return xstrndup(src->text + s.begin, s.end - s.begin);
}

char *span_squeezed(const struct source *src, struct span s)
{
	char *t = span_text(src, s), *w = t;
	for (char *p = t; *p; p++)
		if (!isspace((unsigned char)*p))
			*w++ = *p;
	*w = '\0';
	return t;
}

const char *const cursor_builtin_names[4] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};

struct file_text cursor_file_text(CXCursor c)
{
	struct file_text t = {0};
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile fb, fe;
	unsigned ob, oe;
	clang_getSpellingLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
	clang_getSpellingLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
	size_t size;
	const char *text = fb ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), fb, &size) : NULL;
	if (!text || ob >= size)
		return t;
	t.text = text;
	t.size = size;
	t.begin = ob;
	t.one_file = clang_File_isEqual(fb, fe) && oe >= ob && oe <= size;
	t.end = t.one_file ? oe : ob;
	return t;
}

/* `threadIdx.x` (blanks squeezed out) and the others: which, or -1. */
static int builtin_text(const char *text, char *component)
{
	for (int b = 0; b < 4; b++) {
		size_t n = strlen(cursor_builtin_names[b]);
		if (strncmp(text, cursor_builtin_names[b], n) == 0 && text[n] == '.' && strchr("xyz", text[n + 1]) && !text[n + 2]) {
			*component = text[n + 1];
			return b;
		}
	}
	return -1;
}

int cursor_builtin(const struct source *src, CXCursor e, char *component)
{
	if (cursor_in_main_file(e)) {
		char *text = span_squeezed(src, cursor_span(e));
		int found = builtin_text(text, component);
		free(text);
		return found;
	}
	/* a header's: its own file's text (the main file's offsets would read other code) */
	struct file_text t = cursor_file_text(e);
	if (!t.text || !t.one_file || t.end - t.begin > 64)
		return -1;
	const char *text = t.text;
	size_t ob = t.begin, oe = t.end;
	char squeezed[80];
	size_t n = 0;
	for (size_t i = ob; i < oe && n + 1 < sizeof squeezed; i++)
		if (!isspace((unsigned char)text[i]))
			squeezed[n++] = text[i];
	squeezed[n] = '\0';
	return builtin_text(squeezed, component);
}

char *cursor_name(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

char *type_spelling(CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	char *r = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* Skip implicit casts and parentheses, which libclang shows as wrappers of one child. */
CXCursor cursor_strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
			return c;
		struct cursors cs = cursor_children(c);
		if (cs.n != 1) {
			free(cs.v);
			return c;
		}
		c = cs.v[0];
		free(cs.v);
	}
}

/* The operand of a cast or unary operator: its last expression child. */
CXCursor cursor_last_child(CXCursor c)
{
	struct cursors cs = cursor_children(c);
	CXCursor r = cs.n ? cs.v[cs.n - 1] : clang_getNullCursor();
	free(cs.v);
	return r;
}

CXCursor cursor_first_child(CXCursor c)
{
	struct cursors cs = cursor_children(c);
	CXCursor r = cs.n ? cs.v[0] : clang_getNullCursor();
	free(cs.v);
	return r;
}

CXCursor cursor_unattributed(CXCursor c)
{
	/* (libclang has no cursor kind for an attributed statement: `#pragma unroll` before a
	 * loop makes it an unexposed statement whose one child is the loop) */
	if (clang_getCursorKind(c) != CXCursor_UnexposedStmt)
		return c;
	struct cursors cs = cursor_children(c);
	CXCursor r = cs.n == 1 && clang_getCursorKind(cs.v[0]) == CXCursor_ForStmt ? cs.v[0] : c;
	free(cs.v);
	return r;
}

bool cursor_has_attr(CXCursor decl, enum CXCursorKind attr)
{
	struct cursors cs = cursor_children(decl);
	bool found = false;
	for (int i = 0; i < cs.n; i++)
		if (clang_getCursorKind(cs.v[i]) == attr)
			found = true;
	free(cs.v);
	return found;
}

/* A variable declared __shared__: storage in shared memory. */
bool cursor_is_shared_decl(CXCursor decl)
{
	return clang_getCursorKind(decl) == CXCursor_VarDecl && cursor_has_attr(decl, CXCursor_CUDASharedAttr);
}

static bool is_view(CXCursor var, int depth);
static CXCursor shared_root(CXCursor c, int depth);

struct return_scan {
	int depth, returns;
	CXCursor root; /* null once a return is not an address in shared memory */
};

static enum CXChildVisitResult scan_returns(CXCursor c, void *data)
{
	struct return_scan *r = data;
	if (clang_getCursorKind(c) != CXCursor_ReturnStmt)
		return CXChildVisit_Recurse;
	CXCursor root = shared_root(cursor_last_child(c), r->depth + 1);
	r->returns++;
	if (clang_Cursor_isNull(root)) {
		r->root = root;
		return CXChildVisit_Break;
	}
	if (r->returns == 1)
		r->root = root;
	return CXChildVisit_Continue;
}

/* A function whose every return is an address inside a __shared__ array: the CUDA samples'
 * `SharedMemory<T>` (`extern __shared__ int s[]; return (T *)s;` in its conversion to T *).
 * Its definition, or its template's. */
static CXCursor returns_shared(CXCursor fn, int depth)
{
	CXCursor def = clang_getCursorDefinition(fn);
	if (clang_Cursor_isNull(def)) {
		CXCursor pattern = clang_getSpecializedCursorTemplate(fn);
		def = clang_Cursor_isNull(pattern) ? pattern : clang_getCursorDefinition(pattern);
	}
	if (clang_Cursor_isNull(def) || depth > 8)
		return clang_getNullCursor();
	struct return_scan r = {.depth = depth, .root = clang_getNullCursor()};
	cursor_visit_code(def, scan_returns, &r);
	return r.returns ? r.root : clang_getNullCursor();
}

/* The __shared__ array an address points into: `sm`, `sm + 256`, `&sm[r][c]`,
 * `reinterpret_cast<float4 *>(sm)`, `(float *)&sm[off]`, or a view of one; null otherwise (a
 * __shared__ pointer, `__shared__ float *p`, may point anywhere). */
static CXCursor shared_root(CXCursor c, int depth)
{
	for (;;) {
		c = cursor_strip(c);
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k == CXCursor_DeclRefExpr) {
			CXCursor d = clang_getCursorReferenced(c);
			enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(d)).kind;
			bool array = t == CXType_ConstantArray || t == CXType_IncompleteArray || t == CXType_DependentSizedArray;
			if (cursor_is_shared_decl(d) && array)
				return d;
			return is_view(d, depth + 1) ? d : clang_getNullCursor();
		}
		if (cursor_kind_is_cast(k)) {
			c = cursor_last_child(c);
		} else if (k == CXCursor_CallExpr) {
			/* a function, or (`float *p = SharedMemory<float>();`) the struct's conversion
			 * operator that the samples' spelling calls */
			CXCursor callee = clang_getCursorReferenced(c);
			enum CXCursorKind ck = clang_getCursorKind(callee);
			if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer ||
			    (ck != CXCursor_FunctionDecl && ck != CXCursor_CXXMethod && ck != CXCursor_ConversionFunction))
				return clang_getNullCursor();
			return returns_shared(callee, depth);
		} else if (k == CXCursor_BinaryOperator && (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Add ||
							    clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Sub)) {
			/* the pointer operand; the other is an integer */
			struct cursors cs = cursor_children(c);
			CXCursor p = clang_getNullCursor();
			for (int i = 0; i < cs.n; i++) {
				enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(cs.v[i])).kind;
				if (t == CXType_Pointer || t == CXType_ConstantArray || t == CXType_IncompleteArray)
					p = clang_Cursor_isNull(p) && i == 0 ? cs.v[i] : clang_getNullCursor();
			}
			free(cs.v);
			if (clang_Cursor_isNull(p))
				return p;
			c = p;
		} else if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf) {
			/* `&sm[i][j]`: an element of the array itself, not of what an element points at */
			c = cursor_strip(cursor_last_child(c));
			while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
				CXCursor base = cursor_strip(cursor_first_child(c));
				enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(base)).kind;
				if (t != CXType_ConstantArray && t != CXType_IncompleteArray && t != CXType_DependentSizedArray &&
				    !(t == CXType_Pointer && clang_getCursorKind(base) == CXCursor_DeclRefExpr))
					return clang_getNullCursor();
				c = base;
			}
			if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
				return clang_getNullCursor();
		} else {
			return clang_getNullCursor();
		}
	}
}

struct view_scan {
	CXCursor var;
	bool ok;
	CXCursor at; /* the use that is no read */
};

/* The i-th parameter of a function or function template, in declaration order. */
CXCursor cursor_nth_param(CXCursor fn, int i)
{
	struct cursors cs = cursor_children(fn);
	CXCursor p = clang_getNullCursor();
	for (int k = 0, n = 0; k < cs.n && clang_Cursor_isNull(p); k++)
		if (clang_getCursorKind(cs.v[k]) == CXCursor_ParmDecl && n++ == i)
			p = cs.v[k];
	free(cs.v);
	return p;
}

/* The function a call names: its declaration, or, for a call a template leaves unresolved
 * (`dot_row<TS>(As, ..)`), the one function template the name can mean; null otherwise. */
CXCursor cursor_callee(CXCursor call)
{
	CXCursor fn = clang_getCursorReferenced(call);
	if (!clang_Cursor_isNull(fn))
		return fn;
	CXCursor ref = cursor_overloaded_ref(call);
	CXCursor only = !clang_Cursor_isNull(ref) && clang_getNumOverloadedDecls(ref) == 1 ? clang_getOverloadedDecl(ref, 0)
											      : clang_getNullCursor();
	return clang_getCursorKind(only) == CXCursor_FunctionTemplate ? only : clang_getNullCursor();
}

/* `f(As)` in a template, where the call is not resolved yet: every function the name may
 * call takes that argument by value (a pointer parameter, not a reference to one). */
static bool passed_by_value(CXCursor use, CXCursor call)
{
	struct cursors cs = cursor_children(call);
	int arg = -1;
	struct span at = cursor_span(use);
	for (int k = 1; k < cs.n && arg < 0; k++)
		if (cursor_span(cs.v[k]).begin == at.begin && cursor_span(cs.v[k]).end == at.end)
			arg = k - 1;
	CXCursor callee = cs.n ? cursor_strip(cs.v[0]) : clang_getNullCursor();
	free(cs.v);
	if (arg < 0 || clang_Cursor_isNull(callee))
		return false;
	CXCursor decls[16];
	unsigned n = 0;
	if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr &&
	    clang_getCursorKind(clang_getCursorReferenced(callee)) != CXCursor_FunctionDecl) {
		/* `f<TS>(...)` unresolved: the names it may call hang below it */
		CXCursor first = cursor_first_child(callee);
		if (clang_getCursorKind(first) == CXCursor_OverloadedDeclRef)
			callee = first;
	}
	if (clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef) {
		n = clang_getNumOverloadedDecls(callee);
		if (n > 16)
			return false;
		for (unsigned k = 0; k < n; k++)
			decls[k] = clang_getOverloadedDecl(callee, k);
	} else if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr) {
		decls[n++] = clang_getCursorReferenced(callee);
	}
	if (n == 0)
		return false;
	for (unsigned k = 0; k < n; k++) {
		enum CXCursorKind dk = clang_getCursorKind(decls[k]);
		if (dk != CXCursor_FunctionDecl && dk != CXCursor_FunctionTemplate)
			return false;
		CXCursor p = cursor_nth_param(decls[k], arg);
		enum CXTypeKind t = clang_getCursorType(p).kind;
		if (clang_Cursor_isNull(p) || t == CXType_LValueReference || t == CXType_RValueReference ||
		    t == CXType_Unexposed || t == CXType_Invalid)
			return false;
	}
	return true;
}

/* Whether a use of a pointer variable only reads it: an implicit conversion is its parent, or
 * (in a template, where clang leaves those implicit) it is indexed, dereferenced or offset;
 * not an assignment, ++, &, a call's argument unless every callee takes it by value or a
 * reference's initializer. */
static bool reads_pointer(CXCursor use, CXCursor parent)
{
	switch (clang_getCursorKind(parent)) {
	case CXCursor_CallExpr:
		return passed_by_value(use, parent);
	case CXCursor_UnexposedExpr:
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_MemberRefExpr:
		return true;
	case CXCursor_UnaryOperator:
		return clang_getCursorUnaryOperatorKind(parent) == CXUnaryOperator_Deref;
	case CXCursor_BinaryOperator: {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(parent);
		return op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub;
	}
	default:
		return false;
	}
}

static enum CXChildVisitResult scan_view_uses(CXCursor c, CXCursor parent, CXClientData data)
{
	struct view_scan *v = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	/* (in parentheses, what stands around them decides: `*(float2 *)(p) = v` converts the
	 * parenthesized p to its value, an implicit conversion, and reads it; a cast to a reference,
	 * `(float *&)(p)`, takes p itself, which could be written) */
	if (k == CXCursor_ParenExpr && cursor_names_var(c, v->var)) {
		if (reads_pointer(c, parent))
			return CXChildVisit_Continue;
		v->ok = false;
		v->at = parent;
		return CXChildVisit_Break;
	}
	if (cursor_is_ref_to(c, v->var) && !reads_pointer(c, parent)) {
		v->ok = false;
		v->at = parent;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Whether every use of the variable in its function only reads it; *use (when asked) is the
 * first that may change it. */
static bool first_change(CXCursor var, CXCursor *use)
{
	struct view_scan v = {.var = var, .ok = true, .at = clang_getNullCursor()};
	clang_visitChildren(clang_getCursorSemanticParent(var), scan_view_uses, &v);
	if (use)
		*use = v.at;
	return v.ok;
}

/* A view of shared memory: a local pointer of a function, initialized to an address inside a
 * __shared__ array (`float *As = sm, *Bs = sm + 256;`) and never changed, its address never
 * taken, so that every value it has points into that array. */
static bool is_view(CXCursor var, int depth)
{
	if (depth > 8 || clang_getCursorKind(var) != CXCursor_VarDecl || cursor_is_shared_decl(var) ||
	    clang_getCanonicalType(clang_getCursorType(var)).kind != CXType_Pointer ||
	    clang_Cursor_getStorageClass(var) != CX_SC_None)
		return false;
	CXCursor fn = clang_getCursorSemanticParent(var);
	enum CXCursorKind fk = clang_getCursorKind(fn);
	if (fk != CXCursor_FunctionDecl && fk != CXCursor_FunctionTemplate)
		return false;
	CXCursor init = cursor_last_child(var);
	if (clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init)) ||
	    clang_Cursor_isNull(shared_root(init, depth)))
		return false;
	return first_change(var, NULL);
}

bool cursor_is_shared_view(CXCursor var)
{
	return is_view(var, 0);
}

/* Why a local pointer is no view: the first use that may change it (*use set), or a null *use
 * when its initial value is not an address inside a __shared__ array. */
void cursor_view_problem(CXCursor var, CXCursor *use)
{
	*use = clang_getNullCursor();
	CXCursor init = cursor_last_child(var);
	if (!clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) &&
	    !clang_Cursor_isNull(shared_root(init, 0)))
		first_change(var, use);
}

/* The __shared__ array a shared variable is, or a view (of a view...) points into; null when
 * that cannot be followed. */
CXCursor cursor_shared_array(CXCursor var)
{
	for (int depth = 0; depth < 8 && !clang_Cursor_isNull(var); depth++) {
		enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(var)).kind;
		if (cursor_is_shared_decl(var) &&
		    (t == CXType_ConstantArray || t == CXType_IncompleteArray || t == CXType_DependentSizedArray))
			return var;
		if (!is_view(var, 0))
			break;
		CXCursor init = cursor_last_child(var);
		CXCursor root = clang_Cursor_isNull(init) ? init : shared_root(init, 0);
		if (clang_equalCursors(root, var))
			break;
		var = root;
	}
	return clang_getNullCursor();
}

bool cursor_is_variable(CXCursor decl)
{
	enum CXCursorKind k = clang_getCursorKind(decl);
	return k == CXCursor_VarDecl || k == CXCursor_ParmDecl;
}

/* Shared memory: a __shared__ variable, or a view of one. */
bool cursor_is_shared_var(CXCursor decl)
{
	return cursor_is_shared_decl(decl) || is_view(decl, 0);
}

static enum CXChildVisitResult scan_names_shared(CXCursor ref, CXCursor decl, void *data)
{
	(void)ref;
	if (!cursor_is_shared_var(decl))
		return CXChildVisit_Recurse;
	*(bool *)data = true;
	return CXChildVisit_Break;
}

bool cursor_names_shared(CXCursor c)
{
	bool named = false;
	cursor_visit_names(c, scan_names_shared, &named);
	return named;
}

/* An array object of a known size: `float r[4]`, or `float r[TM / 2]` in a template (its size
 * known at each instantiation); not a pointer, not `extern T a[]`. */
bool type_kind_is_sized_array(enum CXTypeKind k)
{
	return k == CXType_ConstantArray || k == CXType_DependentSizedArray;
}

/* The element type of an array type, through every dimension (`float [2][64][8]`: float; an
 * `extern T a[]` or a dimension a template sizes too); t itself when it is no array. */
CXType type_array_element(CXType t)
{
	while (t.kind == CXType_ConstantArray || t.kind == CXType_DependentSizedArray ||
	       t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray)
		t = clang_getArrayElementType(t);
	return t;
}

bool cursor_kind_is_cast(enum CXCursorKind k)
{
	return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXReinterpretCastExpr ||
	       k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXConstCastExpr ||
	       k == CXCursor_CXXFunctionalCastExpr;
}

/* The variable an lvalue or pointer expression is rooted at: As in `*(int4 *)&As[r][c]`. */
CXCursor cursor_root_var(CXCursor c)
{
	c = cursor_strip(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr: {
		CXCursor d = clang_getCursorReferenced(c);
		return clang_getCursorKind(d) == CXCursor_VarDecl || clang_getCursorKind(d) == CXCursor_ParmDecl
			       ? d
			       : clang_getNullCursor();
	}
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_MemberRefExpr:
		return cursor_root_var(cursor_first_child(c));
	case CXCursor_UnaryOperator: {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op == CXUnaryOperator_Deref || op == CXUnaryOperator_AddrOf)
			return cursor_root_var(cursor_last_child(c));
		return clang_getNullCursor();
	}
	case CXCursor_BinaryOperator: {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)
			return clang_getNullCursor();
		struct cursors cs = cursor_children(c);
		CXCursor r = clang_getNullCursor();
		for (int i = 0; i < cs.n && clang_Cursor_isNull(r); i++) {
			CXType t = clang_getCanonicalType(clang_getCursorType(cs.v[i]));
			if (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
			    t.kind == CXType_DependentSizedArray)
				r = cursor_root_var(cs.v[i]);
		}
		free(cs.v);
		return r;
	}
	default:
		if (cursor_kind_is_cast(clang_getCursorKind(c)))
			return cursor_root_var(cursor_last_child(c));
		return clang_getNullCursor();
	}
}

/* A block-wide barrier: __syncthreads(), or cooperative groups' sync on a thread_block
 * (`block.sync()`, `cg::sync(block)`); a tile or grid sync is something else. */
bool cursor_is_barrier(CXCursor c)
{
	c = cursor_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_CallExpr && k != CXCursor_UnexposedExpr)
		return false;
	char *name = cursor_name(c);
	if (k == CXCursor_UnexposedExpr) {
		/* `cg::sync(block)` stays an unresolved call: the callee is an overload set */
		CXCursor callee = cursor_first_child(c);
		CXCursor ref = cursor_first_child(callee);
		while (!clang_Cursor_isNull(ref) && clang_getCursorKind(ref) == CXCursor_NamespaceRef) {
			struct cursors cs = cursor_children(callee);
			ref = cs.n > 1 ? cs.v[cs.n - 1] : clang_getNullCursor();
			free(cs.v);
		}
		free(name);
		name = clang_Cursor_isNull(ref) ? xstrdup("") : cursor_name(ref);
	}
	bool r = k == CXCursor_CallExpr && strcmp(name, "__syncthreads") == 0;
	if (strcmp(name, "sync") == 0) {
		CXCursor object = cursor_strip(cursor_first_child(c));
		if (clang_getCursorKind(object) == CXCursor_MemberRefExpr)
			object = cursor_first_child(object);
		else {
			struct cursors args = cursor_children(c);
			object = args.n > 1 ? args.v[args.n - 1] : object;
			free(args.v);
		}
		char *type = type_spelling(clang_getCanonicalType(clang_getCursorType(object)));
		r = strstr(type, "thread_block") && !strstr(type, "thread_block_tile");
		free(type);
	}
	free(name);
	return r;
}

bool cursor_is_call_named(CXCursor c, const char *want)
{
	c = cursor_strip(c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return false;
	char *name = cursor_name(c);
	bool r = strcmp(name, want) == 0;
	free(name);
	return r;
}

/* `p` in `*p` or `p[0]`, stripped; null for anything else. */
static CXCursor deref_operand(CXCursor e)
{
	e = cursor_strip(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref)
		return cursor_strip(cursor_last_child(e));
	if (k == CXCursor_ArraySubscriptExpr) {
		bool ok;
		long i = cursor_evaluate_int(cursor_last_child(e), &ok);
		if (ok && i == 0)
			return cursor_strip(cursor_first_child(e));
	}
	return clang_getNullCursor();
}

/* A struct's copy, `float4 v = x` or `return x` (a constructor call of one argument): x. */
static CXCursor strip_copy(CXCursor e)
{
	e = cursor_strip(e);
	if (clang_getCursorKind(e) == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 1 &&
	    clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_Constructor)
		return cursor_strip(clang_Cursor_getArgument(e, 0));
	return e;
}

static bool refers_to(CXCursor e, CXCursor decl)
{
	return cursor_is_ref_to(strip_copy(e), decl);
}

/* The definition of the function a call makes, when it is a plain function (not a template
 * or a member) with n parameters and a body of one statement; null otherwise. */
static CXCursor accessor_statement(CXCursor call, int n, CXCursor *def)
{
	CXCursor none = clang_getNullCursor();
	call = cursor_strip(call);
	if (clang_getCursorKind(call) != CXCursor_CallExpr || clang_Cursor_getNumArguments(call) != n)
		return none;
	*def = clang_getCursorDefinition(clang_getCursorReferenced(call));
	if (clang_getCursorKind(*def) != CXCursor_FunctionDecl || clang_Cursor_getNumArguments(*def) != n)
		return none;
	CXCursor body = cursor_last_child(*def);
	if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
		return none;
	struct cursors cs = cursor_children(body);
	CXCursor only = cs.n == 1 ? cs.v[0] : none;
	free(cs.v);
	return only;
}

/* p in `*p`, or in `*(V *)p` / `*reinterpret_cast<V *>(p)`: the pointer an accessor's statement
 * dereferences, through a cast of its parameter to a pointer to v (*cast then); null otherwise. */
static CXCursor accessed_pointer(CXCursor target, CXType v, bool *cast)
{
	CXCursor e = deref_operand(target);
	*cast = false;
	if (clang_Cursor_isNull(e) || !cursor_kind_is_cast(clang_getCursorKind(e)))
		return e;
	CXType to = clang_getCanonicalType(clang_getCursorType(e));
	if (to.kind != CXType_Pointer || !cursor_same_type(clang_getPointeeType(to), v))
		return clang_getNullCursor();
	while (cursor_kind_is_cast(clang_getCursorKind(e)))
		e = cursor_strip(cursor_last_child(e));
	*cast = true;
	return e;
}

bool cursor_store_accessor(CXCursor call, CXCursor *addr, CXCursor *value)
{
	CXType stored;
	bool cast;
	return cursor_store_accessor_cast(call, addr, value, &stored, &cast);
}

bool cursor_store_accessor_cast(CXCursor call, CXCursor *addr, CXCursor *value, CXType *stored_type, bool *cast)
{
	CXCursor def, st = accessor_statement(call, 2, &def), target, stored;
	if (clang_Cursor_isNull(st) || cursor_write_parts(st, &target, &stored) != WRITE_ASSIGN)
		return false; /* (a struct's `*p = v` is its operator=) */
	CXCursor p = clang_Cursor_getArgument(def, 0), v = clang_Cursor_getArgument(def, 1);
	CXType pt = clang_getCanonicalType(clang_getCursorType(p)), vt = clang_getCanonicalType(clang_getCursorType(v));
	if (pt.kind != CXType_Pointer || vt.kind == CXType_Pointer || vt.kind == CXType_LValueReference ||
	    vt.kind == CXType_RValueReference || clang_isConstQualifiedType(clang_getPointeeType(pt)))
		return false;
	/* `*p = v`, p pointing at v's type, or `*(V *)p = v` (llm.c's st_vec: a float4 at a float *) */
	if (!refers_to(accessed_pointer(target, vt, cast), p) || !refers_to(stored, v) ||
	    (!*cast && !cursor_same_type(clang_getPointeeType(pt), vt)))
		return false;
	*addr = clang_Cursor_getArgument(cursor_strip(call), 0);
	*value = clang_Cursor_getArgument(cursor_strip(call), 1);
	*stored_type = vt;
	return true;
}

bool cursor_load_accessor(CXCursor call, CXCursor *addr)
{
	CXCursor def, st = accessor_statement(call, 1, &def);
	if (clang_Cursor_isNull(st) || clang_getCursorKind(st) != CXCursor_ReturnStmt)
		return false;
	CXCursor p = clang_Cursor_getArgument(def, 0);
	CXType pt = clang_getCanonicalType(clang_getCursorType(p));
	CXType rt = clang_getCanonicalType(clang_getResultType(clang_getCursorType(def)));
	bool cast;
	/* `return *p;`, or `return *(const R *)p;` (ld_vec: a float4 from a const float *) */
	if (pt.kind != CXType_Pointer || !refers_to(accessed_pointer(strip_copy(cursor_first_child(st)), rt, &cast), p) ||
	    (!cast && !cursor_same_type(clang_getPointeeType(pt), rt)))
		return false;
	*addr = clang_Cursor_getArgument(cursor_strip(call), 0);
	return true;
}

/* (a cast store accessor of another type, `*(int *)p = v` with v a float: not read as a copy) */
bool cursor_cast_store_accessor(CXCursor call)
{
	CXCursor def, st = accessor_statement(call, 2, &def), target, stored;
	if (clang_Cursor_isNull(st) || cursor_write_parts(st, &target, &stored) == WRITE_NONE)
		return false;
	CXCursor p = clang_Cursor_getArgument(def, 0), e = deref_operand(target);
	if (clang_Cursor_isNull(e) || refers_to(e, p) || !cursor_kind_is_cast(clang_getCursorKind(e)))
		return false;
	while (cursor_kind_is_cast(clang_getCursorKind(e)))
		e = cursor_strip(cursor_last_child(e));
	return refers_to(e, p);
}

/* `float4 a = *p;` initializes through float4's copy constructor: a call of one argument. */
bool cursor_copy_construct(CXCursor c)
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

/* The copy of a plain struct (POD) by the copy constructor the compiler declares: no code of
 * the program runs. */
bool cursor_plain_copy_construct(CXCursor c)
{
	CXCursor ctor = clang_getCursorReferenced(cursor_strip(c));
	return cursor_copy_construct(c) && clang_CXXConstructor_isCopyConstructor(ctor) &&
	       clang_CXXMethod_isDefaulted(ctor) && clang_isPODType(clang_getCursorType(c));
}

/* `P.elements`: a pointer member of the struct parameter p, which the function has by value
 * (the CUDA guide's `GetElement(const Matrix A, int row, int col)`, `return A.elements[..];`). */
static bool pointer_member_of(CXCursor base, CXCursor p)
{
	if (clang_getCursorKind(base) != CXCursor_MemberRefExpr ||
	    clang_getCanonicalType(clang_getCursorType(base)).kind != CXType_Pointer)
		return false;
	CXCursor object = cursor_strip(cursor_first_child(base));
	return clang_getCursorKind(object) == CXCursor_DeclRefExpr &&
	       clang_equalCursors(clang_getCursorReferenced(object), p) &&
	       clang_getCanonicalType(clang_getCursorType(object)).kind == CXType_Record;
}

bool cursor_indexing_accessor(CXCursor call)
{
	CXCursor def, st = accessor_statement(call, clang_Cursor_getNumArguments(cursor_strip(call)), &def);
	if (clang_Cursor_isNull(st) || clang_getCursorKind(st) != CXCursor_ReturnStmt)
		return false;
	CXCursor e = strip_copy(cursor_first_child(st)), base;
	if (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr)
		base = cursor_strip(cursor_first_child(e));
	else if (clang_getCursorKind(e) == CXCursor_UnaryOperator &&
		 clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref)
		base = cursor_strip(cursor_last_child(e)); /* (p + i): p */
	else
		return false;
	if (clang_getCursorKind(base) == CXCursor_BinaryOperator)
		base = cursor_strip(cursor_first_child(base));
	for (int i = 0; i < clang_Cursor_getNumArguments(def); i++) {
		CXCursor p = clang_Cursor_getArgument(def, i);
		enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(p)).kind;
		if ((k == CXType_Pointer && refers_to(base, p)) || (k == CXType_Record && pointer_member_of(base, p)))
			return true;
	}
	return false;
}

/* Whether the expression e reads only parameters of def, through operators, subscripts and
 * member reads: no call, no assignment, no other variable. */
static bool reads_only_params(CXCursor e, CXCursor def, int depth)
{
	enum CXCursorKind k = clang_getCursorKind(e);
	if (depth > 32 || k == CXCursor_CallExpr || k == CXCursor_CompoundAssignOperator || k == CXCursor_LambdaExpr ||
	    k == CXCursor_StmtExpr)
		return false;
	if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Assign)
		return false;
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreDec ||
		    op == CXUnaryOperator_PostDec)
			return false;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		bool param = false;
		for (int i = 0; i < clang_Cursor_getNumArguments(def) && !param; i++)
			param = clang_equalCursors(d, clang_Cursor_getArgument(def, i));
		return param || clang_getCursorKind(d) == CXCursor_EnumConstantDecl;
	}
	struct cursors kids = cursor_children(e);
	bool ok = true;
	for (int i = 0; i < kids.n && ok; i++) {
		enum CXCursorKind ck = clang_getCursorKind(kids.v[i]);
		ok = clang_isReference(ck) || clang_isDeclaration(ck) || reads_only_params(kids.v[i], def, depth + 1);
	}
	free(kids.v);
	return ok;
}

bool cursor_load_function(CXCursor call)
{
	CXCursor def;
	if (!cursor_indexing_accessor(call))
		return false;
	CXCursor st = accessor_statement(call, clang_Cursor_getNumArguments(cursor_strip(call)), &def);
	return reads_only_params(strip_copy(cursor_first_child(st)), def, 0);
}

/* What an expression writes: `x = v` (a struct's operator= too), `x += v`, `++x`. Sets the
 * written operand and, for a plain assignment, the value. */
/* A call of an operator that the template leaves unresolved (clang found overloads of it, so
 * the choice waits for the instantiation): the operator's name (`operator+=`) and the callee,
 * a name whose candidates hang below it; "" and a null cursor for any other call. */
static char *unresolved_operator(CXCursor call, CXCursor *callee)
{
	struct cursors cs = cursor_children(call);
	char *name = NULL;
	*callee = clang_getNullCursor();
	for (int i = 0; i < cs.n && !name; i++) {
		CXCursor o = cs.v[i];
		if (clang_getCursorKind(o) != CXCursor_OverloadedDeclRef)
			o = cursor_first_child(o);
		if (clang_getCursorKind(o) != CXCursor_OverloadedDeclRef)
			continue;
		char *n = cursor_name(o);
		if (strncmp(n, "operator", 8) == 0) {
			name = n;
			*callee = cs.v[i];
		} else
			free(n);
	}
	free(cs.v);
	return name ? name : xstrdup("");
}

/* Whether call is such an operator's (`x * y` of a template's dependent operands). */
bool cursor_unresolved_operator(CXCursor call)
{
	CXCursor callee;
	if (!clang_Cursor_isNull(clang_getCursorReferenced(call)))
		return false;
	char *name = unresolved_operator(call, &callee);
	bool r = *name != '\0';
	free(name);
	return r;
}

char *cursor_operator_name(CXCursor call)
{
	CXCursor callee;
	if (clang_getCursorKind(call) != CXCursor_CallExpr || !clang_Cursor_isNull(clang_getCursorReferenced(call)))
		return xstrdup("");
	return unresolved_operator(call, &callee);
}

/* What an operator of that name writes of its first operand. */
static enum write_kind operator_writes(const char *name)
{
	if (strcmp(name, "operator=") == 0)
		return WRITE_ASSIGN;
	if (strcmp(name, "operator++") == 0 || strcmp(name, "operator--") == 0)
		return WRITE_UPDATE;
	size_t n = strlen(name);
	if (n > 9 && name[n - 1] == '=' && strcmp(name, "operator==") != 0 && strcmp(name, "operator!=") != 0 &&
	    strcmp(name, "operator<=") != 0 && strcmp(name, "operator>=") != 0 && strcmp(name, "operator<=>") != 0)
		return WRITE_UPDATE;
	return WRITE_NONE;
}

/* The operands of an unresolved operator call, around its callee: the first is written. */
static enum write_kind operator_operands(CXCursor call, CXCursor callee, enum write_kind w, CXCursor *target,
					 CXCursor *value)
{
	struct cursors cs = cursor_children(call), ops = {0};
	for (int i = 0; i < cs.n; i++)
		if (!clang_equalCursors(cs.v[i], callee))
			*VEC_PUSH(ops.v, ops.n, ops.cap) = cs.v[i];
	if (ops.n >= 1) {
		*target = ops.v[0];
		*value = ops.n >= 2 ? ops.v[ops.n - 1] : clang_getNullCursor();
	} else
		w = WRITE_NONE;
	free(cs.v);
	free(ops.v);
	return w;
}

enum write_kind cursor_write_parts(CXCursor c, CXCursor *target, CXCursor *value)
{
	c = cursor_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	*target = *value = clang_getNullCursor();
	if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
		*target = cursor_first_child(c);
		*value = cursor_last_child(c);
		return WRITE_ASSIGN;
	}
	if (k == CXCursor_CallExpr && cursor_store_accessor(c, target, value))
		return WRITE_ASSIGN; /* `st(&As[i], v)`: target is the address */
	if (k == CXCursor_CallExpr) {
		char *name = cursor_name(c);
		CXCursor callee = clang_getNullCursor();
		if (!*name) { /* (an operator a template leaves unresolved: `acc += As[i] * Bs[i]`) */
			free(name);
			name = unresolved_operator(c, &callee);
		}
		if (!clang_Cursor_isNull(callee)) {
			enum write_kind w = operator_writes(name);
			free(name);
			return w == WRITE_NONE ? w : operator_operands(c, callee, w, target, value);
		}
		enum write_kind w = strcmp(name, "operator=") == 0 ? WRITE_ASSIGN
				    : strncmp(name, "operator", 8) == 0 && name[8] && name[strlen(name) - 1] == '=' &&
						      strcmp(name, "operator==") != 0 && strcmp(name, "operator!=") != 0 &&
						      strcmp(name, "operator<=") != 0 && strcmp(name, "operator>=") != 0
					    ? WRITE_UPDATE
					    : WRITE_NONE;
		free(name);
		struct cursors cs = cursor_children(c);
		if (w != WRITE_NONE && cs.n >= 2) {
			*target = cs.v[0];
			*value = cs.v[cs.n - 1];
		} else
			w = WRITE_NONE;
		free(cs.v);
		return w;
	}
	if (k == CXCursor_CompoundAssignOperator) {
		*target = cursor_first_child(c);
		*value = cursor_last_child(c);
		return WRITE_UPDATE;
	}
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
		    op == CXUnaryOperator_PreDec) {
			*target = cursor_last_child(c);
			return WRITE_UPDATE;
		}
	}
	return WRITE_NONE;
}

CXCursor cursor_write_target(CXCursor c)
{
	CXCursor target, value;
	cursor_write_parts(c, &target, &value);
	return target;
}

/* The variable an assignment or ++/-- writes, when it is a plain variable. */
CXCursor cursor_assigned_var(CXCursor c, bool *is_store)
{
	CXCursor target, value;
	*is_store = cursor_write_parts(c, &target, &value) != WRITE_NONE;
	return *is_store ? cursor_root_var(target) : clang_getNullCursor();
}

/* A read of global memory: `A[i]`, `*(const int4 *)&A[i]`, `p->A[i]`; sets the pointer it reads
 * (a variable, or the struct member it indexes). */
bool cursor_global_load(CXCursor c, CXCursor *base)
{
	c = cursor_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	bool lvalue = k == CXCursor_ArraySubscriptExpr ||
		      (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref);
	if (!lvalue)
		return false;
	CXCursor v = cursor_root_var(c);
	if (clang_Cursor_isNull(v) || cursor_is_shared_var(v))
		return false;
	/* a pointer member, `p.A[i]` or `p->A[i]`: the member is the base, __restrict__ only when
	 * declared so (`const P *__restrict__ p` says nothing of what p->A and p->C point at) */
	CXCursor ptr = cursor_strip(k == CXCursor_ArraySubscriptExpr ? cursor_first_child(c) : cursor_last_child(c));
	if (clang_getCursorKind(ptr) == CXCursor_MemberRefExpr) {
		CXCursor field = clang_getCursorReferenced(ptr);
		if (clang_Cursor_isNull(field) || clang_getCanonicalType(clang_getCursorType(ptr)).kind != CXType_Pointer)
			return false;
		*base = field;
		return true;
	}
	if (clang_getCanonicalType(clang_getCursorType(v)).kind != CXType_Pointer)
		return false;
	*base = v;
	return true;
}

static enum CXChildVisitResult scan_global_read(CXCursor c, void *data)
{
	CXCursor base;
	if (cursor_global_load(c, &base)) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* `tex1Dfetch<float4>(tex, i)`, `tex2D<float>(tex, x, y)`: a texture fetch of the toolkit's,
 * returning the texel (not the form that writes it through a pointer). Its value may be read a
 * tile early: within a kernel the texture cache is not kept coherent with the kernel's own
 * global stores, so a fetch from memory the kernel wrote returns undefined data (CUDA C++
 * Best Practices Guide, texture memory), and any fetch that is defined as written reads memory
 * the kernel does not write, the same early as late. Its arguments are what the loader replays. */
bool cursor_texture_fetch(CXCursor c)
{
	static const char *const fetches[] = {"tex1Dfetch", "tex1D", "tex2D", "tex3D", NULL};
	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_getCursorType(c).kind == CXType_Void)
		return false;
	char *name = cursor_name(c);
	bool r = false;
	for (const char *const *k = fetches; *k && !r; k++)
		r = strcmp(name, *k) == 0;
	free(name);
	for (int i = 0; r && i < clang_Cursor_getNumArguments(c); i++)
		r = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i))).kind != CXType_Pointer;
	return r && clang_Location_isInSystemHeader(clang_getCursorLocation(clang_getCursorReferenced(c)));
}

bool cursor_loads_global(CXCursor e)
{
	CXCursor base;
	bool found = false;
	if (!clang_Cursor_isNull(e) && !(found = cursor_global_load(e, &base)))
		cursor_visit(e, scan_global_read, &found);
	return found;
}

/* A walk for the first cursor, in or below `in`, at which lets(c, var) holds: a way to write
 * var, or to reach it. */
struct written_scan {
	CXCursor var;
	bool (*lets)(CXCursor c, CXCursor var);
	bool written;
};

bool cursor_names_var(CXCursor e, CXCursor var) { return cursor_is_ref_to(cursor_strip(e), var); }

static bool non_const_ref(CXType t)
{
	return t.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* The expression c hands on a way to: the operand whose address it takes (`&v`), or what a
 * reference it declares is bound to (`int &r = v;`, a reference of a type `binds` takes); a null
 * cursor when c does neither. */
static CXCursor referred(CXCursor c, bool (*binds)(CXType t))
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf)
		return cursor_last_child(c);
	CXCursor init = k == CXCursor_VarDecl && binds(clang_getCursorType(c)) ? cursor_last_child(c) : clang_getNullCursor();
	return !clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)) ? init : clang_getNullCursor();
}

/* A way to write the variable later that is not an assignment: its address taken (`&v`), a
 * reference bound to it (`int &r = v;`), a function's non-const reference parameter given it,
 * or a non-const member function called on it. */
static bool lets_write(CXCursor c, CXCursor var)
{
	CXCursor e = referred(c, non_const_ref);
	if (!clang_Cursor_isNull(e))
		return cursor_names_var(e, var);
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return false;
	CXCursor fn = clang_getCursorReferenced(c);
	int n = clang_Cursor_getNumArguments(c);
	CXType ft = clang_getCursorType(fn);
	for (int i = 0; i < n && !clang_Cursor_isNull(fn); i++)
		if (cursor_names_var(clang_Cursor_getArgument(c, (unsigned)i), var) && i < clang_getNumArgTypes(ft) &&
		    non_const_ref(clang_getArgType(ft, (unsigned)i)))
			return true;
	CXCursor callee = cursor_strip(cursor_first_child(c));
	if (clang_getCursorKind(callee) == CXCursor_MemberRefExpr && clang_getCursorKind(fn) == CXCursor_CXXMethod &&
	    !clang_CXXMethod_isConst(fn) && !clang_CXXMethod_isStatic(fn)) {
		CXCursor object = cursor_first_child(callee);
		return !clang_Cursor_isNull(object) && !clang_equalCursors(object, callee) && cursor_names_var(object, var);
	}
	return false;
}

/* An assignment or ++/-- of var, or a way to write it later (lets_write). */
static bool writes_here(CXCursor c, CXCursor var)
{
	bool store;
	CXCursor v = cursor_assigned_var(c, &store);
	return (store && clang_equalCursors(v, var)) || lets_write(c, var);
}

static enum CXChildVisitResult scan_written(CXCursor c, void *data)
{
	struct written_scan *w = data;
	if (w->lets(c, w->var)) {
		w->written = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Whether lets(c, var) holds at `in` or at a cursor below it. */
static bool lets_within(CXCursor in, CXCursor var, bool (*lets)(CXCursor c, CXCursor var))
{
	if (lets(in, var))
		return true;
	struct written_scan w = {var, lets, false};
	cursor_visit(in, scan_written, &w);
	return w.written;
}

bool cursor_escapes(CXCursor in, CXCursor var) { return lets_within(in, var, lets_write); }

/* Whether the lvalue e may be var itself (or part of it): `v`, `(v)`, a cast of it, `c ? v : w`,
 * `(x, v)`, `v = ..`, `++v`, `v.m`, `v[i]` of an array. An arithmetic value, `v + 1`, is not:
 * a reference bound to it holds a copy. */
static bool lvalue_may_be(CXCursor e, CXCursor var)
{
	for (int depth = 0; depth < 32; depth++) {
		e = cursor_strip(e);
		enum CXCursorKind k = clang_getCursorKind(e);
		if (k == CXCursor_DeclRefExpr)
			return clang_equalCursors(clang_getCursorReferenced(e), var);
		if (cursor_kind_is_cast(k) || k == CXCursor_UnexposedExpr) {
			e = cursor_last_child(e);
		} else if (k == CXCursor_ConditionalOperator) {
			struct cursors kids = cursor_children(e);
			bool may = kids.n == 3 && (lvalue_may_be(kids.v[1], var) || lvalue_may_be(kids.v[2], var));
			free(kids.v);
			return may;
		} else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
			enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
			if (op == CXBinaryOperator_Comma)
				e = cursor_last_child(e);
			else if (k == CXCursor_CompoundAssignOperator || op == CXBinaryOperator_Assign)
				e = cursor_first_child(e);
			else
				return false;
		} else if (k == CXCursor_UnaryOperator) {
			enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
			if (op != CXUnaryOperator_PreInc && op != CXUnaryOperator_PreDec)
				return false;
			e = cursor_last_child(e);
		} else if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
			e = cursor_first_child(e);
		} else {
			return false;
		}
		if (clang_Cursor_isNull(e))
			return false;
	}
	return true;
}

static enum CXChildVisitResult scan_lvalue_in_list(CXCursor c, void *data)
{
	CXCursor *var = data;
	if (lvalue_may_be(c, *var)) {
		*var = clang_getNullCursor();
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static bool reference_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

/* A way to reach the variable other than by its name, to read it as well as to write it: its
 * address taken, a reference of any kind bound to what may be it (`const int &r = c ? v : w;`,
 * `int &&r = static_cast<int &&>(v);`), a call handed it where its parameter is a reference or
 * where pipefy cannot see the parameter (`__builtin_addressof(v)`), or an aggregate of a class
 * built from it (`View w{v};`, whose member may be a reference). */
static bool lets_reach(CXCursor c, CXCursor var)
{
	CXCursor e = referred(c, reference_type);
	if (!clang_Cursor_isNull(e))
		return lvalue_may_be(e, var);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_InitListExpr && clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Record) {
		CXCursor v = var; /* (an element that may be it, bound to a reference member) */
		cursor_visit(c, scan_lvalue_in_list, &v);
		return clang_Cursor_isNull(v);
	}
	if (k != CXCursor_CallExpr)
		return false;
	CXCursor fn = clang_getCursorReferenced(c);
	CXType ft = clang_getCursorType(fn);
	int n = clang_Cursor_getNumArguments(c), typed = clang_Cursor_isNull(fn) ? 0 : clang_getNumArgTypes(ft);
	for (int i = 0; i < n; i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		if (lvalue_may_be(arg, var) && (i >= typed || reference_type(clang_getArgType(ft, (unsigned)i))))
			return true;
	}
	return false;
}

/* A way to reach var other than by its name, or to write it. */
static bool reaches_here(CXCursor c, CXCursor var) { return lets_reach(c, var) || lets_write(c, var); }

bool cursor_aliased(CXCursor in, CXCursor var) { return lets_within(in, var, reaches_here); }

/* cursor_only_read: every name of var below c is read, proven from its ancestors (a few of them,
 * innermost last). */
struct read_walk {
	CXCursor var;
	CXCursor up[3]; /* parent, grandparent, great-grandparent; null where there are fewer */
	bool ok;
};

static bool copy_construct_call(CXCursor c)
{
	CXCursor ctor = clang_getCursorReferenced(c);
	return clang_getCursorKind(c) == CXCursor_CallExpr && clang_getCursorKind(ctor) == CXCursor_Constructor &&
	       clang_CXXConstructor_isCopyConstructor(ctor);
}

/* A name read as a value: under an implicit conversion (an lvalue read, unexposed in libclang),
 * copied by a copy constructor (a dim3 passed by value), or a member of it read so; parentheses
 * are looked through. */
static bool read_in_place(const CXCursor *up, int n)
{
	int i = 0;
	while (i < n && clang_getCursorKind(up[i]) == CXCursor_ParenExpr)
		i++;
	if (i < n && clang_getCursorKind(up[i]) == CXCursor_MemberRefExpr)
		i++;
	while (i < n && clang_getCursorKind(up[i]) == CXCursor_ParenExpr)
		i++;
	return i < n && (clang_getCursorKind(up[i]) == CXCursor_UnexposedExpr || copy_construct_call(up[i]));
}

static void walk_reads(CXCursor c, struct read_walk *w)
{
	if (!w->ok)
		return;
	if (cursor_is_ref_to(c, w->var)) {
		w->ok = read_in_place(w->up, 3);
		return;
	}
	struct cursors kids = cursor_children(c);
	CXCursor saved[3];
	memcpy(saved, w->up, sizeof saved);
	w->up[2] = saved[1], w->up[1] = saved[0], w->up[0] = c;
	for (int i = 0; i < kids.n && w->ok; i++)
		walk_reads(kids.v[i], w);
	memcpy(w->up, saved, sizeof saved);
	free(kids.v);
}

bool cursor_only_read(CXCursor in, CXCursor var)
{
	struct read_walk w = {.var = var, .ok = true};
	for (int i = 0; i < 3; i++)
		w.up[i] = clang_getNullCursor();
	walk_reads(in, &w);
	return w.ok;
}

bool cursor_writes_var(CXCursor in, CXCursor var) { return lets_within(in, var, writes_here); }

/* Whether c is a constant clang folds (`0`, `0.0f`, `(half)0`). */
bool cursor_folds_to_constant(CXCursor c)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	bool constant = r && (clang_EvalResult_getKind(r) == CXEval_Int || clang_EvalResult_getKind(r) == CXEval_Float);
	if (r)
		clang_EvalResult_dispose(r);
	return constant;
}

/* `for (int i = c0; i < c1; ++i)` with c1 <= c0 + 1: at most one trip (constants). */
bool cursor_one_trip(CXCursor loop, const struct source *src)
{
	struct cursors kids = cursor_children(loop);
	bool one = false;
	if (kids.n == 4 && clang_getCursorKind(kids.v[0]) == CXCursor_DeclStmt &&
	    clang_getCursorKind(kids.v[1]) == CXCursor_BinaryOperator &&
	    clang_getCursorBinaryOperatorKind(kids.v[1]) == CXBinaryOperator_LT) {
		CXCursor var = cursor_first_child(kids.v[0]);
		char *name = cursor_name(var), *inc = span_squeezed(src, cursor_span(kids.v[2]));
		char *pre = xprintf("++%s", name), *post = xprintf("%s++", name);
		bool ok0, ok1;
		long c0 = cursor_evaluate_int(cursor_last_child(var), &ok0);
		long c1 = cursor_evaluate_int(cursor_last_child(kids.v[1]), &ok1);
		CXCursor lhs = cursor_strip(cursor_first_child(kids.v[1]));
		one = ok0 && ok1 && c1 <= c0 + 1 && (strcmp(inc, pre) == 0 || strcmp(inc, post) == 0) &&
		      clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
		      clang_equalCursors(clang_getCursorReferenced(lhs), var);
		free(name);
		free(inc);
		free(pre);
		free(post);
	}
	free(kids.v);
	return one;
}

/* A loop statement: for, while, do, range-for. */
bool cursor_is_loop(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_CXXForRangeStmt;
}

/* libclang spells the canonical type of a template's type parameter by its depth and index
 * (`type-parameter-0-1`); a function template's own are of depth 0 (a kernel is no member). */
int cursor_type_param_index(CXType e)
{
	CXString sp = clang_getTypeSpelling(clang_getCanonicalType(e));
	int depth, index, end = 0;
	if (sscanf(clang_getCString(sp), "type-parameter-%d-%d%n", &depth, &index, &end) != 2 ||
	    clang_getCString(sp)[end] || depth != 0)
		index = -1;
	clang_disposeString(sp);
	return index;
}

long cursor_evaluate_int(CXCursor c, bool *ok)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	*ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
	long v = *ok ? clang_EvalResult_getAsLongLong(r) : 0;
	if (r)
		clang_EvalResult_dispose(r);
	return v;
}

bool span_within(struct span inner, struct span outer)
{
	return inner.begin >= outer.begin && inner.end <= outer.end;
}

bool cursor_declared_within(CXCursor decl, struct span s)
{
	return cursor_in_main_file(decl) && span_within(cursor_span(decl), s);
}

bool cursor_same_type(CXType a, CXType b)
{
	return clang_equalTypes(clang_getCanonicalType(clang_getUnqualifiedType(clang_getCanonicalType(a))),
				clang_getCanonicalType(clang_getUnqualifiedType(clang_getCanonicalType(b))));
}

/* `__ldg(&A[i])` and the other cache-hinted loads read A[i]: the copy's source is A[i]. The
 * register variant keeps the call as written; cp.async has its own cache policy. */
CXCursor cursor_unwrap_cache_hint(CXCursor c)
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

struct refs_within {
	struct span s;
	bool found;
};

static enum CXChildVisitResult scan_refs_within(CXCursor ref, CXCursor decl, void *data)
{
	(void)ref;
	struct refs_within *r = data;
	if (!cursor_declared_within(decl, r->s))
		return CXChildVisit_Recurse;
	r->found = true;
	return CXChildVisit_Break;
}

bool cursor_refers_within(CXCursor c, struct span s)
{
	struct refs_within r = {s, false};
	cursor_visit_names_from(c, scan_refs_within, &r);
	return r.found;
}

struct var_refs {
	struct span *out;
	int n, max;
	bool ok;
};

static enum CXChildVisitResult scan_var_refs(CXCursor ref, CXCursor decl, void *data)
{
	(void)decl;
	struct var_refs *r = data;
	if (!cursor_written_in_file(ref) || r->n == r->max) {
		r->ok = false;
		return CXChildVisit_Break;
	}
	r->out[r->n++] = cursor_written_span(ref);
	return CXChildVisit_Continue;
}

int cursor_var_refs(CXCursor c, CXCursor var, struct span *out, int max)
{
	struct var_refs r = {out, 0, max, true};
	cursor_visit_refs(c, var, scan_var_refs, &r);
	return r.ok ? r.n : -1;
}

struct first_ref {
	struct span skip, at;
	bool found;
};

static enum CXChildVisitResult scan_first_ref(CXCursor ref, CXCursor decl, void *data)
{
	(void)decl;
	struct first_ref *r = data;
	if (cursor_offset(ref) >= r->skip.begin && cursor_offset(ref) < r->skip.end)
		return CXChildVisit_Recurse;
	r->at = cursor_span(ref);
	r->found = true;
	return CXChildVisit_Break;
}

bool cursor_first_ref(CXCursor c, CXCursor decl, struct span skip, struct span *at)
{
	struct first_ref r = {.skip = skip};
	cursor_visit_refs(c, decl, scan_first_ref, &r);
	if (r.found && at)
		*at = r.at;
	return r.found;
}

/* A call whose target is a value, not a function: `hook(0)` of a parameter, a local or a member
 * holding a function's address, `(*hook)(0)`. (A call of an object's operator() names the
 * operator; an overloaded operator of a builtin type has no callee and is not a function value.) */
bool cursor_call_through_pointer(CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	enum CXCursorKind ck = clang_getCursorKind(callee);
	if (!clang_Cursor_isNull(callee))
		return ck == CXCursor_VarDecl || ck == CXCursor_ParmDecl || ck == CXCursor_FieldDecl;
	CXCursor target = cursor_strip(cursor_first_child(call));
	if (clang_Cursor_isNull(target))
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(target));
	if (t.kind == CXType_Pointer || t.kind == CXType_MemberPointer)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	return t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto;
}

/* ---- cuda::pipeline's asynchronous copies ---- */

CXCursor cursor_overloaded_ref(CXCursor call)
{
	struct cursors kids = cursor_children(cursor_first_child(call));
	*VEC_PUSH(kids.v, kids.n, kids.cap) = cursor_first_child(call);
	CXCursor ref = clang_getNullCursor();
	for (int i = 0; i < kids.n; i++)
		if (clang_getCursorKind(kids.v[i]) == CXCursor_OverloadedDeclRef)
			ref = kids.v[i];
	free(kids.v);
	return ref;
}

/* Whether fn is declared in namespace cuda (or one of its inline namespaces, `cuda::__4`). */
static bool in_namespace_cuda(CXCursor fn)
{
	for (CXCursor p = clang_getCursorSemanticParent(fn);
	     !clang_Cursor_isNull(p) && !clang_isTranslationUnit(clang_getCursorKind(p)); p = clang_getCursorSemanticParent(p)) {
		if (clang_getCursorKind(p) != CXCursor_Namespace)
			continue;
		char *n = cursor_name(p);
		bool cuda = strcmp(n, "cuda") == 0;
		free(n);
		if (cuda)
			return true;
	}
	return false;
}

/* The variable e names, when e is only its name. */
static CXCursor named_var(CXCursor e)
{
	e = cursor_strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	CXCursor d = clang_getCursorReferenced(e);
	return clang_getCursorKind(d) == CXCursor_VarDecl ? d : clang_getNullCursor();
}

bool cursor_async_copy(CXCursor c, CXCursor *dst, CXCursor *from, CXCursor *size, CXCursor *pipe)
{
	c = cursor_strip(c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 4)
		return false;
	CXCursor fn = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(fn)) {
		/* (in a template, a call its arguments leave unresolved, `cuda::memcpy_async(&As[..],
		 * ..)` with As's size a parameter: every function the name may mean is cuda's) */
		CXCursor ref = cursor_overloaded_ref(c);
		unsigned n = clang_Cursor_isNull(ref) ? 0 : clang_getNumOverloadedDecls(ref);
		char *name = n ? cursor_name(ref) : xstrdup("");
		bool ok = strcmp(name, "memcpy_async") == 0;
		free(name);
		for (unsigned i = 0; i < n && ok; i++)
			ok = in_namespace_cuda(clang_getOverloadedDecl(ref, i));
		if (!ok)
			return false;
	} else if (!cursor_is_call_named(c, "memcpy_async") || !in_namespace_cuda(fn))
		return false;
	*dst = clang_Cursor_getArgument(c, 0);
	*from = clang_Cursor_getArgument(c, 1);
	*size = clang_Cursor_getArgument(c, 2);
	*pipe = named_var(clang_Cursor_getArgument(c, 3));
	return !clang_Cursor_isNull(*pipe);
}

static const char *const pipeline_ops[] = {"producer_acquire", "producer_commit", "consumer_wait",
					   "consumer_release", NULL};

int cursor_pipeline_op(CXCursor c, CXCursor *pipe)
{
	c = cursor_strip(c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 0)
		return -1;
	CXCursor fn = clang_getCursorReferenced(c), member = cursor_first_child(c);
	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_CXXMethod || !in_namespace_cuda(fn) ||
	    clang_getCursorKind(member) != CXCursor_MemberRefExpr)
		return -1;
	char *name = cursor_name(c);
	int op = -1;
	for (int i = 0; pipeline_ops[i] && op < 0; i++)
		if (strcmp(name, pipeline_ops[i]) == 0)
			op = i;
	free(name);
	*pipe = named_var(cursor_first_child(member));
	return clang_Cursor_isNull(*pipe) ? -1 : op;
}

/* The cursor at an offset of the main file of the translation unit `near` belongs to. */
CXCursor cursor_at_offset(CXCursor near, size_t offset)
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(near);
	CXFile file;
	clang_getSpellingLocation(clang_getCursorLocation(near), &file, NULL, NULL, NULL);
	return clang_getCursor(tu, clang_getLocationForOffset(tu, file, (unsigned)offset));
}

/* A call with no callee and no name: an operator's call of a builtin type, which reaches
 * nothing of the program's. */
bool cursor_builtin_operator_call(CXCursor call)
{
	if (!clang_Cursor_isNull(clang_getCursorReferenced(call)))
		return false;
	char *n = cursor_name(call);
	bool unnamed = *n == 0;
	free(n);
	return unnamed;
}

/* ---- arithmetic: a value computed from locals, parameters and constants alone ---- */

bool cursor_scalar_type(CXType type)
{
	enum CXTypeKind t = clang_getCanonicalType(type).kind;
	return t != CXType_LValueReference && t != CXType_RValueReference && t != CXType_ConstantArray &&
	       t != CXType_IncompleteArray && t != CXType_Record;
}

bool cursor_value_local(CXCursor var, CXCursor *init)
{
	*init = clang_getCursorKind(var) == CXCursor_VarDecl ? clang_Cursor_getVarDeclInitializer(var)
							      : clang_getNullCursor();
	return !clang_Cursor_isNull(*init) && clang_getCursorKind(*init) != CXCursor_InitListExpr &&
	       cursor_scalar_type(clang_getCursorType(var));
}

/* A function's own scalar local (not static, not __shared__) or a by-value parameter. */
static bool local_scalar(CXCursor d)
{
	enum CXCursorKind k = clang_getCursorKind(d), p = clang_getCursorKind(clang_getCursorSemanticParent(d));
	if (!cursor_scalar_type(clang_getCursorType(d)))
		return false;
	if (k == CXCursor_ParmDecl)
		return true;
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);
	return k == CXCursor_VarDecl && sc != CX_SC_Static && sc != CX_SC_Extern && !cursor_is_shared_decl(d) &&
	       (p == CXCursor_FunctionDecl || p == CXCursor_FunctionTemplate || p == CXCursor_CXXMethod ||
		p == CXCursor_LambdaExpr);
}

static enum CXChildVisitResult scan_arithmetic(CXCursor c, void *data)
{
	bool *ok = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor t, v;
	if (cursor_write_parts(c, &t, &v) != WRITE_NONE)
		*ok = false;
	else if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		char *type = type_spelling(clang_getCursorType(d));
		bool coordinates = strstr(type, "__cuda_builtin_") != NULL; /* (threadIdx, blockIdx, ...) */
		free(type);
		*ok = coordinates || local_scalar(d) || dk == CXCursor_EnumConstantDecl || dk == CXCursor_NonTypeTemplateParameter ||
		      (dk == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(d)) && !cursor_is_shared_decl(d) &&
		       clang_getCanonicalType(clang_getCursorType(d)).kind != CXType_Record);
	} else if (k == CXCursor_CallExpr) {
		char *name = cursor_name(c);
		*ok = strncmp(name, "__fetch_builtin", 15) == 0;
		free(name);
	} else if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		*ok = op != CXUnaryOperator_Deref && op != CXUnaryOperator_AddrOf;
	} else if (k == CXCursor_MemberRefExpr) {
		/* (threadIdx.x: a property of the coordinates, read through __fetch_builtin_x) */
		CXCursor base = cursor_strip(cursor_first_child(c));
		char *of = type_spelling(clang_getCursorType(base));
		*ok = clang_getCursorKind(base) == CXCursor_DeclRefExpr && strstr(of, "__cuda_builtin_") != NULL;
		free(of);
	} else if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_LambdaExpr ||
		   k == CXCursor_StmtExpr || k == CXCursor_CXXThisExpr || k == CXCursor_CXXNewExpr ||
		   k == CXCursor_CXXDeleteExpr || k == CXCursor_CXXThrowExpr || k == CXCursor_AsmStmt) {
		*ok = false;
	}
	return *ok ? CXChildVisit_Recurse : CXChildVisit_Break;
}

bool cursor_is_arithmetic(CXCursor e)
{
	bool ok = true;
	cursor_visit_from(e, scan_arithmetic, &ok);
	return ok;
}

/* The name a call is made by; for a lambda's `f()` (operator() on f), the object's name. */
char *cursor_call_name(CXCursor c)
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

bool cursor_any_child(CXCursor c, bool (*test)(CXCursor child, CXCursor arg), CXCursor arg)
{
	struct cursors kids = cursor_children(c);
	bool any = false;
	for (int i = 0; i < kids.n && !any; i++)
		any = test(kids.v[i], arg);
	free(kids.v);
	return any;
}

bool cursor_is(CXCursor a, CXCursor b) { return clang_equalCursors(a, b) != 0; }

bool cursor_declares(CXCursor stmt, CXCursor var)
{
	return clang_getCursorKind(stmt) == CXCursor_DeclStmt && cursor_any_child(stmt, cursor_is, var);
}

struct find {
	bool (*test)(CXCursor cursor, CXCursor arg);
	CXCursor arg, found;
};

static enum CXChildVisitResult find_taken(CXCursor c, void *data)
{
	struct find *f = data;
	if (!f->test(c, f->arg))
		return CXChildVisit_Recurse;
	f->found = c;
	return CXChildVisit_Break;
}

CXCursor cursor_find(CXCursor c, enum CXCursorKind k, bool (*test)(CXCursor cursor, CXCursor arg), CXCursor arg)
{
	struct find f = {test, arg, clang_getNullCursor()};
	cursor_visit_kind(c, k, find_taken, &f);
	return f.found;
}

bool cursor_steps_var(CXCursor c, CXCursor var)
{
	CXCursor target, value;
	enum write_kind w = cursor_write_parts(cursor_strip(c), &target, &value);
	if (w == WRITE_NONE || !cursor_names_var(target, var))
		return false;
	return w != WRITE_ASSIGN || cursor_var_refs(value, var, NULL, 0) != 0;
}

CXCursor cursor_callee_definition(CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
	if (clang_Cursor_isNull(def) && !clang_Cursor_isNull(callee) &&
	    !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(callee)))
		def = clang_getCursorDefinition(clang_getSpecializedCursorTemplate(callee));
	return def;
}

bool cursor_for_assigns(CXCursor loop, CXCursor *var, CXCursor *init)
{
	struct cursors kids = cursor_children(loop);
	CXCursor lhs, rhs;
	bool ok = clang_getCursorKind(loop) == CXCursor_ForStmt && kids.n == 4 &&
		  cursor_write_parts(kids.v[0], &lhs, &rhs) == WRITE_ASSIGN &&
		  clang_getCursorKind(cursor_strip(lhs)) == CXCursor_DeclRefExpr;
	*var = ok ? clang_getCursorReferenced(cursor_strip(lhs)) : clang_getNullCursor();
	*init = ok ? rhs : clang_getNullCursor();
	free(kids.v);
	return ok;
}
