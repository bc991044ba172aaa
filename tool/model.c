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
	for (int j = 0; j < h->nstores; j++) {
		free(h->stores[j].base);
		free(h->stores[j].type);
	}
	free(h->stores);
	free(h->decls);
	free(h->decl_names);
	free(h->name);
	free(h->refusal);
}

/* What a loop's box (a tile's TMA box) owns. */
static void box_free(struct tma_box *b)
{
	free(b->pointer);
	free(b->row_elems);
	free(b->col0);
	free(b->row0);
	free(b->flat);
	free(b->fits);
}

void model_free(struct model *m)
{
	pure_headers(NULL); /* (what the run read of its headers) */
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		free(l->function);
		free(l->function_error);
		for (int h = 0; h < l->nhelpers; h++)
			helper_fill_free(&l->helpers[h]);
		free(l->helpers);
		free(l->scratch);
		free(l->block_source);
		free(l->block_shape_source);
		free(l->twice);
		free(l->mangled);
		for (int k = 0; k < l->ninstance_symbols; k++)
			free(l->instance_symbols[k]);
		free(l->instance_symbols);
		for (int j = 0; j < l->noptions; j++)
			free(l->options[j].verdict);
		free(l->indent);
		free(l->unit);
		for (int j = 0; j < l->nivars; j++) {
			free(l->ivars[j].name);
			free(l->ivars[j].type);
			free(l->ivars[j].init);
		}
		free(l->ivars);
		for (int j = 0; j < l->ntiles; j++) {
			free(l->tiles[j].name);
			free(l->tiles[j].elem_type);
		}
		free(l->tiles);
		free(l->instance_bytes);
		for (int j = 0; j < l->ncopies; j++)
			free(l->copies[j].type);
		free(l->copies);
		edits_free(&l->local_values);
		free(l->assigned);
		for (int j = 0; j < l->nstmts; j++) {
			free(l->stmts[j].cl.bound_text);
			free(l->stmts[j].cl.stride_text);
			free(l->stmts[j].inner.bound_text);
			free(l->stmts[j].inner.stride_text);
		}
		free(l->stmts);
		free(l->refs);
		free(l->pipe_ops);
		for (int j = 0; j < l->nrefusals; j++)
			free(l->refusals[j].reason);
		for (int j = 0; j < l->nunknowns; j++)
			free(l->unknowns[j].reason);
		free(l->unknowns);
		free(l->refusals);
		for (int v = 0; v < VARIANT_COUNT; v++)
			free(l->legal[v].refusal);
		free(l->one_stage);
		free(l->one_stage_fact);
		free(l->launch_edits);
		free(l->launch_unknown);
		free(l->enlarge_refusal);
		free(l->promote_refusal);
		free(l->invalid);
		free(l->promote_decls);
		for (int j = 0; j < l->nboxes; j++)
			box_free(&l->boxes[j]);
		free(l->boxes);
		free(l->block_check);
		free(l->bump_fits);
		free(l->box_problem);
		for (int j = 0; j < l->ntma_launches; j++)
			for (int k = 0; k < 4; k++)
				free(l->tma_launches[j].config[k]);
		free(l->tma_launches);
		free(l->tma_collective);
		free(l->regs_note);
		free(l->plan_note);
		free(l->plan_reason);
		free(l->declined);
		free(l->hint);
	}
	free(m->loops);
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		free(p->first);
		free(p->second);
		free(p->callee);
		for (int k = 0; k < 4; k++) {
			free(p->config[k]);
			free(p->first_config[k]);
		}
		free(p->between.v);
		free(p->refusal);
		free(p->queue_refusal);
		free(p->invalid);
		free(p->queue_invalid);
		free(p->queue_declined);
		queue_accesses_free(&p->deps[0]);
		queue_accesses_free(&p->deps[1]);
		free(p->waits_all);
		free(p->mangled[0]);
		free(p->mangled[1]);
		free(p->reason);
	}
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
