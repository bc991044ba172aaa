/* pure.c: calls of the program's own functions whose value depends on their arguments alone
 * (`to_float(in[k])`, a template with an explicit specialization for each element type): a
 * value to compute a tile early, as a library's conversion is (facts for body.c and check.c).
 *
 * A resolved call of a plain function runs that function. But what a template's call runs, or a
 * call the instantiation resolves, may be decided only there, among overloads, explicit
 * specializations and what argument-dependent lookup finds then, in the file or in its headers:
 * for those the fact is established for the name, every function of the translation unit
 * spelled so, wherever it is declared, pure. (uniform.c proves a stronger fact of a function,
 * that its value is the same in every thread: no thread index, the library's math alone.) */
#include "pipefy.h"

#include <stdlib.h>

#define MAX_DEPTH 3 /* pure functions calling pure functions: deeper is not read */

/* The functions spelled `name` (declarations and definitions, templates and their explicit
 * specializations: pure_namesakes), and whether the program (outside the system headers)
 * declares an operator or a conversion function of its own. */
struct namesakes {
	char *name;
	struct cursors fns;
	bool user_operators;
	bool complete; /* false: the headers' declarations could not be read */
};

/* One function-like declaration of the translation unit, by its name. */
struct named {
	char *name;
	CXCursor decl;
};

/* The headers' declarations (the precompiled preamble's, which walks of the file do not visit),
 * read once a run where a call first needs them; the verdicts by name. */
static struct {
	char *pch;
	CXIndex index;
	CXTranslationUnit tu;
	struct verdict {
		char *name;
		char *why; /* NULL: pure */
	} *memo;
	int nmemo, capmemo;
	bool indexed;
	struct named *index_v; /* every function of the file and its headers, sorted by name */
	int nindex, capindex;
	bool user_operators, complete;
	struct namesakes **found; /* the lists asked for, by name (each allocated alone: recursion
				   * keeps pointers to them while adding more) */
	int nfound, capfound;
} headers;

void pure_headers(const char *pch)
{
	if (headers.tu)
		clang_disposeTranslationUnit(headers.tu);
	if (headers.index)
		clang_disposeIndex(headers.index);
	for (int i = 0; i < headers.nmemo; i++) {
		free(headers.memo[i].name);
		free(headers.memo[i].why);
	}
	free(headers.memo);
	for (int i = 0; i < headers.nfound; i++) {
		free(headers.found[i]->name);
		free(headers.found[i]->fns.v);
		free(headers.found[i]);
	}
	free(headers.found);
	for (int i = 0; i < headers.nindex; i++)
		free(headers.index_v[i].name);
	free(headers.index_v);
	free(headers.pch);
	memset(&headers, 0, sizeof headers);
	headers.pch = pch ? xstrdup(pch) : NULL;
}

static enum CXChildVisitResult scan_functions(CXCursor c, void *data)
{
	(void)data;
	enum CXCursorKind k = clang_getCursorKind(c);
	bool function = k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
			k == CXCursor_ConversionFunction;
	if (function) {
		struct named *n = VEC_PUSH(headers.index_v, headers.nindex, headers.capindex);
		n->name = cursor_name(c);
		n->decl = c;
		if ((k == CXCursor_ConversionFunction || strncmp(n->name, "operator", 8) == 0) && !effects_in_system_header(c))
			headers.user_operators = true;
		return CXChildVisit_Continue;
	}
	/* the program's namespaces and classes (their operators, and the hidden friends argument-
	 * dependent lookup finds); the system headers' global functions, but not what their
	 * namespaces and classes hold, which only a qualified call, a using-directive or lookup on a
	 * library type reaches (walking them took a second on a file that includes <iostream>) */
	bool scope = k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
		     k == CXCursor_FriendDecl || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
		     k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization ||
		     k == CXCursor_UnionDecl;
	return scope && !effects_in_system_header(c) ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

/* The index, made once a run: the file's declarations, and its headers' where the parse read
 * them from a precompiled preamble. */
static void index_functions(CXTranslationUnit tu)
{
	headers.indexed = true;
	headers.complete = true;
	cursor_visit(clang_getTranslationUnitCursor(tu), scan_functions, NULL);
	if (headers.pch) {
		headers.index = clang_createIndex(0, 0);
		headers.tu = clang_createTranslationUnit(headers.index, headers.pch);
		if (headers.tu)
			cursor_visit(clang_getTranslationUnitCursor(headers.tu), scan_functions, NULL);
		headers.complete = headers.tu != NULL;
	}
	qsort(headers.index_v, (size_t)headers.nindex, sizeof *headers.index_v, by_name);
}

static const struct namesakes *find_namesakes(CXTranslationUnit tu, const char *name)
{
	for (int i = 0; i < headers.nfound; i++)
		if (strcmp(headers.found[i]->name, name) == 0)
			return headers.found[i];
	if (!headers.indexed)
		index_functions(tu);
	struct namesakes *ns = xcalloc(1, sizeof *ns);
	ns->name = xstrdup(name);
	ns->complete = headers.complete;
	ns->user_operators = headers.user_operators;
	struct named key = {.name = (char *)name};
	struct named *hit = bsearch(&key, headers.index_v, (size_t)headers.nindex, sizeof key, by_name);
	while (hit && hit > headers.index_v && strcmp(hit[-1].name, name) == 0)
		hit--;
	for (; hit && hit < headers.index_v + headers.nindex && strcmp(hit->name, name) == 0; hit++)
		*VEC_PUSH(ns->fns.v, ns->fns.n, ns->fns.cap) = hit->decl;
	*VEC_PUSH(headers.found, headers.nfound, headers.capfound) = ns;
	return ns;
}

bool pure_namesakes(CXTranslationUnit tu, const char *name, struct cursors *fns)
{
	const struct namesakes *ns = find_namesakes(tu, name);
	*fns = ns->fns;
	return ns->complete;
}

/* Whether decl is declared inside fn's definition, in whichever file that is (a header's
 * cursor has no offsets in the main file's text), where the text stands (a macro's name, for
 * what it expands to). */
static bool declared_in(CXCursor decl, CXCursor fn)
{
	CXSourceRange r = clang_getCursorExtent(fn);
	CXFile f[3];
	unsigned at[3];
	clang_getExpansionLocation(clang_getRangeStart(r), &f[0], NULL, NULL, &at[0]);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f[1], NULL, NULL, &at[1]);
	clang_getExpansionLocation(clang_getCursorLocation(decl), &f[2], NULL, NULL, &at[2]);
	return f[0] && clang_File_isEqual(f[0], f[2]) && clang_File_isEqual(f[1], f[2]) && at[2] >= at[0] && at[2] <= at[1];
}

struct body_scan {
	CXCursor own;
	int depth;
	CXTranslationUnit tu;
	char *why;
};

static char *name_problem(CXTranslationUnit tu, const char *name, int depth);
static char *callee_problem(CXTranslationUnit tu, CXCursor call, int depth);
char *pure_callee(CXCursor call);

/* A call the pure function makes: a library's pure function, or another pure function of the
 * program; in a template, a name its parameters leave unresolved only where every candidate is
 * the program's (an operator or conversion of builtin types otherwise: function_problem). */
static char *call_problem(struct body_scan *b, CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	char *name = cursor_name(call), *why = NULL;
	enum CXCursorKind k = clang_getCursorKind(callee);
	if (!clang_Cursor_isNull(callee) && effects_in_system_header(callee)) {
		if (!effects_pure_call(call))
			why = xprintf("calls '%s', whose value is not its arguments' alone", name);
	} else if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate)
		why = callee_problem(b->tu, call, b->depth + 1);
	else if (!clang_Cursor_isNull(callee))
		why = xprintf("calls '%s'", name);
	else {
		char *n = pure_callee(call);
		if (n)
			why = callee_problem(b->tu, call, b->depth + 1);
		else if (*name || clang_getCursorKind(cursor_strip(cursor_first_child(call))) == CXCursor_OverloadedDeclRef)
			why = xprintf("calls '%s', which the instantiation resolves", *name ? name : "a library function");
		free(n);
	}
	free(name);
	return why;
}

static enum CXChildVisitResult scan_pure_body(CXCursor c, void *data)
{
	struct body_scan *b = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor target, value;
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (cursor_is_variable(d) && !declared_in(d, b->own)) {
			char *n = cursor_name(d);
			b->why = xprintf("reads '%s', neither its own nor a parameter", n);
			free(n);
		}
	} else if (k == CXCursor_VarDecl && clang_Cursor_getStorageClass(c) == CX_SC_Static)
		b->why = xstrdup("keeps a static local");
	else if (k == CXCursor_ArraySubscriptExpr || (k == CXCursor_UnaryOperator &&
						      clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref))
		b->why = xstrdup("reads memory through an address");
	else if (k == CXCursor_MemberRefExpr && clang_getCanonicalType(clang_getCursorType(cursor_first_child(c))).kind ==
							 CXType_Pointer)
		b->why = xstrdup("reads memory through an address");
	else if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt || k == CXCursor_MSAsmStmt)
		b->why = xstrdup("runs asm");
	else if (k == CXCursor_LambdaExpr || k == CXCursor_StmtExpr || k == CXCursor_CXXThrowExpr)
		b->why = xstrdup("holds a lambda or a statement expression");
	else if (k == CXCursor_CallExpr && !cursor_is_barrier(c))
		b->why = call_problem(b, c);
	else if (cursor_is_barrier(c))
		b->why = xstrdup("synchronizes");
	else if (cursor_write_parts(c, &target, &value) != WRITE_NONE) {
		CXCursor var = cursor_root_var(target);
		if (clang_Cursor_isNull(var) || !declared_in(var, b->own))
			b->why = xstrdup("writes what is not its own");
	}
	return b->why ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Why one function of the name is not pure: it must be defined where pipefy sees it, return a
 * value, take its parameters by value (no pointer, reference or array), and name, read and
 * write nothing but them and its own locals. */
static char *function_problem(CXTranslationUnit tu, CXCursor fn, bool user_operators, int depth)
{
	/* (a definition is read itself; a declaration, through its definition) */
	CXCursor def = clang_isCursorDefinition(fn) ? fn : clang_getCursorDefinition(fn);
	if (clang_Cursor_isNull(def))
		return xstrdup("has a declaration whose definition pipefy cannot see");
	enum CXCursorKind k = clang_getCursorKind(def);
	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
		return xstrdup("is a member function or a conversion");
	if (clang_getCursorResultType(def).kind == CXType_Void)
		return xstrdup("returns nothing");
	int np = clang_Cursor_getNumArguments(def);
	for (int i = 0; i < np; i++) {
		CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i)));
		if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
		    t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
			return xstrdup("takes an address or a reference");
	}
	/* (a template's conversions and arithmetic on its parameters' types call what the
	 * instantiation finds: builtin or the library's only where the program defines none) */
	bool template = k == CXCursor_FunctionTemplate || !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(def));
	if (template && user_operators)
		return xstrdup("is a template, and the program defines operators or conversions its arithmetic may call");
	struct body_scan b = {.own = def, .depth = depth, .tu = tu};
	cursor_visit(def, scan_pure_body, &b);
	return b.why;
}

/* "'name' (where fn is) why", taking why: this file's place by line and column, a header's by
 * its path. */
static char *blame(CXTranslationUnit tu, CXCursor fn, const char *name, char *why)
{
	CXString file;
	unsigned line, col;
	CXSourceLocation at = clang_getCursorLocation(fn);
	clang_getPresumedLocation(at, &file, &line, &col);
	char *s = clang_Location_isFromMainFile(at) && clang_Cursor_getTranslationUnit(fn) == tu
			  ? xprintf("'%s' (%u:%u) %s", name, line, col, why)
			  : xprintf("'%s' (%s:%u) %s", name, path_for_user(clang_getCString(file)), line, why);
	clang_disposeString(file);
	free(why);
	return s;
}

/* Why what a call runs may not be pure: a resolved call of a plain function runs that one
 * (overload resolution is over, and no instantiation adds a candidate); a template's, or a call
 * the instantiation resolves, any function of its name. */
static char *callee_problem(CXTranslationUnit tu, CXCursor call, int depth)
{
	CXCursor callee = clang_getCursorReferenced(call);
	if (clang_getCursorKind(callee) == CXCursor_FunctionDecl &&
	    clang_Cursor_isNull(clang_getSpecializedCursorTemplate(callee))) {
		char *name = cursor_name(callee);
		char *w = depth > MAX_DEPTH ? xstrdup("is called through too many functions to follow")
					    : function_problem(tu, callee, false, depth);
		char *why = w ? blame(tu, callee, name, w) : NULL;
		free(name);
		return why;
	}
	char *name = pure_callee(call);
	char *why = name ? name_problem(tu, name, depth) : xstrdup("is no function of the program pipefy can name");
	free(name);
	return why;
}

/* Why not every function spelled name is pure (memoized), or NULL. */
static char *name_problem(CXTranslationUnit tu, const char *name, int depth)
{
	if (depth > MAX_DEPTH)
		return xprintf("calls '%s' through too many functions to follow", name);
	for (int i = 0; i < headers.nmemo; i++)
		if (strcmp(headers.memo[i].name, name) == 0)
			return headers.memo[i].why ? xstrdup(headers.memo[i].why) : NULL;
	const struct namesakes *ns = find_namesakes(tu, name);
	char *why = NULL;
	if (!ns->complete)
		why = xprintf("'%s' may have overloads in the headers, whose declarations pipefy could not read again", name);
	for (int i = 0; i < ns->fns.n && !why; i++) {
		char *w = function_problem(tu, ns->fns.v[i], ns->user_operators, depth);
		if (w)
			why = blame(tu, ns->fns.v[i], name, w);
	}
	if (!why && ns->fns.n == 0)
		why = xprintf("pipefy finds no definition of '%s'", name);
	struct verdict *v = VEC_PUSH(headers.memo, headers.nmemo, headers.capmemo);
	v->name = xstrdup(name);
	v->why = why ? xstrdup(why) : NULL;
	return why;
}

char *pure_callee(CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	if (!clang_Cursor_isNull(callee)) {
		enum CXCursorKind k = clang_getCursorKind(callee);
		if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) || effects_in_system_header(callee))
			return NULL;
		return cursor_name(callee);
	}
	CXCursor f = cursor_strip(cursor_first_child(call));
	if (clang_getCursorKind(f) != CXCursor_OverloadedDeclRef)
		f = clang_getCursorReferenced(f); /* (`to_float<T>`: the name, its candidates below) */
	if (clang_getCursorKind(f) != CXCursor_OverloadedDeclRef)
		return NULL;
	unsigned n = clang_getNumOverloadedDecls(f);
	for (unsigned i = 0; i < n; i++) {
		CXCursor d = clang_getOverloadedDecl(f, i);
		enum CXCursorKind k = clang_getCursorKind(d);
		if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) || effects_in_system_header(d))
			return NULL;
	}
	char *name = cursor_name(f);
	if (strncmp(name, "operator", 8) == 0) {
		free(name);
		return NULL;
	}
	return name;
}

char *pure_program_call_problem(CXCursor call)
{
	return callee_problem(clang_Cursor_getTranslationUnit(call), call, 0);
}

bool pure_program_call(CXCursor call)
{
	char *why = pure_program_call_problem(call);
	free(why);
	return why == NULL;
}
