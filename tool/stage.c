/* stage.c: the layer the variant families build their loops on (registers.c, cp_async.c,
 * tensor.c): the staged tiles' layout (every reference to a tile indexed by a stage), and the
 * pieces every pipelined block has: the block's start with the hoisted tiles and the cursor,
 * the loader's view of the loop variables, the user's loop header, the compute, and the
 * block's end. It decides nothing: the variants arrange the pieces. */
#include "stage.h"

#include <stdlib.h>

char *render(const struct source *src, const struct edits *e, struct span s)
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
void add_stmt(struct strbuf *sb, const struct source *src, const struct edits *e,
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

char *trimmed(const struct source *src, struct span s)
{
	while (s.begin < s.end && (src->text[s.begin] == ' ' || src->text[s.begin] == '\t' || src->text[s.begin] == '\n'))
		s.begin++;
	while (s.end > s.begin &&
	       (src->text[s.end - 1] == ' ' || src->text[s.end - 1] == '\t' || src->text[s.end - 1] == '\n'))
		s.end--;
	return span_text(src, s);
}

/* `(g)` for a guard, without doubling the parentheses it already has. */
char *parenthesized(const char *g)
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
char *load_condition(const struct copy *cp, const char *g)
{
	char *p = parenthesized(g);
	if (!cp->guard_negated)
		return p;
	char *n = xprintf("(!%s)", p);
	free(p);
	return n;
}

/* An if/else copy is replaced up to its end, so its replacement carries the ';'. */
const char *statement_end(const struct copy *cp) { return cp->guard_is_if ? ";" : ""; }

/* `&x`, or `p` when x is `*p`, each with the tile references indexed. */

bool in_span(size_t off, struct span s) { return off >= s.begin && off < s.end; }

/* A tile in the launch's dynamic shared memory that gets stages by a bigger launch: its
 * stages are copies of the launch's layout, pipefy_stride bytes apart (measure.c, plan.c). */
static bool staged_in_launch(const struct kloop *l, int tile)
{
	return l->tiles[tile].dynamic && l->stages > 1 && l->enlarge;
}

static bool any_staged_in_launch(const struct kloop *l)
{
	for (int i = 0; i < l->ntiles; i++)
		if (staged_in_launch(l, i))
			return true;
	return false;
}

struct layout layout_begin(const struct kloop *l, const struct source *src)
{
	struct layout y = {.l = l, .src = src, .S = l->stages, .U = l->unit};
	y.I0 = xstrdup(l->indent);
	y.I1 = xprintf("%s%s", y.I0, y.U);
	y.I2 = xprintf("%s%s", y.I1, y.U);
	y.I3 = xprintf("%s%s", y.I2, y.U);
	for (int i = 0; i < l->nrefs && y.S > 1; i++) {
		const struct body_stmt *st = &l->stmts[l->refs[i].stmt];
		bool in_copy = st->role == ROLE_COPY || st->declares_view; /* (a view the copies store through) */
		if (staged_in_launch(l, l->refs[i].tile)) {
			/* the tile's copy in the launch's shared memory at that stage */
			edits_add(&y.refs, l->refs[i].at.begin, 0, NAME_STAGE_AT "(");
			edits_add(&y.refs, l->refs[i].at.end, 0,
				  in_copy ? ", " STAGE_FILL ", " NAME_STRIDE ")" : ", " STAGE_READ ", " NAME_STRIDE ")");
		} else
			edits_add(&y.refs, l->refs[i].at.end, 0, in_copy ? "[" STAGE_FILL "]" : "[" STAGE_READ "]");
	}
	/* (a guarded fill's branch locals: the copy, one expression, names their values) */
	for (int i = 0; i < l->local_values.n; i++)
		edits_add(&y.refs, l->local_values.v[i].offset, l->local_values.v[i].length, l->local_values.v[i].text);
	layout_drop_pipe_ops(l, &y.stmt_edits);
	return y;
}

/* The calls on the pipeline the loop's memcpy_async copies went through, removed: the copies are
 * the rewrite's own now (check proved that pipeline theirs alone). */
void layout_drop_pipe_ops(const struct kloop *l, struct edits *e)
{
	for (int i = 0; i < l->npipe_ops; i++)
		edits_add(e, l->pipe_ops[i].at.begin, l->pipe_ops[i].at.end - l->pipe_ops[i].at.begin, "");
}

/* Tile names outside the copies the variant replaced keep their plain stage index. */
void layout_add_refs_outside_copies(struct layout *y)
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

void layout_end(struct layout *y)
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

const char *type_sep(const char *type) { return type[strlen(type) - 1] == '*' ? "" : " "; }

/* `{`, tiles declared in the body (hoisted: __shared__ storage is static anyway), and the
 * cursor: the loop variables of the next tile to load. */
void add_block_start(struct strbuf *sb, struct layout *y, const char *what)
{
	const struct kloop *l = y->l;
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
			      NAME_STRIDE " = pipefy_dynamic_smem_size() / %d;\n",
			  y->I1, y->I1, l->launch_stages);
	sb_printf(sb, "%s// pipefy: the loop variables of the next tile to load\n", y->I1);
	for (int i = 0; i < l->nivars; i++) {
		const struct induction *v = &l->ivars[i];
		sb_printf(sb, "%s%s%spipefy_next_%s = %s;\n", y->I1, v->type, type_sep(v->type), v->name, v->init);
	}
}

/* Inside a loader: the loop variables take the cursor's values. */
void add_cursor_shadows(struct strbuf *sb, struct layout *y)
{
	for (int i = 0; i < y->l->nivars; i++) {
		const struct induction *v = &y->l->ivars[i];
		sb_printf(sb, "%s%s%s%s = pipefy_next_%s;\n", y->I2, v->type, type_sep(v->type), v->name, v->name);
	}
	add_scratch_shadows(sb, y, NULL, 0);
}

/* The loader's own scratch locals (kloop.scratch), declared without a value: the copy side sets
 * each before it reads it. With `stmts`, only those some statement of them sets. */
void add_scratch_shadows(struct strbuf *sb, struct layout *y, const CXCursor *stmts, int n)
{
	for (int i = 0; i < y->l->nscratch; i++) {
		CXCursor var = y->l->scratch[i];
		bool named = !stmts;
		for (int k = 0; k < n && !named; k++)
			named = cursor_writes_var(stmts[k], var);
		if (!named)
			continue;
		CXString t = clang_getTypeSpelling(clang_getCursorType(var));
		char *name = cursor_name(var);
		const char *type = clang_getCString(t);
		if (strpbrk(type, "([")) /* (a pointer to an array or a function: no declarator to put it in) */
			sb_printf(sb, "%sdecltype(%s) %s; // pipefy: the loader's own\n", y->I2, name, name);
		else
			sb_printf(sb, "%s%s%s%s; // pipefy: the loader's own\n", y->I2, type, type_sep(type), name);
		free(name);
		clang_disposeString(t);
	}
}

/* The loop's own increment, then the cursor keeps the advanced values. */
void add_cursor_advance(struct strbuf *sb, struct layout *y, const char *indent)
{
	char *inc = trimmed(y->src, y->l->inc);
	if (*inc)
		sb_printf(sb, "%s%s;\n", indent, inc);
	free(inc);
	for (int i = 0; i < y->l->nivars; i++)
		sb_printf(sb, "%spipefy_next_%s = %s;\n", indent, y->l->ivars[i].name, y->l->ivars[i].name);
}

/* The user's for header, one level deeper, with the pragmas written above it. */
void add_main_header(struct strbuf *sb, struct layout *y)
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
void add_compute(struct strbuf *sb, struct layout *y)
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

/* A static tile the plan moved into the launch's dynamic shared memory: its declaration
 * becomes a reference to its stages there, of the type it would have had as a static array,
 * the first one after the extern array (check proved each declared alone, before the loop). */
static void promote_declaration(struct layout *y, int i, struct edits *out)
{
	const struct kloop *l = y->l;
	const struct tile *t = &l->tiles[i];
	struct span stmt = l->promote_decls[i];
	size_t b = stmt.begin;
	while (b > 0 && (y->src->text[b - 1] == ' ' || y->src->text[b - 1] == '\t'))
		b--;
	char *indent = xstrndup(y->src->text + b, stmt.begin - b);
	char *dims = span_text(y->src, (struct span){t->name_end, cursor_span(t->decl).end});
	struct strbuf sb = {0};
	bool first = true; /* (the earliest declared encloses the others: all enclose the loop) */
	for (int j = 0; j < l->ntiles; j++)
		first &= l->promote_decls[j].begin >= stmt.begin;
	if (first)
		sb_printf(&sb, "extern __shared__ __align__(128) unsigned char " NAME_PROMOTED "[]; // pipefy: the tiles' "
			       "stages, %.1f KB, are the launch's dynamic shared memory\n%s",
			  l->promoted_bytes / 1024.0, indent);
	sb_printf(&sb, "%s (&%s)[%d]%s = *reinterpret_cast<%s (*)[%d]%s>(" NAME_PROMOTED " + %ld);\n", t->elem_type,
		  t->name, y->S, dims, t->elem_type, y->S, dims, kloop_promoted_offset(l, y->S, i));
	sb_printf(&sb, "%sstatic_assert(sizeof(%s[%d]%s) == %ld, \"pipefy: the size pipefy laid '%s' out with\");", indent,
		  t->elem_type, y->S, dims, y->S * tile_bytes(l, i), t->name);
	char *text = sb_take(&sb);
	edits_add(out, stmt.begin, stmt.end - stmt.begin, text);
	free(text);
	free(dims);
	free(indent);
}

void add_block_end(struct strbuf *sb, struct layout *y, struct edits *out)
{
	const struct kloop *l = y->l;
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
		if (l->promoted_bytes > 0)
			promote_declaration(y, i, out);
		else if (!l->tiles[i].in_loop && !staged_in_launch(l, i))
			edits_add(out, l->tiles[i].name_end, 0, dim);
	free(dim);
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
static char *copy_loop_stride(const struct kloop *l, const struct copy_loop *cl)
{
	if (!cl->stride)
		return xprintf("%d", kloop_block_x(l));
	if (!cl->stride_text) /* `++i` */
		return xstrdup("1");
	if (is_literal(cl->stride_text))
		return xstrdup(cl->stride_text);
	return xprintf("(%s)", cl->stride_text);
}

/* The trips per thread of a staged copy loop, ceil(N / S): a number when N and S are written
 * as numbers, else the expression itself, so that a macro the build redefines (`-DCHUNK=64`)
 * sizes the registers as it sizes the loop. */
char *copy_loop_trips(const struct kloop *l, const struct copy_loop *cl)
{
	long stride = cl->stride ? cl->stride : kloop_block_x(l);
	char *s = copy_loop_stride(l, cl);
	char *r;
	if (is_literal(cl->bound_text) && is_literal(s))
		r = xprintf("%ld", (cl->bound + stride - 1) / stride);
	else if (stride == 1) /* (`++i`) */
		r = xprintf("(%s)", cl->bound_text);
	else
		r = xprintf("((%s) + %s - 1) / %s", cl->bound_text, s, s);
	free(s);
	return r;
}

/* One loop's header over its trips, counted by `counter` (see add_copy_loop_trips); `from` where
 * the `for` starts, `end` where the statement ends. */
static void add_trips_header(const struct kloop *l, const struct source *src, struct edits *e, const struct copy_loop *cl,
			     size_t from, size_t end, const char *counter)
{
	char *indent = source_line_indent(src, from);
	char *var = span_text(src, cl->var), *init = span_text(src, cl->init);
	char *cond = span_text(src, cl->cond);
	bool braces = src->text[cl->body.begin] == '{';
	/* (the trips as a constant expression; each trip's value with the step as written, so that
	 * a local holding it stays in use) */
	char *trips = copy_loop_trips(l, cl), *stride = copy_loop_stride(l, cl);
	if (cl->step.end > cl->step.begin && cl->stride_text && !is_literal(cl->stride_text)) {
		free(stride);
		char *t = span_text(src, cl->step);
		stride = xprintf("(%s)", t);
		free(t);
	}
	/* (the test cannot fail where the loop is strided by the block, starts at threadIdx.x,
	 * below blockDim.x, and its bound is a multiple of the block size the pipeline is guarded
	 * by: every trip of every thread is in range) */
	bool exact = !cl->stride && cl->thread_start && cl->bound > 0 && kloop_block_x(l) > 0 &&
		     cl->bound % kloop_block_x(l) == 0;
	char *test = exact ? xstrdup(braces ? "" : "\n")
			   : xprintf("\n%s%sif (!(%s))\n%s%s%sbreak;%s", indent, l->unit, cond, indent, l->unit, l->unit,
				     braces ? "" : "\n");
	char *header = xprintf("for (int %s = 0; %s < %s; ++%s) {\n%s%s%s = %s + %s * %s;%s", counter, counter, trips,
			       counter, indent, l->unit, var, init, counter, stride, test);
	free(test);
	free(trips);
	free(stride);
	if (braces) {
		edits_add(e, from, cl->body.begin + 1 - from, header);
	} else {
		char *rest = xprintf("%s%s%s", header, indent, l->unit);
		edits_add(e, from, cl->body.begin - from, rest);
		free(rest);
		char *close = xprintf("\n%s}", indent);
		edits_add(e, end, 0, close);
		free(close);
	}
	free(header);
	free(indent);
	free(var);
	free(init);
	free(cond);
}

/* A staged copy loop becomes a loop over its trips, pipefy_j, with a bound the compiler knows,
 * so it unrolls and every staging register has a constant index:
 *     for (int pipefy_j = 0; pipefy_j < 2; ++pipefy_j) {
 *         int i = tid + pipefy_j * 256;
 *         if (!(i < N))
 *             break;
 *         ...the body as written...
 * The fetch and the stash visit the same i in the same order. A loop its body is (inner)
 * becomes a loop over its trips, pipefy_k, the same way. */
void add_copy_loop_trips(const struct kloop *l, const struct source *src, struct edits *e, bool block_strided_only)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role != ROLE_COPY || !st->cl.bound || (block_strided_only && st->cl.stride))
			continue;
		/* (the inner loop's closing brace first: where both end at once, it goes inside) */
		if (st->inner.bound && !block_strided_only) {
			struct span in = cursor_span(st->inner.loop);
			size_t end = in.end; /* (an expression's extent stops before its ';') */
			while (end < src->len && (src->text[end] == ' ' || src->text[end] == '\t'))
				end++;
			add_trips_header(l, src, e, &st->inner, in.begin, end < src->len && src->text[end] == ';' ? end + 1 : in.end,
					 "pipefy_k");
		}
		/* (from the `for`: a `#pragma unroll` before it stays, and unrolls the trips) */
		size_t from = cursor_span(cursor_unattributed(st->cursor)).begin;
		if (from < st->text.begin)
			from = st->text.begin;
		add_trips_header(l, src, e, &st->cl, from, st->text.end, "pipefy_j");
	}
}

/* y->guard (block_size_guard) and the comment above it: copies says what the block size fixes
 * for the copies ("the copy loops are unrolled", "the staging registers are sized"; wrap_early
 * breaks its first line one word sooner). */
void layout_block_guard(struct layout *y, const char *copies, bool wrap_early)
{
	const struct kloop *l = y->l;
	y->guard = block_size_guard(l);
	if (!y->guard)
		return;
	const char *from = l->block_source ? l->block_source : "";
	bool shaped = strchr(y->guard, '&') != NULL;
	if (!shaped && l->block_dim[1] * l->block_dim[2] <= 1)
		y->guard_why = xprintf("%s// pipefy: %s for %d threads (%s); other block%s\n"
				       "%s// %srun the loop as written\n",
				       y->I0, copies, kloop_block_x(l), from, wrap_early ? "" : " sizes", y->I0,
				       wrap_early ? "sizes " : "");
	else if (!shaped)
		y->guard_why = xprintf("%s// pipefy: %s for blockDim.x == %d (%s); other block sizes\n"
				       "%s// run the loop as written\n",
				       y->I0, copies, kloop_block_x(l), from, y->I0);
	else
		y->guard_why = xprintf("%s// pipefy: the compute's loops over %s run a fixed number of trips in a %dx%dx%d\n"
				       "%s// block (%s), which the compiler unrolls; other blocks run the loop as written\n",
				       y->I0, l->compute_block_dim, l->block_dim[0], l->block_dim[1], l->block_dim[2], y->I0,
				       l->block_shape_source ? l->block_shape_source : from);
}

/* Staging registers sized by the block size (a copy loop strided by blockDim.x) hold only for
 * that block size, and a compute loop counted from the block's shape (`j < blockDim.x`) runs a
 * compile-time number of trips only for that shape: the pipelined loop runs under `blockDim.x
 * == B` (the shape, `blockDim.x == X && blockDim.y == Y && blockDim.z == Z`, for the compute),
 * the loop as written (reading stage 0) otherwise. NULL when neither depends on the block. */
char *block_size_guard(const struct kloop *l)
{
	if (l->compute_block_dim && !l->compute_runtime_trips && l->block_dim[0] > 0 && !l->twice)
		return xprintf("blockDim.x == %d && blockDim.y == %d && blockDim.z == %d", l->block_dim[0], l->block_dim[1],
			       l->block_dim[2]);
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_COPY && l->stmts[i].cl.bound && !l->stmts[i].cl.stride)
			return xprintf("blockDim.x == %d", kloop_block_x(l));
	return NULL;
}

void add_prologue_loads(struct strbuf *sb, const struct layout *y, const char *verb)
{
	if (y->S == 2) {
		sb_printf(sb, "%s// pipefy: prologue: start %s tile 0\n", y->I1, verb);
		sb_printf(sb, "%s" NAME_LOAD "(0);\n", y->I1);
		return;
	}
	sb_printf(sb, "%s// pipefy: prologue: start %s tiles 0..%d\n", y->I1, verb, y->S - 2);
	sb_printf(sb, "%sfor (int " NAME_PROLOGUE_STAGE " = 0; " NAME_PROLOGUE_STAGE " < %d; ++" NAME_PROLOGUE_STAGE ")\n",
		  y->I1, y->S - 1);
	sb_printf(sb, "%s" NAME_LOAD "(" NAME_PROLOGUE_STAGE ");\n", y->I2);
}
