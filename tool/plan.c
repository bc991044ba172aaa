/* plan.c: picks the variant and the stage count for each legal loop. */
#include "pipefy.h"

#include <stdlib.h>

/* Static __shared__ declarations are limited to 48 KB per block on every architecture;
 * more needs dynamic shared memory and a launch-size change. */
#define STATIC_SHARED_LIMIT 49152L

static long tile_bytes(const struct kloop *l)
{
	long sum = 0;
	for (int i = 0; i < l->ntiles; i++) {
		if (l->tiles[i].bytes < 0)
			return -1;
		sum += l->tiles[i].bytes;
	}
	return sum;
}

/* The static shared memory with S stages: the function's own plus S-1 more copies of the tiles. */
static long shared_with_stages(const struct kloop *l, int S)
{
	long tiles = tile_bytes(l);
	return tiles < 0 || l->shared_bytes < 0 ? -1 : l->shared_bytes + (S - 1) * tiles;
}

/* Fewer stages when the static limit would be crossed; false when even two do not fit. */
static bool fit_static_shared(struct kloop *l)
{
	int wanted = l->stages;
	while (l->stages >= 2 && shared_with_stages(l, l->stages) > STATIC_SHARED_LIMIT)
		l->stages--;
	if (l->stages < 2) {
		kloop_refuse(l, l->loop.begin, "2 stages need %.1f KB of static shared memory, over the 48 KB limit",
			     shared_with_stages(l, 2) / 1024.0);
		return false;
	}
	if (l->stages < wanted)
		l->plan_note = xprintf("capped at %d stages: %d need %.1f KB of static shared memory, over the 48 KB limit",
				       l->stages, wanted, shared_with_stages(l, wanted) / 1024.0);
	return true;
}

void plan_kloops(struct model *m, const struct options *o)
{
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (l->nrefusals > 0)
			continue;
		enum variant want = o->variant;
		if (want == VARIANT_AUTO) {
			/* Until the planner weighs the numbers: 16-byte copies pay off as cp.async,
			 * narrower ones (and conversions) through registers. */
			bool wide = l->cp_async_ok;
			for (int c = 0; c < l->ncopies && wide; c++)
				wide = l->copies[c].width >= 8;
			want = wide || !l->ldg_ok ? VARIANT_CP_ASYNC : VARIANT_LDG;
		}
		if (want == VARIANT_CP_ASYNC && !l->cp_async_ok) {
			kloop_refuse(l, l->loop.begin, "cp.async needs plain 4, 8 or 16-byte copies: %s", l->cp_async_refusal);
			continue;
		}
		if (want == VARIANT_LDG && !l->ldg_ok) {
			kloop_refuse(l, l->loop.begin, "register staging: %s", l->ldg_refusal);
			continue;
		}
		l->variant = want;
		l->stages = want == VARIANT_LDG ? 2 : o->stages ? o->stages : 2;
		if (!fit_static_shared(l))
			l->variant = VARIANT_AUTO;
	}
}
