/* cursor.h: cursor.c's walks of the names below a cursor, for the stages that read names one
 * at a time, and source.c's reading of a preprocessor line (pipefy.h declares the rest of
 * both). */
#ifndef PIPEFY_CURSOR_H
#define PIPEFY_CURSOR_H

#include "pipefy.h"

/* Whether c is a name (DeclRefExpr) of decl as it stands, no parentheses or casts around it. */
bool cursor_is_ref_to(CXCursor c, CXCursor decl);

/* Whether statement c sets var from its own value (`s = !s`, `s ^= 1`, `s = (s + 1) % 3`,
 * `++s`): it takes another value each iteration. */
bool cursor_steps_var(CXCursor c, CXCursor var);

/* Whether test(child, arg) holds for one of c's children: a body whose own statements step a
 * variable (cursor_steps_var), a declaration statement that declares one (cursor_is). */
bool cursor_any_child(CXCursor c, bool (*test)(CXCursor child, CXCursor arg), CXCursor arg);
/* Whether a and b are one cursor (clang_equalCursors, as cursor_any_child's test). */
bool cursor_is(CXCursor a, CXCursor b);
/* Whether stmt is a declaration statement that declares var (`int i = 0, *p = &i;`: i and p). */
bool cursor_declares(CXCursor stmt, CXCursor var);
/* The first cursor below c of kind k that test(cursor, arg) takes; a null cursor when none. */
CXCursor cursor_find(CXCursor c, enum CXCursorKind k, bool (*test)(CXCursor cursor, CXCursor arg), CXCursor arg);

/* A call's callee as a remark names it: a lambda's call by the lambda's variable, not
 * 'operator()' (allocated). */
char *cursor_call_name(CXCursor c);

/* What cursor_visit_names asks of each name: ref, the DeclRefExpr, names decl; the answer says
 * how the walk goes on, as a libclang visitor's does (Recurse into ref, Continue past it, Break). */
typedef enum CXChildVisitResult (*name_visitor)(CXCursor ref, CXCursor decl, void *data);
/* Walks the cursors below c in clang_visitChildren's order, asking each about every name. */
void cursor_visit_names(CXCursor c, name_visitor each, void *data);
/* The same walk below c handing only the names of decl (ref names decl): `each` never sees the
 * others, and the walk goes on below them. */
void cursor_visit_refs(CXCursor c, CXCursor decl, name_visitor each, void *data);
/* The same walk from c itself: c first, when it is a name. */
void cursor_visit_names_from(CXCursor c, name_visitor each, void *data);
/* Walks the cursors below c in clang_visitChildren's order, handing `each` every cursor of kind
 * k; the walk goes on below the others. */
void cursor_visit_kind(CXCursor c, enum CXCursorKind k, cursor_visitor each, void *data);
/* The same walk from c itself: c first, when it is of kind k. */
void cursor_visit_kind_from(CXCursor c, enum CXCursorKind k, cursor_visitor each, void *data);

/* Walks down from below c to the cursors whose extent holds `at` (span_within), handing `each`
 * each of them in clang_visitChildren's order; the walk passes over the others, and what they
 * hold. */
void cursor_visit_around(CXCursor c, struct span at, cursor_visitor each, void *data);
/* The first call below c whose text starts at `at` (by_callee: whose first child's, the
 * callee's, does), of the function name where name is not NULL; a null cursor when none. */
CXCursor cursor_call_at(CXCursor c, size_t at, bool by_callee, const char *name);
/* The definition of the function a call makes, wherever it is (a header's too); a call of a
 * function template's specialization gives the template's. Null when pipefy sees none. */
CXCursor cursor_callee_definition(CXCursor call);
/* `for (v = E; ..; ..)`, the header's four parts written and its initialization a plain
 * assignment of a variable: *var v, *init E; false (both null) when the loop is none such. */
bool cursor_for_assigns(CXCursor loop, CXCursor *var, CXCursor *init);
/* Walks the cursors below c in clang_visitChildren's order, handing `each` every one but the
 * lambdas, which it passes over with all they hold: the code c itself runs (a lambda's body runs
 * where the lambda is called). */
void cursor_visit_code(CXCursor c, cursor_visitor each, void *data);
/* The same walk from c itself: c first, unless it is a lambda. */
void cursor_visit_code_from(CXCursor c, cursor_visitor each, void *data);

/* The variables named `name` declared below c (VarDecls: locals, not parameters), in the walk's
 * order. */
struct cursors cursor_vars_named(CXCursor c, const char *name);

/* What cursor_visit_writes asks of each write (cursor_write_parts): w, of kind k, that stores
 * value into target; the answer says how the walk goes on, as a libclang visitor's does. */
typedef enum CXChildVisitResult (*write_visitor)(CXCursor w, enum write_kind k, CXCursor target, CXCursor value,
						void *data);
/* Walks the cursors below c in clang_visitChildren's order, handing `each` every write; the walk
 * goes on below the others. */
void cursor_visit_writes(CXCursor c, write_visitor each, void *data);

/* The first of a reader's reasons to stop, and where it stands: what (allocated, taken) and at's
 * offset go to *why and *why_at when *why is NULL; a later reason is freed. */
void cursor_first_why(char **why, size_t *why_at, CXCursor at, char *what);

/* source.c: a line that is a preprocessor directive (`  # pragma unroll`): the directive's name
 * and what follows (`pragma unroll`); NULL when the line is none. */
const char *source_directive(const char *line);

#endif
