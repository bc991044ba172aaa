/* region.h: a rewritten loop as validation finds it in the output, and the readers of it that
 * validate.c and the variant families' own readings of their main loops (registers.c,
 * cp_async.c, tensor.c) share (region.c): the layer under both, so that no family reads
 * through the validation stage. */
#ifndef PIPEFY_REGION_H
#define PIPEFY_REGION_H

#include "names.h"
#include "pipefy.h"

/* One rewritten loop in the output, as validation found it. */
struct region {
	const struct source *out;
	struct span block;     /* the pipelined block in the output */
	struct span fallback;  /* `else { the loop as written }`, when there is one */
	struct span lambdas[3];/* pipefy_load, pipefy_fetch, pipefy_stash */
	int nlambdas;
	CXCursor loader;       /* pipefy_load */
	CXCursor main_loop;    /* the pipelined for statement */
	CXCursor producer;     /* a producer warpgroup's own branch (setmaxnreg), or null */
	CXCursor block_cursor;
	CXCursor function;     /* the declaration that holds it */
	bool other_files;      /* other files may call the input's device functions (model's) */
	const char *problem;   /* the first thing wrong, in words */
	size_t problem_at;
};

/* The main loop's top-level statements, the first four as text with blanks squeezed out. */
struct loop_view {
	struct cursors body;
	char *first[4];
	int nbarriers;  /* block barriers among them */
	bool split;     /* a producer warpgroup runs a loop of its own (r->producer) */
	size_t at;      /* where the main loop starts */
};

/* The first thing wrong is the one reported. */
void problem(struct region *r, size_t at, const char *what);
bool starts(const char *s, const char *prefix);
/* Whether squeezed text (stmt_text's) is, or starts with, code as pipefy writes it (names.h). */
bool code_is(const char *squeezed, const char *code);
bool code_starts(const char *squeezed, const char *code);
/* A statement as text with blanks squeezed out (to be freed). */
char *stmt_text(const struct source *out, CXCursor c);
/* The block barrier right after the pipelined loop. */
void barrier_after(struct region *r, size_t at);

/* The families' readings (variant.c's rows name them). */
void validate_cp_async(struct region *r, const struct kloop *l, const struct loop_view *v);
void validate_registers(struct region *r, const struct kloop *l, const struct loop_view *v);
void validate_tensor(struct region *r, const struct kloop *l, const struct loop_view *v);
void validate_ws_cp_async(struct region *r, const struct kloop *l, const struct loop_view *v);

#endif
