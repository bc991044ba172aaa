/* rewrite.c: turns a checked, planned loop model into edits: tile declarations gain a stage
 * dimension, and the loop becomes prologue + main loop around a loader that fetches the tile
 * at a cursor of the loop's own induction variables. */
#include "pipefy.h"

#include <stdlib.h>

#define STAGE_READ "pipefy_stage"
#define STAGE_FILL "pipefy_dst"

/* Text of a span with the edits inside it applied. */
static char *render(const struct source *src, const struct edits *e, struct span s)
{
	char *out, *err;
	if (!edits_apply_range(e, src->text, s.begin, s.end, &out, &err)) {
		/* The rewrite's own edits never overlap; if they do, that is a pipefy bug. */
		fprintf(stderr, "pipefy: internal error: %s\n", err);
		abort();
	}
	return out;
}

/* Append text, adding `extra` after every newline that starts a non-empty line. */
static void add_reindented(struct strbuf *sb, const char *text, const char *extra)
{
	for (const char *p = text; *p; p++) {
		sb_add(sb, p, 1);
		if (*p == '\n' && p[1] && p[1] != '\n')
			sb_puts(sb, extra);
	}
}

/* A statement's lines, moved `extra` deeper; a statement sharing its line gets its own. */
static void add_stmt(struct strbuf *sb, const struct source *src, const struct edits *e,
		     const struct body_stmt *st, const char *line_indent, const char *extra)
{
	char *text = render(src, e, st->span);
	bool own_line = st->span.begin == 0 || src->text[st->span.begin - 1] == '\n';
	if (own_line)
		sb_puts(sb, extra);
	else
		sb_printf(sb, "%s%s", line_indent, extra);
	add_reindented(sb, text, extra);
	if (sb->len == 0 || sb->data[sb->len - 1] != '\n')
		sb_puts(sb, "\n");
	free(text);
}

static char *trimmed(const struct source *src, struct span s)
{
	while (s.begin < s.end && (src->text[s.begin] == ' ' || src->text[s.begin] == '\t' || src->text[s.begin] == '\n'))
		s.begin++;
	while (s.end > s.begin &&
	       (src->text[s.end - 1] == ' ' || src->text[s.end - 1] == '\t' || src->text[s.end - 1] == '\n'))
		s.end--;
	return span_text(src, s);
}

/* `&x`, or `p` when x is `*p`, each with the tile references indexed. */
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
		char *guard = render(src, refs, cp->guard);
		char *base = span_text(src, cp->src_base);
		r = xprintf("__pipeline_memcpy_async(%s, (%s) ? %s : %s, sizeof(%s), (%s) ? 0 : sizeof(%s))", dst,
			    guard, from, base, cp->type, guard, cp->type);
		free(guard);
		free(base);
	} else {
		r = xprintf("__pipeline_memcpy_async(%s, %s, sizeof(%s))", dst, from, cp->type);
	}
	free(dst);
	free(from);
	return r;
}

static bool in_span(size_t off, struct span s) { return off >= s.begin && off < s.end; }

static void rewrite_cp_async(struct kloop *l, const struct source *src, struct edits *out)
{
	int S = l->stages;
	const char *I0 = l->indent, *U = l->unit;
	char *I1 = xprintf("%s%s", I0, U), *I2 = xprintf("%s%s", I1, U), *I3 = xprintf("%s%s", I2, U);
	char *extra2 = xprintf("%s%s", U, U);

	/* Tile names inside the loop: stage being filled in copies, stage being read elsewhere. */
	struct edits refs = {0};
	for (int i = 0; i < l->nrefs; i++) {
		bool in_copy = l->stmts[l->refs[i].stmt].role == ROLE_COPY;
		edits_add(&refs, l->refs[i].at.end, 0, in_copy ? "[" STAGE_FILL "]" : "[" STAGE_READ "]");
	}
	/* Statement-level edits: each copy becomes a cp.async; other tile names as above. */
	struct edits stmt_edits = {0};
	for (int i = 0; i < l->ncopies; i++) {
		char *call = cp_async_copy(src, &refs, &l->copies[i]);
		edits_add(&stmt_edits, l->copies[i].text.begin, l->copies[i].text.end - l->copies[i].text.begin, call);
		free(call);
	}
	for (int i = 0; i < refs.n; i++) {
		bool inside_copy = false;
		for (int c = 0; c < l->ncopies; c++)
			if (in_span(refs.v[i].offset, l->copies[c].text) || refs.v[i].offset == l->copies[c].text.end)
				inside_copy = true;
		if (!inside_copy)
			edits_add(&stmt_edits, refs.v[i].offset, 0, refs.v[i].text);
	}

	struct strbuf sb = {0};
	sb_printf(&sb, "// pipefy: K-loop pipelined with cp.async, %d stages: tile t+%d is copied while tile t is computed\n",
		  S, S - 1);
	sb_printf(&sb, "%s{\n", I0);
	/* Tiles declared in the body move out of the loop; __shared__ storage is static anyway. */
	char *dim = xprintf("[%d]", S);
	for (int i = 0; i < l->nstmts; i++) {
		if (l->stmts[i].role != ROLE_TILE_DECL)
			continue;
		struct edits decl = {0};
		for (int t = 0; t < l->ntiles; t++)
			if (l->tiles[t].body_stmt == i)
				edits_add(&decl, l->tiles[t].name_end, 0, dim);
		char *text = render(src, &decl, l->stmts[i].text);
		sb_printf(&sb, "%s%s\n", I1, text);
		free(text);
		edits_free(&decl);
	}
	sb_printf(&sb, "%s// pipefy: the loop variables of the next tile to load\n", I1);
	for (int i = 0; i < l->nivars; i++) {
		const struct induction *v = &l->ivars[i];
		const char *sep = v->type[strlen(v->type) - 1] == '*' ? "" : " ";
		sb_printf(&sb, "%s%s%spipefy_next_%s = %s;\n", I1, v->type, sep, v->name, v->init);
	}
	sb_printf(&sb, "%s// pipefy: copy the tile at the cursor into stage " STAGE_FILL " and advance the cursor;\n", I1);
	sb_printf(&sb, "%s// one commit per call, an empty group once the tiles run out, keeps wait_prior exact\n", I1);
	sb_printf(&sb, "%sauto pipefy_load = [&](int " STAGE_FILL ") {\n", I1);
	for (int i = 0; i < l->nivars; i++) {
		const struct induction *v = &l->ivars[i];
		const char *sep = v->type[strlen(v->type) - 1] == '*' ? "" : " ";
		sb_printf(&sb, "%s%s%s%s = pipefy_next_%s;\n", I2, v->type, sep, v->name, v->name);
	}
	char *cond = trimmed(src, l->cond);
	sb_printf(&sb, "%sif (%s) {\n", I2, cond);
	free(cond);
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || st->role == ROLE_COPY_DECL || st->role == ROLE_BUMP)
			add_stmt(&sb, src, &stmt_edits, st, I1, extra2);
	}
	char *inc = trimmed(src, l->inc);
	if (*inc)
		sb_printf(&sb, "%s%s;\n", I3, inc);
	free(inc);
	for (int i = 0; i < l->nivars; i++)
		sb_printf(&sb, "%spipefy_next_%s = %s;\n", I3, l->ivars[i].name, l->ivars[i].name);
	sb_printf(&sb, "%s}\n", I2);
	sb_printf(&sb, "%s__pipeline_commit();\n", I2);
	sb_printf(&sb, "%s};\n", I1);
	if (S == 2) {
		sb_printf(&sb, "%s// pipefy: prologue: start copying tile 0\n", I1);
		sb_printf(&sb, "%spipefy_load(0);\n", I1);
	} else {
		sb_printf(&sb, "%s// pipefy: prologue: start copying tiles 0..%d\n", I1, S - 2);
		sb_printf(&sb, "%sfor (int pipefy_s = 0; pipefy_s < %d; ++pipefy_s)\n", I1, S - 1);
		sb_printf(&sb, "%spipefy_load(pipefy_s);\n", I2);
	}
	sb_printf(&sb, "%sint " STAGE_READ " = 0; // the stage that holds tile t\n", I1);
	sb_printf(&sb, "%s// pipefy: main loop: wait for tile t, start tile t+%d, compute tile t; the last\n", I1, S - 1);
	sb_printf(&sb, "%s// iterations find no tile left to start and only compute: that is the epilogue\n", I1);
	char *header = span_text(src, (struct span){l->loop.begin, l->body.begin + 1});
	sb_puts(&sb, I1);
	add_reindented(&sb, header, U);
	free(header);
	sb_puts(&sb, "\n");
	sb_printf(&sb, "%s__pipeline_wait_prior(%d); // tile t has landed for this thread...\n", I2, S - 2);
	sb_printf(&sb, "%s__syncthreads();          // ...and for all; stage (t-1) %% %d is free again\n", I2, S);
	sb_printf(&sb, "%spipefy_load((" STAGE_READ " + %d) %% %d);\n", I2, S - 1, S);
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COMPUTE || st->role == ROLE_BUMP || (st->role == ROLE_COPY_DECL && st->also_compute))
			add_stmt(&sb, src, &stmt_edits, st, I1, U);
	}
	sb_printf(&sb, "%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", I2, S);
	sb_printf(&sb, "%s}\n", I1);
	sb_printf(&sb, "%s}", I0);
	char *block = sb_take(&sb);
	edits_add(out, l->loop.begin, l->loop.end - l->loop.begin, block);
	free(block);

	for (int i = 0; i < l->ntiles; i++)
		if (!l->tiles[i].in_loop)
			edits_add(out, l->tiles[i].name_end, 0, dim);
	free(dim);
	edits_free(&refs);
	edits_free(&stmt_edits);
	free(I1);
	free(I2);
	free(I3);
	free(extra2);
}

/* `#include <cuda_pipeline.h>` after the last include before the first rewritten loop. */
static void add_pipeline_include(const struct model *m, const struct source *src, struct edits *out)
{
	if (strstr(src->text, "cuda_pipeline.h"))
		return;
	size_t first = src->len;
	for (int i = 0; i < m->nloops; i++)
		if (m->loops[i].rewritten && m->loops[i].loop.begin < first)
			first = m->loops[i].loop.begin;
	size_t at = 0;
	for (int ln = 0; ln < src->nlines && src->line_start[ln] < first; ln++) {
		const char *p = src->text + src->line_start[ln];
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "#include", 8) == 0)
			at = ln + 1 < src->nlines ? src->line_start[ln + 1] : src->len;
	}
	edits_add(out, at, 0, "#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async\n");
}

void rewrite_kloops(struct model *m, const struct source *src, struct edits *e)
{
	bool cp_async = false;
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (l->nrefusals > 0 || l->variant == VARIANT_AUTO)
			continue;
		if (l->variant == VARIANT_CP_ASYNC) {
			rewrite_cp_async(l, src, e);
			cp_async = true;
		}
		l->rewritten = true;
	}
	if (cp_async)
		add_pipeline_include(m, src, e);
}
