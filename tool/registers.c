/* registers.c: the register family (--variant=ldg): each copy's global load goes to a
 * register one tile ahead (pipefy_fetch), and the registers are stored into the other shared
 * stage (pipefy_stash) after the compute; with one stage, between two barriers. Its
 * validation reads the main loop back. */
#include "stage.h"
#include "region.h"

#include <stdlib.h>

/* The variables of a fetch declaration: name, unqualified type, initial load. */
struct fetch_vars {
	char *name[16], *type[16];
	CXCursor init[16];
	int n;
};

static enum CXChildVisitResult collect_fetch_var(CXCursor c, void *data)
{
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

/* The register a direct copy is staged in: numbered among the direct copies. */
static char *staging_register(const struct kloop *l, int copy)
{
	int n = 0;
	for (int i = 0; i < copy; i++)
		n += !l->copies[i].from_register;
	/* in a copy loop, one register per trip */
	const struct body_stmt *st = &l->stmts[l->copies[copy].stmt];
	return st->inner.bound ? xprintf("pipefy_reg%d[pipefy_j][pipefy_k]", n)
	       : st->cl.bound  ? xprintf("pipefy_reg%d[pipefy_j]", n)
			       : xprintf("pipefy_reg%d", n);
}

/* The register of a copy loop's own fetch (loop_fetch k of statement stmt): numbered after the
 * direct copies' registers, one element a trip. */
static char *loop_fetch_register(const struct kloop *l, int stmt, int k, bool indexed)
{
	int n = 0;
	for (int i = 0; i < l->ncopies; i++)
		n += !l->copies[i].from_register;
	for (int i = 0; i < stmt; i++)
		n += l->stmts[i].nloop_fetch;
	return indexed ? xprintf("pipefy_reg%d[pipefy_j]", n + k) : xprintf("pipefy_reg%d", n + k);
}

/* A copy loop's own fetches (`float4 v = load;` in its body): the fetch loads the register
 * (`pipefy_reg2[pipefy_j] = load;`) and stores nothing, the stash declares v from it
 * (`float4 v = pipefy_reg2[pipefy_j];`) and stores as written. */
static void add_loop_fetch_edits(const struct kloop *l, const struct source *src, struct edits *stash, struct edits *fetch)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		for (int k = 0; k < st->nloop_fetch; k++) {
			CXCursor init = body_loop_fetch_value(st->loop_fetch[k]);
			struct span is = cursor_span(init), ds = cursor_span(st->loop_fetch[k]);
			/* (a branch's fetch, trips of none or one: one register, not one a trip) */
			char *reg = loop_fetch_register(l, i, k, st->cl.bound != 0), *value = span_text(src, is);
			edits_add(stash, is.begin, is.end - is.begin, reg);
			/* (the declaration's span ends at its ';', an assignment's before it) */
			char *load = xprintf(clang_getCursorKind(st->loop_fetch[k]) == CXCursor_DeclStmt ? "%s = %s;" : "%s = %s",
					     reg, value);
			edits_add(fetch, ds.begin, ds.end - ds.begin, load);
			free(load);
			free(reg);
			free(value);
		}
		for (int c = 0; c < l->ncopies && st->nloop_fetch; c++) {
			const struct copy *cp = &l->copies[c];
			if (cp->stmt == i && cp->from_register) {
				struct span whole = source_whole_lines(src, cp->text);
				edits_add(fetch, whole.begin, whole.end - whole.begin, "");
			}
		}
	}
}

/* A local the compute also uses as scratch (fetch_shadow): in the fetch and the copies from it,
 * every name of it becomes its shadow, `pipefy_reg_Av`; the fetch's edits take the fetch's, the
 * tiles' references the copies' (add_stash_edits renders those copies with them). */
static void add_shadow_edits(const struct kloop *l, struct edits *refs, struct edits *fetch_edits)
{
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (!st->fetch_shadow)
			continue;
		char *name = cursor_name(st->fetch_var), *shadow = xprintf(NAME_SHADOW "%s", name);
		struct span at[64];
		int n = cursor_var_refs(st->cursor, st->fetch_var, at, 64);
		for (int k = 0; k < n; k++)
			edits_add(fetch_edits, at[k].begin, at[k].end - at[k].begin, shadow);
		bool again = false; /* (another load into the same local renamed its copies) */
		for (int j = 0; j < i; j++)
			again |= l->stmts[j].fetch_shadow && clang_equalCursors(l->stmts[j].fetch_var, st->fetch_var);
		for (int c = 0; c < l->ncopies && !again; c++) {
			const struct copy *cp = &l->copies[c];
			bool done = false; /* (a statement's copies share its names: once per statement) */
			for (int e = 0; e < c; e++)
				done |= l->copies[e].stmt == cp->stmt;
			if (!cp->from_register || done)
				continue;
			n = cursor_var_refs(l->stmts[cp->stmt].cursor, st->fetch_var, at, 64);
			for (int k = 0; k < n; k++)
				edits_add(refs, at[k].begin, at[k].end - at[k].begin, shadow);
		}
		free(name);
		free(shadow);
	}
}

/* The register of kept fetch stmt: numbered among the kept fetches. */
static char *kept_register(const struct kloop *l, int stmt)
{
	int n = 0;
	for (int i = 0; i < stmt; i++)
		n += l->stmts[i].fetch_keep;
	return xprintf(NAME_KEPT "%d", n);
}

/* An edit that replaces s by text, which it takes (and frees). */
static void replace_owned(struct edits *e, struct span s, char *text)
{
	edits_add(e, s.begin, s.end - s.begin, text);
	free(text);
}

/* A fetch the compute reads after the copies too (fetch_keep): the fetch loads its own register,
 * `pipefy_kept0 = *(float4 *)A;`, and the stash assigns the local from it where the statement
 * stood, `CO[0] = pipefy_kept0;`, before the copies that read it. */
static void add_kept_edits(const struct kloop *l, const struct source *src, struct edits *stash, struct edits *fetch)
{
	for (int i = 0; i < l->nstmts; i++) {
		struct span lhs, rhs;
		bool whole;
		if (!l->stmts[i].fetch_keep || !body_kept_sides(src, &l->stmts[i], &lhs, &rhs, &whole))
			continue;
		char *reg = kept_register(l, i), *left = span_text(src, lhs);
		char *value = whole ? xprintf("%s = %s", left, reg) : xstrdup(reg);
		free(left);
		replace_owned(fetch, lhs, reg);
		replace_owned(stash, rhs, value);
	}
}

/* Stash side: a direct copy stores its register; a register copy stays as written. */
static void add_stash_edits(const struct kloop *l, const struct source *src, struct layout *y)
{
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->from_register) {
			replace_owned(&y->stmt_edits, cp->text, render(src, &y->refs, cp->text));
			continue;
		}
		char *dst = render(src, &y->refs, cp->dst), *reg = staging_register(l, i);
		char *store = cp->dst_cast	     ? xprintf("*(%s *)(%s) = %s%s", cp->type, dst, reg, statement_end(cp))
			      : cp->dst_is_address ? xprintf("*(%s) = %s%s", dst, reg, statement_end(cp))
						   : xprintf("%s = %s%s", dst, reg, statement_end(cp));
		free(dst);
		free(reg);
		replace_owned(&y->stmt_edits, cp->text, store);
	}
}

/* Fetch side: a direct copy loads its register; a fetch declaration assigns its local (add_locals). */
static void add_fetch_edits(const struct kloop *l, const struct source *src, struct edits *fetch_edits)
{
	for (int i = 0; i < l->ncopies; i++) {
		const struct copy *cp = &l->copies[i];
		if (cp->from_register)
			continue;
		/* (the value with a guarded fill's branch locals as their values: the load runs where
		 * they are not declared) */
		char *value = render(src, &l->local_values, cp->value_span), *reg = staging_register(l, i);
		char *load;
		if (cp->guard_is_if) {
			/* (the value as the then-branch stores it, conversion included) */
			char *g = span_text(src, cp->guard), *guard = load_condition(cp, g);
			char *from = xstrdup(value), *fill = span_text(src, cp->fill);
			load = xprintf("%s = %s ? %s : %s%s", reg, guard, from, fill, statement_end(cp));
			free(g);
			free(guard);
			free(from);
			free(fill);
		} else if (cp->async) { /* (a load through a cast of its source address) */
			char *from = span_text(src, cp->src_ptr);
			load = xprintf("%s = *(const %s *)(%s)", reg, cp->type, from);
			free(from);
		} else
			load = xprintf("%s = %s", reg, value);
		free(value);
		free(reg);
		replace_owned(fetch_edits, cp->text, load);
	}
}

/* A staged loop's trips as an array's size (an instantiation may run it no times: never 0). */
static char *register_trips(const struct kloop *l, const struct copy_loop *cl)
{
	char *trips = copy_loop_trips(l, cl);
	if (cl->bound >= 0 && cl->stride >= 0)
		return trips;
	char *t = xprintf("%s > 0 ? %s : 1", trips, trips);
	free(trips);
	return t;
}

/* The dimensions of a copy's staging registers: none for a statement, a trip's for a copy
 * loop, and the inner loop's trips too where its body is one ("[T][U]"). */
static char *register_dims(const struct kloop *l, const struct body_stmt *st)
{
	if (!st->cl.bound)
		return xstrdup("");
	char *t = register_trips(l, &st->cl), *u = st->inner.bound ? register_trips(l, &st->inner) : NULL;
	char *dims = u ? xprintf("[%s][%s]", t, u) : xprintf("[%s]", t);
	free(t);
	free(u);
	return dims;
}

/* The staging registers, and the locals a fetch declaration declares (`float4 a = load;` becomes
 * `float4 a;` here and `a = load;` in the fetch). */
static void add_locals(struct strbuf *sb, const struct kloop *l, const struct source *src, struct layout *y,
		       struct edits *fetch_edits)
{
	sb_printf(sb, "%s// pipefy: staging registers\n", y->I1);
	for (int i = 0, n = 0; i < l->ncopies; i++)
		if (!l->copies[i].from_register) {
			char *dims = register_dims(l, &l->stmts[l->copies[i].stmt]);
			sb_printf(sb, "%s%s%spipefy_reg%d%s;\n", y->I1, l->copies[i].type, type_sep(l->copies[i].type), n++, dims);
			free(dims);
		}
	for (int i = 0; i < l->nstmts; i++)
		for (int k = 0; k < l->stmts[i].nloop_fetch; k++) {
			char *type = type_spelling(body_loop_fetch_type(l->stmts[i].loop_fetch[k]));
			char *reg = loop_fetch_register(l, i, k, false), *dims = register_dims(l, &l->stmts[i]);
			sb_printf(sb, "%s%s%s%s%s;\n", y->I1, type, type_sep(type), reg, dims);
			free(type);
			free(reg);
			free(dims);
		}
	for (int i = 0; i < l->nstmts; i++) {
		/* the shadows of locals the compute uses too, once each */
		bool again = false;
		for (int j = 0; j < i && l->stmts[i].fetch_shadow; j++)
			again |= l->stmts[j].fetch_shadow && clang_equalCursors(l->stmts[j].fetch_var, l->stmts[i].fetch_var);
		if (!l->stmts[i].fetch_shadow || again)
			continue;
		CXCursor var = l->stmts[i].fetch_var;
		char *name = cursor_name(var), *type = type_spelling(clang_getUnqualifiedType(clang_getCursorType(var)));
		sb_printf(sb, "%s%s%s" NAME_SHADOW "%s;\n", y->I1, type, type_sep(type), name);
		free(name);
		free(type);
	}
	for (int i = 0; i < l->nstmts; i++) {
		CXCursor lhs, rhs;
		if (!l->stmts[i].fetch_keep || cursor_write_parts(l->stmts[i].cursor, &lhs, &rhs) != WRITE_ASSIGN)
			continue;
		char *type = type_spelling(clang_getUnqualifiedType(clang_getCursorType(lhs))), *reg = kept_register(l, i);
		sb_printf(sb, "%s%s%s%s;\n", y->I1, type, type_sep(type), reg);
		free(type);
		free(reg);
	}
	for (int i = 0; i < l->nstmts; i++) {
		/* (`a = load;` to a local of the function stays as written) */
		if (l->stmts[i].role != ROLE_FETCH_DECL || l->stmts[i].fetch_assign)
			continue;
		struct fetch_vars fv = {0};
		cursor_visit(l->stmts[i].cursor, collect_fetch_var, &fv);
		struct strbuf assigns = {0};
		for (int v = 0; v < fv.n; v++) {
			char *init = span_text(src, cursor_span(fv.init[v]));
			sb_printf(sb, "%s%s%s%s;\n", y->I1, fv.type[v], type_sep(fv.type[v]), fv.name[v]);
			sb_printf(&assigns, "%s%s = %s;", v ? " " : "", fv.name[v], init);
			free(init);
			free(fv.type[v]);
			free(fv.name[v]);
		}
		char *text = sb_take(&assigns);
		edits_add(fetch_edits, l->stmts[i].text.begin, l->stmts[i].text.end - l->stmts[i].text.begin, text);
		free(text);
	}

}

/* Whether the main loop hands the fetch its own loop variables, the fetch advancing them by the
 * loop's increment to the next tile's: where no statement of the body moves one, the values
 * the loop as written computes at the iteration's end, so the fetch computes nothing the loop
 * did not (no step past the last tile), and the compiler sees the next tile's addresses as
 * functions of the loop's induction variables (sgemm_regblock: 2 % of its time; a cursor that
 * advanced only when a tile was fetched hid them). Else the fetch keeps a cursor of its own. */
static bool fetch_from_loop(const struct kloop *l)
{
	if (l->nivars == 0 || l->inc.end == l->inc.begin)
		return false;
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_BUMP)
			return false;
	return true;
}

/* The fetch's arguments: `true, k0` in the main loop (the tile after the loop's), `false,
 * pipefy_next_k0` in the prologue (the first tile); none where it keeps its own cursor. */
static char *fetch_args(const struct kloop *l, bool main_loop)
{
	if (!fetch_from_loop(l))
		return xstrdup("");
	struct strbuf sb = {0};
	sb_printf(&sb, "%s", main_loop ? "true" : "false");
	for (int i = 0; i < l->nivars; i++)
		sb_printf(&sb, main_loop ? ", %s" : ", pipefy_next_%s", l->ivars[i].name);
	return sb_take(&sb);
}

/* The fetch's head: its parameters, the loop variables of the tile before the one it loads
 * (or the first tile's), or the shadows of its own cursor. */
static void add_fetch_head(struct strbuf *sb, const struct kloop *l, struct layout *y)
{
	if (!fetch_from_loop(l)) {
		sb_printf(sb, "%s// pipefy: load the tile at the cursor into the staging registers and advance the\n", y->I1);
		sb_printf(sb, "%s// cursor; false once the tiles run out\n", y->I1);
		sb_printf(sb, "%sauto " NAME_FETCH " = [&]() {\n", y->I1);
		add_cursor_shadows(sb, y);
		return;
	}
	sb_printf(sb, "%s// pipefy: load into the staging registers the tile after the one at these loop variables\n", y->I1);
	sb_printf(sb, "%s// (with step: the main loop's), or at them (the first); false once the tiles run out\n", y->I1);
	sb_printf(sb, "%sauto " NAME_FETCH " = [&](bool pipefy_step", y->I1);
	for (int i = 0; i < l->nivars; i++)
		sb_printf(sb, ", %s%s%s", l->ivars[i].type, type_sep(l->ivars[i].type), l->ivars[i].name);
	sb_printf(sb, ") {\n");
	char *inc = trimmed(y->src, l->inc);
	sb_printf(sb, "%sif (pipefy_step)\n%s%s;\n", y->I2, y->I3, inc);
	free(inc);
	add_scratch_shadows(sb, y, NULL, 0);
}

/* The fetch, which loads the next tile into the registers, and the stash, which stores them
 * into a stage (with one stage, into the tiles). */
static void add_fetch_and_stash(struct strbuf *sb, const struct kloop *l, const struct source *src, struct layout *y,
				const struct edits *fetch_edits, bool two)
{
	add_fetch_head(sb, l, y);
	for (int i = 0; l->stash_cursor && i < l->nivars; i++)
		sb_printf(sb, "%s" NAME_TILE_IVAR "%s = %s;\n", y->I2, l->ivars[i].name, l->ivars[i].name);
	char *cond = trimmed(src, l->cond);
	sb_printf(sb, "%sif (!(%s))\n%sreturn false;\n", y->I2, cond, y->I3);
	free(cond);
	bool first = true;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool stash_only = st->role == ROLE_COPY && l->copies[first_copy_of(l, i)].from_register && !st->nloop_fetch;
		/* (a view the copies store through is the stash's: the fetch stores nothing) */
		if ((st->role == ROLE_COPY && !stash_only) || (st->role == ROLE_COPY_DECL && !st->declares_view) ||
		    st->role == ROLE_FETCH_DECL || st->role == ROLE_BUMP)
			add_stmt(sb, src, fetch_edits, st, y->I1, y->U, &first);
	}
	if (!fetch_from_loop(l))
		add_cursor_advance(sb, y, y->I2);
	sb_printf(sb, "%sreturn true;\n", y->I2);
	sb_printf(sb, "%s};\n", y->I1);
	if (two) {
		sb_printf(sb, "%s// pipefy: store the staging registers into stage " STAGE_FILL "\n", y->I1);
		sb_printf(sb, "%sauto " NAME_STASH " = [&](int " STAGE_FILL ") {\n", y->I1);
	} else {
		sb_printf(sb, "%s// pipefy: store the staging registers into the tiles\n", y->I1);
		sb_printf(sb, "%sauto " NAME_STASH " = [&]() {\n", y->I1);
	}
	/* (the loop variables as they were when this tile was fetched, for the copy loops'
	 * declarations) */
	for (int i = 0; l->stash_cursor && i < l->nivars; i++) {
		const struct induction *v = &l->ivars[i];
		sb_printf(sb, "%s%s%s%s = " NAME_TILE_IVAR "%s;\n", y->I2, v->type, type_sep(v->type), v->name, v->name);
	}
	/* (the scratch locals the statements it runs again set: its own too) */
	CXCursor *again = xcalloc((size_t)l->nstmts + 1, sizeof *again);
	int nagain = 0;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || (st->role == ROLE_COPY_DECL && st->store_side) || st->fetch_keep)
			again[nagain++] = st->cursor;
	}
	add_scratch_shadows(sb, y, again, nagain);
	free(again);
	first = true;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || (st->role == ROLE_COPY_DECL && st->store_side) || st->fetch_keep)
			add_stmt(sb, src, &y->stmt_edits, st, y->I1, y->U, &first);
	}
	sb_printf(sb, "%s};\n", y->I1);
}

/* The prologue's first tile, and the main loop: fetch, compute, stash, with one barrier (two
 * stages) or two (one). */
static void add_loops(struct strbuf *sb, struct layout *y, bool two)
{
	char *first = fetch_args(y->l, false), *next = fetch_args(y->l, true);
	if (two) {
		sb_printf(sb, "%s// pipefy: prologue: tile 0 into stage 0\n", y->I1);
		sb_printf(sb, "%sif (" NAME_FETCH "(%s))\n%s" NAME_STASH "(0);\n", y->I1, first, y->I2);
		sb_printf(sb, "%s__syncthreads();\n", y->I1);
		sb_printf(sb, "%sint " STAGE_READ " = 0; // the stage that holds tile t\n", y->I1);
		sb_printf(sb, "%s// pipefy: main loop: load tile t+1 into registers, compute tile t, store tile t+1 into\n", y->I1);
		sb_printf(sb, "%s// the other stage. With two stages one barrier per iteration is enough: the stage being\n", y->I1);
		sb_printf(sb, "%s// filled was last read before the previous iteration's barrier\n", y->I1);
	} else {
		sb_printf(sb, "%s// pipefy: prologue: tile 0 into the tiles\n", y->I1);
		sb_printf(sb, "%sif (" NAME_FETCH "(%s))\n%s" NAME_STASH "();\n", y->I1, first, y->I2);
		sb_printf(sb, "%s__syncthreads();\n", y->I1);
		sb_printf(sb, "%s// pipefy: main loop: load tile t+1 into registers, compute tile t, then store tile t+1\n", y->I1);
		sb_printf(sb, "%s// over it between two barriers\n", y->I1);
	}
	add_main_header(sb, y);
	sb_printf(sb, "%s" SNIP_FETCH_FIRST "%s);\n", y->I2, next);
	free(first);
	free(next);
	/* Seen on sm_90 (sgemm_batched): without it ptxas sank the loads to the stores after the
	 * compute, and nothing overlapped. The loop is block-uniform, so the whole warp is here. */
	sb_printf(sb, "%s__syncwarp(); // pipefy: the loads above stay ahead of the compute\n", y->I2);
	add_compute(sb, y);
	if (two) {
		sb_printf(sb, "%sif (" NAME_MORE ")\n%s" NAME_STASH "(" STAGE_READ " ^ 1);\n", y->I2, y->I3);
		if (!test_break("barrier"))
			sb_printf(sb, "%s__syncthreads();\n", y->I2);
		sb_printf(sb, "%s" STAGE_READ " ^= 1;\n", y->I2);
	} else {
		sb_printf(sb, "%s__syncthreads(); // every thread is done reading tile t\n", y->I2);
		sb_printf(sb, "%sif (" NAME_MORE ")\n%s" NAME_STASH "();\n", y->I2, y->I3);
		sb_printf(sb, "%s__syncthreads(); // tile t+1 is in place\n", y->I2);
	}
}

void rewrite_registers(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		       struct file_needs *needs)
{
	(void)m, (void)index, (void)needs;
	struct layout y = layout_begin(l, src);
	struct edits fetch_edits = {0};
	layout_drop_pipe_ops(l, &fetch_edits);
	add_shadow_edits(l, &y.refs, &fetch_edits);
	add_kept_edits(l, src, &y.stmt_edits, &fetch_edits);
	add_stash_edits(l, src, &y);
	add_loop_fetch_edits(l, src, &y.stmt_edits, &fetch_edits);
	layout_add_refs_outside_copies(&y);
	add_copy_loop_trips(l, src, &y.stmt_edits, false);
	add_copy_loop_trips(l, src, &fetch_edits, false);
	add_fetch_edits(l, src, &fetch_edits);

	struct strbuf sb = {0};
	bool two = y.S == 2;
	layout_block_guard(&y, "the staging registers are sized", true);
	char *what = two ? xstrdup("registers, 2 stages: tile t+1 is loaded into registers while tile t is computed")
			 : xprintf("registers, 1 stage: tile t+1 is loaded into registers while tile t is computed,\n"
				   "// then stored over it (%s)", l->one_stage_why);
	add_block_start(&sb, &y, what);
	free(what);
	if (l->stash_cursor)
		sb_printf(&sb, "%s// pipefy: the loop variables of the tile in the staging registers\n", y.I1);
	for (int i = 0; l->stash_cursor && i < l->nivars; i++) {
		const struct induction *v = &l->ivars[i];
		sb_printf(&sb, "%s%s%s" NAME_TILE_IVAR "%s = %s;\n", y.I1, v->type, type_sep(v->type), v->name, v->init);
	}
	add_locals(&sb, l, src, &y, &fetch_edits);
	add_fetch_and_stash(&sb, l, src, &y, &fetch_edits, two);
	add_loops(&sb, &y, two);
	edits_free(&fetch_edits);
	sb_printf(&sb, "%s}\n", y.I1);
	add_block_end(&sb, &y, out);
	layout_end(&y);
}

/* The main loop fetches first and synchronizes after storing the next tile (with one stage,
 * also before it). */
/* The main loop's last statements as add_loops writes them: two stages store the next tile into
 * the stage the compute does not read, synchronize, then swap; one stage synchronizes, stores
 * over the tile it read, and synchronizes again. */
static bool registers_tail(const struct region *r, const struct kloop *l, const struct loop_view *v)
{
	static const char *const two[] = {"if (" NAME_MORE ") " NAME_STASH "(" STAGE_READ " ^ 1)", NULL,
					  STAGE_READ " ^= 1"};
	static const char *const one[] = {NULL, "if (" NAME_MORE ") " NAME_STASH "()", NULL};
	const char *const *want = l->stages == 1 ? one : two;
	if (v->body.n < 3)
		return false;
	bool ok = true;
	for (int i = 0; i < 3 && ok; i++) {
		CXCursor c = v->body.v[v->body.n - 3 + i];
		if (!want[i]) {
			ok = cursor_is_barrier(c);
			continue;
		}
		char *text = stmt_text(r->out, c);
		ok = code_is(text, want[i]);
		free(text);
	}
	return ok;
}

void validate_registers(struct region *r, const struct kloop *l, const struct loop_view *v)
{
	int want = l->stages == 1 ? 2 : 1;
	if (v->body.n < 2 || !v->first[0] || !code_starts(v->first[0], SNIP_FETCH_FIRST) ||
	    v->nbarriers != want || !registers_tail(r, l, v))
		problem(r, v->at, l->stages == 1 ? "the main loop does not fetch first, then sync, store over the tile and sync again"
						  : "the main loop does not fetch first, store into the stage it does not read, sync and swap");
}
