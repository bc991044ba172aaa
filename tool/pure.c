/* pure.c: calls of the program's own functions whose value depends on their arguments alone
 * (`to_float(in[k])`, a template with an explicit specialization for each element type): a
 * value to compute a tile early, as a library's conversion is (facts for body.c and check.c).
 *
 * Which function a call runs may be decided only where a template is instantiated, among
 * overloads, explicit specializations and what argument-dependent lookup finds then, in the
 * file or in its headers. So the fact is established for the name: every function of the
 * translation unit spelled so, wherever it is declared, must be pure. */
#include "pipefy.h"

#include <stdlib.h>

#define MAX_DEPTH 3 /* pure functions calling pure functions: deeper is not read */

/* The headers' declarations (the precompiled preamble's, which walks of the file do not visit),
 * read once a run where a call first needs them; the verdicts by name. */
static struct {
	char *pch;
	CXIndex index;
	CXTranslationUnit tu;
	bool tried;
	struct verdict {
		char *name;
		char *why; /* NULL: pure */
	} *memo;
	int nmemo, capmemo;
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
	free(headers.pch);
	memset(&headers, 0, sizeof headers);
	headers.pch = pch ? xstrdup(pch) : NULL;
}

/* The functions spelled `name` (declarations and definitions, templates and their explicit
 * specializations, in any namespace or class), and whether the program (outside the system
 * headers) declares an operator or a conversion function of its own. */
struct namesakes {
	const char *name;
	struct cursors fns;
	bool user_operators;
};

static enum CXChildVisitResult scan_namesakes(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct namesakes *ns = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	bool function = k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
			k == CXCursor_ConversionFunction;
	if (function) {
		char *n = cursor_name(c);
		if (strcmp(n, ns->name) == 0)
			*VEC_PUSH(ns->fns.v, ns->fns.n, ns->fns.cap) = c;
		if ((k == CXCursor_ConversionFunction || strncmp(n, "operator", 8) == 0) && !effects_in_system_header(c))
			ns->user_operators = true;
		free(n);
		return CXChildVisit_Continue;
	}
	/* (a class's hidden friends are found by argument-dependent lookup) */
	bool scope = k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
		     k == CXCursor_FriendDecl || k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_ClassTemplate ||
		     k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnionDecl;
	return scope ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

/* Whether the walk could see every declaration: the file's, and its headers' where the parse
 * read them from a precompiled preamble. */
static bool find_namesakes(CXTranslationUnit tu, struct namesakes *ns)
{
	clang_visitChildren(clang_getTranslationUnitCursor(tu), scan_namesakes, ns);
	if (!headers.pch)
		return true;
	if (!headers.tried) {
		headers.tried = true;
		headers.index = clang_createIndex(0, 0);
		headers.tu = clang_createTranslationUnit(headers.index, headers.pch);
	}
	if (!headers.tu)
		return false;
	clang_visitChildren(clang_getTranslationUnitCursor(headers.tu), scan_namesakes, ns);
	return true;
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
	} else if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) {
		char *n = cursor_name(callee);
		why = name_problem(b->tu, n, b->depth + 1);
		free(n);
	} else if (!clang_Cursor_isNull(callee))
		why = xprintf("calls '%s'", name);
	else {
		char *n = pure_callee(call);
		if (n)
			why = name_problem(b->tu, n, b->depth + 1);
		else if (*name || clang_getCursorKind(cursor_strip(cursor_first_child(call))) == CXCursor_OverloadedDeclRef)
			why = xprintf("calls '%s', which the instantiation resolves", *name ? name : "a library function");
		free(n);
	}
	free(name);
	return why;
}

static enum CXChildVisitResult scan_pure_body(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct body_scan *b = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor target, value;
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && !declared_in(d, b->own)) {
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
	CXCursor def = clang_getCursorDefinition(fn);
	if (clang_Cursor_isNull(def))
		return clang_isCursorDefinition(fn) ? NULL : xstrdup("has a declaration whose definition pipefy cannot see");
	if (!clang_equalCursors(def, fn) && clang_isCursorDefinition(fn))
		def = fn;
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
	clang_visitChildren(def, scan_pure_body, &b);
	return b.why;
}

/* Why not every function spelled name is pure (memoized), or NULL. */
static char *name_problem(CXTranslationUnit tu, const char *name, int depth)
{
	if (depth > MAX_DEPTH)
		return xprintf("calls '%s' through too many functions to follow", name);
	for (int i = 0; i < headers.nmemo; i++)
		if (strcmp(headers.memo[i].name, name) == 0)
			return headers.memo[i].why ? xstrdup(headers.memo[i].why) : NULL;
	struct namesakes ns = {.name = name};
	char *why = NULL;
	if (!find_namesakes(tu, &ns))
		why = xprintf("'%s' may have overloads in the headers, whose declarations pipefy could not read again", name);
	for (int i = 0; i < ns.fns.n && !why; i++) {
		char *w = function_problem(tu, ns.fns.v[i], ns.user_operators, depth);
		if (w) {
			/* (this file's by line and column; a header's by its path) */
			CXString file;
			unsigned line, col;
			CXSourceLocation at = clang_getCursorLocation(ns.fns.v[i]);
			clang_getPresumedLocation(at, &file, &line, &col);
			if (clang_Location_isFromMainFile(at) && clang_Cursor_getTranslationUnit(ns.fns.v[i]) == tu)
				why = xprintf("'%s' (%u:%u) %s", name, line, col, w);
			else
				why = xprintf("'%s' (%s:%u) %s", name, path_for_user(clang_getCString(file)), line, w);
			clang_disposeString(file);
			free(w);
		}
	}
	if (!why && ns.fns.n == 0)
		why = xprintf("pipefy finds no definition of '%s'", name);
	free(ns.fns.v);
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
	char *name = pure_callee(call);
	if (!name)
		return xstrdup("is no function of the program pipefy can name");
	char *why = name_problem(clang_Cursor_getTranslationUnit(call), name, 0);
	free(name);
	return why;
}

bool pure_program_call(CXCursor call)
{
	char *why = pure_program_call_problem(call);
	free(why);
	return why == NULL;
}
