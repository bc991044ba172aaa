/* find.h: what find.c shares with the files that read parts of a loop for it (body.c, the
 * body's statements; helper.c, a helper that fills the tiles). Not a stage interface. */
#ifndef PIPEFY_FIND_H
#define PIPEFY_FIND_H

#include "pipefy.h"

/* The loop variable declared by decl, added when it is not one yet (kloop_ivar finds one). */
struct induction *kloop_add_ivar(struct kloop *l, CXCursor decl, const char *init);
/* The tile declared by decl, added when it is not one yet: its index (kloop_tile finds one). */
int kloop_add_tile(struct kloop *l, CXCursor decl);

/* body.c: the statements' roles, the copies and the tiles they fill; then (after a fill
 * helper, if any, became a copy) the locals the copies need and the copy loops' shapes. */
void find_body(struct kloop *l, const struct source *src, CXCursor body);
void find_body_locals(struct kloop *l, const struct source *src);

/* helper.c: h, a fill helper of l's, from its call (h->stmt). */
void find_helper(struct kloop *l, const struct source *src, CXCursor body, struct helper_fill *h);

#endif
