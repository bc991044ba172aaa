/* region.c: the readers of a rewritten loop in the output (region.h) that validation and the
 * variant families' readings share. */
#include "region.h"

#include <ctype.h>
#include <stdlib.h>

void problem(struct region *r, size_t at, const char *what)
{
	if (!r->problem) {
		r->problem = what;
		r->problem_at = at;
	}
}

bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* How much of squeezed text (blanks taken out) matches code as pipefy writes it, blanks and
 * all; -1 where they differ. */
static long code_match(const char *squeezed, const char *code)
{
	const char *s = squeezed;
	for (const char *c = code; *c; c++)
		if (!isspace((unsigned char)*c) && *s++ != *c)
			return -1;
	return s - squeezed;
}

bool code_starts(const char *squeezed, const char *code) { return code_match(squeezed, code) >= 0; }

bool code_is(const char *squeezed, const char *code)
{
	long n = code_match(squeezed, code);
	return n >= 0 && squeezed[n] == '\0';
}

/* The top-level statements of a compound statement, as text with blanks squeezed out. */
char *stmt_text(const struct source *out, CXCursor c) { return span_squeezed(out, cursor_span(c)); }

/* The block barrier right after the pipelined loop, which lets the code after it (or the next
 * run of the loop) write a stage that others still read. */
void barrier_after(struct region *r, size_t at)
{
	CXCursor block = r->block_cursor;
	if (clang_getCursorKind(block) == CXCursor_IfStmt) { /* `if (guard) { ... } else { as written }` */
		struct cursors cs = cursor_children(block);
		if (cs.n >= 2)
			block = cs.v[1];
		free(cs.v);
	}
	struct cursors blk = cursor_children(block);
	bool after = false;
	struct span ml = cursor_span(r->main_loop);
	for (int i = 0; i + 1 < blk.n; i++) {
		struct span s = cursor_span(blk.v[i]); /* the loop, or `#pragma ...` and the loop */
		if (s.begin <= ml.begin && s.end >= ml.end) {
			char *t = stmt_text(r->out, blk.v[i + 1]);
			after = cursor_is_barrier(blk.v[i + 1]) ||
				(!clang_Cursor_isNull(r->producer) && code_is(t, SNIP_WARPGROUP_DONE));
			free(t);
		}
	}
	free(blk.v);
	if (!after)
		problem(r, at, "no barrier after the pipelined loop");
}

