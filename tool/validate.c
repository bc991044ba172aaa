/* validate.c: pipefy checks its own output. The rewritten text is parsed again, and each
 * rewritten loop must come back as the pipeline its variant promises: every store into a
 * __shared__ array and every asynchronous copy inside the loader (or the stash), the tiles
 * read by the compute only at the stage being computed, the variant's barriers in their
 * places; and the file must have no more clang errors than the input had. A loop that fails
 * is left as written, with a remark that says why. */
#include "cursor.h"
#include "region.h"

#include <ctype.h>
#include <stdlib.h>

/* Where an offset of the input lands in the output, given the edits that made it. */
/* Input offsets mapped to the output: the edits ordered by where they end (at one end,
 * replacements before insertions), with the running sum of the lengths they add. An offset
 * moves by every edit that ends before it, but not by an insertion exactly at it. */
struct offset_map {
	struct shift {
		size_t end;
		bool insertion;
		long delta; /* the sum over this edit and every one before it */
	} *v;
	int n;
};

static int by_end(const void *a, const void *b)
{
	const struct shift *x = a, *y = b;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (int)x->insertion - (int)y->insertion;
}

static struct offset_map offset_map(const struct edits *e)
{
	struct offset_map m = {xcalloc((size_t)e->n + 1, sizeof *m.v), e->n};
	for (int i = 0; i < e->n; i++)
		m.v[i] = (struct shift){e->v[i].offset + e->v[i].length, e->v[i].length == 0,
					(long)strlen(e->v[i].text) - (long)e->v[i].length};
	qsort(m.v, (size_t)m.n, sizeof *m.v, by_end);
	for (int i = 1; i < m.n; i++)
		m.v[i].delta += m.v[i - 1].delta;
	return m;
}

static size_t output_offset(const struct offset_map *m, size_t offset)
{
	int lo = 0, hi = m->n; /* the first edit that does not move offset */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (m->v[mid].end < offset || (m->v[mid].end == offset && !m->v[mid].insertion))
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)((long)offset + (lo ? m->v[lo - 1].delta : 0));
}

static bool inside(size_t at, struct span s) { return at >= s.begin && at < s.end; }

static bool in_lambda(const struct region *r, size_t at)
{
	for (int i = 0; i < r->nlambdas; i++)
		if (inside(at, r->lambdas[i]))
			return true;
	return false;
}

/* The compound statement that starts the block, its lambdas and its main loop. */
static enum CXChildVisitResult find_block(CXCursor c, void *data)
{
	struct region *r = data;
	struct span s = cursor_span(c);
	if (!cursor_in_main_file(c) || s.end <= r->block.begin || s.begin >= r->block.end)
		return CXChildVisit_Continue;
	if ((clang_getCursorKind(c) == CXCursor_CompoundStmt || clang_getCursorKind(c) == CXCursor_IfStmt) &&
	    s.begin >= r->block.begin && clang_Cursor_isNull(r->block_cursor)) {
		r->block_cursor = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult scan_block(CXCursor c, void *data)
{
	struct region *r = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_VarDecl) {
		char *n = cursor_name(c);
		if ((strcmp(n, NAME_LOAD) == 0 || strcmp(n, NAME_FETCH) == 0 || strcmp(n, NAME_STASH) == 0) &&
		    r->nlambdas < 3) {
			r->lambdas[r->nlambdas++] = cursor_span(c);
			if (strcmp(n, NAME_LOAD) == 0)
				r->loader = c;
		}
		free(n);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_IfStmt && clang_Cursor_isNull(r->producer) && !inside(cursor_span(c).begin, r->fallback)) {
		char *t = span_squeezed(r->out, cursor_span(c));
		bool producer = code_starts(t, SNIP_PRODUCER_BRANCH NAME_REGS_DEC "<");
		free(t);
		if (producer) { /* (its loop is the producer's, checked apart: not the main loop) */
			r->producer = c;
			return CXChildVisit_Continue;
		}
	}
	if (k == CXCursor_ForStmt && clang_Cursor_isNull(r->main_loop) && !inside(cursor_span(c).begin, r->fallback) &&
	    !starts(r->out->text + cursor_span(c).begin, "for (int " NAME_PROLOGUE_STAGE " "))
		r->main_loop = c; /* the prologue's loop over the first stages is not it */
	return CXChildVisit_Recurse;
}

/* Stores into __shared__ arrays and asynchronous copies: only in the loader and the stash. */
static enum CXChildVisitResult scan_stores(CXCursor c, void *data)
{
	struct region *r = data;
	size_t at = cursor_span(c).begin;
	if (!inside(at, r->block) || inside(at, r->fallback) || in_lambda(r, at))
		return CXChildVisit_Recurse;
	CXCursor target, value;
	if (cursor_write_parts(c, &target, &value) != WRITE_NONE && cursor_is_shared_var(cursor_root_var(target)))
		problem(r, at, "a tile is stored outside the loader");
	if (cursor_is_call_named(c, NAME_PIPELINE_COPY) || cursor_is_call_named(c, NAME_TMA_LOAD) ||
	    cursor_is_call_named(c, NAME_BULK_LOAD))
		problem(r, at, "an asynchronous copy is issued outside the loader");
	return CXChildVisit_Recurse;
}

/* In the main loop, a tile is read at the stage being computed: `As[pipefy_stage]`. */
struct stage_scan {
	struct region *r;
	const struct kloop *l;
};

static enum CXChildVisitResult scan_stage_refs(CXCursor ref, CXCursor d, void *data)
{
	struct stage_scan *s = data;
	if (!cursor_is_shared_var(d))
		return CXChildVisit_Continue;
	char *name = cursor_name(d);
	bool tile = false;
	for (int t = 0; t < s->l->ntiles; t++)
		tile |= strcmp(s->l->tiles[t].name, name) == 0;
	free(name);
	/* (a tile named as a macro's argument, `FLOAT4(As[pipefy_stage][i])`: where it is written) */
	struct span at = cursor_written_in_file(ref) ? cursor_written_span(ref) : cursor_span(ref);
	const char *after = s->r->out->text + at.end;
	/* (a tile in the launch's shared memory: `pipefy_at(As, pipefy_stage, pipefy_stride)`) */
	const char *at_fn = NAME_STAGE_AT "(";
	size_t n = strlen(at_fn);
	bool at_stage = starts(after, "[" STAGE_READ "]") ||
			(starts(after, ", " STAGE_READ ", " NAME_STRIDE ")") && at.begin >= n &&
			 strncmp(s->r->out->text + at.begin - n, at_fn, n) == 0);
	if (tile && s->l->stages > 1 && !at_stage)
		problem(s->r, at.begin, "the compute reads a tile at another stage than the one it computes");
	return CXChildVisit_Continue;
}

/* The barriers of the variant, read by its family: the main loop's statements, the first four
 * as text, and how many are block barriers. */
static void check_barriers(struct region *r, const struct kloop *l)
{
	struct loop_view v = {.body = cursor_children(cursor_last_child(r->main_loop))};
	for (int i = 0; i < v.body.n; i++)
		v.nbarriers += cursor_is_barrier(v.body.v[i]);
	for (int i = 0; i < 4 && i < v.body.n; i++)
		v.first[i] = stmt_text(r->out, v.body.v[i]);
	v.split = !clang_Cursor_isNull(r->producer);
	v.at = cursor_span(r->main_loop).begin;
	variant_row(l->variant)->validate(r, l, &v);
	for (int i = 0; i < 4; i++)
		free(v.first[i]);
	free(v.body.v);
}

/* The output's top-level declarations in the main file, with their extents: each loop's block
 * is looked for only inside the ones that overlap it (a walk over the whole translation unit
 * per loop, CUDA's headers included, made a file of many kernels quadratic). */
struct top_level {
	struct cursors c;
	struct span *s;
	int cap;
};

static enum CXChildVisitResult collect_top_level(CXCursor c, void *data)
{
	struct top_level *t = data;
	if (clang_isPreprocessing(clang_getCursorKind(c)) || !cursor_in_main_file(c))
		return CXChildVisit_Continue;
	if (t->c.n == t->c.cap) {
		t->c.cap = t->c.cap ? 2 * t->c.cap : 64;
		t->c.v = xrealloc(t->c.v, (size_t)t->c.cap * sizeof *t->c.v);
		t->s = xrealloc(t->s, (size_t)t->c.cap * sizeof *t->s);
	}
	t->s[t->c.n] = cursor_span(c);
	t->c.v[t->c.n++] = c;
	return CXChildVisit_Continue;
}

/* The fact check proved of the loop, proven again of the output: every thread of the block
 * reaches the pipelined block, and (but where a producer warp takes the copies, whose kernel
 * threads alone run the loop, counted by named barriers and mbarriers) its main loop, as often
 * as the others. */
static void check_participation(struct region *r, const struct kloop *l)
{
	CXCursor decl = r->function;
	if (clang_Cursor_isNull(decl) || clang_getCursorKind(cursor_last_child(decl)) != CXCursor_CompoundStmt)
		return; /* (a block not in a function: the other checks say so) */
	size_t at = 0;
	char *why = uniform_participation(decl, r->block_cursor, r->out, r->other_files, &at);
	if (!why && !variant_row(l->variant)->producer_threads)
		why = uniform_participation(decl, r->main_loop, r->out, r->other_files, &at);
	if (why) {
		free(why);
		problem(r, at, "the pipelined loop may not be reached by every thread of the block");
	}
}

/* The other fact check proved, proven again of the output: with more than one stage, a tile's
 * storage is reached only inside the pipelined block, through the names pipefy staged (the
 * tiles' declarations aside); storage.c reads the output's function as it read the input's. */
static void check_storage(struct region *r, const struct kloop *l)
{
	if (l->stages < 2 || clang_Cursor_isNull(r->function) || l->ntiles == 0)
		return;
	struct kloop v = {0};
	v.loop = cursor_span(r->block_cursor); /* (the block itself, not what the edit put after it) */
	v.function_cursor = r->function;
	v.function_span = cursor_span(r->function);
	v.tiles = xcalloc((size_t)l->ntiles, sizeof *v.tiles);
	for (int i = 0; i < l->ntiles; i++) {
		/* (found by name in the output's function: the tile's declaration) */
		struct cursors decls = {0};
		if (cursor_declared_within(l->tiles[i].decl, l->function_span))
			decls = cursor_vars_named(r->function, l->tiles[i].name);
		CXCursor decl = decls.n == 1 ? decls.v[0] : clang_getNullCursor();
		free(decls.v);
		if (clang_Cursor_isNull(decl))
			continue; /* (a tile of file scope, or a name declared twice: the input's reading stands) */
		v.tiles[v.ntiles].name = l->tiles[i].name;
		v.tiles[v.ntiles].decl = decl;
		v.tiles[v.ntiles].dynamic = l->tiles[i].dynamic;
		v.ntiles++;
	}
	size_t at = 0;
	char *why = v.ntiles ? storage_outside(&v, r->out, &at) : NULL;
	if (why)
		problem(r, at, "a tile's storage is reached outside the pipelined loop, where its stages are not");
	free(why);
	free(v.tiles);
}

static void validate_loop(struct region *r, const struct kloop *l, const struct top_level *top)
{
	/* declarations come in the order they are written: the first that ends after the block
	 * begins, and on while they begin before it ends */
	int lo = 0, hi = top->c.n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (top->s[mid].end <= r->block.begin)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo; i < top->c.n && top->s[i].begin < r->block.end && clang_Cursor_isNull(r->block_cursor); i++)
		if (top->s[i].end > r->block.begin && find_block(top->c.v[i], r) == CXChildVisit_Recurse) {
			cursor_visit(top->c.v[i], find_block, r);
			r->function = top->c.v[i];
		}
	/* (extents out of order, as macros can make them: every declaration, once) */
	for (int i = 0; i < top->c.n && clang_Cursor_isNull(r->block_cursor); i++)
		if (top->s[i].begin < r->block.end && top->s[i].end > r->block.begin &&
		    find_block(top->c.v[i], r) == CXChildVisit_Recurse) {
			cursor_visit(top->c.v[i], find_block, r);
			r->function = top->c.v[i];
		}
	if (clang_Cursor_isNull(r->block_cursor)) {
		problem(r, r->block.begin, "the pipelined block is not where it was written");
		return;
	}
	if (clang_getCursorKind(r->block_cursor) == CXCursor_IfStmt) {
		/* `if (blockDim.x == B) { ... } else { ... }`: the else branch is the loop as written */
		struct cursors cs = cursor_children(r->block_cursor);
		if (cs.n == 3)
			r->fallback = cursor_span(cs.v[2]);
		free(cs.v);
	}
	cursor_visit(r->block_cursor, scan_block, r);
	if (clang_Cursor_isNull(r->main_loop)) {
		problem(r, r->block.begin, "no pipelined loop in the block");
		return;
	}
	cursor_visit(r->block_cursor, scan_stores, r);
	check_participation(r, l);
	check_storage(r, l);
	struct stage_scan ss = {r, l};
	cursor_visit_names(cursor_last_child(r->main_loop), scan_stage_refs, &ss);
	check_barriers(r, l);
}

/* ---- overlapped launches ---- */

/* Where pipefy's helpers for overlapped launches are in the output, when they are there as
 * rewrite.c writes them (line endings aside); begin == end otherwise. */
static struct span overlap_block(const struct source *out)
{
	static const char open[] = "// pipefy: overlapped launches {", close[] = "// } pipefy: overlapped launches";
	const char *b = strstr(out->text, open), *e = b ? strstr(b, close) : NULL;
	if (!e)
		return (struct span){0, 0};
	e += strlen(close);
	struct strbuf text = {0};
	for (const char *p = b; p < e; p++)
		if (*p != '\r')
			sb_add(&text, p, 1);
	sb_puts(&text, "\n");
	char *without = xprintf("%s%s", rewrite_overlap_helpers, rewrite_overlap_launcher);
	char *with = xprintf("%s%s%s", rewrite_overlap_helpers, rewrite_overlap_trigger, rewrite_overlap_launcher);
	bool same = strcmp(text.data, without) == 0 || strcmp(text.data, with) == 0;
	free(without);
	free(with);
	free(text.data);
	return same ? (struct span){(size_t)(b - out->text), (size_t)(e - out->text)} : (struct span){0, 0};
}

static bool defined_in(CXCursor fn, struct span s)
{
	CXCursor def = clang_getCursorDefinition(fn), tmpl = clang_getSpecializedCursorTemplate(fn);
	if (!clang_Cursor_isNull(tmpl))
		def = tmpl;
	return !clang_Cursor_isNull(def) && cursor_declared_within(def, s);
}

/* A launch through pipefy_launch_dependent may start before the kernel ahead of it ends: the
 * kernel it names must begin with pipefy's wait, and both be pipefy's helpers (the launcher falls
 * back to an ordinary launch where the wait is not compiled in). NULL when all is so. */
static const char *dependent_launch_problem(CXCursor call, struct span helpers, size_t *at)
{
	*at = cursor_span(call).begin;
	if (helpers.end == 0)
		return "pipefy's helpers for overlapped launches are not in the file as pipefy writes them";
	if (!defined_in(clang_getCursorReferenced(call), helpers))
		return "the launch does not call pipefy's " NAME_LAUNCH_DEPENDENT;
	if (clang_Cursor_getNumArguments(call) < 5)
		return "the launch passes " NAME_LAUNCH_DEPENDENT " too few arguments";
	CXCursor k = cursor_strip(clang_Cursor_getArgument(call, 0));
	if (clang_getCursorKind(k) == CXCursor_UnaryOperator)
		k = cursor_strip(cursor_first_child(k));
	CXCursor fn = clang_getCursorReferenced(k);
	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return "pipefy cannot tell which kernel the launch names";
	CXCursor def = clang_getCursorDefinition(fn), tmpl = clang_getSpecializedCursorTemplate(fn);
	if (!clang_Cursor_isNull(tmpl))
		def = tmpl;
	if (clang_Cursor_isNull(def) || !cursor_in_main_file(def))
		return "the kernel the launch names is not defined in the file";
	CXCursor body = cursor_last_child(def);
	CXCursor first = cursor_first_child(body);
	*at = cursor_span(body).begin;
	if (clang_getCursorKind(body) != CXCursor_CompoundStmt || !cursor_is_call_named(first, NAME_GRID_WAIT) ||
	    !defined_in(clang_getCursorReferenced(first), helpers))
		return "the kernel it launches does not wait for the kernel ahead of it first (" NAME_GRID_WAIT ")";
	return NULL;
}

/* Each rewritten pair: its launch in the output is a dependent launch of a kernel that waits. */
static int validate_pairs(struct model *m, const struct source *out, const struct offset_map *map, const char *whole,
			  const struct top_level *top)
{
	int failed = 0;
	struct span helpers = overlap_block(out);
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		if (!p->rewritten || p->queue)
			continue;
		const char *problem = whole;
		size_t at = 0;
		if (!whole) {
			size_t call_at = output_offset(map, p->call.begin);
			CXCursor call = clang_getNullCursor();
			for (int t = 0; t < top->c.n && clang_Cursor_isNull(call); t++)
				if (top->s[t].begin <= call_at && call_at < top->s[t].end)
					call = cursor_call_at(top->c.v[t], call_at, false, NAME_LAUNCH_DEPENDENT);
			if (clang_Cursor_isNull(call)) {
				problem = "the launch is not a call of " NAME_LAUNCH_DEPENDENT;
				at = call_at;
			} else
				problem = dependent_launch_problem(call, helpers, &at);
		}
		if (!problem)
			continue;
		char *where = NULL;
		if (!whole) {
			int line, col;
			source_line_col(out, at, &line, &col);
			where = xprintf(" (output %d:%d)", line, col);
		}
		free(p->invalid);
		p->invalid = xprintf("the rewrite failed validation: %s%s; the launch is left as written", problem,
				     where ? where : "");
		free(where);
		failed++;
	}
	return failed;
}

/* ---- persistent launches (--launches=queue) ---- */

/* The output's top-level function of that name, or a null cursor. */
static CXCursor top_function(const struct top_level *top, const char *name)
{
	for (int t = 0; t < top->c.n; t++) {
		CXCursor c = top->c.v[t];
		if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
			continue;
		char *n = cursor_name(c);
		bool same = strcmp(n, name) == 0;
		free(n);
		if (same)
			return c;
	}
	return clang_getNullCursor();
}

/* The text of the output's top-level function of that name; NULL when there is none. */
static char *function_text(const struct top_level *top, const struct source *out, const char *name)
{
	CXCursor f = top_function(top, name);
	return clang_Cursor_isNull(f) ? NULL : span_text(out, cursor_span(f));
}

/* After a readiness check or wait in the take function, an acquire before it hands the item out. */
static bool acquired_before_return(const char *at)
{
	const char *acquire = strstr(at, SNIP_QUEUE_ACQUIRE), *ret = strstr(at, SNIP_QUEUE_HAND_OUT);
	return acquire && ret && acquire < ret;
}

/* What the queue's rewrite relies on, read back from the output: the helpers as queue.c writes
 * them; each item's body the kernel's, byte for byte; the persistent kernel taking each item
 * from the take function and counting the first's items done after them; the take function
 * handing out an item of the second only once ready says so, or after ready has waited, and
 * with an acquire after either; ready waiting for every row it found, or for every item of the
 * first; the first launch a call of the launcher. NULL when all is so. */
static const char *queue_problem(const struct launch_pair *p, int q, const struct source *src, const struct source *out,
				 const struct offset_map *map, const struct top_level *top, size_t *at)
{
	*at = 0;
	const char *h = strstr(out->text, "// pipefy: tile queues {"), *iv = strstr(out->text, "// pipefy: intervals {");
	if (!h || strncmp(h, queue_helpers, strlen(queue_helpers)) != 0 || !iv ||
	    strncmp(iv, queue_intervals, strlen(queue_intervals)) != 0)
		return "pipefy's helpers for persistent launches are not in the file as pipefy writes them";
	char *item1 = queue_item_name(p, q, false), *item2 = queue_item_name(p, q, true);
	char *kname = xprintf(NAME_QUEUE_KERNEL, q, p->first, p->second), *launcher = xprintf(NAME_QUEUE_LAUNCHER, q);
	char *tname = xprintf(NAME_QUEUE_TAKE, q), *rname = xprintf(NAME_QUEUE_READY, q);
	const char *problem = NULL;
	for (int i = 0; i < 2 && !problem; i++) {
		CXCursor item = top_function(top, i ? item2 : item1);
		CXCursor kernel = i ? p->kernel : p->first_kernel;
		if (clang_Cursor_isNull(item)) {
			problem = "an item of the persistent launch is missing";
			continue;
		}
		char *a = span_text(out, cursor_span(cursor_last_child(item)));
		char *b = span_text(src, cursor_span(cursor_last_child(kernel)));
		if (strcmp(a, b) != 0) {
			problem = "an item's body is not its kernel's as written";
			*at = cursor_span(item).begin;
		}
		free(a);
		free(b);
	}
	char *kt = problem ? NULL : function_text(top, out, kname);
	char *tt = kt ? function_text(top, out, tname) : NULL, *rt = tt ? function_text(top, out, rname) : NULL;
	if (!problem && (!kt || !tt || !rt))
		problem = "the persistent kernel or its take or ready function is missing";
	if (!problem) {
		char *c1 = xprintf("%s(", item1), *c2 = xprintf("%s(", item2), *take = xprintf("= %s(", tname);
		char *late = xprintf("%s(" NAME_QUEUE_ITEM ", true,", rname), *early = xprintf("%s(" NAME_QUEUE_ITEM ", false,", rname);
		const char *i1 = strstr(kt, c1), *i2 = strstr(kt, c2), *done = strstr(kt, NAME_QUEUE_DONE "(");
		const char *took = strstr(kt, take), *ready = strstr(tt, early), *waited = strstr(tt, late);
		*at = cursor_span(top_function(top, kname)).begin;
		if (!i1 || !i2 || !done || done < i1)
			problem = "the persistent kernel does not count the first kernel's items done after them";
		else if (!took || took > i1 || took > i2)
			problem = "the persistent kernel does not take its items from the take function";
		else if (!ready || !waited || !acquired_before_return(ready) || !acquired_before_return(waited))
			problem = "the take function hands out an item of the second kernel before it may start";
		else if (!strstr(rt, SNIP_QUEUE_WAIT_FIRST) || !strstr(rt, SNIP_QUEUE_EVERY_ROW))
			problem = "the ready function does not wait for every row an item reads";
		free(c1);
		free(c2);
		free(take);
		free(late);
		free(early);
	}
	free(kt);
	free(tt);
	free(rt);
	if (!problem) {
		size_t o = output_offset(map, p->first_call.begin);
		size_t n = strlen(launcher);
		if (o + n > out->len || strncmp(out->text + o, launcher, n) != 0 || clang_Cursor_isNull(top_function(top, launcher))) {
			problem = "the first launch is not a call of the persistent launch's launcher";
			*at = o;
		}
	}
	free(item1);
	free(item2);
	free(kname);
	free(launcher);
	free(tname);
	free(rname);
	return problem;
}

static int validate_queues(struct model *m, const struct source *src, const struct source *out,
			   const struct offset_map *map, const char *whole, const struct top_level *top)
{
	int failed = 0;
	for (int i = 0, q = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		if (!p->rewritten || !p->queue)
			continue;
		size_t at = 0;
		const char *problem = whole ? whole : queue_problem(p, q, src, out, map, top, &at);
		q++;
		if (!problem)
			continue;
		int line, col;
		source_line_col(out, at, &line, &col);
		free(p->queue_invalid);
		p->queue_invalid = xprintf("the rewrite failed validation: %s (output %d:%d); the launches are left as written",
					   problem, line, col);
		failed++;
	}
	return failed;
}

/* Where a loop's replacement lies in the output: from where the loop began to its end. */
static struct span loop_block(const struct offset_map *map, const struct edits *e, const struct kloop *l)
{
	struct span b = {output_offset(map, l->loop.begin), output_offset(map, l->loop.end)};
	for (int k = 0; k < e->n; k++)
		if (e->v[k].offset == l->loop.begin && e->v[k].length == l->loop.end - l->loop.begin)
			b.end = b.begin + strlen(e->v[k].text);
	return b;
}

/* A clang error of the output inside a rewritten loop's replacement is that loop's: its first
 * there (index into parsed->diags), or -1. */
static int error_in(const struct parsed *parsed, struct span block)
{
	for (int d = 0; d < parsed->ndiags; d++)
		if (parsed->diags[d].is_error && parsed->diags[d].offset != (size_t)-1 && inside(parsed->diags[d].offset, block))
			return d;
	return -1;
}

int validate_rewrite(struct model *m, const struct source *src, const struct options *o, const struct edits *e,
		     const char *output, int input_errors, bool warm)
{
	struct source out;
	source_init_text(&out, src->path, output, strlen(output));
	struct parsed parsed = {0};
	char *err = NULL;
	int failed = 0;
	const char *whole = NULL;
	char *counted = NULL;
	if (!parse_rewritten(&parsed, &out, src, o, warm, &err))
		whole = "the rewritten file does not parse";
	else if (parsed.ndiags > input_errors) {
		counted = xprintf("the rewritten file has %d clang error%s where the input had %d (first at the output's %d:%d: %s)",
				  parsed.ndiags, parsed.ndiags == 1 ? "" : "s", input_errors, parsed.diags[0].line,
				  parsed.diags[0].col, parsed.diags[0].message);
		whole = counted;
	}
	struct offset_map map = offset_map(e);
	/* new errors inside loops' replacements are those loops' alone: the others are validated
	 * as usual (and rewritten again without them); errors elsewhere fail every loop */
	int *blamed = xcalloc((size_t)m->nloops + 1, sizeof *blamed);
	bool any_blamed = false;
	for (int i = 0; counted && i < m->nloops; i++) {
		blamed[i] = m->loops[i].rewritten ? error_in(&parsed, loop_block(&map, e, &m->loops[i])) + 1 : 0;
		any_blamed |= blamed[i] > 0;
	}
	if (any_blamed)
		whole = NULL;
	struct top_level top = {0};
	if (!whole)
		cursor_visit_file(parsed.tu, collect_top_level, &top);
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (!l->rewritten || !variant_row(l->variant)->validate)
			continue; /* (no-loads is not a pipeline: nothing to prove) */
		struct region r = {.out = &out, .block_cursor = clang_getNullCursor(), .main_loop = clang_getNullCursor(),
				    .producer = clang_getNullCursor(),
				    .loader = clang_getNullCursor(), .other_files = m->other_files};
		r.block = loop_block(&map, e, l);
		char *own = NULL;
		if (whole)
			r.problem = whole;
		else if (blamed[i]) {
			const struct diag *d = &parsed.diags[blamed[i] - 1];
			own = xprintf("its replacement has a clang error (%s)", d->message);
			r.problem = own;
			r.problem_at = d->offset;
		} else
			validate_loop(&r, l, &top);
		if (r.problem) {
			int line, col;
			char *at = NULL;
			if (!whole) {
				source_line_col(&out, r.problem_at, &line, &col);
				at = xprintf(" (output %d:%d)", line, col);
			}
			free(l->invalid);
			l->invalid = xprintf("the rewrite failed validation: %s%s; the loop is left as written", r.problem,
					     at ? at : "");
			free(at);
			failed++;
		}
		free(own);
	}
	free(blamed);
	failed += validate_pairs(m, &out, &map, whole, &top);
	failed += validate_queues(m, src, &out, &map, whole, &top);
	free(map.v);
	free(top.c.v);
	free(top.s);
	free(counted);
	free(err);
	parsed_free(&parsed);
	source_free(&out);
	return failed;
}
