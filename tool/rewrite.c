/* rewrite.c: turns a checked, planned loop model into edits: tile declarations gain a stage
 * dimension, and the loop becomes prologue + main loop around a loader that fetches the tile
 * at a cursor of the loop's own induction variables. */
#include "pipefy.h"

#include <ctype.h>
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

/* Append text, adding `extra` after every newline that starts a line with content;
 * preprocessor lines keep column 0. */
static void add_reindented(struct strbuf *sb, const char *text, const char *extra)
{
	for (const char *p = text; *p; p++) {
		sb_add(sb, p, 1);
		if (*p == '\n' && p[1] && p[1] != '\n' && p[1] != '#')
			sb_puts(sb, extra);
	}
}

/* A statement's lines, moved `extra` deeper; a statement sharing its line gets its own.
 * The first statement of a section drops the blank lines that separated it from the last. */
static void add_stmt(struct strbuf *sb, const struct source *src, const struct edits *e,
		     const struct body_stmt *st, const char *line_indent, const char *extra, bool *first)
{
	char *text = render(src, e, st->span);
	const char *start = text;
	bool own_line = st->span.begin == 0 || src->text[st->span.begin - 1] == '\n';
	if (*first)
		while (*start == '\n')
			start++;
	*first = false;
	if (!own_line)
		sb_puts(sb, line_indent);
	if (*start != '\n' && *start != '#')
		sb_puts(sb, extra);
	add_reindented(sb, start, extra);
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

/* `(g)` for a guard, without doubling the parentheses it already has. */
static char *parenthesized(const char *g)
{
	size_t n = strlen(g);
	if (n >= 2 && g[0] == '(' && g[n - 1] == ')') {
		int depth = 0;
		size_t i;
		for (i = 0; i < n; i++) {
			depth += g[i] == '(' ? 1 : g[i] == ')' ? -1 : 0;
			if (depth == 0)
				break;
		}
		if (i == n - 1)
			return xstrdup(g);
	}
	return xprintf("(%s)", g);
}

/* The condition under which a copy loads: its guard, or the guard's negation where the fill is
 * the then-branch. */
static char *load_condition(const struct copy *cp, const char *g)
{
	char *p = parenthesized(g);
	if (!cp->guard_negated)
		return p;
	char *n = xprintf("(!%s)", p);
	free(p);
	return n;
}

/* An if/else copy is replaced up to its end, so its replacement carries the ';'. */
static const char *statement_end(const struct copy *cp) { return cp->guard_is_if ? ";" : ""; }

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
		char *g = render(src, refs, cp->guard), *guard = load_condition(cp, g);
		free(g);
		char *base = span_text(src, cp->src_base);
		r = xprintf("__pipeline_memcpy_async(%s, %s ? %s : %s, sizeof(%s), %s ? 0 : sizeof(%s))%s", dst,
			    guard, from, base, cp->type, guard, cp->type, statement_end(cp));
		free(guard);
		free(base);
	} else {
		r = xprintf("__pipeline_memcpy_async(%s, %s, sizeof(%s))", dst, from, cp->type);
	}
	free(dst);
	free(from);
	return r;
}

static char *helper_async_name(const struct helper_fill *h) { return xprintf("%s_pipefy_async", h->name); }

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
			call = xprintf("__pipeline_memcpy_async(&%s, %s ? &%s : %s, sizeof(%s), %s ? 0 : sizeof(%s))", dst,
				       guard, from, st->base, st->type, guard, st->type);
			free(g);
			free(guard);
		} else {
			call = xprintf("__pipeline_memcpy_async(&%s, &%s, sizeof(%s))", dst, from, st->type);
		}
		edits_add(&e, st->text.begin, st->text.end - st->text.begin, call);
		free(call);
		free(dst);
		free(from);
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

static bool in_span(size_t off, struct span s) { return off >= s.begin && off < s.end; }

/* The pieces both variants build the loop from. */
struct layout {
	struct kloop *l;
	const struct source *src;
	int S;
	const char *U;           /* one indentation level */
	char *I0, *I1, *I2, *I3; /* the loop's level and three deeper */
	struct edits refs;       /* tile names: `As` -> `As[stage]` */
	struct edits stmt_edits; /* refs plus per-variant rewrites of the copies */
	char *guard;             /* when set, the pipelined loop runs only under it (block_size_guard) */
	char *guard_why;         /* and the comment above it: why */
};

/* A tile in the launch's dynamic shared memory that gets stages by a bigger launch: its
 * stages are copies of the launch's layout, pipefy_stride bytes apart (measure.c, plan.c). */
static bool staged_in_launch(const struct kloop *l, int tile)
{
	return l->tiles[tile].dynamic && l->stages > 1 && l->nlaunch_edits > 0;
}

static bool any_staged_in_launch(const struct kloop *l)
{
	for (int i = 0; i < l->ntiles; i++)
		if (staged_in_launch(l, i))
			return true;
	return false;
}

static struct layout layout_begin(struct kloop *l, const struct source *src)
{
	struct layout y = {.l = l, .src = src, .S = l->stages, .U = l->unit};
	y.I0 = xstrdup(l->indent);
	y.I1 = xprintf("%s%s", y.I0, y.U);
	y.I2 = xprintf("%s%s", y.I1, y.U);
	y.I3 = xprintf("%s%s", y.I2, y.U);
	for (int i = 0; i < l->nrefs && y.S > 1; i++) {
		bool in_copy = l->stmts[l->refs[i].stmt].role == ROLE_COPY;
		if (staged_in_launch(l, l->refs[i].tile)) {
			/* the tile's copy in the launch's shared memory at that stage */
			edits_add(&y.refs, l->refs[i].at.begin, 0, "pipefy_at(");
			edits_add(&y.refs, l->refs[i].at.end, 0,
				  in_copy ? ", " STAGE_FILL ", pipefy_stride)" : ", " STAGE_READ ", pipefy_stride)");
		} else
			edits_add(&y.refs, l->refs[i].at.end, 0, in_copy ? "[" STAGE_FILL "]" : "[" STAGE_READ "]");
	}
	return y;
}

/* Tile names outside the copies the variant replaced keep their plain stage index. */
static void layout_add_refs_outside_copies(struct layout *y)
{
	for (int i = 0; i < y->refs.n; i++) {
		bool inside_copy = false;
		for (int c = 0; c < y->l->ncopies; c++)
			if (in_span(y->refs.v[i].offset, y->l->copies[c].text) || y->refs.v[i].offset == y->l->copies[c].text.end)
				inside_copy = true;
		if (!inside_copy)
			edits_add(&y->stmt_edits, y->refs.v[i].offset, 0, y->refs.v[i].text);
	}
}

static void layout_end(struct layout *y)
{
	edits_free(&y->refs);
	edits_free(&y->stmt_edits);
	free(y->guard);
	free(y->guard_why);
	free(y->I0);
	free(y->I1);
	free(y->I2);
	free(y->I3);
}

static const char *type_sep(const char *type) { return type[strlen(type) - 1] == '*' ? "" : " "; }

/* `{`, tiles declared in the body (hoisted: __shared__ storage is static anyway), and the
 * cursor: the loop variables of the next tile to load. */
static void add_block_start(struct strbuf *sb, struct layout *y, const char *what)
{
	struct kloop *l = y->l;
	/* (a second line of `what` is a comment line at the block's indentation) */
	const char *nl = strchr(what, '\n');
	if (nl)
		sb_printf(sb, "// pipefy: K-loop pipelined with %.*s\n%s%s\n", (int)(nl - what), what, y->I0, nl + 1);
	else
		sb_printf(sb, "// pipefy: K-loop pipelined with %s\n", what);
	if (y->guard) {
		sb_printf(sb, "%s", y->guard_why);
		sb_printf(sb, "%sif (%s) {\n", y->I0, y->guard);
	} else {
		sb_printf(sb, "%s{\n", y->I0);
	}
	char *dim = xprintf("[%d]", y->S);
	for (int i = 0; i < l->nstmts; i++) {
		if (l->stmts[i].role != ROLE_TILE_DECL)
			continue;
		struct edits decl = {0};
		for (int t = 0; t < l->ntiles && y->S > 1; t++)
			if (l->tiles[t].body_stmt == i)
				edits_add(&decl, l->tiles[t].name_end, 0, dim);
		char *text = render(y->src, &decl, l->stmts[i].text);
		sb_printf(sb, "%s%s\n", y->I1, text);
		free(text);
		edits_free(&decl);
	}
	free(dim);
	if (any_staged_in_launch(l))
		sb_printf(sb, "%s// pipefy: the launch gives the tiles' shared memory once per stage\n%sconst unsigned "
			      "pipefy_stride = pipefy_dynamic_smem_size() / %d;\n",
			  y->I1, y->I1, l->launch_stages);
	sb_printf(sb, "%s// pipefy: the loop variables of the next tile to load\n", y->I1);
	for (int i = 0; i < l->nivars; i++) {
		const struct induction *v = &l->ivars[i];
		sb_printf(sb, "%s%s%spipefy_next_%s = %s;\n", y->I1, v->type, type_sep(v->type), v->name, v->init);
	}
}

/* Inside a loader: the loop variables take the cursor's values. */
static void add_cursor_shadows(struct strbuf *sb, struct layout *y)
{
	for (int i = 0; i < y->l->nivars; i++) {
		const struct induction *v = &y->l->ivars[i];
		sb_printf(sb, "%s%s%s%s = pipefy_next_%s;\n", y->I2, v->type, type_sep(v->type), v->name, v->name);
	}
}

/* The loop's own increment, then the cursor keeps the advanced values. */
static void add_cursor_advance(struct strbuf *sb, struct layout *y, const char *indent)
{
	char *inc = trimmed(y->src, y->l->inc);
	if (*inc)
		sb_printf(sb, "%s%s;\n", indent, inc);
	free(inc);
	for (int i = 0; i < y->l->nivars; i++)
		sb_printf(sb, "%spipefy_next_%s = %s;\n", indent, y->l->ivars[i].name, y->l->ivars[i].name);
}

/* The user's for header, one level deeper, with the pragmas written above it. */
static void add_main_header(struct strbuf *sb, struct layout *y)
{
	if (y->l->pragmas.end > y->l->pragmas.begin) {
		char *p = span_text(y->src, y->l->pragmas);
		for (char *line = strtok(p, "\n"); line; line = strtok(NULL, "\n")) {
			while (*line == ' ' || *line == '\t')
				line++;
			sb_printf(sb, "%s%s\n", y->I1, line);
		}
		free(p);
	}
	char *header = span_text(y->src, (struct span){y->l->loop.begin, y->l->body.begin + 1});
	sb_puts(sb, y->I1);
	add_reindented(sb, header, y->U);
	free(header);
	sb_puts(sb, "\n");
}

/* The body without its copies and barriers, tiles indexed by the stage being read. */
static void add_compute(struct strbuf *sb, struct layout *y)
{
	bool first = true;
	for (int i = 0; i < y->l->nstmts; i++) {
		const struct body_stmt *st = &y->l->stmts[i];
		if (st->role == ROLE_COMPUTE || st->role == ROLE_BUMP ||
		    ((st->role == ROLE_COPY_DECL || st->role == ROLE_FETCH_DECL) && st->also_compute))
			add_stmt(sb, y->src, &y->stmt_edits, st, y->I1, y->U, &first);
	}
	if (y->l->tail.end > y->l->tail.begin) {
		char *tail = span_text(y->src, y->l->tail);
		sb_puts(sb, y->U);
		add_reindented(sb, tail, y->U);
		free(tail);
	}
}

static void add_block_end(struct strbuf *sb, struct layout *y, struct edits *out)
{
	struct kloop *l = y->l;
	sb_printf(sb, "%s}", y->I0);
	if (test_break("storage") && l->ntiles > 0) /* (a fault for validation to catch: a tile named after the block) */
		sb_printf(sb, "\n%s(void)%s;", y->I0, l->tiles[0].name);
	if (y->guard) {
		/* the loop as written, its tiles read and written in stage 0 */
		struct edits stage0 = {0};
		for (int i = 0; i < l->nrefs && y->S > 1; i++)
			if (!staged_in_launch(l, l->refs[i].tile))
				edits_add(&stage0, l->refs[i].at.end, 0, "[0]");
		char *as_written = render(y->src, &stage0, l->loop);
		sb_printf(sb, " else {\n");
		char *pragmas = span_text(y->src, l->pragmas);
		add_reindented(sb, pragmas, y->U);
		free(pragmas);
		sb_puts(sb, y->I1);
		add_reindented(sb, as_written, y->U);
		sb_printf(sb, "\n%s}", y->I0);
		free(as_written);
		edits_free(&stage0);
	}
	char *block = sb_take(sb);
	edits_add(out, l->loop.begin, l->loop.end - l->loop.begin, block);
	/* the pragmas now stand above the pipelined loop (a `#pragma unroll` before a block is an
	 * error) */
	if (l->pragmas.end > l->pragmas.begin)
		edits_add(out, l->pragmas.begin, l->pragmas.end - l->pragmas.begin, "");
	free(block);
	char *dim = xprintf("[%d]", y->S);
	for (int i = 0; i < l->ntiles && y->S > 1; i++)
		if (!l->tiles[i].in_loop && !staged_in_launch(l, i))
			edits_add(out, l->tiles[i].name_end, 0, dim);
	free(dim);
}

static void rewrite_cp_async(struct kloop *l, const struct source *src, struct edits *out)
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
	if (l->helper.stmt >= 0) {
		char *async = helper_async_name(&l->helper);
		edits_add(&y.stmt_edits, l->helper.callee.begin, l->helper.callee.end - l->helper.callee.begin, async);
		free(async);
	}

	struct strbuf sb = {0};
	char *what = xprintf("cp.async, %d stages: tile t+%d is copied while tile t is computed", S, S - 1);
	add_block_start(&sb, &y, what);
	free(what);
	sb_printf(&sb, "%s// pipefy: copy the tile at the cursor into stage " STAGE_FILL " and advance the cursor;\n", y.I1);
	sb_printf(&sb, "%s// one commit per call, an empty group once the tiles run out, keeps wait_prior exact\n", y.I1);
	sb_printf(&sb, "%sauto pipefy_load = [&](int " STAGE_FILL ") {\n", y.I1);
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
	sb_printf(&sb, "%s__pipeline_commit();\n", y.I2);
	sb_printf(&sb, "%s};\n", y.I1);
	if (S == 2) {
		sb_printf(&sb, "%s// pipefy: prologue: start copying tile 0\n", y.I1);
		sb_printf(&sb, "%spipefy_load(0);\n", y.I1);
	} else {
		sb_printf(&sb, "%s// pipefy: prologue: start copying tiles 0..%d\n", y.I1, S - 2);
		sb_printf(&sb, "%sfor (int pipefy_s = 0; pipefy_s < %d; ++pipefy_s)\n", y.I1, S - 1);
		sb_printf(&sb, "%spipefy_load(pipefy_s);\n", y.I2);
	}
	sb_printf(&sb, "%sint " STAGE_READ " = 0; // the stage that holds tile t\n", y.I1);
	sb_printf(&sb, "%s// pipefy: main loop: wait for tile t, start tile t+%d, compute tile t; the last\n", y.I1, S - 1);
	sb_printf(&sb, "%s// iterations find no tile left to start and only compute: that is the epilogue\n", y.I1);
	if (test_break("participation")) /* (a fault for validation to catch: a test of the thread) */
		sb_printf(&sb, "%sif (threadIdx.x < 1024u)\n", y.I1);
	add_main_header(&sb, &y);
	sb_printf(&sb, "%s__pipeline_wait_prior(%d); // tile t has landed for this thread...\n", y.I2, S - 2);
	if (!test_break("barrier"))
		sb_printf(&sb, "%s__syncthreads();          // ...and for all; stage (t-1) %% %d is free again\n", y.I2, S);
	sb_printf(&sb, "%spipefy_load((" STAGE_READ " + %d) %% %d);\n", y.I2, S - 1, S);
	add_compute(&sb, &y);
	sb_printf(&sb, "%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y.I2, S);
	sb_printf(&sb, "%s}\n", y.I1);
	/* the last iterations read stages without a barrier after them: a second run of the loop
	 * (in an outer loop) or the code after it must not refill one while others still read */
	sb_printf(&sb, "%s__syncthreads(); // pipefy: every thread is done with the last tile\n", y.I1);
	add_block_end(&sb, &y, out);
	free(extra2);
	layout_end(&y);
}


/* ---- tensor copies (--variant=tma, sm_90) ---- */

/* The helpers every tensor-copy kernel and launcher uses, once per file. The device ones are
 * one PTX instruction each (trapping if ever run below sm_90, where the launcher never runs
 * the copy); the host one makes a 2-D tensor map for an operand whose rows are row_elems long,
 * through the driver entry point the runtime hands out (no link dependency on libcuda). The
 * CPU model (tests/cpu/to_cpu.py) replaces this block between its marker lines. */
static const char tma_helpers_start[] =
	"// pipefy: Hopper tensor copies {\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n"
	"#define PIPEFY_SM90(...) ((void)&pipefy_smem, __trap()) /* (never run below sm_90) */\n"
	"#else\n"
	"#define PIPEFY_SM90(...) __VA_ARGS__\n"
	"#endif\n"
	"static __device__ __forceinline__ unsigned pipefy_smem(const void *p)\n"
	"{\n"
	"    return (unsigned)__cvta_generic_to_shared(p);\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_init(unsigned long long *bar, unsigned count)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" ::\"r\"(pipefy_smem(bar)), \"r\"(count) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_fence_init()\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_inval(unsigned long long *bar)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.inval.shared::cta.b64 [%0];\" ::\"r\"(pipefy_smem(bar)) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_arrive(unsigned long long *bar, unsigned count)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0], %1;\" ::\"r\"(pipefy_smem(bar)), \"r\"(count) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_expect_tx(unsigned long long *bar, unsigned bytes)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.expect_tx.shared::cta.b64 [%0], %1;\" ::\"r\"(pipefy_smem(bar)), \"r\"(bytes) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_wait(unsigned long long *bar, unsigned parity)\n"
	"{\n"
	"    unsigned done = 0;\n"
	"    while (!done)\n"
	"        PIPEFY_SM90(asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\\n\"\n"
	"                                 \"selp.u32 %0, 1, 0, p;\\n}\" : \"=r\"(done) : \"r\"(pipefy_smem(bar)), \"r\"(parity) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_fence_proxy_async()\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\"));\n"
	"}\n"
	;
static const char tma_helpers_2d[] =
	"static __device__ __forceinline__ void pipefy_tma_load_2d(void *dst, const CUtensorMap *map, int col, int row,\n"
	"                                                          unsigned long long *bar)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes \"\n"
	"                             \"[%0], [%1, {%2, %3}], [%4];\" ::\"r\"(pipefy_smem(dst)), \"l\"(map), \"r\"(col), \"r\"(row),\n"
	"                             \"r\"(pipefy_smem(bar)) : \"memory\"));\n"
	"}\n"
	;
/* (bulk copies: the kernel runs the loop as written where it is compiled below sm_90) */
static const char tma_helpers_bulk[] =
	"static __device__ __forceinline__ void pipefy_bulk_load(void *dst, const void *src, unsigned bytes,\n"
	"                                                        unsigned long long *bar)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\"\n"
	"                             ::\"r\"(pipefy_smem(dst)), \"l\"(__cvta_generic_to_global(src)), \"r\"(bytes),\n"
	"                             \"r\"(pipefy_smem(bar)) : \"memory\"));\n"
	"}\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n"
	"static constexpr bool pipefy_sm90 = false;\n"
	"#else\n"
	"static constexpr bool pipefy_sm90 = true;\n"
	"#endif\n";
static const char tma_helpers_map[] =
	"// A tensor map of a row-major operand whose rows are row_elems long (rows unbounded), for boxes\n"
	"// of box_rows x box_cols; false where the copy engine cannot take it: a device below sm_90, a\n"
	"// base not 16-byte aligned, rows not a multiple of 16 bytes\n"
	"static bool pipefy_tensor_map_2d(CUtensorMap *map, const void *base, unsigned elem, long long row_elems,\n"
	"                                 unsigned box_cols, unsigned box_rows)\n"
	"{\n"
	"    int device = 0, major = 0;\n"
	"    if (cudaGetDevice(&device) != cudaSuccess ||\n"
	"        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess || major < 9)\n"
	"        return false;\n"
	"    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;\n"
	"    if (!encode) {\n"
	"        void *fn = nullptr;\n"
	"        cudaDriverEntryPointQueryResult found;\n"
	"        if (cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &fn, 12000, cudaEnableDefault, &found) !=\n"
	"                cudaSuccess || found != cudaDriverEntryPointSuccess)\n"
	"            return false;\n"
	"        encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;\n"
	"    }\n"
	"    if (row_elems <= 0 || row_elems > (1LL << 32) || (unsigned long long)base % 16 || row_elems * elem % 16)\n"
	"        return false;\n"
	"    cuuint64_t dims[2] = {(cuuint64_t)row_elems, 2147483647ull}, strides[1] = {(cuuint64_t)row_elems * elem};\n"
	"    cuuint32_t box[2] = {box_cols, box_rows}, steps[2] = {1, 1};\n"
	"    CUtensorMapDataType type = elem == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8\n"
	"                               : elem == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16\n"
	"                               : elem == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32\n"
	"                                           : CU_TENSOR_MAP_DATA_TYPE_UINT64;\n"
	"    return encode(map, type, 2, const_cast<void *>(base), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,\n"
	"                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,\n"
	"                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;\n"
	"}\n"
	"// Whether the kernel's code on this device was compiled for sm_90 or up: a build for older\n"
	"// GPUs runs on an H100 from PTX compiled there, where the tensor copies are compiled out\n"
	"static bool pipefy_sm90_code(const void *kernel)\n"
	"{\n"
	"    static thread_local const void *known[8];\n"
	"    static thread_local int known_device[8], next;\n"
	"    static thread_local bool is[8];\n"
	"    int device;\n"
	"    if (cudaGetDevice(&device) != cudaSuccess)\n"
	"        return false;\n"
	"    for (int i = 0; i < 8; i++)\n"
	"        if (known[i] == kernel && known_device[i] == device)\n"
	"            return is[i];\n"
	"    cudaFuncAttributes attr;\n"
	"    bool sm90 = cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;\n"
	"    known[next] = kernel;\n"
	"    known_device[next] = device;\n"
	"    is[next] = sm90;\n"
	"    next = (next + 1) % 8;\n"
	"    return sm90;\n"
	"}\n";
static const char tma_helpers_end[] = "// } pipefy: Hopper tensor copies\n";

/* A producer warp's signals (--variant=ws-cp.async): named barriers, each of a number of threads
 * (a multiple of 32), sync waiting for them and arrive not; the non-.aligned forms, as a warp may
 * reach them apart. Like __syncthreads(), they order the threads' memory accesses before the
 * barrier with those after it. The CPU model (tests/cpu/to_cpu.py) replaces this block. */
static const char named_barrier_helpers[] =
	"// pipefy: named barriers {\n"
	"static __device__ __forceinline__ void pipefy_bar_sync(unsigned id, unsigned threads)\n"
	"{\n"
	"    asm volatile(\"barrier.sync %0, %1;\" ::\"r\"(id), \"r\"(threads) : \"memory\");\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_bar_arrive(unsigned id, unsigned threads)\n"
	"{\n"
	"    asm volatile(\"barrier.arrive %0, %1;\" ::\"r\"(id), \"r\"(threads) : \"memory\");\n"
	"}\n"
	"// } pipefy: named barriers\n";

/* A producer warpgroup's register hand-over (ws and ws-cp.async on sm_90a): setmaxnreg, which
 * whole warpgroups execute, moves registers between a warp and its block's pool; `inc` waits
 * until the pool has them (the launcher checks it will). Compiled out where the code is not
 * sm_90a's: the registers then stay as launched. The CPU model (tests/cpu/to_cpu.py) drops it. */
static const char regs_helpers[] =
	"// pipefy: register hand-over {\n"
	"template <unsigned N> static __device__ __forceinline__ void pipefy_regs_dec()\n"
	"{\n"
	"#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
	"    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %0;\" ::\"n\"(N));\n"
	"#endif\n"
	"}\n"
	"template <unsigned N> static __device__ __forceinline__ void pipefy_regs_inc()\n"
	"{\n"
	"#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
	"    asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" ::\"n\"(N));\n"
	"#endif\n"
	"}\n"
	"// } pipefy: register hand-over\n";

#define ISSUER "threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0"
/* The thread that issues the tensor copies after the compute (tma, 4 stages and more): the
 * block's last, in its last warp, which as a rule finishes its compute last and finds the stage
 * free; thread 0's warp, ahead of the others, waited for them. H200, SGEMM 32x32 tma x4:
 * 13.09 / 103.79 ms against 13.20 / 104.86 with thread 0 issuing, 1.086x ldg's speed against
 * 1.075-1.077x (bench/fence/run8.txt). */
#define LAST_ISSUER "threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1"

/* A condition of several lines, each after the first indented four past indent. */
static void add_continued(struct strbuf *sb, const char *text, const char *indent)
{
	for (const char *p = text; *p; p++) {
		sb_add(sb, p, 1);
		if (*p == '\n')
			sb_printf(sb, "%s    ", indent);
	}
}

static char *tma_name(const struct kloop *l)
{
	return xprintf("%s_pipefy_%s", l->function, l->variant == VARIANT_WS_CP_ASYNC ? "ws" : "tma");
}

/* The kernel's parameter names, comma-separated; and their declarations as written. */
static char *param_list(const struct kloop *l, const struct source *src, bool declarations)
{
	struct strbuf sb = {0};
	int n = clang_Cursor_getNumArguments(l->function_cursor);
	for (int i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(l->function_cursor, i);
		char *t = declarations ? span_text(src, cursor_span(p)) : cursor_name(p);
		sb_printf(&sb, "%s%s", i ? ", " : "", t);
		free(t);
	}
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* `blockDim` as a word in `in` but not in `skip`, read as pipefy_block_dim (the block
 * without its producer warp). */
static void add_block_dim_edits(const struct source *src, struct span in, struct span skip, struct edits *e)
{
	int n = source_identifiers(src, in, "blockDim", NULL, 0);
	size_t *at = xcalloc((size_t)n + 1, sizeof *at);
	source_identifiers(src, in, "blockDim", at, n);
	for (int i = 0; i < n; i++)
		if (!in_span(at[i], skip))
			edits_add(e, at[i], 8, "pipefy_block_dim");
	free(at);
}

/* A producer warp's kernel: its launch bounds count the warp, and the kernel's own code reads
 * the block it was written for (pipefy_block_dim; the loop's statements are rewritten with the
 * loop). */
static void ws_kernel_edits(struct kloop *l, const struct source *src, struct edits *out)
{
	int P = l->producer_threads;
	const char *lb = strstr(src->text + l->function_span.begin, "__launch_bounds__(");
	if (lb && lb < src->text + l->kernel_name_at && P == 128) { /* (ptxas counts registers for these) */
		size_t arg = (size_t)(lb - src->text) + strlen("__launch_bounds__("), n = 0;
		for (int depth = 0; arg + n < src->len; n++) { /* (the arguments, parentheses balanced) */
			char ch = src->text[arg + n];
			if (depth == 0 && ch == ')')
				break;
			depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		}
		char *bounds = xprintf("%d + 128 /* pipefy: the producer warpgroup */, %d", l->block_threads, l->regs_blocks);
		edits_add(out, arg, n, bounds);
		free(bounds);
	} else if (lb && lb < src->text + l->kernel_name_at) {
		size_t arg = (size_t)(lb - src->text) + strlen("__launch_bounds__("), n = 0;
		for (int depth = 0; arg + n < src->len; n++) { /* (the first argument, parentheses balanced) */
			char ch = src->text[arg + n];
			if (depth == 0 && (ch == ',' || ch == ')'))
				break;
			depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		}
		edits_add(out, arg, 0, "(");
		edits_add(out, arg + n, 0, ") + 32 /* pipefy: the producer warp */");
	}
	size_t open = cursor_span(cursor_last_child(l->function_cursor)).begin + 1;
	char *dim = xprintf("\n    const dim3 pipefy_block_dim(blockDim.x - %d, blockDim.y, blockDim.z); // pipefy: the block "
			    "without its producer %s", P, P == 128 ? "warpgroup" : "warp");
	edits_add(out, open, 0, dim);
	free(dim);
	add_block_dim_edits(src, (struct span){open, l->function_span.end}, l->loop, out);
}

/* The kernel as written, kept for launches from elsewhere and for the launcher's fallback,
 * in front of the definition that becomes the tensor-copy kernel; the launcher after it; the
 * file's launches routed through it. */
static void tma_kernel_edits(struct kloop *l, const struct source *src, struct edits *out)
{
	char *orig = span_text(src, l->function_span);
	char *name = tma_name(l);
	enum CXLinkageKind link = clang_getCursorLinkage(l->function_cursor);
	bool internal = link == CXLinkage_Internal || link == CXLinkage_UniqueExternal;
	bool wsa = l->variant == VARIANT_WS_CP_ASYNC, ws = l->variant == VARIANT_WS || wsa;
	char *front = xprintf("%s\n\n// pipefy: '%s' with %s%s; only pipefy_launch_%s below launches it\n%s", orig,
			      l->function, wsa ? "cp.async copies" : "sm_90 tensor copies", ws ? " from a producer warp" : "",
			      l->function, internal ? "" : "static ");
	edits_add(out, l->function_span.begin, 0, front);
	const char *lb = strstr(src->text + l->function_span.begin, "__launch_bounds__(");
	if (l->producer_threads == 128 && !(lb && lb < src->text + l->kernel_name_at)) {
		char *named = xprintf("__launch_bounds__(%d + 128 /* pipefy: the producer warpgroup */, %d)\n%s",
				      l->block_threads, l->regs_blocks, name);
		edits_add(out, l->kernel_name_at, strlen(l->function), named);
		free(named);
	} else
		edits_add(out, l->kernel_name_at, strlen(l->function), name);
	struct strbuf maps = {0}, decl = {0}, make = {0}, names = {0};
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		sb_printf(&maps, ",\n    const __grid_constant__ CUtensorMap pipefy_map_%s", tile);
		sb_printf(&decl, "%spipefy_map_%s", b ? ", " : "", tile);
		sb_printf(&make, " &&\n        pipefy_tensor_map_2d(&pipefy_map_%s, %s, %ld, %s, %ld, %ld)", tile, x->pointer,
			  x->elem_bytes, x->row_elems, x->box_cols, x->box_rows);
		sb_printf(&names, ", pipefy_map_%s", tile);
	}
	if (!wsa)
		edits_add(out, l->params_end, 0, maps.data);
	char *params = param_list(l, src, true), *args = param_list(l, src, false);
	/* what the launcher checks of the block for the producer: room for one more warp; or for a
	 * warpgroup (setmaxnreg), whole warpgroups, no more threads than the kernel was built for,
	 * and the registers ptxas gave it at least what the warpgroups ask of the block's pool */
	int P = l->producer_threads;
	char *fit = P == 128 ? xprintf(" && pipefy_block.x %% %d == 0 && pipefy_block.x <= %d &&\n"
				       "        cudaFuncGetAttributes(&pipefy_attr, (const void *)%s) == cudaSuccess &&\n"
				       "        %d + pipefy_block.x * %d <= (unsigned)pipefy_attr.numRegs * (pipefy_block.x + 128)",
				       test_break("warpgroups") ? 32 : 128, l->block_threads, name, 128 * l->regs_producer,
				       l->regs_consumer)
			     : xstrdup(" && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024");
	const char *attr = P == 128 ? "    cudaFuncAttributes pipefy_attr; // (the registers the kernel was built with)\n" : "";
	const char *room = P == 128 ? "whole warpgroups, at most the block the kernel was built for, and the registers ptxas\n"
				      "// gave it cover what the producer warpgroup and the kernel's threads ask for (setmaxnreg)"
				    : "whole warps, and room for one more (the producer's)";
	char *threads = ws ? xprintf("(int)pipefy_block.x + %d", P) : xstrdup("(int)(pipefy_block.x * pipefy_block.y * pipefy_block.z)");
	char *grown = xprintf("dim3(pipefy_block.x + %d, 1, 1)", P);
	char *launcher = wsa ? xprintf(
		"\n\n"
		"// pipefy: the launches of '%s' in this file: from a producer %s where the block is the shape\n"
		"// the copies assume, %s, and the copy's\n"
		"// registers and shared memory let a block of that size run; the kernel as written otherwise\n"
		"static void pipefy_launch_%s(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,\n"
		"    %s)\n"
		"{\n"
		"%s"
		"    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)\n"
		"    if (%s%s &&\n"
		"        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, %s, (int)pipefy_block.x + %d, pipefy_smem) ==\n"
		"            cudaSuccess && pipefy_resident > 0)\n"
		"        %s<<<pipefy_grid, dim3(pipefy_block.x + %d, 1, 1), pipefy_smem, pipefy_stream>>>(%s);\n"
		"    else\n"
		"        %s<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(%s);\n"
		"}",
		l->function, P == 128 ? "warpgroup" : "warp", room, l->function, params, attr, l->block_check, fit, name, P, name,
		P, args, l->function, args) : xprintf(
		"\n\n"
		"// pipefy: the launches of '%s' in this file: with sm_90's tensor copies where the device has\n"
		"// them and the kernel's code was compiled for them, the block is the shape the copies assume\n"
		"// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes)%s%s, and\n"
		"// the copy's registers and shared memory let a block of that size run; the kernel as written\n"
		"// otherwise\n"
		"static void pipefy_launch_%s(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,\n"
		"    %s)\n"
		"{\n"
		"    CUtensorMap %s;\n"
		"%s"
		"    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)\n"
		"    if (%s%s && pipefy_sm90_code((const void *)%s) &&\n"
		"        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, %s, %s, pipefy_smem) == cudaSuccess &&\n"
		"        pipefy_resident > 0%s)\n"
		"        %s<<<pipefy_grid, %s, pipefy_smem, pipefy_stream>>>(%s%s);\n"
		"    else\n"
		"        %s<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(%s);\n"
		"}",
		l->function, ws ? ",\n// " : "", ws ? (P == 128 ? room : "whole warps, and room for one more: the producer's") : "", l->function, params, decl.data, ws ? attr : "",
		l->block_check, ws ? fit : "", name, name, threads, make.data, name, ws ? grown : "pipefy_block", args,
		names.data, l->function, args);
	edits_add(out, l->function_span.end, 0, launcher);
	for (int i = 0; i < l->ntma_launches; i++) {
		const struct tma_launch *t = &l->tma_launches[i];
		char *a = span_text(src, t->args);
		bool empty = true;
		for (const char *p = a; *p; p++)
			empty &= *p == ' ' || *p == '\t' || *p == '\n';
		char *call = xprintf("pipefy_launch_%s(%s, %s, %s, %s%s%s)", l->function, t->config[0], t->config[1] ? t->config[1] : "1",
				     t->config[2] ? t->config[2] : "0", t->config[3] ? t->config[3] : "0", empty ? "" : ", ", empty ? "" : a);
		edits_add(out, t->call.begin, t->call.end - t->call.begin, call);
		free(call);
		free(a);
	}
	if (ws)
		ws_kernel_edits(l, src, out);
	free(threads);
	free(grown);
	free(fit);
	free(launcher);
	free(params);
	free(args);
	free(maps.data);
	free(decl.data);
	free(make.data);
	free(names.data);
	free(front);
	free(orig);
	free(name);
}

/* The tiles aligned for the copy engine, and where each pointer the kernel moves points on
 * entry (the box coordinates count from there). */
static void box_kernel_edits(struct kloop *l, struct edits *out)
{
	for (int b = 0; b < l->nboxes; b++)
		edits_add(out, l->boxes[b].align_at, 0, " alignas(128)");
	size_t open = cursor_span(cursor_last_child(l->function_cursor)).begin + 1;
	for (int b = 0; b < l->nboxes; b++) {
		bool first = true;
		for (int c = 0; c < b; c++)
			first &= !(l->boxes[c].flat && !l->boxes[c].local && strcmp(l->boxes[c].pointer, l->boxes[b].pointer) == 0);
		if (!l->boxes[b].flat || l->boxes[b].local || !first)
			continue;
		char *line = xprintf("\n    auto const pipefy_entry_%s = %s; // pipefy: where '%s' points on entry%s",
				     l->boxes[b].pointer, l->boxes[b].pointer, l->boxes[b].pointer,
				     l->variant == VARIANT_TMA ? ", its tensor map's base" : "");
		edits_add(out, open, 0, line);
		free(line);
	}
}

/* The compute read the stage through the generic proxy; the copy engine's writes to it are the
 * async proxy's, which the barriers alone do not order after those reads (seen on the H200: with
 * no fence 40 of 40 runs of a bf16 mma.sync GEMM with two stages differed at 8192^3). The fence
 * goes where every thread's reads of the stage reach the copies: in the issuing thread, after
 * the wait that acquires their release of the stage, before its copies (on the H200 as sound as
 * a fence in every thread before its release, 0 of 40 runs differed on each tma and ws build,
 * and one fence per tile instead of one per thread: the SGEMM 32x32 ran 5-6 % faster, bench/FENCE.md). */
static void add_issuer_fence(struct strbuf *sb, const char *I)
{
	if (!test_break("proxyfence"))
		sb_printf(sb, "%spipefy_fence_proxy_async(); // the threads' reads of the stage before the copy engine's writes\n", I);
}

/* Tensor copies: one thread waits for the stage to empty, fences, expects the stage's bytes,
 * arrives for every thread, and issues one box per tile. */
static void add_tma_issue(struct strbuf *sb, const struct kloop *l, const struct layout *y, const char *I4, long bytes)
{
	int S = y->S;
	char *I5 = xprintf("%s%s", I4, y->U);
	if (l->variant == VARIANT_WS)
		sb_printf(sb, "%sif (threadIdx.x == pipefy_threads) { // the producer warp's first thread\n", I4);
	else if (S >= 4) /* (the late issue: see rewrite_tma) */
		sb_printf(sb, "%sif (" LAST_ISSUER ") { // the block's last thread\n", I4);
	else
		sb_printf(sb, "%sif (" ISSUER ") {\n", I4);
	sb_printf(sb, "%sif (pipefy_loads >= %d) // the stage's last tile, pipefy_loads - %d, is computed\n", I5, S, S);
	sb_printf(sb, "%s%spipefy_mbar_wait(&pipefy_empty[" STAGE_FILL "], (pipefy_loads / %d - 1) & 1);\n", I5, y->U, S);
	add_issuer_fence(sb, I5);
	sb_printf(sb, "%spipefy_mbar_expect_tx(&pipefy_full[" STAGE_FILL "], %ld);\n", I5, bytes);
	sb_printf(sb, "%spipefy_mbar_arrive(&pipefy_full[" STAGE_FILL "], pipefy_threads);\n", I5);
	for (int b = 0; b < l->nboxes; b++) {
		const char *tile = l->tiles[l->boxes[b].tile].name;
		sb_printf(sb,
			  "%spipefy_tma_load_2d(&%s[" STAGE_FILL "], &pipefy_map_%s, (int)pipefy_col_%s, (int)pipefy_row_%s,\n"
			  "%s                   &pipefy_full[" STAGE_FILL "]);\n",
			  I5, tile, tile, tile, tile, I5);
	}
	sb_printf(sb, "%s}\n", I4);
	free(I5);
}

/* Bulk copies: the threads of warp 0 wait for the stage to empty and fence; thread 0 expects the stage's
 * bytes and arrives for every thread before any row is issued (__syncwarp), and the warp's
 * threads issue the rows, one bulk copy each; where the operand's rows are as long as the
 * tile's (unpadded), the tile is one run of memory, and thread 0 copies it at once. */
static void add_bulk_issue(struct strbuf *sb, const struct kloop *l, const struct layout *y, const char *I4, long bytes)
{
	int S = y->S;
	char *I5 = xprintf("%s%s", I4, y->U), *I6 = xprintf("%s%s", I5, y->U);
	sb_printf(sb, "%sif (pipefy_tid < 32) {\n", I4);
	sb_printf(sb, "%sif (pipefy_loads >= %d) // the stage's last tile, pipefy_loads - %d, is computed\n", I5, S, S);
	sb_printf(sb, "%spipefy_mbar_wait(&pipefy_empty[" STAGE_FILL "], (pipefy_loads / %d - 1) & 1);\n", I6, S);
	add_issuer_fence(sb, I5);
	sb_printf(sb, "%sif (pipefy_tid == 0) {\n", I5);
	sb_printf(sb, "%spipefy_mbar_expect_tx(&pipefy_full[" STAGE_FILL "], %ld);\n", I6, bytes);
	sb_printf(sb, "%spipefy_mbar_arrive(&pipefy_full[" STAGE_FILL "], pipefy_threads);\n", I6);
	sb_printf(sb, "%s}\n", I5);
	sb_printf(sb, "%s__syncwarp(pipefy_warp0); // the bytes are expected before any row lands\n", I5);
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		const char *I = I5, *J = I6;
		char *I7 = xprintf("%s%s", I6, y->U);
		if (x->copy_cols == x->box_cols) { /* rows as long as the operand's are one run: one copy */
			sb_printf(sb, "%sif (%s == %ld) { // the tile's rows follow each other in '%s': one copy\n", I5, x->row_elems,
				  x->box_cols, x->pointer);
			sb_printf(sb, "%sif (pipefy_tid == 0)\n", I6);
			sb_printf(sb, "%spipefy_bulk_load(&%s[" STAGE_FILL "], (const void *)pipefy_src_%s, %ld, &pipefy_full[" STAGE_FILL
				      "]);\n", I7, tile, tile, x->box_rows * x->box_cols * x->elem_bytes);
			sb_printf(sb, "%s} else {\n", I5);
			I = I6, J = I7;
		}
		sb_printf(sb, "%sfor (unsigned pipefy_r = pipefy_tid; pipefy_r < %ld; pipefy_r += pipefy_issuers)\n", I,
			  x->box_rows);
		sb_printf(sb, "%spipefy_bulk_load((char *)&%s[" STAGE_FILL "] + pipefy_r * %ld,\n", J, tile,
			  x->box_cols * x->elem_bytes);
		sb_printf(sb, "%s                 (const void *)(pipefy_src_%s + pipefy_r * (unsigned long long)(%s * %ld)),\n",
			  J, tile, x->row_elems, x->elem_bytes);
		sb_printf(sb, "%s                 %ld, &pipefy_full[" STAGE_FILL "]);\n", J, x->copy_cols * x->elem_bytes);
		if (x->copy_cols == x->box_cols)
			sb_printf(sb, "%s}\n", I5);
		free(I7);
	}
	sb_printf(sb, "%s}\n", I4);
	free(I5);
	free(I6);
}

/* cp.async from the producer warp (--variant=ws-cp.async), once it has waited for the stage: its
 * 32 threads copy each box's rows (the columns the copies write) in units of ws_chunk bytes,
 * unit i by lane i % 32; the loader commits the group, one a call. */
static void add_ws_cp_async_issue(struct strbuf *sb, const struct kloop *l, const struct layout *y, const char *I4)
{
	long ch = l->ws_chunk;
	char *I5 = xprintf("%s%s", I4, y->U);
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		long units = x->copy_cols * x->elem_bytes / ch;
		sb_printf(sb, "%sfor (unsigned pipefy_i = threadIdx.x - pipefy_threads; pipefy_i < %ld; pipefy_i += %d) {\n", I4,
			  units * x->box_rows, l->producer_threads);
		sb_printf(sb, "%sconst unsigned pipefy_r = pipefy_i / %ld, pipefy_c = pipefy_i %% %ld;\n", I5, units, units);
		sb_printf(sb, "%s__pipeline_memcpy_async((char *)&%s[" STAGE_FILL "] + pipefy_r * %ld + pipefy_c * %ld,\n", I5, tile,
			  x->box_cols * x->elem_bytes, ch);
		sb_printf(sb, "%s                        (const char *)pipefy_src_%s + pipefy_r * (unsigned long long)(%s * %ld) + pipefy_c * %ld, %ld);\n",
			  I5, tile, x->row_elems, x->elem_bytes, ch, ch);
		sb_printf(sb, "%s}\n", I4);
	}
	free(I5);
}

/* ws-cp.async's producer after the loop: the kernel's threads' arrivals no refill waited for,
 * the last min(S, tiles), so that no named barrier is left part-way. */
static void add_producer_drain(struct strbuf *sb, const struct layout *y, const char *I)
{
	sb_printf(sb, "%sfor (unsigned pipefy_u = pipefy_loads > %d ? pipefy_loads - %d : 0; pipefy_u < pipefy_loads; ++pipefy_u)\n", I,
		  y->S, y->S);
	sb_printf(sb, "%s%spipefy_bar_sync(%d + pipefy_u %% %d, pipefy_threads + %d);\n", I, y->U, 1 + y->S, y->S,
		  y->l->producer_threads);
}

static void rewrite_tma(struct kloop *l, const struct source *src, struct edits *out)
{
	struct layout y = layout_begin(l, src);
	int S = y.S;
	layout_add_refs_outside_copies(&y);

	bool bulk = l->variant == VARIANT_BULK, wsa = l->variant == VARIANT_WS_CP_ASYNC;
	bool ws = l->variant == VARIANT_WS || wsa;
	struct strbuf sb = {0};
	/* With 4 stages and more, the issuing thread starts the next tile after its compute, when the
	 * stage's last tile (one before this one) is done as a rule and its wait for it returns at
	 * once; before the compute it waits for the slowest thread, and the block runs at that
	 * pace: on the H200 1.075x against 1.062-1.067x ldg's speed on the 4-byte SGEMM, x4
	 * (bench/FENCE.md, F5 against F1). It keeps one tile fewer in flight, so not below 4. */
	bool late = !ws && S >= 4;
	int P = l->producer_threads;
	const char *producer = P == 128 ? "a producer warpgroup" : "a producer warp";
	char *what = wsa ? xprintf("cp.async copies from %s, named barriers, %d stages: tile t+%d is "
				   "copied while tile t is computed", producer, S, S - 1)
		     : late ? xprintf("%s copies (sm_90), %d stages: tiles to t+%d are copied while tile t is computed, t+%d "
				      "after it", bulk ? "bulk" : "tensor", S, S - 2, S - 1)
			    : xprintf("%s copies (sm_90)%s%s, %d stages: tile t+%d is copied while tile t is computed",
				      bulk ? "bulk" : "tensor", ws ? " from " : "", ws ? producer : "", S, S - 1);
	if (ws) { /* the kernel's threads see the block they were written for */
		add_block_dim_edits(src, l->loop, (struct span){0, 0}, &y.refs);
		add_block_dim_edits(src, l->loop, (struct span){0, 0}, &y.stmt_edits);
	}
	if (bulk) {
		/* no launcher: the kernel itself checks what the boxes assume of the block */
		struct strbuf g = {0};
		sb_puts(&g, "pipefy_sm90");
		if (l->block_check) { /* (the launcher's condition on pipefy_block, on blockDim) */
			sb_puts(&g, " && ");
			for (const char *p = l->block_check; *p;)
				if (strncmp(p, "pipefy_block", 12) == 0) {
					sb_puts(&g, "blockDim");
					p += 12;
				} else
					sb_add(&g, p++, 1);
		}
		for (int b = 0; b < l->nboxes; b++) /* (every row 16-byte aligned when the first is) */
			sb_printf(&g, " &&\n%s%s%s * %ld %% 16 == 0", y.I0, y.U, l->boxes[b].row_elems, l->boxes[b].elem_bytes);
		y.guard = sb_take(&g);
		y.guard_why = xprintf("%s// pipefy: bulk copies need sm_90%s and rows of whole\n"
				      "%s// 16-byte units; elsewhere the loop runs as written\n", y.I0,
				      l->block_check ? ", the block shape the copies assume" : "", y.I0);
	}
	add_block_start(&sb, &y, what);
	free(what);
	if (wsa) {
		sb_printf(&sb, "%s// pipefy: two named barriers per stage, each of the kernel's threads and the producer warp:\n", y.I1);
		sb_printf(&sb, "%s// 1 + s, the producer's signal that stage s has landed; %d + s, the threads' that they are\n", y.I1,
			  1 + S);
		sb_printf(&sb, "%s// done with it; and %d, of the kernel's threads alone\n", y.I1, 1 + 2 * S);
	} else {
		sb_printf(&sb, "%s// pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when\n", y.I1);
		sb_printf(&sb, "%s// stage s has landed, empty[s] when every thread is done computing it\n", y.I1);
		sb_printf(&sb, "%s__shared__ alignas(8) unsigned long long pipefy_full[%d], pipefy_empty[%d];\n", y.I1, S, S);
	}
	if (ws) {
		sb_printf(&sb, "%s// pipefy: the kernel's threads (%s follows them)\n", y.I1, producer);
		sb_printf(&sb, "%sconst unsigned pipefy_threads = pipefy_block_dim.x;\n", y.I1);
		sb_printf(&sb, "%sconst bool pipefy_producer = threadIdx.x >= pipefy_threads;\n", y.I1);
	} else
		sb_printf(&sb, "%sconst unsigned pipefy_threads = blockDim.x * blockDim.y * blockDim.z;\n", y.I1);
	sb_printf(&sb, "%sunsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads %% %d\n", y.I1, S);
	if (bulk) {
		sb_printf(&sb, "%s// pipefy: the threads of warp 0 issue the rows' bulk copies\n", y.I1);
		sb_printf(&sb, "%sconst unsigned pipefy_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n", y.I1);
		sb_printf(&sb, "%sconst unsigned pipefy_issuers = pipefy_threads < 32 ? pipefy_threads : 32;\n", y.I1);
		sb_printf(&sb, "%sconst unsigned pipefy_warp0 = pipefy_issuers == 32 ? 0xffffffffu : (1u << pipefy_issuers) - 1;\n", y.I1);
	}
	if (!wsa) {
		sb_printf(&sb, "%sif (" ISSUER ") {\n", y.I1);
		sb_printf(&sb, "%sfor (int pipefy_s = 0; pipefy_s < %d; ++pipefy_s) {\n", y.I2, S);
		sb_printf(&sb, "%s%spipefy_mbar_init(&pipefy_full[pipefy_s], pipefy_threads);\n", y.I2, y.U);
		sb_printf(&sb, "%s%spipefy_mbar_init(&pipefy_empty[pipefy_s], pipefy_threads);\n", y.I2, y.U);
		sb_printf(&sb, "%s}\n", y.I2);
		sb_printf(&sb, "%spipefy_mbar_fence_init();\n", y.I2);
		sb_printf(&sb, "%s}\n", y.I1);
	}
	/* a moved pointer's offsets, computed in 32 bits by the kernel: every thread's in range, or
	 * no box (the boxes are found from the exact values) */
	struct strbuf vote = {0};
	for (int b = 0; b < l->nboxes; b++)
		if (l->boxes[b].fits)
			sb_printf(&vote, "%s%s", vote.len ? " &&\n" : "", l->boxes[b].fits);
	if (vote.data) {
		sb_printf(&sb, "%s// pipefy: the offsets the kernel computed in 32 bits are exact in every thread (else no box)\n", y.I1);
		sb_printf(&sb, "%sconst bool pipefy_exact = __syncthreads_and(", y.I1);
		add_continued(&sb, vote.data, y.I1);
		sb_puts(&sb, ");\n");
	} else
		sb_printf(&sb, "%s__syncthreads();\n", y.I1);
	/* An index the kernel computes in 32 bits: a box is exact when its last row ends within
	 * the index's range. The rows that do are counted once, here: a 64-bit product per tile in
	 * every thread cost the SGEMM 8 % on the H200. */
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		if (!x->last_max)
			continue;
		const char *tile = l->tiles[x->tile].name;
		sb_printf(&sb, "%s// pipefy: the rows of '%s's operand that end within its 32-bit index\n", y.I1, tile);
		sb_printf(&sb, "%sconst long long pipefy_rows_%s = %s > 0 ? %lldLL / %s : 0;\n", y.I1, tile, x->row_elems,
			  x->last_max + 1, x->row_elems);
	}
	sb_printf(&sb, "%s// pipefy: load the tile at the cursor into stage " STAGE_FILL " once every thread is done with\n", y.I1);
	if (wsa) {
		sb_printf(&sb, "%s// the tile it held, and advance the cursor: each tile is one box of its operand, its rows\n", y.I1);
		sb_printf(&sb, "%s// copied by the producer warp's 32 threads in %ld-byte units; where a box reaches outside its\n", y.I1,
			  l->ws_chunk);
		sb_printf(&sb, "%s// operand or starts off a %ld-byte boundary the kernel's threads copy as written; the\n", y.I1,
			  l->ws_chunk);
		sb_printf(&sb, "%s// producer commits one group of copies a call, empty past the last tile\n", y.I1);
	} else if (bulk) {
		sb_printf(&sb, "%s// the tile it held, and advance the cursor: each tile is one box of its operand, each of its\n", y.I1);
		sb_printf(&sb, "%s// rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand\n", y.I1);
		sb_printf(&sb, "%s// or starts off a 16-byte boundary every thread copies as written and arrives for itself\n", y.I1);
	} else {
		sb_printf(&sb, "%s// the tile it held, and advance the cursor: each tile is one box of its operand, issued by\n", y.I1);
		sb_printf(&sb, "%s// one thread, which arrives for all; where a box reaches outside its operand every thread\n", y.I1);
		sb_printf(&sb, "%s// copies as written and arrives for itself\n", y.I1);
	}
	sb_printf(&sb, "%sauto pipefy_load = [&](int " STAGE_FILL ") {\n", y.I1);
	add_cursor_shadows(&sb, &y);
	char *cond = trimmed(src, l->cond);
	sb_printf(&sb, "%sif (%s) {\n", y.I2, cond);
	free(cond);
	struct strbuf inside = {0};
	long bytes = 0;
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		if (x->flat)
			sb_printf(&sb, "%sconst long long pipefy_flat_%s = %s;\n", y.I3, tile, x->flat);
		sb_printf(&sb, "%sconst long long pipefy_col_%s = %s, pipefy_row_%s = %s;\n", y.I3, tile, x->col0, tile, x->row0);
		/* (the columns the copies write: a padded row's others are fetched, zeros past the end) */
		sb_printf(&inside, "%spipefy_col_%s >= 0 && pipefy_col_%s + %ld <= %s &&\npipefy_row_%s >= 0", b ? " &&\n" : "", tile,
			  tile, x->copy_cols, x->row_elems, tile);
		if (wsa) { /* the box's first element, where the address of every row is ws_chunk-aligned */
			bool entry = x->flat && !x->local;
			sb_printf(&sb, "%sconst unsigned long long pipefy_src_%s = (unsigned long long)%s%s +\n"
				  "%s    (unsigned long long)((pipefy_row_%s * %s + pipefy_col_%s) * %ld);\n",
				  y.I3, tile, entry ? "pipefy_entry_" : "", x->pointer, y.I3, tile, x->row_elems, tile, x->elem_bytes);
			sb_printf(&inside, " &&\npipefy_src_%s %% %ld == 0 && %s * %ld %% %ld == 0", tile, l->ws_chunk, x->row_elems,
				  x->elem_bytes, l->ws_chunk);
		} else if (!bulk) /* (the tensor map's rows) */
			sb_printf(&inside, " && pipefy_row_%s + %ld <= 2147483647LL", tile, x->box_rows);
		else { /* the box's first element, where the address of every row is 16-byte aligned */
			bool entry = x->flat && !x->local;
			sb_printf(&sb, "%sconst unsigned long long pipefy_src_%s = (unsigned long long)%s%s +\n"
				  "%s    (unsigned long long)((pipefy_row_%s * %s + pipefy_col_%s) * %ld);\n",
				  y.I3, tile, entry ? "pipefy_entry_" : "", x->pointer, y.I3, tile, x->row_elems, tile, x->elem_bytes);
			sb_printf(&inside, " &&\npipefy_src_%s %% 16 == 0", tile);
		}
		if (x->last_max) /* (an index computed in 32 bits: the box's last row within it, its columns
				  * within the row: then (row + R) * L - 1 is the largest index) */
			sb_printf(&inside, " && pipefy_row_%s + %ld <= pipefy_rows_%s", tile, x->box_rows, tile);
		bytes += (bulk ? x->copy_cols : x->box_cols) * x->box_rows * x->elem_bytes;
	}
	if (vote.data)
		sb_puts(&inside, " &&\npipefy_exact");
	if (l->bump_fits)
		sb_printf(&inside, " &&\n%s", l->bump_fits);
	free(vote.data);
	char *I4 = xprintf("%s%s", y.I3, y.U), *I5 = xprintf("%s%s", I4, y.U);
	if (wsa) {
		/* the producer waits for the stage whether it copies or the kernel's threads do: each
		 * of their arrivals after a compute is met by one wait of the producer's */
		sb_printf(&sb, "%sconst bool pipefy_box = ", y.I3);
		add_continued(&sb, inside.data, y.I3);
		sb_printf(&sb, ";\n%sif (pipefy_producer) {\n", y.I3);
		sb_printf(&sb, "%sif (pipefy_loads >= %d) // the stage's last tile, pipefy_loads - %d, is computed\n", I4, S, S);
		if (!test_break("barrier"))
			sb_printf(&sb, "%s%spipefy_bar_sync(%d + " STAGE_FILL ", pipefy_threads + %d);\n", I4, y.U, 1 + S, P);
		sb_printf(&sb, "%sif (pipefy_box) {\n", I4);
		add_ws_cp_async_issue(&sb, l, &y, I5);
		sb_printf(&sb, "%s}\n", I4);
		sb_printf(&sb, "%s} else if (!pipefy_box) {\n", y.I3);
		sb_printf(&sb, "%sif (pipefy_loads >= %d) // every kernel thread is done with the stage's last tile\n", I4, S);
		sb_printf(&sb, "%s%spipefy_bar_sync(%d, pipefy_threads);\n", I4, y.U, 1 + 2 * S);
	} else {
		sb_printf(&sb, "%sif (", y.I3);
		add_continued(&sb, inside.data, y.I3);
		sb_printf(&sb, ") {\n");
		if (bulk)
			add_bulk_issue(&sb, l, &y, I4, bytes);
		else
			add_tma_issue(&sb, l, &y, I4, bytes);
		sb_printf(&sb, "%s} else%s {\n", y.I3, ws ? " if (!pipefy_producer)" : "");
		sb_printf(&sb, "%sif (pipefy_loads >= %d)\n", I4, S);
		sb_printf(&sb, "%s%spipefy_mbar_wait(&pipefy_empty[" STAGE_FILL "], (pipefy_loads / %d - 1) & 1);\n", I4, y.U, S);
	}
	free(inside.data);
	bool first = true;
	char *extra4 = xprintf("%s%s%s", y.U, y.U, y.U);
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || st->role == ROLE_COPY_DECL)
			add_stmt(&sb, src, &y.refs, st, y.I1, extra4, &first);
	}
	free(extra4);
	if (!wsa)
		sb_printf(&sb, "%spipefy_mbar_arrive(&pipefy_full[" STAGE_FILL "], 1);\n", I4);
	sb_printf(&sb, "%s}\n", y.I3);
	sb_printf(&sb, "%s++pipefy_loads;\n", y.I3);
	/* the body's bumps, which come after its copies (box.c), then the loop's increment */
	first = true;
	char *extra2 = xprintf("%s%s", y.U, y.U);
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_BUMP)
			add_stmt(&sb, src, &y.refs, &l->stmts[i], y.I1, extra2, &first);
	free(extra2);
	add_cursor_advance(&sb, &y, y.I3);
	sb_printf(&sb, "%s}\n", y.I2);
	if (wsa)
		sb_printf(&sb, "%sif (pipefy_producer)\n%s%s__pipeline_commit();\n", y.I2, y.I2, y.U);
	sb_printf(&sb, "%s};\n", y.I1);
	free(I4);
	free(I5);
	if (S == 2) {
		sb_printf(&sb, "%s// pipefy: prologue: start loading tile 0\n", y.I1);
		sb_printf(&sb, "%spipefy_load(0);\n", y.I1);
	} else {
		sb_printf(&sb, "%s// pipefy: prologue: start loading tiles 0..%d\n", y.I1, S - 2);
		sb_printf(&sb, "%sfor (int pipefy_s = 0; pipefy_s < %d; ++pipefy_s)\n", y.I1, S - 1);
		sb_printf(&sb, "%spipefy_load(pipefy_s);\n", y.I2);
	}
	sb_printf(&sb, "%sint " STAGE_READ " = 0;       // the stage that holds tile t\n", y.I1);
	if (!wsa)
		sb_printf(&sb, "%sunsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t\n", y.I1);
	if (late) {
		sb_printf(&sb, "%s// pipefy: main loop: wait for tile t, compute it, say so, then start tile t+%d into stage\n", y.I1,
			  S - 1);
		sb_printf(&sb, "%s// (t-1) %% %d (whose tile every thread is done with as a rule by then); the last iterations\n",
			  y.I1, S);
		sb_printf(&sb, "%s// find no tile left to start and only compute: that is the epilogue\n", y.I1);
	} else {
		sb_printf(&sb, "%s// pipefy: main loop: start tile t+%d into stage (t-1) %% %d, wait for tile t, compute it, say\n",
			  y.I1, S - 1, S);
		sb_printf(&sb, "%s// so; the last iterations find no tile left to start and only compute: that is the epilogue\n", y.I1);
	}
	if (P == 128) { /* the producer warpgroup's own loop, apart from the kernel's threads' code */
		sb_printf(&sb, "%s// pipefy: the producer warpgroup gives registers back (setmaxnreg, sm_90a: %d a thread at\n", y.I1,
			  l->regs_entry);
		sb_printf(&sb, "%s// launch, %d for it, %d for the kernel's threads), starts every tile%s, and leaves\n", y.I1,
			  l->regs_producer, l->regs_consumer, wsa ? " and says when it has landed" : "");
		sb_printf(&sb, "%sif (pipefy_producer) {\n", y.I1);
		sb_printf(&sb, "%spipefy_regs_dec<%d>();\n", y.I2, l->regs_producer);
		struct layout inner = y; /* (the same loop header, a level deeper) */
		inner.I1 = y.I2;
		add_main_header(&sb, &inner);
		sb_printf(&sb, "%s%spipefy_load((int)(pipefy_loads %% %d));\n", y.I2, y.U, S);
		if (wsa) {
			sb_printf(&sb, "%s%s__pipeline_wait_prior(%d);\n", y.I2, y.U, S - 1);
			sb_printf(&sb, "%s%spipefy_bar_arrive(1 + " STAGE_READ ", pipefy_threads + 128);\n", y.I2, y.U);
			sb_printf(&sb, "%s%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y.I2, y.U, S);
		}
		sb_printf(&sb, "%s}\n", y.I2);
		sb_printf(&sb, "%spipefy_bar_sync(0, pipefy_threads + 128); // the kernel's threads are done with the last tile\n",
			  y.I2);
		if (wsa)
			add_producer_drain(&sb, &y, y.I2);
		sb_printf(&sb, "%sreturn; // no barrier follows the loop\n", y.I2);
		sb_printf(&sb, "%s}\n", y.I1);
		sb_printf(&sb, "%spipefy_regs_inc<%d>();\n", y.I1, l->regs_consumer);
	}
	add_main_header(&sb, &y);
	if (wsa && P == 128) {
		sb_printf(&sb, "%spipefy_load((int)(pipefy_loads %% %d));\n", y.I2, S);
		sb_printf(&sb, "%spipefy_bar_sync(1 + " STAGE_READ ", pipefy_threads + 128); // tile t has landed\n", y.I2);
	} else if (wsa) { /* (the producer's groups: S - 1 from the prologue, one an iteration; tile t's is the
		    * oldest S - 1 younger ones leave pending) */
		sb_printf(&sb, "%spipefy_load((int)(pipefy_loads %% %d));\n", y.I2, S);
		sb_printf(&sb, "%sif (pipefy_producer) { // the producer warp only copies, and says when tile t has landed\n", y.I2);
		sb_printf(&sb, "%s%s__pipeline_wait_prior(%d);\n", y.I2, y.U, S - 1);
		sb_printf(&sb, "%s%spipefy_bar_arrive(1 + " STAGE_READ ", pipefy_threads + 32);\n", y.I2, y.U);
		sb_printf(&sb, "%s%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y.I2, y.U, S);
		sb_printf(&sb, "%s%scontinue;\n", y.I2, y.U);
		sb_printf(&sb, "%s}\n", y.I2);
		sb_printf(&sb, "%spipefy_bar_sync(1 + " STAGE_READ ", pipefy_threads + 32); // tile t has landed\n", y.I2);
	} else if (ws) { /* (the producer skips the compute and its stage count: the tiles loaded count stages) */
		sb_printf(&sb, "%spipefy_load((int)(pipefy_loads %% %d));\n", y.I2, S);
		if (P == 32)
			sb_printf(&sb, "%sif (pipefy_producer) continue; // the producer warp only copies\n", y.I2);
	} else if (!late)
		sb_printf(&sb, "%spipefy_load((" STAGE_READ " + %d) %% %d);\n", y.I2, S - 1, S);
	if (!wsa)
		sb_printf(&sb, "%spipefy_mbar_wait(&pipefy_full[" STAGE_READ "], pipefy_phase); // tile t has landed\n", y.I2);
	if (l->tma_collective && !test_break("syncwarp"))
		sb_printf(&sb, "%s__syncwarp(); // pipefy: the warp leaves its waits apart; %s needs it whole\n", y.I2,
			  l->tma_collective);
	add_compute(&sb, &y);
	if (wsa)
		sb_printf(&sb, "%spipefy_bar_arrive(%d + " STAGE_READ ", pipefy_threads + %d); // this thread is done with tile t\n",
			  y.I2, 1 + S, P);
	else if (!test_break("barrier"))
		sb_printf(&sb, "%spipefy_mbar_arrive(&pipefy_empty[" STAGE_READ "], 1); // this thread is done with tile t\n", y.I2);
	if (late)
		sb_printf(&sb, "%spipefy_load((" STAGE_READ " + %d) %% %d);\n", y.I2, S - 1, S);
	sb_printf(&sb, "%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y.I2, S);
	if (!wsa)
		sb_printf(&sb, "%spipefy_phase ^= " STAGE_READ " == 0;\n", y.I2);
	sb_printf(&sb, "%s}\n", y.I1);
	if (P == 128) /* (the producer's barrier is another instruction: the non-.aligned form) */
		sb_printf(&sb, "%spipefy_bar_sync(0, pipefy_threads + 128); // pipefy: every thread is done with the last tile\n", y.I1);
	else
		sb_printf(&sb, "%s__syncthreads(); // pipefy: every thread is done with the last tile\n", y.I1);
	if (wsa && P == 32) {
		sb_printf(&sb, "%sif (pipefy_producer) // the threads' arrivals after the last tiles, which no copy waited for\n", y.I1);
		add_producer_drain(&sb, &y, y.I2);
	}
	if (!wsa) {
		sb_printf(&sb, "%sif (" ISSUER ")\n", y.I1);
		sb_printf(&sb, "%sfor (int pipefy_s = 0; pipefy_s < %d; ++pipefy_s) {\n", y.I2, S);
		sb_printf(&sb, "%s%spipefy_mbar_inval(&pipefy_full[pipefy_s]);\n", y.I2, y.U);
		sb_printf(&sb, "%s%spipefy_mbar_inval(&pipefy_empty[pipefy_s]);\n", y.I2, y.U);
		sb_printf(&sb, "%s}\n", y.I2);
	}
	if (ws && P == 32)
		sb_printf(&sb, "%sif (pipefy_producer) // its work is done; no barrier follows the loop\n%s%sreturn;\n", y.I1, y.I1,
			  y.U);
	add_block_end(&sb, &y, out);
	if (!bulk)
		tma_kernel_edits(l, src, out);
	box_kernel_edits(l, out);
	layout_end(&y);
}

/* The variables of a fetch declaration: name, unqualified type, initial load. */
struct fetch_vars {
	char *name[16], *type[16];
	CXCursor init[16];
	int n;
};

static enum CXChildVisitResult collect_fetch_var(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fetch_vars *fv = data;
	if (clang_getCursorKind(c) != CXCursor_VarDecl || fv->n == 16)
		return CXChildVisit_Continue;
	CXString name = clang_getCursorSpelling(c);
	CXString type = clang_getTypeSpelling(clang_getUnqualifiedType(clang_getCursorType(c)));
	fv->name[fv->n] = xstrdup(clang_getCString(name));
	fv->type[fv->n] = xstrdup(clang_getCString(type));
	clang_disposeString(name);
	clang_disposeString(type);
	CXCursor init = cursor_last_child(c);
	fv->init[fv->n++] = init;
	return CXChildVisit_Continue;
}

static int first_copy_of(const struct kloop *l, int stmt)
{
	for (int i = 0; i < l->ncopies; i++)
		if (l->copies[i].stmt == stmt)
			return i;
	return 0;
}

/* Whether a copy-side local is read by some copy's destination: the stash needs it then. */
static bool used_by_destinations(const struct kloop *l, const struct body_stmt *st)
{
	bool used = false;
	for (int i = 0; i < l->ncopies && !used; i++) {
		CXCursor target = cursor_write_target(l->copies[i].store);
		struct cursors kids = cursor_children(target);
		for (int k = 0; k < kids.n && !used; k++)
			used = cursor_refers_within(kids.v[k], st->text);
		free(kids.v);
	}
	return used;
}

/* The register a direct copy is staged in: numbered among the direct copies. */
static char *staging_register(const struct kloop *l, int copy)
{
	int n = 0;
	for (int i = 0; i < copy; i++)
		n += !l->copies[i].from_register;
	/* in a copy loop, one register per trip */
	return l->stmts[l->copies[copy].stmt].copy_bound ? xprintf("pipefy_reg%d[pipefy_j]", n) : xprintf("pipefy_reg%d", n);
}

/* A plain integer literal: the only text whose value pipefy writes as a number. */
static bool is_literal(const char *t)
{
	while (*t == ' ')
		t++;
	size_t n = strspn(t, "0123456789");
	return n > 0 && t[n + strspn(t + n, "uUlL ")] == '\0';
}

/* The stride of a staged copy loop as the output spells it: as written, or the block size
 * the pipelined loop is guarded by. */
static char *copy_loop_stride(const struct kloop *l, const struct source *src, const struct body_stmt *st)
{
	if (!st->copy_stride)
		return xprintf("%d", l->block_threads);
	if (st->copy_stride_expr.end == st->copy_stride_expr.begin) /* `++i` */
		return xstrdup("1");
	char *s = span_text(src, st->copy_stride_expr);
	if (is_literal(s))
		return s;
	char *r = xprintf("(%s)", s);
	free(s);
	return r;
}

/* The trips per thread of a staged copy loop, ceil(N / S): a number when N and S are written
 * as numbers, else the expression itself, so that a macro the build redefines (`-DCHUNK=64`)
 * sizes the registers as it sizes the loop. */
static char *copy_loop_trips(const struct kloop *l, const struct source *src, const struct body_stmt *st)
{
	long stride = st->copy_stride ? st->copy_stride : l->block_threads;
	char *n = span_text(src, st->copy_bound_expr), *s = copy_loop_stride(l, src, st);
	char *r;
	if (is_literal(n) && is_literal(s))
		r = xprintf("%ld", (st->copy_bound + stride - 1) / stride);
	else if (stride == 1) /* (`++i`) */
		r = xprintf("(%s)", n);
	else
		r = xprintf("((%s) + %s - 1) / %s", n, s, s);
	free(n);
	free(s);
	return r;
}

/* A staged copy loop becomes a loop over its trips, pipefy_j, with a bound the compiler knows,
 * so it unrolls and every staging register has a constant index:
 *     for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
 *         int i = tid + pipefy_j * 256;
 *         if (!(i < N))
 *             break;
 *         ...the body as written...
 * The fetch and the stash visit the same i in the same order. */
static void add_copy_loop_trips(const struct kloop *l, const struct source *src, struct edits *e)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role != ROLE_COPY || !st->copy_bound)
			continue;
		/* (from the `for`: a `#pragma unroll` before it stays, and unrolls the trips) */
		size_t from = cursor_span(cursor_unattributed(st->cursor)).begin;
		if (from < st->text.begin)
			from = st->text.begin;
		char *indent = source_line_indent(src, from);
		char *var = span_text(src, st->copy_var), *init = span_text(src, st->copy_init);
		char *cond = span_text(src, st->copy_cond);
		bool braces = src->text[st->copy_body.begin] == '{';
		char *trips = copy_loop_trips(l, src, st), *stride = copy_loop_stride(l, src, st);
		char *header = xprintf("for (int pipefy_j = 0; pipefy_j < %s; ++pipefy_j) {\n%s%s%s = %s + pipefy_j * %s;\n"
				       "%s%sif (!(%s))\n%s%s%sbreak;%s",
				       trips, indent, l->unit, var, init, stride, indent, l->unit, cond, indent, l->unit,
				       l->unit, braces ? "" : "\n");
		free(trips);
		free(stride);
		if (braces) {
			edits_add(e, from, st->copy_body.begin + 1 - from, header);
		} else {
			char *rest = xprintf("%s%s%s", header, indent, l->unit);
			edits_add(e, from, st->copy_body.begin - from, rest);
			free(rest);
			char *close = xprintf("\n%s}", indent);
			edits_add(e, st->text.end, 0, close);
			free(close);
		}
		free(header);
		free(indent);
		free(var);
		free(init);
		free(cond);
	}
}

/* Staging registers sized by the block size (a copy loop strided by blockDim.x) hold only for
 * that block size; the pipelined loop runs under `blockDim.x == B`, the loop as written
 * (reading stage 0) otherwise. NULL when the sizes do not depend on the block. */
static char *block_size_guard(const struct kloop *l)
{
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY && l->stmts[i].copy_bound && !l->stmts[i].copy_stride)
			return xprintf("blockDim.x == %d", l->block_threads);
	return NULL;
}

/* Why a register plan keeps one stage, for the comment above it: the planner's reason. */
static const char *one_stage_why(const struct kloop *l)
{
	for (int i = 0; i < l->ntiles; i++)
		if (l->tiles[i].dynamic && l->nlaunch_edits == 0)
			return "the tiles' shared memory is the launch's";
	if (l->one_stage)
		return "a second stage might not fit every instantiation of the template";
	for (int i = 0; i < l->noptions; i++)
		if (l->options[i].variant == VARIANT_LDG && l->options[i].stages == 2 && l->options[i].verdict &&
		    strstr(l->options[i].verdict, "static shared memory"))
			return "a second stage would not fit in static shared memory";
	return "a second stage would cost occupancy";
}

static void rewrite_ldg(struct kloop *l, const struct source *src, struct edits *out)
{
	struct layout y = layout_begin(l, src);
	/* Stash side: a direct copy stores its register; a register copy stays as written. */
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->from_register) {
			char *text = render(src, &y.refs, cp->text);
			edits_add(&y.stmt_edits, cp->text.begin, cp->text.end - cp->text.begin, text);
			free(text);
			continue;
		}
		char *dst = render(src, &y.refs, cp->dst), *reg = staging_register(l, i);
		char *store = xprintf(cp->dst_is_address ? "*(%s) = %s%s" : "%s = %s%s", dst, reg, statement_end(cp));
		edits_add(&y.stmt_edits, cp->text.begin, cp->text.end - cp->text.begin, store);
		free(dst);
		free(reg);
		free(store);
	}
	layout_add_refs_outside_copies(&y);
	add_copy_loop_trips(l, src, &y.stmt_edits);
	/* Fetch side: a direct copy loads its register; a fetch declaration assigns its local. */
	struct edits fetch_edits = {0};
	add_copy_loop_trips(l, src, &fetch_edits);
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->from_register)
			continue;
		char *value = span_text(src, cursor_span(cp->value)), *reg = staging_register(l, i);
		char *load;
		if (cp->guard_is_if) {
			/* (the value as the then-branch stores it, conversion included) */
			char *g = span_text(src, cp->guard), *guard = load_condition(cp, g);
			char *from = span_text(src, cursor_span(cp->value)), *fill = span_text(src, cp->fill);
			load = xprintf("%s = %s ? %s : %s%s", reg, guard, from, fill, statement_end(cp));
			free(g);
			free(guard);
			free(from);
			free(fill);
		} else
			load = xprintf("%s = %s", reg, value);
		edits_add(&fetch_edits, cp->text.begin, cp->text.end - cp->text.begin, load);
		free(value);
		free(reg);
		free(load);
	}

	struct strbuf sb = {0};
	bool two = y.S == 2;
	y.guard = block_size_guard(l);
	if (y.guard)
		y.guard_why = xprintf("%s// pipefy: the staging registers are sized for %d threads (%s); other block\n"
				      "%s// sizes run the loop as written\n",
				      y.I0, l->block_threads, l->block_source ? l->block_source : "", y.I0);
	char *what = two ? xstrdup("registers, 2 stages: tile t+1 is loaded into registers while tile t is computed")
			 : xprintf("registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,\n"
				   "// then stored over it (%s)", one_stage_why(l));
	add_block_start(&sb, &y, what);
	free(what);
	sb_printf(&sb, "%s// pipefy: staging registers\n", y.I1);
	for (int i = 0, n = 0; i < l->ncopies; i++)
		if (!l->copies[i].from_register) {
			const struct body_stmt *st = &l->stmts[l->copies[i].stmt];
			if (st->copy_bound) {
				char *trips = copy_loop_trips(l, src, st);
				sb_printf(&sb, "%s%s%spipefy_reg%d[%s];\n", y.I1, l->copies[i].type, type_sep(l->copies[i].type),
					  n++, trips);
				free(trips);
			}
			else
				sb_printf(&sb, "%s%s%spipefy_reg%d;\n", y.I1, l->copies[i].type, type_sep(l->copies[i].type), n++);
		}
	for (int i = 0; i < l->nstmts; i++) {
		/* (`a = load;` to a local of the function stays as written) */
		if (l->stmts[i].role != ROLE_FETCH_DECL || l->stmts[i].fetch_assign)
			continue;
		/* `float4 a = load;` becomes `float4 a;` here and `a = load;` in the fetch */
		struct fetch_vars fv = {0};
		clang_visitChildren(l->stmts[i].cursor, collect_fetch_var, &fv);
		struct strbuf assigns = {0};
		for (int v = 0; v < fv.n; v++) {
			char *init = span_text(src, cursor_span(fv.init[v]));
			sb_printf(&sb, "%s%s%s%s;\n", y.I1, fv.type[v], type_sep(fv.type[v]), fv.name[v]);
			sb_printf(&assigns, "%s%s = %s;", v ? " " : "", fv.name[v], init);
			free(init);
			free(fv.type[v]);
			free(fv.name[v]);
		}
		char *text = sb_take(&assigns);
		edits_add(&fetch_edits, l->stmts[i].text.begin, l->stmts[i].text.end - l->stmts[i].text.begin, text);
		free(text);
	}

	sb_printf(&sb, "%s// pipefy: load the tile at the cursor into the staging registers and advance the\n", y.I1);
	sb_printf(&sb, "%s// cursor; false once the tiles run out\n", y.I1);
	sb_printf(&sb, "%sauto pipefy_fetch = [&]() {\n", y.I1);
	add_cursor_shadows(&sb, &y);
	char *cond = trimmed(src, l->cond);
	sb_printf(&sb, "%sif (!(%s))\n%sreturn false;\n", y.I2, cond, y.I3);
	free(cond);
	bool first = true;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool stash_only = st->role == ROLE_COPY && l->copies[first_copy_of(l, i)].from_register;
		if ((st->role == ROLE_COPY && !stash_only) || st->role == ROLE_COPY_DECL || st->role == ROLE_FETCH_DECL ||
		    st->role == ROLE_BUMP)
			add_stmt(&sb, src, &fetch_edits, st, y.I1, y.U, &first);
	}
	add_cursor_advance(&sb, &y, y.I2);
	sb_printf(&sb, "%sreturn true;\n", y.I2);
	sb_printf(&sb, "%s};\n", y.I1);
	if (two) {
		sb_printf(&sb, "%s// pipefy: store the staging registers into stage " STAGE_FILL "\n", y.I1);
		sb_printf(&sb, "%sauto pipefy_stash = [&](int " STAGE_FILL ") {\n", y.I1);
	} else {
		sb_printf(&sb, "%s// pipefy: store the staging registers into the tiles\n", y.I1);
		sb_printf(&sb, "%sauto pipefy_stash = [&]() {\n", y.I1);
	}
	first = true;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || (st->role == ROLE_COPY_DECL && used_by_destinations(l, st)))
			add_stmt(&sb, src, &y.stmt_edits, st, y.I1, y.U, &first);
	}
	sb_printf(&sb, "%s};\n", y.I1);
	if (two) {
		sb_printf(&sb, "%s// pipefy: prologue: tile 0 into stage 0\n", y.I1);
		sb_printf(&sb, "%sif (pipefy_fetch())\n%spipefy_stash(0);\n", y.I1, y.I2);
		sb_printf(&sb, "%s__syncthreads();\n", y.I1);
		sb_printf(&sb, "%sint " STAGE_READ " = 0; // the stage that holds tile t\n", y.I1);
		sb_printf(&sb, "%s// pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into\n", y.I1);
		sb_printf(&sb, "%s// the other stage. With two stages one barrier per iteration is enough: the stage being\n", y.I1);
		sb_printf(&sb, "%s// filled was last read before the previous iteration's barrier\n", y.I1);
	} else {
		sb_printf(&sb, "%s// pipefy: prologue: tile 0 into the tiles\n", y.I1);
		sb_printf(&sb, "%sif (pipefy_fetch())\n%spipefy_stash();\n", y.I1, y.I2);
		sb_printf(&sb, "%s__syncthreads();\n", y.I1);
		sb_printf(&sb, "%s// pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1\n", y.I1);
		sb_printf(&sb, "%s// over it between two barriers\n", y.I1);
	}
	add_main_header(&sb, &y);
	sb_printf(&sb, "%sbool pipefy_more = pipefy_fetch();\n", y.I2);
	/* Seen on sm_90 (sgemm_batched): without it ptxas sank the loads to the stores after the
	 * compute, and nothing overlapped. The loop is block-uniform, so the whole warp is here. */
	sb_printf(&sb, "%s__syncwarp(); // pipefy: the loads above stay ahead of the compute\n", y.I2);
	add_compute(&sb, &y);
	if (two) {
		sb_printf(&sb, "%sif (pipefy_more)\n%spipefy_stash(" STAGE_READ " ^ 1);\n", y.I2, y.I3);
		if (!test_break("barrier"))
			sb_printf(&sb, "%s__syncthreads();\n", y.I2);
		sb_printf(&sb, "%s" STAGE_READ " ^= 1;\n", y.I2);
	} else {
		sb_printf(&sb, "%s__syncthreads(); // every thread is done reading tile t\n", y.I2);
		sb_printf(&sb, "%sif (pipefy_more)\n%spipefy_stash();\n", y.I2, y.I3);
		sb_printf(&sb, "%s__syncthreads(); // tile t+1 is in place\n", y.I2);
	}
	edits_free(&fetch_edits);
	sb_printf(&sb, "%s}\n", y.I1);
	add_block_end(&sb, &y, out);
	layout_end(&y);
}

/* The load-free ceiling: the copies (and the locals only they read) deleted, everything
 * else, barriers included, as written. */
static void rewrite_no_loads(struct kloop *l, struct edits *out)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool copy_side = st->role == ROLE_COPY || ((st->role == ROLE_COPY_DECL || st->role == ROLE_FETCH_DECL) && !st->also_compute);
		if (copy_side)
			edits_add(out, st->span.begin, st->span.end - st->span.begin, "");
	}
}

/* The line ending the input uses: "\r\n" when its first line ends so. */
static const char *input_newline(const struct source *src)
{
	const char *nl = memchr(src->text, '\n', src->len);
	return nl && nl > src->text && nl[-1] == '\r' ? "\r\n" : "\n";
}

/* The helpers overlapped launches use, once, where the pipeline include goes. The CPU model
 * (tests/cpu/to_cpu.py) replaces this block between its marker lines. */
const char rewrite_overlap_helpers[] =
	"// pipefy: overlapped launches {\n"
	"// A kernel launched by pipefy_launch_dependent may start while the kernel before it in its\n"
	"// stream is finishing (programmatic dependent launch, sm_90); pipefy_grid_wait, first in its\n"
	"// body, waits until that kernel has completed and its writes are visible (griddepcontrol.wait).\n"
	"// Below sm_90, or where the kernel's code was compiled for less (and so does not wait), the\n"
	"// launch is an ordinary one.\n"
	"static __device__ __forceinline__ void pipefy_grid_wait()\n"
	"{\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n"
	"    asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n"
	"#endif\n"
	"}\n";
/* (--launches=early only: nvcc warns of a static function never called) */
const char rewrite_overlap_trigger[] =
	"// (--launches=early) the kernel launched after this one may start once every block of this one\n"
	"// has come here or ended (griddepcontrol.launch_dependents; it still waits for this one to end)\n"
	"static __device__ __forceinline__ void pipefy_launch_dependents()\n"
	"{\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n"
	"    asm volatile(\"griddepcontrol.launch_dependents;\" :::);\n"
	"#endif\n"
	"}\n";
const char rewrite_overlap_launcher[] =
	"static bool pipefy_kernel_waits(const void *kernel)\n"
	"{\n"
	"    static thread_local const void *known[8];\n"
	"    static thread_local int known_device[8], next;\n"
	"    static thread_local bool waits[8];\n"
	"    int device;\n"
	"    if (cudaGetDevice(&device) != cudaSuccess)\n"
	"        return false;\n"
	"    for (int i = 0; i < 8; i++)\n"
	"        if (known[i] == kernel && known_device[i] == device)\n"
	"            return waits[i];\n"
	"    int major = 0;\n"
	"    cudaFuncAttributes attr;\n"
	"    bool w = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9 &&\n"
	"             cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;\n"
	"    known[next] = kernel;\n"
	"    known_device[next] = device;\n"
	"    waits[next] = w;\n"
	"    next = (next + 1) % 8;\n"
	"    return w;\n"
	"}\n"
	"// (the arguments become the kernel's parameter types where they are passed, as in a launch:\n"
	"// P is deduced from the kernel alone, so `0` or NULL for a pointer is a null pointer)\n"
	"template <class T>\n"
	"struct pipefy_parameter {\n"
	"    typedef T type;\n"
	"};\n"
	"template <class... P>\n"
	"static cudaError_t pipefy_launch_dependent(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,\n"
	"                                           typename pipefy_parameter<P>::type... args)\n"
	"{\n"
	"    cudaLaunchAttribute overlap;\n"
	"    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;\n"
	"    overlap.val.programmaticStreamSerializationAllowed = 1;\n"
	"    cudaLaunchConfig_t config = {};\n"
	"    config.gridDim = grid;\n"
	"    config.blockDim = block;\n"
	"    config.dynamicSmemBytes = smem;\n"
	"    config.stream = stream;\n"
	"    config.attrs = &overlap;\n"
	"    config.numAttrs = pipefy_kernel_waits((const void *)kernel) ? 1 : 0;\n"
	"    return cudaLaunchKernelEx(&config, kernel, args...);\n"
	"}\n"
	"// } pipefy: overlapped launches\n";

/* ---- overlapped launches ---- */

/* Each overlapping pair's second launch goes through pipefy_launch_dependent, and its kernel
 * waits first thing (once, however many launches it has); with --launches=early the kernel
 * ahead lets it start (*trigger then says so). */
static bool rewrite_launch_pairs(struct model *m, const struct source *src, struct edits *e, bool *any_trigger)
{
	bool any = false;
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		p->rewritten = false;
		if (p->refusal || !p->overlap || p->out_of_range)
			continue;
		char *a = span_text(src, p->args);
		bool empty = true;
		for (const char *q = a; *q; q++)
			empty &= isspace((unsigned char)*q) != 0;
		char *call = xprintf("pipefy_launch_dependent(%s, %s, %s, %s, %s%s%s)", p->callee, p->config[0],
				     p->config[1] ? p->config[1] : "1", p->config[2] ? p->config[2] : "0",
				     p->config[3] ? p->config[3] : "0", empty ? "" : ", ", empty ? "" : a);
		edits_add(e, p->call.begin, p->call.end - p->call.begin, call);
		free(call);
		free(a);
		/* (once per kernel; not at all where it already begins with pipefy's wait: a second run) */
		bool waits = cursor_is_call_named(cursor_first_child(cursor_last_child(p->kernel)), "pipefy_grid_wait");
		for (int j = 0; j < i; j++)
			waits |= m->pairs[j].rewritten && m->pairs[j].body_open == p->body_open;
		if (!waits && !test_break("gridwait")) {
			/* the indentation of the body's first line, else four spaces more than the function's */
			size_t q = p->body_open;
			while (q < src->len && (src->text[q] == ' ' || src->text[q] == '\t' || src->text[q] == '\r'))
				q++;
			char *indent = NULL;
			if (q < src->len && src->text[q] == '\n') {
				size_t b = q + 1, n = 0;
				while (b + n < src->len && (src->text[b + n] == ' ' || src->text[b + n] == '\t'))
					n++;
				if (n && b + n < src->len && src->text[b + n] != '}')
					indent = xstrndup(src->text + b, n);
			}
			if (!indent) {
				char *outer = source_line_indent(src, cursor_span(p->kernel).begin);
				indent = xprintf("%s    ", outer);
				free(outer);
			}
			/* (a body that goes on after its '{' on the same line goes on on the next) */
			bool same_line = q < src->len && src->text[q] != '\n';
			for (int j = 0; j < m->npairs && same_line; j++) /* (a trigger there ends the line itself) */
				same_line = !(m->pairs[j].overlap && !m->pairs[j].refusal && m->pairs[j].trigger_at == p->body_open);
			char *wait = xprintf("\n%spipefy_grid_wait(); // pipefy: '%s' may start before the kernel launched ahead "
					     "of it ends: wait for it first%s%s", indent, p->second, same_line ? "\n" : "",
					     same_line ? indent : "");
			edits_add(e, p->body_open, 0, wait);
			free(wait);
			free(indent);
		}
		p->rewritten = true;
		any = true;
	}
	for (int i = 0; i < m->npairs; i++) { /* (after every wait: at a body's start the wait comes first) */
		struct launch_pair *p = &m->pairs[i];
		bool done = false;
		for (int j = 0; j < i; j++)
			done |= m->pairs[j].rewritten && m->pairs[j].trigger_at == p->trigger_at;
		if (!p->rewritten || !p->trigger_at || done)
			continue;
		char *indent = source_line_indent(src, p->trigger_at == p->first_body_open ? cursor_span(p->first_kernel).begin
											 : p->trigger_at - 1);
		bool top = p->trigger_at == p->first_body_open;
		size_t q = p->trigger_at;
		while (q < src->len && (src->text[q] == ' ' || src->text[q] == '\t' || src->text[q] == '\r'))
			q++;
		bool same_line = q < src->len && src->text[q] != '\n';
		char *trigger = xprintf("\n%s%spipefy_launch_dependents(); // pipefy: the kernel launched after this one may "
					"start now (it waits for this one to end)%s%s%s", indent, top ? "    " : "",
					same_line ? "\n" : "", same_line ? indent : "", same_line && top ? "    " : "");
		edits_add(e, p->trigger_at, 0, trigger);
		free(trigger);
		free(indent);
		*any_trigger = true;
	}
	return any;
}

/* The helpers the launch-staged tiles use, once, where the pipeline include goes. */
static const char launch_helpers[] =
	"// pipefy: tiles in a launch's dynamic shared memory get one copy of its layout per stage:\n"
	"// pipefy_launch_bytes gives a launch that much (allowing it above 48 KB), pipefy_at finds a\n"
	"// tile's copy at a stage\n"
	"static __device__ __forceinline__ unsigned pipefy_dynamic_smem_size()\n"
	"{\n"
	"    unsigned bytes;\n"
	"    asm volatile(\"mov.u32 %0, %%dynamic_smem_size;\" : \"=r\"(bytes));\n"
	"    return bytes;\n"
	"}\n"
	"template <class T> static __device__ __forceinline__ T *pipefy_at(T *tile, int stage, unsigned stride)\n"
	"{\n"
	"    return (T *)((char *)tile + stage * stride);\n"
	"}\n"
	"template <class K> static size_t pipefy_launch_bytes(K *kernel, size_t bytes, int stages)\n"
	"{\n"
	"    size_t total = (size_t)stages * ((bytes + 127) / 128 * 128);\n"
	"    if (total > 48 * 1024)\n"
	"        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)total);\n"
	"    return total;\n"
	"}\n";

/* `#include <cuda_pipeline.h>` (include) and the launch-staging helpers (helpers) after the
 * last #include that every compile sees, before the first rewritten loop: outside any
 * #if/#ifdef and any block comment; at the top of a file without one, after its byte-order
 * mark. The include is skipped when the file already has it. */
static void add_pipeline_include(const struct model *m, const struct source *src, struct edits *out, bool include,
				 bool helpers, bool tma, bool bulk, bool named, bool regs, bool overlap, bool trigger)
{
	size_t first = src->len;
	for (int i = 0; i < m->nloops; i++)
		if (m->loops[i].rewritten && m->loops[i].loop.begin < first)
			first = m->loops[i].loop.begin;
	for (int i = 0; i < m->npairs; i++)
		if (m->pairs[i].rewritten) {
			size_t k = cursor_span(m->pairs[i].kernel).begin;
			first = k < first ? k : first;
			first = m->pairs[i].call.begin < first ? m->pairs[i].call.begin : first;
			k = m->pairs[i].trigger_at ? cursor_span(m->pairs[i].first_kernel).begin : first;
			first = k < first ? k : first;
		}
	/* (a file pipefy has overlapped launches in already has the helpers: validation checks them) */
	overlap &= strstr(src->text, "// pipefy: overlapped launches {") == NULL;
	trigger &= overlap;
	size_t at = src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	int depth = 0;
	bool in_comment = false;
	for (int ln = 0; ln < src->nlines && src->line_start[ln] < first; ln++) {
		const char *p = src->text + src->line_start[ln];
		const char *end = ln + 1 < src->nlines ? src->text + src->line_start[ln + 1] : src->text + src->len;
		bool starts_in_comment = in_comment;
		/* where block comments open and close on this line (strings are rare enough here) */
		for (const char *q = p; q + 1 < end; q++) {
			if (!in_comment && q[0] == '/' && q[1] == '/')
				break;
			if (!in_comment && q[0] == '/' && q[1] == '*')
				in_comment = true, q++;
			else if (in_comment && q[0] == '*' && q[1] == '/')
				in_comment = false, q++;
		}
		if (starts_in_comment)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "if", 2) == 0)
			depth++;
		else if (strncmp(p, "endif", 5) == 0)
			depth--;
		else if (strncmp(p, "include", 7) == 0 && depth == 0) {
			const char *name = p + 7;
			while (*name == ' ' || *name == '\t')
				name++;
			if (strncmp(name, "<cuda_pipeline.h>", 17) == 0 || strncmp(name, "\"cuda_pipeline.h\"", 17) == 0)
				include = false;
			if (!in_comment)
				at = (size_t)(end - src->text);
		}
	}
	char *line = xprintf("%s%s%s%s%s%s%s%s%s%s%s%s%s%s", include ? "#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async\n" : "",
			     tma ? "#include <cuda.h>         // pipefy: CUtensorMap\n"
				   "#include <cudaTypedefs.h> // pipefy: PFN_cuTensorMapEncodeTiled\n" : "",
			     helpers ? launch_helpers : "", tma || bulk ? tma_helpers_start : "", tma ? tma_helpers_2d : "",
			     bulk ? tma_helpers_bulk : "", tma || bulk ? "#undef PIPEFY_SM90\n" : "", tma ? tma_helpers_map : "",
			     tma || bulk ? tma_helpers_end : "", named ? named_barrier_helpers : "", regs ? regs_helpers : "",
			     overlap ? rewrite_overlap_helpers : "",
			     trigger ? rewrite_overlap_trigger : "", overlap ? rewrite_overlap_launcher : "");
	if (*line)
		edits_add(out, at, 0, line);
	free(line);
}

/* Lines pipefy writes end as the input's do: in a CRLF file each "\n" of a replacement that
 * is not already "\r\n" becomes "\r\n". */
static void match_line_endings(const struct source *src, struct edits *e)
{
	if (strcmp(input_newline(src), "\r\n") != 0)
		return;
	for (int i = 0; i < e->n; i++) {
		struct strbuf sb = {0};
		for (const char *p = e->v[i].text; *p; p++) {
			if (*p == '\n' && (p == e->v[i].text || p[-1] != '\r'))
				sb_puts(&sb, "\r");
			sb_add(&sb, p, 1);
		}
		free(e->v[i].text);
		e->v[i].text = sb.data ? sb_take(&sb) : xstrdup("");
	}
}

/* The launches of kernels whose tiles get stages in their dynamic shared memory: each gives
 * the most stages any of the kernel's loops has, one copy of the layout each. Every loop of
 * the kernel divides by that number (launch_stages). */
static void plan_launch_stages(struct model *m)
{
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		l->launch_stages = 0;
		if (l->nrefusals > 0 || l->variant == VARIANT_AUTO || l->out_of_range || l->stages < 2 ||
		    l->nlaunch_edits == 0)
			continue;
		bool dynamic = false;
		for (int t = 0; t < l->ntiles; t++)
			dynamic |= l->tiles[t].dynamic;
		if (dynamic)
			l->launch_stages = l->stages;
	}
	for (int i = 0; i < m->nloops; i++)
		for (int j = 0; j < m->nloops; j++)
			if (m->loops[i].launch_stages && m->loops[j].launch_stages > m->loops[i].launch_stages &&
			    strcmp(m->loops[i].function, m->loops[j].function) == 0)
				m->loops[i].launch_stages = m->loops[j].launch_stages;
}

static void add_launch_edits(const struct model *m, const struct source *src, struct edits *e)
{
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		bool first = l->launch_stages > 0;
		for (int j = 0; j < i && first; j++)
			first = !(m->loops[j].launch_stages && strcmp(m->loops[j].function, l->function) == 0);
		for (int k = 0; first && k < l->nlaunch_edits; k++) {
			const struct launch_edit *le = &l->launch_edits[k];
			char *bytes = span_text(src, le->shared);
			char *text = xprintf("pipefy_launch_bytes(%s, %s, %d)", l->function, bytes, l->launch_stages);
			edits_add(e, le->shared.begin, le->shared.end - le->shared.begin, text);
			free(text);
			free(bytes);
		}
	}
}


void rewrite_kloops(struct model *m, const struct source *src, struct edits *e)
{
	bool cp_async = false, tma = false, bulk = false, named = false, wsa = false, regs = false;
	plan_launch_stages(m);
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (l->nrefusals > 0 || l->variant == VARIANT_AUTO || l->out_of_range)
			continue;
		if (l->variant == VARIANT_CP_ASYNC) {
			rewrite_cp_async(l, src, e);
			cp_async = true;
			/* one asynchronous copy of each fill helper, however many loops call it */
			bool made = false;
			for (int j = 0; j < i && l->helper.stmt >= 0; j++)
				made |= m->loops[j].rewritten && m->loops[j].variant == VARIANT_CP_ASYNC &&
					m->loops[j].helper.stmt >= 0 && m->loops[j].helper.def.begin == l->helper.def.begin;
			if (l->helper.stmt >= 0 && !made)
				add_async_helper(&l->helper, src, e);
		} else if (l->variant == VARIANT_LDG) {
			rewrite_ldg(l, src, e);
		} else if (l->variant == VARIANT_TMA || l->variant == VARIANT_BULK || l->variant == VARIANT_WS ||
			   l->variant == VARIANT_WS_CP_ASYNC) {
			rewrite_tma(l, src, e);
			tma |= l->variant == VARIANT_TMA || l->variant == VARIANT_WS;
			bulk |= l->variant == VARIANT_BULK;
			wsa |= l->variant == VARIANT_WS_CP_ASYNC;
			regs |= l->producer_threads == 128;
			named |= l->variant == VARIANT_WS_CP_ASYNC || l->producer_threads == 128;
		} else {
			rewrite_no_loads(l, e);
		}
		l->rewritten = true;
	}
	bool launch_staged = false;
	for (int i = 0; i < m->nloops; i++)
		launch_staged |= m->loops[i].launch_stages > 0 && m->loops[i].rewritten;
	if (launch_staged)
		add_launch_edits(m, src, e);
	bool trigger = false;
	bool overlap = rewrite_launch_pairs(m, src, e, &trigger);
	rewrite_launch_queues(m, src, e);
	if (cp_async || launch_staged || tma || bulk || named || overlap)
		add_pipeline_include(m, src, e, cp_async || wsa, launch_staged, tma, bulk, named, regs, overlap, trigger);
	match_line_endings(src, e);
}
