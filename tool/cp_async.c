/* cp_async.c: the cp.async family (--variant=cp.async, sm_80): every copy becomes a
 * __pipeline_memcpy_async into the stage being filled, a loader starts tile t+S-1 while tile t
 * is computed, and __pipeline_wait_prior with one barrier an iteration keeps the stages apart;
 * a fill helper gets an asynchronous copy of its own. Its validation reads the main loop back. */
#include "stage.h"
#include "region.h"

#include <stdlib.h>

static char *address_of(const struct source *src, const struct edits *refs, struct span lvalue, bool is_deref,
			struct span ptr)
{
	if (is_deref)
		return render(src, refs, ptr);
	char *v = render(src, refs, lvalue);
	char *r = xprintf("&%s", v);
	free(v);
	return r;
}

/* __pipeline_memcpy_async for one copy; a guard becomes the zero-fill argument, with the
 * load's base pointer as a source address that stays valid when the guard is false. */
static char *cp_async_copy(const struct source *src, const struct edits *refs, const struct copy *cp)
{
	char *dst = address_of(src, refs, cp->dst, cp->dst_is_deref, cp->dst_ptr);
	char *from = address_of(src, refs, cp->src, cp->src_is_deref, cp->src_ptr);
	char *r;
	if (cp->guard.end > cp->guard.begin) {
		char *g = render(src, refs, cp->guard), *guard = load_condition(cp, g);
		free(g);
		char *base = span_text(src, cp->src_base);
		r = xprintf(NAME_PIPELINE_COPY "(%s, %s ? %s : %s, sizeof(%s), %s ? 0 : sizeof(%s))%s", dst,
			    guard, from, base, cp->type, guard, cp->type, statement_end(cp));
		free(guard);
		free(base);
	} else {
		r = xprintf(NAME_PIPELINE_COPY "(%s, %s, sizeof(%s))", dst, from, cp->type);
	}
	free(dst);
	free(from);
	return r;
}

static char *helper_async_name(const struct helper_fill *h) { return xprintf("%s_pipefy_async", h->name); }

/* Whether the asynchronous copy of loop index's fill helper k is made already: for an earlier
 * loop rewritten with cp.async, or an earlier call of this loop's. */
static bool async_helper_made(const struct model *m, int index, int k)
{
	const struct kloop *l = &m->loops[index];
	for (int j = 0; j <= index; j++) {
		const struct kloop *o = &m->loops[j];
		if (j < index && !(o->rewritten && o->variant == VARIANT_CP_ASYNC))
			continue;
		for (int i = 0; i < (j < index ? o->nhelpers : k); i++)
			if (o->helpers[i].def.begin == l->helpers[k].def.begin)
				return true;
	}
	return false;
}

/* A copy of the fill helper whose stores are asynchronous copies, placed right after it. The
 * tile parameters keep their types: the loader hands it the stage being filled, As[s], which
 * decays to the same pointer type As did. */
static void add_async_helper(const struct helper_fill *h, const struct source *src, struct edits *out)
{
	struct edits e = {0};
	char *async = helper_async_name(h);
	edits_add(&e, h->name_at, strlen(h->name), async);
	for (int i = 0; i < h->nstores; i++) {
		const struct helper_store *st = &h->stores[i];
		char *dst = span_text(src, st->dst), *from = span_text(src, st->src), *call;
		if (st->guard.end > st->guard.begin) {
			char *g = span_text(src, st->guard), *guard = parenthesized(g);
			call = xprintf(NAME_PIPELINE_COPY "(&%s, %s ? &%s : %s, sizeof(%s), %s ? 0 : sizeof(%s))", dst,
				       guard, from, st->base, st->type, guard, st->type);
			free(g);
			free(guard);
		} else {
			call = xprintf(NAME_PIPELINE_COPY "(&%s, &%s, sizeof(%s))", dst, from, st->type);
		}
		edits_add(&e, st->text.begin, st->text.end - st->text.begin, call);
		free(call);
		free(dst);
		free(from);
	}
	/* (each declaration of it, again under the copy's name) */
	for (int i = 0; i < h->ndecls; i++) {
		struct edits d = {0};
		char *decl = NULL, *derr = NULL;
		edits_add(&d, h->decl_names[i], strlen(h->name), async);
		if (edits_apply_range(&d, src->text, h->decls[i].begin, h->decls[i].end, &decl, &derr)) {
			char *text = xprintf("\n%s", decl);
			edits_add(out, h->decls[i].end, 0, text);
			free(text);
		}
		free(decl);
		free(derr);
		edits_free(&d);
	}
	char *body = NULL, *err = NULL;
	if (edits_apply_range(&e, src->text, h->def.begin, h->def.end, &body, &err)) {
		char *text = xprintf("\n\n// pipefy: '%s' with its copies made asynchronous (cp.async), for the pipelined "
				     "loop that calls it\n%s",
				     h->name, body);
		edits_add(out, h->def.end, 0, text);
		free(text);
	}
	free(body);
	free(err);
	free(async);
	edits_free(&e);
}


void rewrite_cp_async(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		      struct file_needs *needs)
{
	struct layout y = layout_begin(l, src);
	int S = y.S;
	char *extra2 = xprintf("%s%s", y.U, y.U);
	for (int i = 0; i < l->ncopies; i++) {
		char *call = cp_async_copy(src, &y.refs, &l->copies[i]);
		edits_add(&y.stmt_edits, l->copies[i].text.begin, l->copies[i].text.end - l->copies[i].text.begin, call);
		free(call);
	}
	layout_add_refs_outside_copies(&y);
	/* copy loops strided by the block size, `for (i = tid; i < N; i += blockDim.x)`: under
	 * `blockDim.x == 256` (the launches' size) a compile-time number of trips, which the
	 * compiler unrolls, computing no trip count per tile; other block sizes run the loop as
	 * written (on the H200, hgemm_wmma's cp.async x2 1.05-1.06x faster so) */
	if (l->block_threads > 0) {
		layout_block_guard(&y, "the copy loops are unrolled", false);
		if (y.guard)
			add_copy_loop_trips(l, src, &y.stmt_edits, true);
	}
	for (int k = 0; k < l->nhelpers; k++) {
		const struct helper_fill *h = &l->helpers[k];
		char *async = helper_async_name(h);
		edits_add(&y.stmt_edits, h->callee.begin, h->callee.end - h->callee.begin, async);
		free(async);
	}

	struct strbuf sb = {0};
	char *what = xprintf("cp.async, %d stages: tile t+%d is copied while tile t is computed", S, S - 1);
	add_block_start(&sb, &y, what);
	free(what);
	sb_printf(&sb, "%s// pipefy: copy the tile at the cursor into stage " STAGE_FILL " and advance the cursor;\n", y.I1);
	sb_printf(&sb, "%s// one commit per call, an empty group once the tiles run out, keeps wait_prior exact\n", y.I1);
	sb_printf(&sb, "%sauto " NAME_LOAD " = [&](int " STAGE_FILL ") {\n", y.I1);
	add_cursor_shadows(&sb, &y);
	char *cond = trimmed(src, l->cond);
	sb_printf(&sb, "%sif (%s) {\n", y.I2, cond);
	free(cond);
	bool first = true;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || st->role == ROLE_COPY_DECL || st->role == ROLE_BUMP)
			add_stmt(&sb, src, &y.stmt_edits, st, y.I1, extra2, &first);
	}
	add_cursor_advance(&sb, &y, y.I3);
	sb_printf(&sb, "%s}\n", y.I2);
	sb_printf(&sb, "%s" NAME_PIPELINE_COMMIT "();\n", y.I2);
	sb_printf(&sb, "%s};\n", y.I1);
	add_prologue_loads(&sb, &y, "copying");
	sb_printf(&sb, "%sint " STAGE_READ " = 0; // the stage that holds tile t\n", y.I1);
	sb_printf(&sb, "%s// pipefy: main loop: wait for tile t, start tile t+%d, compute tile t; the last\n", y.I1, S - 1);
	sb_printf(&sb, "%s// iterations find no tile left to start and only compute: that is the epilogue\n", y.I1);
	if (test_break("participation")) /* (a fault for validation to catch: a test of the thread) */
		sb_printf(&sb, "%sif (threadIdx.x < 1024u)\n", y.I1);
	add_main_header(&sb, &y);
	sb_printf(&sb, "%s" NAME_PIPELINE_WAIT "(%d); // tile t has landed for this thread...\n", y.I2, S - 2);
	if (!test_break("barrier"))
		sb_printf(&sb, "%s__syncthreads();          // ...and for all; stage (t-1) %% %d is free again\n", y.I2, S);
	/* (a power of two wraps with a mask: `%` of a signed int costs a sign fix-up) */
	bool mask = (S & (S - 1)) == 0;
	sb_printf(&sb, "%s" NAME_LOAD "((" STAGE_READ " + %d) %s %d);\n", y.I2, S - 1, mask ? "&" : "%", mask ? S - 1 : S);
	if (index == 0 && test_break("clangerror")) /* (an error in the first loop's rewrite alone) */
		sb_printf(&sb, "%spipefy_undeclared = 0;\n", y.I2);
	add_compute(&sb, &y);
	sb_printf(&sb, "%s" STAGE_READ " = (" STAGE_READ " + 1) %s %d;\n", y.I2, mask ? "&" : "%", mask ? S - 1 : S);
	sb_printf(&sb, "%s}\n", y.I1);
	/* the last iterations read stages without a barrier after them: a second run of the loop
	 * (in an outer loop) or the code after it must not refill one while others still read */
	sb_printf(&sb, "%s__syncthreads(); // pipefy: every thread is done with the last tile\n", y.I1);
	add_block_end(&sb, &y, out);
	free(extra2);
	layout_end(&y);
	needs->pipeline = true;
	/* one asynchronous copy of each fill helper, however many calls and loops call it */
	for (int k = 0; k < l->nhelpers; k++)
		if (!async_helper_made(m, index, k))
			add_async_helper(&l->helpers[k], src, out);
}


/* The main loop waits for its tile, synchronizes, then starts the next copy, and one barrier
 * follows the loop. */
void validate_cp_async(struct region *r, const struct kloop *l, const struct loop_view *v)
{
	(void)l;
	if (v->body.n < 3 || !starts(v->first[0], NAME_PIPELINE_WAIT "(") || !cursor_is_barrier(v->body.v[1]) ||
	    !starts(v->first[2], NAME_LOAD "(") || v->nbarriers != 1)
		problem(r, v->at, "the main loop does not wait, synchronize and start the next copy before the compute");
	barrier_after(r, v->at);
}
