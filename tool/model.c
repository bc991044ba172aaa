/* model.c: the K-loop model's lifetime and the sums every stage reads. */
#include "pipefy.h"

#include <stdlib.h>

long tile_bytes(const struct kloop *l, int i)
{
	return l->tiles[i].bytes >= 0 ? l->tiles[i].bytes : l->instance_bytes ? l->instance_bytes[i] : -1;
}

long kloop_tile_bytes(const struct kloop *l)
{
	long sum = 0;
	for (int i = 0; i < l->ntiles; i++) {
		if (tile_bytes(l, i) < 0)
			return -1;
		sum += tile_bytes(l, i);
	}
	return sum;
}

int kloop_block_x(const struct kloop *l) { return l->block_dim[0] > 0 ? l->block_dim[0] : l->block_threads; }

/* Flops a thread computes per tile times the block's threads, per byte of tile loaded; -1 when
 * a part is unknown. */
double kloop_ratio(const struct kloop *l)
{
	long bytes = kloop_tile_bytes(l);
	return l->flops_per_thread >= 0 && l->block_threads > 0 && bytes > 0
		       ? l->flops_per_thread * l->block_threads / (double)bytes
		       : -1;
}

/* Where static tile `tile` starts, staged S times, in the launch's dynamic shared memory its
 * tiles move to: each tile's stages together, 128-byte aligned, in declaration order; tile ==
 * ntiles gives the bytes they take. */
long kloop_promoted_offset(const struct kloop *l, int S, int tile)
{
	long at = 0;
	for (int i = 0; i < tile && i < l->ntiles; i++)
		at += (S * tile_bytes(l, i) + 127) / 128 * 128;
	return at;
}

/* What a fill helper of a loop's owns. */
static void helper_fill_free(struct helper_fill *h)
{
	for (int j = 0; j < h->nstores; j++)
		FREE_ALL(h->stores[j].base, h->stores[j].type);
	FREE_ALL(h->stores, h->decls, h->decl_names, h->name, h->refusal);
}

/* What a loop's box (a tile's TMA box) owns. */
static void box_free(struct tma_box *b)
{
	FREE_ALL(b->pointer, b->row_elems, b->col0, b->row0, b->flat, b->fits);
}

/* Frees each of the n strings of v, then v. */
static void strings_free(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void refusals_free(struct refusal *r, int n)
{
	for (int i = 0; i < n; i++)
		free(r[i].reason);
	free(r);
}

/* What find, check and measure read of the loop's statements, tiles and copies. */
static void kloop_body_free(struct kloop *l)
{
	for (int h = 0; h < l->nhelpers; h++)
		helper_fill_free(&l->helpers[h]);
	free(l->helpers);
	for (int j = 0; j < l->nivars; j++)
		FREE_ALL(l->ivars[j].name, l->ivars[j].type, l->ivars[j].init);
	free(l->ivars);
	for (int j = 0; j < l->ntiles; j++)
		FREE_ALL(l->tiles[j].name, l->tiles[j].elem_type);
	free(l->tiles);
	for (int j = 0; j < l->ncopies; j++)
		free(l->copies[j].type);
	free(l->copies);
	for (int j = 0; j < l->nstmts; j++)
		FREE_ALL(l->stmts[j].cl.bound_text, l->stmts[j].cl.stride_text, l->stmts[j].inner.bound_text,
			 l->stmts[j].inner.stride_text);
	FREE_ALL(l->stmts, l->refs, l->pipe_ops, l->scratch, l->assigned);
	edits_free(&l->local_values);
}

static void kloop_free(struct kloop *l)
{
	kloop_body_free(l);
	FREE_ALL(l->function, l->function_error, l->block_source, l->block_shape_source, l->twice, l->mangled);
	strings_free(l->instance_symbols, l->ninstance_symbols);
	for (int j = 0; j < l->noptions; j++)
		free(l->options[j].verdict);
	FREE_ALL(l->indent, l->unit, l->instance_bytes);
	refusals_free(l->refusals, l->nrefusals);
	refusals_free(l->unknowns, l->nunknowns);
	for (int v = 0; v < VARIANT_COUNT; v++)
		free(l->legal[v].refusal);
	FREE_ALL(l->one_stage, l->one_stage_fact, l->launch_edits, l->launch_unknown, l->enlarge_refusal,
		 l->promote_refusal, l->invalid, l->promote_decls);
	for (int j = 0; j < l->nboxes; j++)
		box_free(&l->boxes[j]);
	FREE_ALL(l->boxes, l->block_check, l->bump_fits, l->box_problem);
	for (int j = 0; j < l->ntma_launches; j++)
		for (int k = 0; k < 4; k++)
			free(l->tma_launches[j].config[k]);
	FREE_ALL(l->tma_launches, l->tma_collective, l->regs_note, l->plan_note, l->plan_reason, l->declined,
		 l->hint);
}

static void pair_free(struct launch_pair *p)
{
	FREE_ALL(p->first, p->second, p->callee);
	for (int k = 0; k < 4; k++)
		FREE_ALL(p->config[k], p->first_config[k]);
	FREE_ALL(p->between.v, p->refusal, p->queue_refusal, p->invalid, p->queue_invalid, p->queue_declined);
	queue_accesses_free(&p->deps[0]);
	queue_accesses_free(&p->deps[1]);
	FREE_ALL(p->waits_all, p->mangled[0], p->mangled[1], p->reason);
}

void model_free(struct model *m)
{
	pure_headers(NULL); /* (what the run read of its headers) */
	for (int i = 0; i < m->nloops; i++)
		kloop_free(&m->loops[i]);
	free(m->loops);
	for (int i = 0; i < m->npairs; i++)
		pair_free(&m->pairs[i]);
	free(m->pairs);
	launches_free(&m->launches);
	functions_free(&m->functions);
	memset(m, 0, sizeof *m);
}

struct refusal refusal_make(size_t offset, const char *fmt, va_list ap)
{
	return (struct refusal){offset, vxprintf(fmt, ap)};
}

int kloop_stmt_at(const struct kloop *l, size_t offset)
{
	for (int i = 0; i < l->nstmts; i++)
		if (offset >= l->stmts[i].text.begin && offset < l->stmts[i].text.end)
			return i;
	return -1;
}

const struct helper_fill *kloop_helper_at(const struct kloop *l, int stmt)
{
	for (int h = 0; h < l->nhelpers; h++)
		if (l->helpers[h].stmt == stmt)
			return &l->helpers[h];
	return NULL;
}
