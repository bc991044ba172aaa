/* uniform.c: the values every thread of a block holds alike, and whether every thread of the
 * block reaches a loop and runs it the same number of times (facts for check.c).
 *
 * A value is block-uniform when it is built only from constants, the block's and grid's
 * indices and sizes (blockIdx, blockDim, gridDim: never threadIdx), kernel parameters and
 * read-only globals, through operators, pure library calls and functions of this program that
 * compute from their arguments alone; a local is uniform when its initial value and every value
 * assigned to it are, each assignment under uniform control. A thread reaches a statement under
 * uniform control when every condition on the way there (if, loops, switch, ?:, && and ||) is
 * uniform and no loop on the way can be left by a jump under a condition that is not. Anything
 * pipefy cannot read (memory, asm, a call into code it cannot follow) is not uniform: the
 * facts are proven, never assumed. */
#include "pipefy.h"
#include "cursor.h"

#include <stdlib.h>
#include <string.h>

#define UNIFORM_DEPTH 12 /* variables and helpers followed */

struct uni {
	const struct source *src;
	CXCursor function;        /* the function whose locals are read */
	CXCursor visiting[UNIFORM_DEPTH];
	int nvisiting;
	int depth;                /* helpers followed */
	CXCursor assumed[16];     /* loops whose ways out are being read: each way's control is read
				   * assuming every thread is still in those loops together (the
				   * induction: all enter alike, and each way out is taken alike) */
	int nassumed;
	bool other_files;         /* other files may call the input's device functions: a header's
				   * (every including file's), or relocatable device code (-rdc); else
				   * nvcc compiles device code a file at a time and this file holds
				   * every call */
	struct known { CXCursor var; bool uniform; } *known; /* variables already read */
	int nknown, capknown;
};

static bool uni_expr(struct uni *u, CXCursor e);
static bool uni_control(struct uni *u, CXCursor target, CXCursor *cond);

static bool is_loop(enum CXCursorKind k)
{
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_CXXForRangeStmt;
}

/* The cursors from `from` down to target (target last), by extents; false when it is not there. */
static bool same_node(CXCursor a, CXCursor b)
{
	/* (the same statement reached by two walks may differ in the declaration it is under) */
	struct span x = cursor_span(a), y = cursor_span(b);
	return clang_equalCursors(a, b) ||
	       (clang_getCursorKind(a) == clang_getCursorKind(b) && x.begin == y.begin && x.end == y.end);
}

static bool path_to(CXCursor from, CXCursor target, struct cursors *path)
{
	struct span t = cursor_span(target);
	CXCursor at = from;
	for (int guard = 0; guard < 256; guard++) {
		*VEC_PUSH(path->v, path->n, path->cap) = at;
		if (same_node(at, target))
			return true;
		struct cursors kids = cursor_children(at);
		CXCursor next = clang_getNullCursor();
		for (int i = 0; i < kids.n && clang_Cursor_isNull(next); i++) {
			if (same_node(kids.v[i], target))
				next = kids.v[i];
			else {
				struct span s = cursor_span(kids.v[i]);
				if (s.begin <= t.begin && s.end >= t.end && s.end > s.begin)
					next = kids.v[i];
			}
		}
		free(kids.v);
		if (clang_Cursor_isNull(next))
			return false;
		at = next;
	}
	return false;
}

static bool visiting(const struct uni *u, CXCursor d)
{
	for (int i = 0; i < u->nvisiting; i++)
		if (clang_equalCursors(u->visiting[i], d))
			return true;
	return false;
}

/* e is var or a member of it (`p.K`), not memory it points to. */
static bool names_part_of(CXCursor e, CXCursor var)
{
	for (int guard = 0; guard < 16; guard++) {
		e = cursor_strip(e);
		if (cursor_names_var(e, var))
			return true;
		if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
			return false;
		e = cursor_first_child(e);
		if (clang_Cursor_isNull(e) || clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Pointer)
			return false;
	}
	return false;
}

/* A walk that proves one thing of `of` (a variable, a function), false at the first doubt. */
struct proof {
	struct uni *u;
	CXCursor of;
	bool ok;
};

/* Every write of var (proof.of) in the function: a uniform value, under uniform control; never
 * its address taken or a non-const reference bound to it. */

static enum CXChildVisitResult scan_writes(CXCursor c, enum write_kind k, CXCursor target, CXCursor value, void *data)
{
	struct proof *w = data;
	if (!names_part_of(target, w->of))
		return CXChildVisit_Recurse;
	CXCursor cond;
	if ((k == WRITE_ASSIGN && !uni_expr(w->u, value)) ||
	    (k == WRITE_UPDATE && !clang_Cursor_isNull(value) && !uni_expr(w->u, value)) || !uni_control(w->u, c, &cond))
		w->ok = false;
	return w->ok ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* ---- a __device__ function: its callers say who runs it, with what arguments ---- */

static bool is_kernel(CXCursor function)
{
	return cursor_has_attr(function, CXCursor_CUDAGlobalAttr);
}

/* The function a call or a name refers to, as its template when it is an instantiation. */
static CXCursor canonical_function(CXCursor ref)
{
	CXCursor d = clang_getCursorReferenced(ref);
	if (clang_Cursor_isNull(d))
		return d;
	CXCursor t = clang_getSpecializedCursorTemplate(d);
	return clang_getCanonicalCursor(clang_Cursor_isNull(t) ? d : t);
}

/* Every call of a function in the file and its headers, and the functions making them; the first use of
 * its name that is no call (its address taken: it may be called from anywhere). */
struct callers {
	CXCursor target;   /* canonical */
	CXCursor in;       /* the definition being walked */
	struct cursors calls, makers;
	size_t callee_at;  /* where the last call's callee starts */
	CXCursor other;
};

/* A name of an overload set (a call in a template that its instantiation resolves) that may
 * be the function. */
static enum CXChildVisitResult scan_overloads(CXCursor c, void *data)
{
	struct callers *cl = data;
	unsigned n = clang_getNumOverloadedDecls(c);
	for (unsigned i = 0; i < n; i++)
		if (clang_equalCursors(clang_getCanonicalCursor(clang_getOverloadedDecl(c, i)), cl->target)) {
			cl->callee_at = 1; /* (found) */
			return CXChildVisit_Break;
		}
	return CXChildVisit_Continue;
}

static bool calls_target(struct callers *cl, CXCursor call)
{
	if (clang_equalCursors(canonical_function(call), cl->target))
		return true;
	if (!clang_Cursor_isNull(clang_getCursorReferenced(call)))
		return false;
	size_t keep = cl->callee_at;
	cl->callee_at = 0;
	CXCursor callee = cursor_first_child(call);
	if (!clang_Cursor_isNull(callee))
		cursor_visit_kind_from(callee, CXCursor_OverloadedDeclRef, scan_overloads, cl);
	bool found = cl->callee_at == 1;
	cl->callee_at = keep;
	return found;
}

static enum CXChildVisitResult scan_callers(CXCursor c, void *data)
{
	struct callers *cl = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr && calls_target(cl, c)) {
		*VEC_PUSH(cl->calls.v, cl->calls.n, cl->calls.cap) = c;
		*VEC_PUSH(cl->makers.v, cl->makers.n, cl->makers.cap) = cl->in;
		cl->callee_at = cursor_span(cursor_first_child(c)).begin;
	} else if ((k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef) &&
		   clang_equalCursors(canonical_function(c), cl->target) && cursor_span(c).begin != cl->callee_at &&
		   clang_Cursor_isNull(cl->other))
		cl->other = c;
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult scan_definitions(CXCursor c, void *data)
{
	struct callers *cl = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	/* (the file's own code and its headers', not the toolkit's or the system's) */
	if (!cursor_in_main_file(c) && effects_in_system_header(c))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
	    k == CXCursor_ClassTemplate)
		return CXChildVisit_Recurse;
	if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
	     k == CXCursor_Constructor) && clang_isCursorDefinition(c)) {
		cl->in = c;
		cursor_visit(c, scan_callers, cl);
	} else if (k == CXCursor_VarDecl)
		cursor_visit(c, scan_callers, cl); /* (a function's address in a global) */
	return CXChildVisit_Continue;
}

static struct callers find_callers(CXCursor function)
{
	struct callers cl = {.target = clang_getCanonicalCursor(function), .other = clang_getNullCursor()};
	CXCursor tu = clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(function));
	cursor_visit(tu, scan_definitions, &cl);
	return cl;
}

static void callers_free(struct callers *cl)
{
	free(cl->calls.v);
	free(cl->makers.v);
}

/* Whether the name at offset in the main file is one pipefy reads: a declaration, a use
 * (find_callers sorts the function's into calls and others), another entity of the same name.
 * Not an explicit instantiation (`template __global__ void k<float, 16>(...);`), for which
 * libclang has no cursor, nor text it parsed as nothing. */
static bool name_read(CXCursor function, size_t offset)
{
	CXCursor c = cursor_at_offset(function, offset);
	enum CXCursorKind k = clang_getCursorKind(c);
	return !clang_isInvalid(k) && k != CXCursor_TranslationUnit && k != CXCursor_UnexposedDecl;
}

CXCursor *uniform_instantiations(CXCursor function, const struct source *src, int *n, size_t *unknown_at)
{
	struct callers cl = find_callers(function);
	CXCursor *specs = NULL;
	int cap = 0;
	bool known = clang_Cursor_isNull(cl.other);
	*n = 0;
	*unknown_at = known ? 0 : cursor_span(cl.other).begin;
	for (int i = 0; i < cl.calls.n && known; i++) {
		CXCursor spec = clang_getCanonicalCursor(clang_getCursorReferenced(cl.calls.v[i]));
		known = !clang_Cursor_isNull(spec) && clang_Cursor_getNumTemplateArguments(spec) >= 0;
		bool again = false; /* (one instantiation launched twice) */
		for (int j = 0; j < *n && known; j++)
			again |= clang_equalCursors(specs[j], spec);
		if (known && !again)
			*VEC_PUSH(specs, *n, cap) = spec;
		else if (!known)
			*unknown_at = cursor_span(cl.calls.v[i]).begin;
	}
	callers_free(&cl);
	/* every mention of the name in the file is one of those */
	char *name = cursor_name(function);
	size_t at[256];
	int mentions = source_identifiers(src, (struct span){0, src->len}, name, at, 256);
	free(name);
	if (mentions > 256 && known) {
		known = false;
		*unknown_at = at[255];
	}
	for (int i = 0; i < mentions && i < 256 && known; i++)
		if (!name_read(function, at[i])) {
			known = false;
			*unknown_at = at[i];
		}
	if (known)
		return specs ? specs : xcalloc(1, sizeof *specs);
	free(specs);
	*n = 0;
	return NULL;
}

/* ---- a kernel template's type, deduced in a host function template's launch ---- */

/* The host function template defined in the main file whose text holds offset, and the launch
 * there whose callee's name starts at offset. */
struct host_find {
	size_t offset;
	CXCursor host, launch;
};

static enum CXChildVisitResult find_host(CXCursor c, void *data)
{
	struct host_find *h = data;
	if (!cursor_in_main_file(c))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (k == CXCursor_FunctionTemplate && clang_isCursorDefinition(c)) {
		h->host = c;
		h->launch = cursor_call_at(c, h->offset, true, NULL);
	}
	return CXChildVisit_Break;
}

/* The types a kernel template's type parameter `index` takes where every mention of the kernel
 * but its declarations is a launch in a host function template that deduces it from one of its
 * own parameters (`template <typename T> void run(T *a, ..) { k<<<g, b>>>(a, ..); }`, the
 * kernel's parameter `T *`, a's `U *` with U the host's), and every mention of each such host
 * template is a call in the file that binds U (`run(a, b, c, n)`, a `double *`): those types,
 * *n of them; NULL, with *at where reading stopped, otherwise. */
CXType *uniform_deduced_types(CXCursor kernel, int index, const struct source *src, int *n, size_t *at)
{
	*n = 0;
	int j = -1; /* the kernel's parameter typed `T *` */
	for (int p = 0; j < 0; p++) { /* (a template's parameters: cursor_nth_param) */
		CXCursor parm = cursor_nth_param(kernel, p);
		if (clang_Cursor_isNull(parm))
			break;
		CXType t = clang_getCanonicalType(clang_getCursorType(parm));
		if (t.kind == CXType_Pointer && cursor_type_param_index(clang_getPointeeType(t)) == index)
			j = p;
	}
	if (j < 0)
		return NULL;
	char *name = cursor_name(kernel);
	size_t offs[64], name_len = strlen(name);
	int m = source_identifiers(src, (struct span){0, src->len}, name, offs, 64);
	free(name);
	CXType *types = NULL;
	int cap = 0;
	bool ok = m > 0 && m <= 64;
	CXCursor tu = clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(kernel));
	for (int i = 0; i < m && ok; i++) {
		*at = offs[i];
		if (offs[i] == cursor_offset(kernel))
			continue; /* (the kernel's own name, where it is defined) */
		struct host_find h = {.offset = offs[i], .host = clang_getNullCursor(), .launch = clang_getNullCursor()};
		cursor_visit_around(tu, (struct span){offs[i], offs[i] + 1}, find_host, &h);
		/* a launch deducing the kernel's arguments (no `<..>` after the name), argument j the
		 * host's parameter of type `U *` */
		ok = !clang_Cursor_isNull(h.launch) && clang_Cursor_getNumArguments(h.launch) > j;
		CXCursor arg = ok ? cursor_strip(clang_Cursor_getArgument(h.launch, (unsigned)j)) : clang_getNullCursor();
		CXCursor parm = ok && clang_getCursorKind(arg) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(arg)
										       : clang_getNullCursor();
		CXType pt = clang_getCanonicalType(clang_getCursorType(parm));
		int u = clang_getCursorKind(parm) == CXCursor_ParmDecl && pt.kind == CXType_Pointer
				? cursor_type_param_index(clang_getPointeeType(pt))
				: -1;
		size_t after = offs[i] + name_len;
		while (after < src->len && (src->text[after] == ' ' || src->text[after] == '\t'))
			after++;
		ok = u >= 0 && after + 3 <= src->len && strncmp(src->text + after, "<<<", 3) == 0;
		int ns = 0;
		size_t unknown = 0;
		CXCursor *specs = ok ? uniform_instantiations(h.host, src, &ns, &unknown) : NULL;
		ok = specs && ns > 0;
		for (int s2 = 0; s2 < ns && ok; s2++) {
			ok = clang_Cursor_getTemplateArgumentKind(specs[s2], (unsigned)u) == CXTemplateArgumentKind_Type;
			if (ok)
				*VEC_PUSH(types, *n, cap) = clang_Cursor_getTemplateArgumentType(specs[s2], (unsigned)u);
		}
		if (!ok && specs == NULL && unknown)
			*at = unknown;
		else if (!ok && specs) {
			/* (no call of the host template binds it: the first other mention of its name) */
			char *host = cursor_name(h.host);
			size_t hat[8];
			int nh = source_identifiers(src, (struct span){0, src->len}, host, hat, 8);
			for (int k = nh < 8 ? nh : 8; k-- > 0;)
				if (hat[k] != cursor_offset(h.host))
					*at = hat[k];
			free(host);
		}
		free(specs);
	}
	if (ok && *n > 0)
		return types;
	free(types);
	*n = 0;
	return NULL;
}

/* Where param stands among function's parameters; -1 when it is not one. */
static int param_index(CXCursor function, CXCursor param)
{
	struct cursors kids = cursor_children(function);
	int index = -1;
	for (int i = 0, n = 0; i < kids.n && index < 0; i++) {
		if (clang_getCursorKind(kids.v[i]) != CXCursor_ParmDecl)
			continue;
		if (clang_equalCursors(kids.v[i], param))
			index = n;
		n++;
	}
	free(kids.v);
	return index;
}

/* A parameter of a __device__ function: uniform where every call in the file passes a uniform
 * value, each call reached under uniform control, and no other file or pointer may call it. */
static bool uni_param(struct uni *u, CXCursor param)
{
	if (u->depth >= 3 || u->other_files)
		return false;
	int index = param_index(u->function, param);
	struct callers cl = find_callers(u->function);
	bool ok = index >= 0 && clang_Cursor_isNull(cl.other);
	for (int i = 0; ok && i < cl.calls.n; i++) {
		CXCursor call = cl.calls.v[i], cond;
		struct uni in = {.src = u->src, .function = cl.makers.v[i], .depth = u->depth + 1,
				 .other_files = u->other_files};
		ok = index < clang_Cursor_getNumArguments(call) &&
		     uni_expr(&in, clang_Cursor_getArgument(call, (unsigned)index)) && uni_control(&in, call, &cond);
		free(in.known);
	}
	callers_free(&cl);
	return ok;
}

static bool thread_index_var(CXCursor d);

static bool uni_var(struct uni *u, CXCursor d)
{
	enum CXCursorKind k = clang_getCursorKind(d);
	if (k == CXCursor_EnumConstantDecl || k == CXCursor_NonTypeTemplateParameter)
		return true;
	if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
		return false;
	if (cursor_is_shared_decl(d) || thread_index_var(d))
		return false;
	CXCursor parent = clang_getCursorSemanticParent(d);
	bool local = clang_equalCursors(parent, u->function) || cursor_declared_within(d, cursor_span(u->function));
	if (!local) {
		/* a global: read-only (const, constexpr, __constant__) or nothing is known */
		CXType t = clang_getCursorType(d);
		return clang_isConstQualifiedType(t) || cursor_has_attr(d, CXCursor_CUDAConstantAttr);
	}
	if (visiting(u, d))
		return true; /* (a loop's counter: uniform if every step keeps it so) */
	for (int i = 0; i < u->nknown; i++)
		if (clang_equalCursors(u->known[i].var, d))
			return u->known[i].uniform;
	if (u->nvisiting >= UNIFORM_DEPTH)
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_ConstantArray)
		return false;
	if (cursor_escapes(u->function, d))
		return false;
	if (k == CXCursor_ParmDecl && !is_kernel(u->function) && !uni_param(u, d))
		return false;
	u->visiting[u->nvisiting++] = d;
	bool ok = true;
	if (k == CXCursor_VarDecl) {
		CXCursor init = cursor_last_child(d);
		if (!clang_Cursor_isNull(init) && clang_isExpression(clang_getCursorKind(init)))
			ok = uni_expr(u, init);
		CXCursor cond;
		ok = ok && uni_control(u, d, &cond);
	}
	if (ok) {
		struct proof w = {u, d, true};
		cursor_visit_writes(u->function, scan_writes, &w);
		ok = w.ok;
	}
	u->nvisiting--;
	/* (false holds whatever was assumed on the way; true only when nothing was) */
	if (!ok || u->nvisiting == 0)
		*VEC_PUSH(u->known, u->nknown, u->capknown) = (struct known){d, ok};
	return ok;
}

/* d is a parameter or a local of fn, by what the parse says declares it (fn may be a header's,
 * whose offsets say nothing about the main file's spans). */
static bool declared_in(CXCursor d, CXCursor fn)
{
	for (CXCursor x = clang_getCursorSemanticParent(d);
	     !clang_Cursor_isNull(x) && clang_getCursorKind(x) != CXCursor_TranslationUnit; x = clang_getCursorSemanticParent(x))
		if (clang_equalCursors(x, fn))
			return true;
	return false;
}

/* `threadIdx` by any spelling (`(threadIdx).x`, `::threadIdx.x`, a macro's): the toolkit's
 * variable itself, which the text of `threadIdx.x` alone does not always show. */
static bool thread_index_var(CXCursor d)
{
	if (clang_getCursorKind(d) != CXCursor_VarDecl || !effects_in_system_header(d))
		return false;
	char *n = cursor_name(d);
	bool r = strcmp(n, "threadIdx") == 0;
	free(n);
	return r;
}

/* `c->x`: a member read through a pointer, which is memory. */
static bool member_through_pointer(CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_MemberRefExpr)
		return false;
	CXCursor base = cursor_first_child(c);
	return !clang_Cursor_isNull(base) && clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer;
}

/* A library function whose value is the same in every thread given the same arguments: the
 * math and conversion functions of the toolkit's and the C++ library's math headers (the
 * others, cooperative groups' thread_rank or laneid, may read the thread's own state). */
static bool library_alike(CXCursor callee)
{
	CXFile f;
	clang_getSpellingLocation(clang_getCursorLocation(callee), &f, NULL, NULL, NULL);
	CXString name = clang_getFileName(f);
	const char *path = clang_getCString(name), *base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path ? path : "";
	bool r = strstr(base, "math") || strstr(base, "stl_algobase") || strstr(base, "cuda_fp16") ||
		 strstr(base, "cuda_bf16") || strstr(base, "device_functions");
	clang_disposeString(name);
	return r;
}

/* A function of the program (proof.of) that computes from its arguments alone: no memory, no
 * thread index, no asm, no call but to such functions and pure library ones. */

static enum CXChildVisitResult scan_pure(CXCursor c, void *data)
{
	struct proof *p = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	char comp;
	if (k == CXCursor_AsmStmt || k == CXCursor_ArraySubscriptExpr || k == CXCursor_LambdaExpr ||
	    (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) ||
	    (k == CXCursor_MemberRefExpr && cursor_builtin(p->u->src, c, &comp) == 0) || member_through_pointer(c))
		p->ok = false;
	else if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (thread_index_var(d))
			p->ok = false;
		else if (cursor_is_variable(d) && !declared_in(d, p->of)) {
			CXType t = clang_getCursorType(d);
			if (!clang_isConstQualifiedType(t) && !cursor_has_attr(d, CXCursor_CUDAConstantAttr))
				p->ok = false;
		} else if (cursor_is_variable(d) && cursor_is_shared_decl(d))
			p->ok = false;
	} else if (k == CXCursor_CallExpr) {
		CXCursor callee = clang_getCursorReferenced(c);
		if (clang_Cursor_isNull(callee) || !(effects_pure_call(c) || clang_getCursorKind(callee) == CXCursor_FunctionDecl))
			p->ok = false;
		else if (effects_pure_call(c) && library_alike(callee))
			p->ok = true;
		else {
			CXCursor def = clang_getCursorDefinition(callee);
			if (clang_Cursor_isNull(def) || clang_getCursorKind(callee) != CXCursor_FunctionDecl || p->u->depth >= 3 ||
			    (!effects_pure_call(c) && effects_in_system_header(callee)))
				p->ok = false;
			else {
				p->u->depth++;
				struct proof inner = {p->u, def, true};
				cursor_visit(def, scan_pure, &inner);
				p->u->depth--;
				p->ok = inner.ok;
			}
		}
	}
	return p->ok ? CXChildVisit_Recurse : CXChildVisit_Break;
}

static bool pure_call(struct uni *u, CXCursor c);

static bool uni_call(struct uni *u, CXCursor c)
{
	CXCursor callee = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(callee))
		return false;
	int n = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < n; i++)
		if (!uni_expr(u, clang_Cursor_getArgument(c, (unsigned)i)))
			return false;
	return pure_call(u, c);
}

/* A call whose value is its arguments' alone: a pure library function, or one of the program's
 * whose body scan_pure proves reads nothing else. */
static bool pure_call(struct uni *u, CXCursor c)
{
	CXCursor callee = clang_getCursorReferenced(c);
	bool pure = effects_pure_call(c);
	if (pure && library_alike(callee))
		return true;
	/* (a system header's that effects.c finds pure, but not a math function's: a header's
	 * found where include discovery makes it a system one, or the toolkit's: its body is read;
	 * one it does not, `clock64`, is not) */
	if (clang_getCursorKind(callee) != CXCursor_FunctionDecl || (!pure && effects_in_system_header(callee)))
		return false;
	CXCursor def = clang_getCursorDefinition(callee);
	if (clang_Cursor_isNull(def) || u->depth >= 3)
		return false;
	u->depth++;
	struct proof p = {u, def, true};
	cursor_visit(def, scan_pure, &p);
	u->depth--;
	return p.ok;
}

bool uniform_pure_call(CXCursor call, const struct source *src)
{
	struct uni u = {.src = src, .function = clang_getNullCursor(), .other_files = true};
	bool r = !clang_Cursor_isNull(clang_getCursorReferenced(call)) && pure_call(&u, call);
	free(u.known);
	return r;
}

/* A pointer to const: a load through it at a uniform address reads one value for every thread
 * (the program declares that the kernel does not write there). */
static bool const_pointee(CXCursor e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(e));
	return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

static bool uni_children(struct uni *u, CXCursor e)
{
	struct cursors kids = cursor_children(e);
	bool ok = true;
	for (int i = 0; i < kids.n && ok; i++) {
		enum CXCursorKind k = clang_getCursorKind(kids.v[i]);
		if (clang_isReference(k) || clang_isDeclaration(k))
			continue; /* (a cast's type, a namespace's name) */
		ok = uni_expr(u, kids.v[i]);
	}
	free(kids.v);
	return ok;
}

static bool uni_expr(struct uni *u, CXCursor e)
{
	if (clang_Cursor_isNull(e))
		return false;
	enum CXCursorKind k = clang_getCursorKind(e);
	char comp;
	int builtin = k == CXCursor_MemberRefExpr || k == CXCursor_UnexposedExpr || k == CXCursor_CallExpr
			      ? cursor_builtin(u->src, e, &comp) : -1;
	if (builtin >= 0)
		return builtin != 0; /* blockIdx, blockDim, gridDim; never threadIdx */
	switch (k) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
	case CXCursor_CXXNullPtrLiteralExpr:
	case CXCursor_UnaryExpr: /* sizeof, alignof */
		return true;
	case CXCursor_ParenExpr:
	case CXCursor_CStyleCastExpr:
	case CXCursor_CXXStaticCastExpr:
	case CXCursor_CXXFunctionalCastExpr:
	case CXCursor_CXXConstCastExpr:
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
	case CXCursor_ConditionalOperator:
	case CXCursor_InitListExpr:
		return uni_children(u, e);
	case CXCursor_UnaryOperator: {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op == CXUnaryOperator_AddrOf || (op == CXUnaryOperator_Deref && !const_pointee(cursor_first_child(e))))
			return false;
		return uni_children(u, e);
	}
	case CXCursor_DeclRefExpr:
		return uni_var(u, clang_getCursorReferenced(e));
	case CXCursor_ArraySubscriptExpr:
		return const_pointee(cursor_first_child(e)) && uni_children(u, e);
	case CXCursor_MemberRefExpr: {
		CXCursor base = cursor_first_child(e);
		if (clang_Cursor_isNull(base))
			return false;
		if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer && !const_pointee(base))
			return false;
		CXCursor member = clang_getCursorReferenced(e);
		if (clang_getCursorKind(member) != CXCursor_FieldDecl)
			return false; /* (a member function's call) */
		/* a member of a uniform struct value: the struct's variable is followed whole */
		return uni_expr(u, base);
	}
	case CXCursor_CallExpr:
		return uni_call(u, e);
	case CXCursor_UnexposedExpr: {
		/* implicit conversions; a constant clang folds */
		bool ok;
		cursor_evaluate_int(e, &ok);
		if (ok)
			return true;
		struct cursors kids = cursor_children(e);
		bool r = kids.n == 1 && uni_expr(u, kids.v[0]);
		free(kids.v);
		return r;
	}
	default:
		return false;
	}
}

/* An asm statement that may end the thread or jump (PTX's exit, ret, trap, brkpt, bra). */
static bool asm_may_jump(CXCursor c)
{
	static const char *const words[] = {"exit", "ret", "trap", "brkpt", "bra", NULL};
	if (clang_getCursorKind(c) != CXCursor_AsmStmt)
		return false;
	for (const char *const *w = words; *w; w++)
		if (effects_asm_mentions(c, *w))
			return true;
	return false;
}

/* The jumps that leave or restart loop, or end the thread (return, goto; break and continue
 * not inside an inner loop or switch), each under uniform control. */
struct jump_scan {
	struct uni *u;
	int loops, switches; /* inner ones (a continue in a switch is the loop's) */
	size_t before; /* only returns and gotos before this offset, at any depth (0: every jump) */
	CXCursor bad;
	bool returns_end; /* a return ends the thread (the kernel's own, before the loop): no jump */
};

static enum CXChildVisitResult scan_jumps(CXCursor c, void *data)
{
	struct jump_scan *j = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (is_loop(k) || k == CXCursor_SwitchStmt) {
		int *nest = is_loop(k) ? &j->loops : &j->switches;
		++*nest;
		cursor_visit_code(c, scan_jumps, j);
		--*nest;
		return clang_Cursor_isNull(j->bad) ? CXChildVisit_Continue : CXChildVisit_Break;
	}
	bool go = k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt || asm_may_jump(c);
	bool exit = k == CXCursor_ReturnStmt || go;
	bool jump = exit || (k == CXCursor_BreakStmt && j->loops == 0 && j->switches == 0) ||
		    (k == CXCursor_ContinueStmt && j->loops == 0);
	if (j->before) /* (a goto anywhere may jump back to before the loop and run it again) */
		jump = go || (exit && cursor_span(c).begin < j->before && !(j->returns_end && k == CXCursor_ReturnStmt));
	if (jump) {
		CXCursor cond;
		if (!uni_control(j->u, c, &cond))
			j->bad = c;
	}
	return clang_Cursor_isNull(j->bad) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* The ')' that closes an if's or a switch's header (`if constexpr (...)` too), by the text; 0
 * when the text there is not such a header (a macro's expansion). */
static size_t header_end(const struct source *src, CXCursor stmt)
{
	size_t p = cursor_span(stmt).begin;
	const char *t = src->text;
	if (p + 2 <= src->len && strncmp(t + p, "if", 2) == 0)
		p += 2;
	else if (p + 6 <= src->len && strncmp(t + p, "switch", 6) == 0)
		p += 6;
	else
		return 0;
	while (p < src->len && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
		p++;
	if (p + 9 <= src->len && strncmp(t + p, "constexpr", 9) == 0)
		p += 9;
	while (p < src->len && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
		p++;
	if (p >= src->len || t[p] != '(')
		return 0;
	for (int depth = 0; p < src->len; p++) {
		if (t[p] == '(')
			depth++;
		else if (t[p] == ')' && --depth == 0)
			return p;
		else if (t[p] == '"' || t[p] == '\'' || t[p] == '{')
			return 0; /* (a literal or a lambda: not read here) */
	}
	return 0;
}

/* The condition an ancestor puts on reaching child: its first child for if, while, switch and
 * ?: (when child is not that condition), a for's test; && and || their left operand. */
static CXCursor condition_of(const struct source *src, CXCursor anc, CXCursor child)
{
	enum CXCursorKind k = clang_getCursorKind(anc);
	struct cursors kids = cursor_children(anc);
	CXCursor cond = clang_getNullCursor();
	if (k == CXCursor_IfStmt || k == CXCursor_SwitchStmt) {
		/* the last part of its header: `if (init; cond)` and `if (T x = v)` too (the init runs
		 * in every thread that gets there; what it writes, the condition's reading follows) */
		size_t close = header_end(src, anc);
		for (int i = 0; i < kids.n; i++)
			if (cursor_span(kids.v[i]).end <= close)
				cond = kids.v[i];
		if (close == 0) /* (a header pipefy cannot find in the text: the statement itself) */
			cond = anc;
		if (!clang_Cursor_isNull(cond) && same_node(cond, child))
			cond = clang_getNullCursor();
	} else if (k == CXCursor_WhileStmt || k == CXCursor_ConditionalOperator) {
		if (kids.n > 0 && !same_node(kids.v[0], child))
			cond = kids.v[0];
	} else if (k == CXCursor_DoStmt) {
		if (kids.n > 1 && !same_node(kids.v[kids.n - 1], child))
			cond = kids.v[kids.n - 1];
	} else if (k == CXCursor_BinaryOperator && kids.n == 2) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(anc);
		if ((op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) && !same_node(kids.v[0], child))
			cond = kids.v[0];
	}
	free(kids.v);
	return cond;
}

/* A for statement's test: the child whose extent lies between the two semicolons of its
 * header. libclang shows a for's parts without saying which is which when some are empty, so
 * the test is read as every child but the body and the init: all must be uniform. */
static bool uni_for_header(struct uni *u, CXCursor loop, CXCursor child, CXCursor *cond)
{
	struct cursors kids = cursor_children(loop);
	bool ok = true;
	for (int i = 0; i + 1 < kids.n && ok; i++) { /* (the last child is the body) */
		if (same_node(kids.v[i], child))
			continue;
		enum CXCursorKind k = clang_getCursorKind(kids.v[i]);
		if (k == CXCursor_DeclStmt || (clang_isStatement(k) && !clang_isExpression(k)))
			continue; /* the init runs once in every thread; its values are the variables' */
		if (!uni_expr(u, kids.v[i])) {
			ok = false;
			*cond = kids.v[i];
		}
	}
	free(kids.v);
	return ok;
}

static bool uni_control(struct uni *u, CXCursor target, CXCursor *cond)
{
	*cond = clang_getNullCursor();
	CXCursor body = cursor_last_child(u->function);
	struct cursors path = {0};
	bool ok = path_to(body, target, &path);

	for (int i = 0; ok && i + 1 < path.n; i++) {
		CXCursor anc = path.v[i], child = path.v[i + 1];
		enum CXCursorKind k = clang_getCursorKind(anc);
		if (k == CXCursor_LambdaExpr) {
			ok = false; /* (it runs where it is called) */
			*cond = anc;
			break;
		}
		CXCursor c = condition_of(u->src, anc, child);
		if (!clang_Cursor_isNull(c) && !uni_expr(u, c)) {
			ok = false;
			*cond = c;
		}
		if (ok && k == CXCursor_CXXForRangeStmt) {
			ok = false; /* (its test is an iterator's) */
			*cond = anc;
		}
		if (ok && is_loop(k)) {
			/* a loop on the way: every way out of it under uniform control, read assuming
			 * every thread is still in it together (a way out's control met again while
			 * reading it, through the loop's own counter, say: by induction, all threads
			 * enter alike and each way out is taken alike, iteration by iteration) */
			bool assumed = false;
			for (int a = 0; a < u->nassumed; a++)
				assumed |= same_node(u->assumed[a], anc);
			struct jump_scan j = {u, 0, 0, 0, clang_getNullCursor(), false};
			if (!assumed && u->nassumed == 16)
				j.bad = anc; /* (too deep to read) */
			else if (!assumed) {
				u->assumed[u->nassumed++] = anc;
				cursor_visit_code(cursor_last_child(anc), scan_jumps, &j);
				u->nassumed--;
			}
			if (!clang_Cursor_isNull(j.bad)) {
				ok = false;
				*cond = j.bad;
			}
		}
		/* (its test after its ways out: a jump is what makes its counter differ) */
		if (ok && k == CXCursor_ForStmt)
			ok = uni_for_header(u, anc, child, cond);
	}
	free(path.v);
	return ok;
}

/* An expression's text on one line, its blanks squeezed to one space. */
static char *one_line(const struct source *src, struct span s)
{
	char *t = span_text(src, s), *w = t;
	bool blank = false;
	for (const char *r = t; *r; r++) {
		bool b = *r == ' ' || *r == '\t' || *r == '\n' || *r == '\r';
		if (b && !blank && w != t)
			*w++ = ' ';
		else if (!b)
			*w++ = *r;
		blank = b;
	}
	while (w > t && w[-1] == ' ')
		w--;
	*w = 0;
	return t;
}

bool uniform_value(CXCursor function, CXCursor expr, const struct source *src)
{
	/* (a __device__ function's parameters: as if other files called it, uniform only where
	 * its callers are all read: participation's question, not this one's) */
	struct uni u = {.src = src, .function = function, .other_files = true};
	bool r = uni_expr(&u, expr);
	free(u.known);
	return r;
}

static char *participation(struct uni *u, CXCursor loop, size_t *at)
{
	const struct source *src = u->src;
	int cl, cc;
	CXCursor cond;
	bool ok = uni_control(u, loop, &cond);
	if (ok && clang_getCursorKind(loop) == CXCursor_ForStmt)
		ok = uni_for_header(u, loop, clang_getNullCursor(), &cond);
	if (!ok) {
		CXCursor where = clang_Cursor_isNull(cond) ? loop : cond;
		source_line_col(src, cursor_span(where).begin, &cl, &cc);
		*at = cursor_span(where).begin;
		enum CXCursorKind k = clang_getCursorKind(where);
		if (same_node(where, loop) || is_loop(k) || k == CXCursor_LambdaExpr)
			return xprintf("pipefy cannot tell whether every thread of a block reaches the loop (the %s at %d:%d)",
				       k == CXCursor_LambdaExpr ? "lambda" : "loop", cl, cc);
		if (k == CXCursor_AsmStmt)
			return xprintf("the asm statement at %d:%d, in a loop around this one, may jump or end threads in "
				       "some threads of a block and not in others", cl, cc);
		if (k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt ||
		    k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt)
			return xprintf("the '%s' at %d:%d, in a loop around this one, may be taken by some threads of a "
				       "block and not by others", k == CXCursor_ReturnStmt ? "return" : k == CXCursor_BreakStmt
				       ? "break" : k == CXCursor_ContinueStmt ? "continue" : "goto", cl, cc);
		char *text = one_line(src, cursor_span(where));
		bool header = span_within(cursor_span(where), cursor_span(loop));
		char *why = header ? xprintf("the loop's header reads `%s` (%d:%d), which pipefy cannot show is the "
					     "same in every thread: threads of a block could run different tiles through one barrier", text, cl, cc)
				   : xprintf("the loop is reached only by the threads for which `%s` (%d:%d) holds, and "
					     "pipefy cannot show that is the same in every thread", text, cl, cc);
		free(text);
		return why;
	}
	/* a return (or goto) before the loop under a condition that depends on the thread; a
	 * kernel's own return ends the thread, and __syncthreads() waits only for threads that have
	 * not ended (PTX's bar.sync: "non-exited threads"; __syncwarp() too, which register staging
	 * issues: "all non-exited threads named in mask", the programming guide), so the loop's
	 * barriers are every remaining thread's (the tensor copies' mbarriers count threads:
	 * check.c's exit_refusal) */
	struct jump_scan j = {u, 0, 0, cursor_span(loop).begin, clang_getNullCursor(), is_kernel(u->function)};
	cursor_visit_code(cursor_last_child(u->function), scan_jumps, &j);
	if (clang_Cursor_isNull(j.bad))
		return NULL;
	source_line_col(src, cursor_span(j.bad).begin, &cl, &cc);
	*at = cursor_span(j.bad).begin;
	enum CXCursorKind k = clang_getCursorKind(j.bad);
	if (k == CXCursor_ReturnStmt)
		return xprintf("the 'return' at %d:%d may end some threads of a block before the loop and not others", cl,
			       cc);
	return xprintf("the %s at %d:%d may jump in some threads of a block and not in others: they could skip the loop "
		       "or run it again", k == CXCursor_AsmStmt ? "asm statement" : "'goto'", cl, cc);
}

static char *callers_participation(struct uni *u, size_t *at);

char *uniform_participation(CXCursor function, CXCursor loop, const struct source *src, bool other_files, size_t *at)
{
	struct uni u = {.src = src, .function = function, .other_files = other_files};
	/* (who calls a __device__ function first: its parameters' values are read there too) */
	char *why = is_kernel(function) ? NULL : callers_participation(&u, at);
	if (!why)
		why = participation(&u, loop, at);
	free(u.known);
	return why;
}

/* A __device__ function is reached by every thread of a block where each of its calls is (in
 * the file, which holds them all). */
static char *callers_participation(struct uni *u, size_t *at)
{
	CXCursor f = u->function;
	int line, col;
	char *name = cursor_name(f);
	char *why = NULL;
	struct callers cl = find_callers(f);
	if (u->other_files) {
		*at = cursor_offset(f);
		source_line_col(u->src, *at, &line, &col);
		why = xprintf("'%s' (%d:%d) may be called from other files (a header's functions are every including "
			      "file's; -rdc links files' device code), where pipefy cannot see which threads call it", name,
			      line, col);
	} else if (!clang_Cursor_isNull(cl.other)) {
		*at = cursor_offset(cl.other);
		source_line_col(u->src, *at, &line, &col);
		why = xprintf("'%s' is named at %d:%d other than in a call: pipefy cannot see which threads call it",
			      name, line, col);
	} else if (cl.calls.n == 0) {
		*at = cursor_offset(f);
		source_line_col(u->src, *at, &line, &col);
		why = xprintf("pipefy finds no call of '%s' (%d:%d) in this file that it can read, to see which threads "
			      "call it", name, line, col);
	} else if (u->depth >= 3) {
		*at = cursor_offset(f);
		source_line_col(u->src, *at, &line, &col);
		why = xprintf("'%s' (%d:%d) is called through too many functions for pipefy to see which threads call it",
			      name, line, col);
	}
	for (int i = 0; !why && i < cl.calls.n; i++) {
		struct uni in = {.src = u->src, .function = cl.makers.v[i], .depth = u->depth + 1,
				 .other_files = u->other_files};
		why = is_kernel(in.function) ? NULL : callers_participation(&in, at);
		if (!why)
			why = participation(&in, cl.calls.v[i], at);
		free(in.known);
	}
	callers_free(&cl);
	free(name);
	return why;
}
