/* plan.c: picks the variant and the stage count for each legal loop. */
#include "pipefy.h"

#include <stdlib.h>

void plan_kloops(struct model *m, const struct options *o)
{
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (l->nrefusals > 0)
			continue;
		enum variant want = o->variant;
		if (want == VARIANT_AUTO || want == VARIANT_CP_ASYNC) {
			if (!l->cp_async_ok) {
				kloop_refuse(l, l->loop.begin, "cp.async needs plain 4, 8 or 16-byte copies: %s",
					     l->cp_async_refusal);
				continue;
			}
			l->variant = VARIANT_CP_ASYNC;
			l->stages = o->stages ? o->stages : 2;
		} else {
			kloop_refuse(l, l->loop.begin, "the %s variant is not available in this version",
				     variant_name(want));
		}
	}
}
