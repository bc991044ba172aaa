/* stage.h: what the variant families (registers.c, cp_async.c, tensor.c) build their loops
 * from (stage.c), and the names pipefy generates (names.h). rewrite.c's driver and the
 * families include it; no other stage does. */
#ifndef PIPEFY_STAGE_H
#define PIPEFY_STAGE_H

#include "names.h"
#include "pipefy.h"

/* The pieces every variant builds the loop from. */
struct layout {
	const struct kloop *l;
	const struct source *src;
	int S;
	const char *U;           /* one indentation level */
	char *I0, *I1, *I2, *I3; /* the loop's level and three deeper */
	struct edits refs;       /* tile names: `As` -> `As[stage]` */
	struct edits stmt_edits; /* refs plus per-variant rewrites of the copies */
	char *guard;             /* when set, the pipelined loop runs only under it (block_size_guard) */
	char *guard_why;         /* and the comment above it: why */
};

/* Every reference to a tile indexed by its stage (the stage being filled inside the copies,
 * the one being read elsewhere); layout_end frees what layout_begin made. */
struct layout layout_begin(const struct kloop *l, const struct source *src);
/* Tile names outside the copies the variant replaced keep their plain stage index. */
void layout_add_refs_outside_copies(struct layout *y);
void layout_drop_pipe_ops(const struct kloop *l, struct edits *e);
void layout_end(struct layout *y);

/* `{`, the tiles declared in the body (hoisted) and the cursor: the loop variables of the next
 * tile to load; `what` is the comment's description of the variant. */
void add_block_start(struct strbuf *sb, struct layout *y, const char *what);
/* Inside a loader: the loop variables take the cursor's values. */
void add_cursor_shadows(struct strbuf *sb, struct layout *y);
void add_scratch_shadows(struct strbuf *sb, struct layout *y, const CXCursor *stmts, int n);
/* The loop's own increment, then the cursor keeps the advanced values. */
void add_cursor_advance(struct strbuf *sb, struct layout *y, const char *indent);
/* The prologue of the asynchronous copies: the loader (NAME_LOAD) starts tiles 0..S-2 into
 * their stages; `verb` says what it does in the comment ("copying"). */
void add_prologue_loads(struct strbuf *sb, const struct layout *y, const char *verb);
/* The user's for header, one level deeper, with the pragmas written above it. */
void add_main_header(struct strbuf *sb, struct layout *y);
/* The body without its copies and barriers, tiles indexed by the stage being read. */
void add_compute(struct strbuf *sb, struct layout *y);
/* `}`, the fallback under a guard, and the edits that put the block in place of the loop and
 * give the tiles declared before it their stage dimension. */
void add_block_end(struct strbuf *sb, struct layout *y, struct edits *out);
/* A statement's lines, moved `extra` deeper; the first of a section drops the blank lines
 * before it. */
void add_stmt(struct strbuf *sb, const struct source *src, const struct edits *e, const struct body_stmt *st,
	      const char *line_indent, const char *extra, bool *first);

/* Staged copy loops (`for (T i = E0; i < N; i += S)`, copy_bound set): ceil(N / S), the trips a
 * thread makes, as a number or as the expression; add_copy_loop_trips rewrites each such loop
 * into a loop over its trips, pipefy_j, with a bound the compiler knows (every register it
 * stages has a constant index; cp.async's copies unroll), or only those strided by the block
 * size; block_size_guard is the condition they hold under when S is the block size (NULL when
 * no loop strides by it). */
char *copy_loop_trips(const struct kloop *l, const struct copy_loop *cl);
void add_copy_loop_trips(const struct kloop *l, const struct source *src, struct edits *e, bool block_strided_only);
char *block_size_guard(const struct kloop *l);
void layout_block_guard(struct layout *y, const char *copies, bool wrap_early);

/* Text of a span with the edits inside it applied. */
char *render(const struct source *src, const struct edits *e, struct span s);
/* A span's text without the white space at either end. */
char *trimmed(const struct source *src, struct span s);
/* `(g)` for a guard, without doubling the parentheses it already has. */
char *parenthesized(const char *g);
/* The condition under which a copy loads: its guard, or its negation for a then-branch fill. */
char *load_condition(const struct copy *cp, const char *g);
/* An if/else copy is replaced up to its end, so its replacement carries the ';'. */
const char *statement_end(const struct copy *cp);
bool in_span(size_t off, struct span s);
/* "" after a pointer type, " " after any other, before a declared name. */
const char *type_sep(const char *type);

/* The families' rewrites (variant.c's rows name them). */
void rewrite_cp_async(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		      struct file_needs *needs);
void rewrite_registers(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		       struct file_needs *needs);
void rewrite_tensor(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		    struct file_needs *needs);
void rewrite_no_loads(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		      struct file_needs *needs);
/* The tensor family's helpers, once a file, for the tma, bulk, named-barrier and setmaxnreg
 * loops it holds (to be freed). */
char *tensor_helpers(bool tma, bool bulk, bool named, bool regs);

#endif
