/* plan.c: the variant and stage count for each legal loop, from rules/: the shared-memory
 * budget against each architecture's occupancy, and the compute/load ratio. */
#include "pipefy.h"

#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- rules ---- */

/* Every number in the rules is a count, a size or a ratio: present, and not negative. */
static double get_double(json_t *o, const char *key, bool *ok)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_number(v) || json_number_value(v) < 0) {
		*ok = false;
		return 0;
	}
	return json_number_value(v);
}

static long get_long(json_t *o, const char *key, bool *ok)
{
	return (long)get_double(o, key, ok);
}

static void get_string(json_t *o, const char *key, char *out, size_t size, bool *ok)
{
	const char *v = json_string_value(json_object_get(o, key));
	size_t n = v ? strlen(v) : 0;
	if (!v || n >= size) {
		*ok = false;
		n = 0;
	}
	memcpy(out, v ? v : "", n);
	out[n] = '\0';
}

static json_t *load_json(const char *dir, const char *file, const char *builtin, char **err)
{
	json_error_t e;
	json_t *j;
	char *where = dir ? xprintf("%s/%s", dir, file) : xprintf("<built-in rules>/%s", file);
	j = dir ? json_load_file(where, 0, &e) : json_loads(builtin, 0, &e);
	if (!j || !json_is_object(j)) {
		*err = j ? xprintf("%s: error: not a JSON object", where)
		       : e.line > 0 ? xprintf("%s:%d:%d: error: %s", where, e.line, e.column, e.text)
				    : xprintf("%s: error: %s", where, e.text);
		json_decref(j);
		j = NULL;
	}
	free(where);
	return j;
}

bool rules_load(struct rules *r, const char *dir, char **err)
{
	memset(r, 0, sizeof *r);
	json_t *arch = load_json(dir, "arch.json", rules_arch_json, err);
	if (!arch)
		return false;
	json_t *variants = load_json(dir, "variants.json", rules_variants_json, err);
	if (!variants) {
		json_decref(arch);
		return false;
	}
	bool ok = true;
	const char *key;
	json_t *a;
	json_object_foreach(arch, key, a) {
		if (strncmp(key, "sm_", 3) != 0 || r->narch == 16)
			continue;
		struct arch_rules *x = &r->arch[r->narch++];
		x->sm = atoi(key + 3);
		const char *gpu = json_string_value(json_object_get(a, "gpu"));
		const char *source = json_string_value(json_object_get(a, "source"));
		snprintf(x->gpu, sizeof x->gpu, "%s", gpu ? gpu : "?");
		snprintf(x->source, sizeof x->source, "%s", source ? source : "?");
		x->smem_per_sm = get_long(a, "smem_per_sm", &ok);
		x->smem_per_block_default = get_long(a, "smem_per_block_default", &ok);
		x->smem_per_block_optin = get_long(a, "smem_per_block_optin", &ok);
		x->smem_reserved = get_long(a, "smem_reserved_per_block", &ok);
		x->smem_alloc_unit = get_long(a, "smem_alloc_unit", &ok);
		x->regs_per_sm = (int)get_long(a, "regs_per_sm", &ok);
		x->reg_alloc_unit = (int)get_long(a, "reg_alloc_unit", &ok);
		x->max_regs_per_thread = (int)get_long(a, "max_regs_per_thread", &ok);
		x->max_warps = (int)get_long(a, "max_warps_per_sm", &ok);
		x->max_blocks = (int)get_long(a, "max_blocks_per_sm", &ok);
		if (!ok) {
			*err = xprintf("%s/arch.json: error: '%s' lacks a number it needs, or has a negative one", dir ? dir : "<built-in rules>", key);
			break;
		}
	}
	struct variant_rules *v = &r->variants;
	if (ok) {
		v->deep_stages_below_ratio = get_double(variants, "deep_stages_below_ratio", &ok);
		v->cp_async_min_copy_bytes = (int)get_long(variants, "cp_async_min_copy_bytes", &ok);
		v->default_stages = (int)get_long(variants, "default_stages", &ok);
		v->deep_stages = (int)get_long(variants, "deep_stages", &ok);
		v->max_stages = (int)get_long(variants, "max_stages", &ok);
		v->min_occupancy_fraction = get_double(variants, "min_occupancy_fraction", &ok);
		v->assumed_registers = (int)get_long(variants, "assumed_registers_per_thread", &ok);
		v->leave_narrow_gathers_alone = json_is_true(json_object_get(variants, "leave_narrow_gathers_alone"));
		v->short_tiles_prefer_ldg = json_is_true(json_object_get(variants, "short_tiles_prefer_ldg"));
		v->tma_for_narrow_copies = json_is_true(json_object_get(variants, "tma_for_narrow_copies"));
		bool bounded = true;
		v->tma_narrow_max_copy_bytes = (int)get_long(variants, "tma_narrow_max_copy_bytes", &bounded);
		if (!bounded)
			v->tma_narrow_max_copy_bytes = 0;
		bool have = true;
		v->tma_min_sm = (int)get_long(variants, "tma_min_sm", &have);
		v->tma_stages = (int)get_long(variants, "tma_stages", &have);
		if (!have || v->tma_stages < 2 || v->tma_min_sm < 90) {
			v->tma_for_narrow_copies = false; /* (rules from before tensor copies) */
			v->tma_min_sm = 90;
			v->tma_stages = 2;
		}
		json_t *evidence = json_object_get(variants, "evidence");
		bool said = true;
		get_string(evidence, "narrow_tma", v->narrow_tma_evidence, sizeof v->narrow_tma_evidence, &said);
		v->tma_for_narrow_copies &= said;
		bool wide = true;
		v->tma_wide_min_ratio = get_double(variants, "tma_for_wide_copies_from_ratio", &wide);
		get_string(evidence, "wide_tma", v->wide_tma_evidence, sizeof v->wide_tma_evidence, &wide);
		if (!wide || !v->tma_for_narrow_copies) /* (rules without it: cp.async keeps wide copies) */
			v->tma_wide_min_ratio = 0;
		bool overlap = true;
		v->overlap_min_sm = (int)get_long(variants, "overlap_launches_min_sm", &overlap);
		get_string(evidence, "overlap_launches", v->overlap_evidence, sizeof v->overlap_evidence, &overlap);
		v->overlap_launches = overlap && json_is_true(json_object_get(variants, "overlap_launches"));
		if (!overlap || v->overlap_min_sm < 90) { /* (rules from before overlapped launches; none below sm_90) */
			v->overlap_launches = false;
			v->overlap_min_sm = 90;
			snprintf(v->overlap_evidence, sizeof v->overlap_evidence, "no measurement in the rules");
		}
		bool regs = true; /* (setmaxnreg: rules without these keys keep a one-warp producer) */
		v->producer_registers = (int)get_long(variants, "setmaxnreg_producer_registers", &regs);
		v->producer_registers_cp_async = (int)get_long(variants, "setmaxnreg_producer_registers_cp_async", &regs);
		get_string(evidence, "setmaxnreg", v->producer_registers_evidence, sizeof v->producer_registers_evidence, &regs);
		if (!regs || v->producer_registers % 8 || v->producer_registers_cp_async % 8 || v->producer_registers < 24 ||
		    v->producer_registers_cp_async < 24)
			v->producer_registers = v->producer_registers_cp_async = 0;
		bool staged = true; /* (rules without it: register staging of any size) */
		v->max_staged_registers_unmeasured = (int)get_long(variants, "ldg_max_staged_registers_unmeasured", &staged);
		get_string(evidence, "staged_registers", v->staged_registers_evidence, sizeof v->staged_registers_evidence,
			   &staged);
		if (!staged)
			v->max_staged_registers_unmeasured = 0;
		/* (rules without them: such loops weighed as any other) */
		bool unknown = true, large = true;
		v->leave_unknown_compute = json_is_true(json_object_get(variants, "leave_unknown_compute"));
		get_string(evidence, "unknown_compute", v->unknown_compute_evidence, sizeof v->unknown_compute_evidence,
			   &unknown);
		v->leave_unknown_compute &= unknown;
		v->ldg_one_stage_from_threads = (int)get_long(variants, "ldg_one_stage_from_block_threads", &large);
		get_string(evidence, "large_blocks", v->large_blocks_evidence, sizeof v->large_blocks_evidence, &large);
		if (!large)
			v->ldg_one_stage_from_threads = 0;
		bool measured = true;
		v->tma_measured_from_threads = (int)get_long(variants, "tma_measured_from_block_threads", &measured);
		if (!measured)
			v->tma_measured_from_threads = 0;
		get_string(evidence, "short_tiles", v->short_tiles_evidence, sizeof v->short_tiles_evidence, &ok);
		get_string(evidence, "narrow_gathers", v->narrow_gathers_evidence, sizeof v->narrow_gathers_evidence, &ok);
		get_string(evidence, "narrow_cp_async", v->narrow_cp_async_evidence, sizeof v->narrow_cp_async_evidence, &ok);
		bool said8 = true; /* (rules from before it: the narrow copies' evidence) */
		get_string(evidence, "narrow_cp_async_8", v->narrow_cp_async_8_evidence, sizeof v->narrow_cp_async_8_evidence, &said8);
		if (!said8)
			snprintf(v->narrow_cp_async_8_evidence, sizeof v->narrow_cp_async_8_evidence, "%s", v->narrow_cp_async_evidence);
		if (!ok)
			*err = xprintf("%s/variants.json: error: a rule is missing, not a number, or negative (or an evidence "
				       "string missing or too long)",
				       dir ? dir : "<built-in rules>");
	}
	json_decref(arch);
	json_decref(variants);
	return ok;
}

const struct arch_rules *rules_arch(const struct rules *r, int sm)
{
	for (int i = 0; i < r->narch; i++)
		if (r->arch[i].sm == sm)
			return &r->arch[i];
	return NULL;
}

/* ---- occupancy, as the CUDA occupancy calculator computes it ---- */

static long round_up(long v, long unit) { return unit > 0 ? (v + unit - 1) / unit * unit : v; }

int occupancy_blocks(const struct arch_rules *a, int threads, int registers, long smem, const char **limiter)
{
	int warps = (threads + 31) / 32;
	int blocks = a->max_blocks;
	*limiter = "blocks";
	if (warps > 0 && a->max_warps / warps < blocks) {
		blocks = a->max_warps / warps;
		*limiter = "warps";
	}
	if (registers > 0 && warps > 0) {
		long per_warp = round_up((long)registers * 32, a->reg_alloc_unit);
		int by_regs = (int)(a->regs_per_sm / per_warp) / warps;
		if (by_regs < blocks) {
			blocks = by_regs;
			*limiter = "registers";
		}
	}
	if (smem >= 0) {
		long per_block = round_up(smem + a->smem_reserved, a->smem_alloc_unit);
		int by_smem = per_block > 0 ? (int)(a->smem_per_sm / per_block) : blocks;
		if (smem > a->smem_per_block_optin)
			by_smem = 0;
		if (by_smem < blocks) {
			blocks = by_smem;
			*limiter = "shared";
		}
	}
	return blocks;
}

/* ---- the plan ---- */


/* Tiles in dynamic shared memory whose launches pipefy enlarges (measure.c): each stage is a
 * copy of the launch's layout, rounded up to 128 bytes. */
static bool dynamic_stages(const struct kloop *l)
{
	return l->enlarge && l->launch_dyn_bytes > 0;
}

static long dynamic_with_stages(const struct kloop *l, int S)
{
	if (!dynamic_stages(l))
		return 0; /* (as before: the launch's part is not counted when it cannot grow) */
	return S == 1 ? l->launch_dyn_bytes : S * ((l->launch_dyn_bytes + 127) / 128 * 128);
}

/* The static shared memory with S stages: the function's own plus S-1 more copies of the tiles
 * (of the static ones, when the others are the launch's). */
static long static_with_stages(const struct kloop *l, int S)
{
	if (S == 1)
		return l->shared_bytes; /* (no tile is copied: also when their size is unknown here) */
	long tiles = 0;
	for (int i = 0; i < l->ntiles; i++) {
		if (l->tiles[i].dynamic && dynamic_stages(l))
			continue;
		if (tile_bytes(l, i) < 0)
			return -1;
		tiles += tile_bytes(l, i);
	}
	return l->shared_bytes < 0 ? -1 : l->shared_bytes + (S - 1) * tiles;
}

/* What a variant adds to the tiles' stages: the bytes to align each tile (at most one alignment
 * less one byte), and its barriers' memory a stage. */
static long stage_extra(const struct kloop *l, int S, enum variant v)
{
	const struct variant_row *row = variant_row(v);
	return (long)row->tile_align * l->ntiles + (long)row->barrier_bytes * S;
}

static long shared_with_stages(const struct kloop *l, int S)
{
	long st = static_with_stages(l, S);
	return st < 0 ? -1 : st + dynamic_with_stages(l, S);
}

/* Static __shared__ is limited to the default per-block size (48 KB on every architecture in
 * the rules); more needs dynamic shared memory and a bigger launch. For an architecture the
 * rules lack, the smallest limit they know. */
static long static_shared_limit(const struct rules *r, const struct arch_rules *a)
{
	long limit = a ? a->smem_per_block_default : 0;
	for (int i = 0; i < r->narch && !a; i++)
		if (!limit || r->arch[i].smem_per_block_default < limit)
			limit = r->arch[i].smem_per_block_default;
	return limit;
}

static struct plan_option *add_option(struct kloop *l, const struct arch_rules *a,
				      enum variant v, int stages)
{
	if (l->noptions == (int)(sizeof l->options / sizeof *l->options))
		return NULL;
	struct plan_option *p = &l->options[l->noptions++];
	memset(p, 0, sizeof *p);
	p->variant = v;
	p->stages = stages;
	p->smem = shared_with_stages(l, stages < 1 ? 1 : stages);
	if (p->smem >= 0)
		p->smem += stage_extra(l, stages, v);
	const char *limiter = "";
	int block = l->block_threads ? l->block_threads : l->threads_estimate;
	if (variant_row(v)->family == FAMILY_REGISTERS && l->staged_bytes > 0)
		p->staged_registers = (int)((l->staged_bytes + 3) / 4);
	if (a && block) {
		/* (measured registers gain the staging's; an assumed count is no base to add to) */
		int regs = l->registers ? l->registers + p->staged_registers : l->assumed_registers;
		int threads = block + variant_row(v)->producer_threads;
		p->blocks = occupancy_blocks(a, threads, regs, p->smem, &limiter);
		p->warps = p->blocks * ((threads + 31) / 32);
	} else if (a && p->smem >= 0) {
		/* without a block size only the shared-memory limit can be counted */
		p->blocks = occupancy_blocks(a, 0, 0, p->smem, &limiter);
	}
	snprintf(p->limiter, sizeof p->limiter, "%s", limiter);
	return p;
}

static void set_verdict(struct plan_option *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_verdict(struct plan_option *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(p->verdict);
	p->verdict = vxprintf(fmt, ap);
	va_end(ap);
}

/* An option ruled out, its verdict "rejected: " and why. */
#define REJECTED "rejected: "
static void reject(struct plan_option *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reject(struct plan_option *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = vxprintf(fmt, ap);
	va_end(ap);
	p->judged = JUDGED_REJECTED;
	set_verdict(p, REJECTED "%s", why);
	free(why);
}

static int min_copy_width(const struct kloop *l)
{
	int w = 1 << 30;
	for (int i = 0; i < l->ncopies; i++)
		if (l->copies[i].width > 0 && l->copies[i].width < w)
			w = (int)l->copies[i].width;
	for (int k = 0; k < l->nhelpers; k++)
		for (int i = 0; i < l->helpers[k].nstores; i++)
			if (l->helpers[k].stores[i].width < w)
				w = (int)l->helpers[k].stores[i].width;
	return w;
}

/* The registers a thread can have (255 where the rules lack the architecture). */
static int a_max_regs(const struct arch_rules *a)
{
	return a ? a->max_regs_per_thread : 255;
}

/* Whether an option keeps enough of the unpipelined kernel's occupancy. */
static bool keeps_occupancy(const struct plan_option *before, const struct plan_option *p, double fraction)
{
	if (before->blocks <= 0 || p->blocks <= 0)
		return p->blocks > 0 || before->blocks <= 0;
	return p->blocks >= fraction * before->blocks;
}

/* The planner leaves a loop as written: no legal variant pays here, or the one asked for is
 * not legal. A choice, with its reason; the refusals are check's. */
static void plan_decline(struct kloop *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void plan_decline(struct kloop *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	l->declined = vxprintf(fmt, ap);
	va_end(ap);
}

static bool forced_variant(const struct options *o)
{
	return o->variant != VARIANT_AUTO;
}

static void plan_producer(struct kloop *l, const struct options *o, const struct arch_rules *a,
			  const struct variant_rules *vr, long smem);

/* The source's hints (hints.c): a loop it asks to leave, or whose hint cannot be read, is
 * declined (false); a variant it asks for is planned as --variant's is, unless the command line
 * forces one. */
static bool apply_hints(struct kloop *l, const struct source *src, size_t file_off_at, const struct options **o,
			struct options *hinted, size_t *hint_at)
{
	struct loop_hint h = loop_hint(src, l->loop.begin);
	size_t at = h.at;
	int line, col;
	bool file_off = !h.problem && !h.off && file_off_at;
	if (file_off)
		at = file_off_at - 1;
	source_line_col(src, at, &line, &col);
	if (h.problem)
		plan_decline(l, "the hint at %d:%d cannot be read: %s", line, col, h.problem);
	else if (h.off)
		plan_decline(l, "the source asks to leave it as written (`%s` at %d:%d)", h.text, line, col);
	else if (file_off)
		plan_decline(l, "the source asks to leave it as written (`// pipefy: off-file` at %d:%d)", line, col);
	free(h.problem);
	if (l->declined) {
		free(h.text);
		return false;
	}
	l->hint = h.text;
	if (h.variant && (*o)->variant == VARIANT_AUTO) {
		*hint_at = h.at;
		*hinted = **o;
		hinted->variant = h.variant;
		hinted->stages = h.stages;
		*o = hinted;
	}
	return true;
}

/* A variant the planner may weigh: check found it legal, and the architecture has it. */
static bool usable(const struct kloop *l, const struct options *o, const struct variant_row *v)
{
	return l->legal[v->id].ok && o->arch >= v->min_arch;
}

/* The unpipelined kernel first, then every plan that is legal here, in the table's order. */
static void add_options(struct kloop *l, const struct options *o, const struct arch_rules *a,
			const struct variant_rules *vr)
{
	struct plan_option *before = add_option(l, a, VARIANT_AUTO, 1);
	set_verdict(before, "the loop as written");
	int max_cp = o->stages > 4 ? o->stages : 4; /* the report lists the depths worth weighing */
	int nrows;
	const struct variant_row *rows = variant_rows(&nrows);
	for (int i = 0; i < nrows; i++) {
		const struct variant_row *v = &rows[i];
		if (!v->rewrite || !v->validate || !usable(l, o, v))
			continue;
		int top = variant_max_stages(v, vr->max_stages);
		if (v->min_stages == 1) { /* (the single stage that adds no shared memory comes last) */
			for (int S = top; S >= 1; S--)
				if (S == 1 || !l->one_stage)
					add_option(l, a, v->id, S);
			continue;
		}
		for (int S = v->min_stages; S <= max_cp && S <= top; S++)
			add_option(l, a, v->id, S);
	}
}

/* Whether auto weighs register staging at all: its registers measured (--ptxas), or no more
 * than the rules take unmeasured (else registers cannot take the copies, and cp.async can). */
static bool staging_weighed(const struct kloop *l, const struct variant_rules *vr)
{
	long regs = l->staged_bytes > 0 ? (l->staged_bytes + 3) / 4 : 0;
	return l->registers || !vr->max_staged_registers_unmeasured || regs <= vr->max_staged_registers_unmeasured;
}

/* Why the block's shape is unknown (measure.c's block_size found none). */
static char *shape_unknown(const struct kloop *l, const struct source *src)
{
	int line, col;
	if (l->block_unread) {
		source_line_col(src, l->block_unread - 1, &line, &col);
		return xprintf("the launch at %d:%d gives a block whose shape pipefy cannot show is constant "
			       "(--block-size=XxY sets it)", line, col);
	}
	if (l->block_source && strncmp(l->block_source, "launch", 6) == 0)
		return xprintf("the %s gives a block of %d threads but not its shape as constants (--block-size=XxY sets it)",
			       l->block_source, l->block_threads);
	return xstrdup("no launch in this file gives the block's shape (--block-size=XxY sets it)");
}

/* ---- what auto prefers: the rows' hooks, each its variant's measured rules ---- */

/* Tensor copies (tma): narrow copies that are each one box of their operand, or wide ones
 * under a long compute. */
bool prefer_tensor(const struct variant_row *v, struct auto_facts *f, struct want *w)
{
	const struct kloop *l = f->l;
	const struct variant_rules *vr = f->vr;
	/* (a compute loop counted from the launch's block shape runs its fixed trips under the
	 * shape's guard, which register staging and cp.async write and the tensor copies do not) */
	if (l->compute_block_dim || !usable(l, f->o, v) || f->o->arch < vr->tma_min_sm)
		return false;
	/* (the tensor-copy kernel's bookkeeping costs registers, and with blocks of 1024 threads 33
	 * registers a thread halve the blocks an SM: unmeasured, auto keeps to the kernel's own
	 * code; jehyun's week6_1 matmul, 32 registers as written, 39 as tma x4, ran 0.93x its
	 * original at its own 1024^3 on the H100) */
	if (!l->registers && vr->tma_measured_from_threads && l->block_threads >= vr->tma_measured_from_threads) {
		snprintf(f->unmeasured, sizeof f->unmeasured, "; tensor copies wait for --ptxas with blocks of %d threads, "
			 "where their registers may halve the blocks an SM", l->block_threads);
		return false;
	}
	bool measured_narrow = !vr->tma_narrow_max_copy_bytes || f->width <= vr->tma_narrow_max_copy_bytes;
	w->stages = vr->tma_stages;
	if (!f->wide && vr->tma_for_narrow_copies && measured_narrow && !l->gather_at) {
		snprintf(w->why, sizeof w->why, "%d-byte copies: each tile is one box of its operand, and tensor copies beat "
			 "register staging on the H200 (%s)", f->width, vr->narrow_tma_evidence);
		return true;
	}
	if (f->wide && vr->tma_wide_min_ratio > 0 && l->ratio >= vr->tma_wide_min_ratio) {
		snprintf(w->why, sizeof w->why, "%d-byte copies and a long compute per tile (ratio %.0f): each tile is one box "
			 "of its operand, and tensor copies beat cp.async on the H200 there (%s)", f->width, l->ratio,
			 vr->wide_tma_evidence);
		return true;
	}
	return false;
}

/* Register staging (ldg), two stages: wide copies under a short compute, or narrow ones. */
bool prefer_registers(const struct variant_row *v, struct auto_facts *f, struct want *w)
{
	const struct kloop *l = f->l;
	const struct variant_rules *vr = f->vr;
	if (!usable(l, f->o, v))
		return false;
	w->stages = 2;
	if (f->wide) {
		if (!f->deep || !vr->short_tiles_prefer_ldg || !staging_weighed(l, vr))
			return false;
		snprintf(w->why, sizeof w->why,
			 "%d-byte copies, but a tile's compute is short (ratio %.0f): staged in registers they "
			 "beat cp.async on the H200 (%s)",
			 f->width, l->ratio, vr->short_tiles_evidence);
		return true;
	}
	const struct legality *cp = &l->legal[VARIANT_CP_ASYNC];
	if (cp->ok && f->width >= 8)
		snprintf(w->why, sizeof w->why, "%d-byte copies: cp.async of 8-byte copies lost to register staging on "
			 "the H100 (%s)%s", f->width, vr->narrow_cp_async_8_evidence, f->unmeasured);
	else if (cp->ok)
		snprintf(w->why, sizeof w->why, "%d-byte copies: cp.async of narrow copies lost to register staging on the "
			 "H200%s", f->width, f->unmeasured);
	else
		snprintf(w->why, sizeof w->why, "cp.async cannot take these copies (%s)%s", cp->refusal, f->unmeasured);
	return true;
}

/* cp.async: wide copies, deeper where a tile's compute is short. */
bool prefer_cp_async(const struct variant_row *v, struct auto_facts *f, struct want *w)
{
	const struct kloop *l = f->l;
	const struct variant_rules *vr = f->vr;
	(void)v;
	if (!f->wide)
		return false;
	w->stages = f->deep ? vr->deep_stages : vr->default_stages;
	char staging[160] = "";
	if (f->deep && vr->short_tiles_prefer_ldg && l->legal[VARIANT_LDG].ok) /* (!staging_weighed) */
		snprintf(staging, sizeof staging, " (registers would stage %ld a thread, over the %d auto takes "
			 "unmeasured)", (l->staged_bytes + 3) / 4, vr->max_staged_registers_unmeasured);
	snprintf(w->why, sizeof w->why, "%d-byte copies go straight to shared memory with cp.async%s%s", f->width, staging,
		 f->deep ? "; a tile's compute is short (low ratio), so more tiles in flight hide the load latency" : "");
	return true;
}

/* What auto wants of a loop: the rules' preference among the legal variants, and why; false
 * when the planner leaves the loop (l->declined says why). */
static bool want_auto(struct kloop *l, const struct options *o, const struct variant_rules *vr, const struct source *src,
		      struct want *w)
{
	if (vr->leave_unknown_compute && l->compute_runtime_trips && l->compute_block_dim) {
		char *why = shape_unknown(l, src);
		plan_decline(l, "a compute loop's trip count depends on '%s', and %s; of five such kernels measured, three ran "
			     "below their original at some size or block of their own (%s)", l->compute_block_dim, why,
			     vr->unknown_compute_evidence);
		free(why);
		return false;
	}
	if (vr->leave_unknown_compute && l->compute_runtime_trips) {
		plan_decline(l, "a compute loop's trip count is known only at run time; of five such kernels measured, three "
			     "ran below their original at some size or block of their own (%s)", vr->unknown_compute_evidence);
		return false;
	}
	if (vr->leave_unknown_compute && l->compute_block_dim && l->twice) {
		plan_decline(l, "%s, so it cannot be written twice, guarded on the block's shape and as written, and a "
			     "compute loop's trip count depends on '%s'; of five such kernels measured, three ran below their "
			     "original at some size or block of their own (%s)", l->twice, l->compute_block_dim,
			     vr->unknown_compute_evidence);
		return false;
	}
	struct auto_facts f = {.l = l, .o = o, .vr = vr, .width = min_copy_width(l)};
	f.wide = l->legal[VARIANT_CP_ASYNC].ok && f.width >= vr->cp_async_min_copy_bytes;
	f.deep = l->ratio >= 0 && l->ratio < vr->deep_stages_below_ratio;
	if (!f.wide && vr->leave_narrow_gathers_alone && l->gather_at) {
		int line, col;
		source_line_col(src, l->gather_at - 1, &line, &col);
		plan_decline(l,
			     "%d-byte copies gathered with division or modulo (%d:%d): the address arithmetic, not the "
			     "load latency, bounds this loop; neither variant paid on the H200 (%s)",
			     f.width, line, col, vr->narrow_gathers_evidence);
		return false;
	}
	int n;
	const struct variant_row *rows = variant_rows(&n);
	for (int rank = 1; rank < n; rank++)
		for (int i = 0; i < n; i++)
			if (rows[i].prefer && rows[i].auto_rank == rank && rows[i].prefer(&rows[i], &f, w)) {
				w->variant = rows[i].id;
				return true;
			}
	/* (check refused loops where no variant is legal: what is left is narrow copies, which
	 * lose as cp.async, and a loop register staging cannot take) */
	plan_decline(l, "register staging: %s; and %d-byte copies would lose as cp.async (%s)", l->legal[VARIANT_LDG].refusal,
		     f.width, f.width >= 8 ? vr->narrow_cp_async_8_evidence : vr->narrow_cp_async_evidence);
	return false;
}

/* An option whose register staging auto does not weigh unmeasured, in the report and in the
 * remark of a loop it leaves. */
#define STAGING_OVER "%d staging registers a thread, over the %d auto takes unmeasured (--ptxas)"

/* Each option is judged: the wanted variant up to the wanted stages, and for auto the
 * single-stage register plan that adds no shared memory as the fallback; it must fit the
 * static limit and, unless forced, keep the occupancy. The deepest survivor of the wanted
 * variant wins, else the fallback (NULL: none fits). */
static struct plan_option *judge_options(struct kloop *l, const struct options *o, const struct rules *r,
					 const struct arch_rules *a, const struct want *w)
{
	const struct variant_rules *vr = &r->variants;
	const struct plan_option *before = &l->options[0];
	enum variant want = w->variant;
	int want_stages = w->stages;
	bool forced = o->variant != VARIANT_AUTO;
	long static_limit = static_shared_limit(r, a);
	struct plan_option *chosen = NULL;
	int best_rank = -1;
	for (int i = 1; i < l->noptions; i++) {
		struct plan_option *p = &l->options[i];
		bool fallback = !forced && p->variant == VARIANT_LDG && p->stages == 1;
		if (!(p->variant == want && p->stages <= want_stages) && !fallback) {
			p->over_wanted = p->variant == want;
			p->judged = JUDGED_NOT_CONSIDERED;
			set_verdict(p, "not considered: %s", p->variant == want ? "more stages than wanted" : "another variant is preferred");
			continue;
		}
		long st = static_with_stages(l, p->stages < 1 ? 1 : p->stages);
		if (st >= 0)
			st += stage_extra(l, p->stages, p->variant);
		/* (past the static limit, static tiles may move into the launch's dynamic shared
		 * memory where check proved it; the tensor copies' launchers keep their own) */
		p->promote = st > static_limit && l->promote && a && variant_row(p->variant)->family != FAMILY_TENSOR;
		if (st > static_limit && !p->promote) {
			p->over_static = true;
			reject(p, "%.1f KB of static shared memory is over the %ld KB limit", st / 1024.0,
			       static_limit / 1024);
			continue;
		}
		if (p->promote && p->smem > a->smem_per_block_optin) {
			reject(p, "%.1f KB of shared memory per block is over the %ld KB sm_%d allows",
			       p->smem / 1024.0, a->smem_per_block_optin / 1024, a->sm);
			continue;
		}
		if (a && dynamic_stages(l) && p->smem > a->smem_per_block_optin) {
			reject(p, "%.1f KB of shared memory per block is over the %ld KB sm_%d allows",
			       p->smem / 1024.0, a->smem_per_block_optin / 1024, a->sm);
			continue;
		}
		if (!forced && l->registers && l->registers + p->staged_registers > a_max_regs(a)) {
			reject(p, "%d registers a thread (%d measured + %d staging) is over the %d a thread can "
			       "have: they would spill", l->registers + p->staged_registers, l->registers,
			       p->staged_registers, a_max_regs(a));
			continue;
		}
		if (!forced && !l->registers && vr->max_staged_registers_unmeasured &&
		    p->staged_registers > vr->max_staged_registers_unmeasured) {
			reject(p, STAGING_OVER ": %s", p->staged_registers, vr->max_staged_registers_unmeasured,
			       vr->staged_registers_evidence);
			p->over_staging = true;
			continue;
		}
		/* (a speed rule, so the block estimated from the tiles serves where no launch gives it:
		 * no rewrite relies on it) */
		int threads = l->block_threads ? l->block_threads : l->threads_estimate;
		if (!forced && vr->ldg_one_stage_from_threads && p->variant == VARIANT_LDG && p->stages > 1 &&
		    threads >= vr->ldg_one_stage_from_threads) {
			if (l->block_threads)
				reject(p, "with blocks of %d threads a second register stage lost to one (%s)", threads,
				       vr->large_blocks_evidence);
			else
				reject(p, "with blocks of %d threads (the block size is unknown: the threads that "
				       "copy a stage's tiles) a second register stage lost to one (%s)",
				       threads, vr->large_blocks_evidence);
			p->large_block = true;
			continue;
		}
		if (!forced && !keeps_occupancy(before, p, vr->min_occupancy_fraction)) {
			bool staging = l->registers && p->staged_registers && strcmp(p->limiter, "registers") == 0;
			if (!l->block_threads && !l->threads_estimate) /* (shared memory alone counted: see add_option) */
				reject(p, "the block's size is unknown, and by shared memory alone %d blocks per SM instead "
				       "of %d would fall off the occupancy cliff", p->blocks, before->blocks);
			else
				reject(p, "%d blocks per SM instead of %d falls off the occupancy cliff (limit: %s%s)",
				       p->blocks, before->blocks, p->limiter,
				       staging ? ", the kernel's measured and the staging's" : "");
			continue;
		}
		p->judged = JUDGED_FITS;
		set_verdict(p, "fits");
		int rank = (p->variant == want ? 100 : 0) + p->stages;
		if (rank > best_rank) {
			best_rank = rank;
			chosen = p;
		}
	}
	return chosen;
}

/* Why a register plan keeps one stage, for the comment the rewrite writes above it. */
static const char *one_stage_why(const struct kloop *l)
{
	for (int i = 0; i < l->ntiles; i++)
		if (l->tiles[i].dynamic && !l->enlarge)
			return "the tiles' shared memory is the launch's";
	for (int i = 0; i < l->nrefs; i++)
		if (l->refs[i].in_macro)
			return "a tile is named inside a macro's expansion, where no stage index can be written";
	if (l->one_stage) /* (check's reason) */
		return l->one_stage;
	for (int i = 0; i < l->noptions; i++)
		if (l->options[i].variant == VARIANT_LDG && l->options[i].stages == 2 && l->options[i].over_static)
			return "a second stage would not fit in static shared memory";
	for (int i = 0; i < l->noptions; i++)
		if (l->options[i].variant == VARIANT_LDG && l->options[i].stages == 2 && l->options[i].over_wanted)
			return "one stage was asked for";
	for (int i = 0; i < l->noptions; i++)
		if (l->options[i].variant == VARIANT_LDG && l->options[i].stages == 2 && l->options[i].large_block)
			return "a second register stage lost to one with blocks this large";
	return "a second stage would cost occupancy";
}

/* file_off_at: offset + 1 of the file's `// pipefy: off-file`, 0 when none (read once a file: a
 * file of many kernels made it quadratic). */
static void plan_loop(struct kloop *l, const struct options *o, const struct rules *r, const struct source *src,
		      size_t file_off_at)
{
	const struct arch_rules *a = rules_arch(r, o->arch);
	const struct variant_rules *vr = &r->variants;
	l->assumed_registers = vr->assumed_registers;
	if (l->min_blocks && l->block_threads) {
		/* (`__launch_bounds__(256, 8)`: the compiler keeps a thread to what 8 blocks leave it) */
		int cap = 65536 / (l->block_threads * l->min_blocks);
		cap -= cap % 8;
		if (cap >= 8 && cap < l->assumed_registers)
			l->assumed_registers = cap;
	}
	if (o->variant == VARIANT_NO_LOADS) {
		l->variant = VARIANT_NO_LOADS;
		l->stages = 1;
		return;
	}
	struct options hinted;
	size_t hint_at = 0;
	if (!apply_hints(l, src, file_off_at, &o, &hinted, &hint_at))
		return;
	l->ratio = kloop_ratio(l);

	add_options(l, o, a, vr);
	/* what is wanted: forced by the user, or the rules' preference */
	enum variant want = o->variant;
	int want_stages = o->stages;
	char why[512] = "";
	if (want == VARIANT_AUTO) {
		struct want pref = {.variant = VARIANT_AUTO};
		if (!want_auto(l, o, vr, src, &pref)) {
			/* (the report's table still names each plan: none was weighed) */
			for (int i = 1; i < l->noptions; i++)
				set_verdict(&l->options[i], "not weighed: the rules leave the loop first (the result says why)");
			return;
		}
		want = pref.variant;
		want_stages = pref.stages;
		snprintf(why, sizeof why, "%s", pref.why);
	} else if (!usable(l, o, variant_row(want)) ||
		   (variant_row(want)->max_stages && want_stages > variant_row(want)->max_stages)) {
		const struct variant_row *v = variant_row(want);
		plan_decline(l, "%s: %s", want == VARIANT_CP_ASYNC && l->one_stage ? "cp.async" : v->noun,
			     o->arch < v->min_arch ? v->arch_why : !l->legal[want].ok ? l->legal[want].refusal : v->stages_why);
		return;
	} else if (o == &hinted) {
		int line, col;
		source_line_col(src, hint_at, &line, &col);
		snprintf(why, sizeof why, "asked for by the source (`%s` at %d:%d)", l->hint, line, col);
	} else {
		snprintf(why, sizeof why, "asked for with --variant=%s%s", variant_name(want),
			 want == VARIANT_WS_CP_ASYNC ? " (on the H200 it ran slower than the best other variant of "
						       "every kernel pipefy was measured on)" : "");
	}
	if (!want_stages)
		want_stages = want == VARIANT_LDG ? 2 : vr->default_stages;
	if (l->one_stage && want == VARIANT_LDG && want_stages > 1) {
		size_t n = strlen(why);
		if (!forced_variant(o)) /* cp.async's refusal said the same */
			snprintf(why, sizeof why, "%s", l->one_stage);
		else
			snprintf(why + n, sizeof why - n, "; one stage: %s", l->one_stage);
		want_stages = 1;
	}

	struct want w = {want, want_stages, ""};
	struct plan_option *chosen = judge_options(l, o, r, a, &w);
	for (int i = 1; i < l->noptions; i++) {
		struct plan_option *p = &l->options[i];
		if (p == chosen) {
			p->chosen = true;
			p->judged = JUDGED_CHOSEN;
			if (p->variant != want) /* (the fallback: why is the wanted variant's reason) */
				snprintf(why, sizeof why, "the fallback, one register stage, adds no shared memory");
			set_verdict(p, "chosen: %s", why);
		} else if (p->judged == JUDGED_FITS) {
			set_verdict(p, "fits, but the chosen plan overlaps more");
		}
	}
	if (!chosen) {
		const char *why_not = "no legal plan";
		const struct plan_option *named = NULL, *last = &l->options[l->noptions - 1];
		for (int i = l->noptions - 1; i >= 1; i--)
			if (l->options[i].variant == want)
				named = &l->options[i];
		if (named)
			why_not = named->verdict;
		/* (the fallback's reason too when staging rules it out; the rules' evidence is the
		 * report's) */
		if (named && named->over_staging && l->one_stage) /* (and no plan adds a stage: say why) */
			plan_decline(l, "no plan fits: %s: one stage only, with " STAGING_OVER,
				     l->one_stage_fact ? l->one_stage_fact : l->one_stage, named->staged_registers,
				     vr->max_staged_registers_unmeasured);
		else if (named && named->over_staging) /* (every register plan holds the same) */
			plan_decline(l, "no plan fits: ldg: " STAGING_OVER, named->staged_registers,
				     vr->max_staged_registers_unmeasured);
		else if (last->over_staging && last != named)
			plan_decline(l, "no plan fits: %s %s; 1 stage: " STAGING_OVER, variant_name(want), why_not,
				     last->staged_registers, vr->max_staged_registers_unmeasured);
		else if (last != named && !forced_variant(o) && last->variant == VARIANT_LDG && last->stages == 1 &&
			 last->judged == JUDGED_REJECTED)
			plan_decline(l, "no plan fits: %s %s; 1 stage: %s", variant_name(want), why_not,
				     last->verdict + strlen(REJECTED));
		else
			plan_decline(l, "no plan fits: %s %s", variant_name(want), why_not);
		/* (another variant that would fit was not weighed: say why, and that the plans
		 * that fail are the wanted variant's) */
		const struct plan_option *other = NULL;
		for (int i = 1; i < l->noptions && !other; i++)
			if (l->options[i].variant != want && l->options[i].judged == JUDGED_NOT_CONSIDERED)
				other = &l->options[i];
		if (other && !forced_variant(o)) { /* (each declined above as "no plan fits: ..") */
			char *d = xprintf("no %s plan fits: %s; %s is not taken: %s", variant_name(want),
					  l->declined + strlen("no plan fits: "),
					  variant_name(other->variant), why);
			free(l->declined);
			l->declined = d;
		}
		return;
	}
	l->variant = chosen->variant;
	l->stages = chosen->stages;
	l->one_stage_why = chosen->variant == VARIANT_LDG && chosen->stages == 1 ? one_stage_why(l) : NULL;
	if (chosen->variant == VARIANT_TMA && l->registers && chosen->blocks > 0) /* (its own kernel: tensor.c) */
		l->keep_blocks = chosen->blocks;
	if (chosen->promote) {
		l->promoted_bytes = kloop_promoted_offset(l, chosen->stages, l->ntiles);
		size_t n = strlen(why);
		snprintf(why + n, sizeof why - n, "; the tiles' %.1f KB move into the launch's dynamic shared memory, past "
			 "the %ld KB static limit", l->promoted_bytes / 1024.0, static_shared_limit(r, a) / 1024);
	}
	l->plan_reason = xstrdup(why);
	plan_producer(l, o, a, vr, chosen->smem);
	if (l->regs_note) {
		char *note = xprintf("%s; %s", l->plan_reason, l->regs_note);
		free(l->plan_reason);
		l->plan_reason = note;
	}
	if (chosen->variant != want || chosen->stages != want_stages) {
		const struct plan_option *wanted = NULL;
		for (int i = 1; i < l->noptions; i++)
			if (l->options[i].variant == want && l->options[i].stages == want_stages)
				wanted = &l->options[i];
		l->plan_note = xprintf("%s %d stage%s wanted, %s", variant_name(want), want_stages, want_stages == 1 ? "" : "s",
				       wanted && wanted->verdict ? wanted->verdict : "not possible");
	}
}

/* A producer for ws and ws-cp.async: one warp; on sm_90a a warpgroup (setmaxnreg acts on whole
 * warpgroups) that keeps producer_registers a thread and hands the rest of its allocation to the
 * kernel's threads. The kernel is built for B blocks an SM (__launch_bounds__(C + 128, B)):
 * ptxas then gives it R = the register file / ((C + 128) x B) a thread at launch, rounded down
 * to whole allocations; the kernel's threads take Rc = (R x (C + 128) - 128 x Rp) / C, rounded
 * down to 8, which must cover what ptxas measured for the kernel as written. The largest B that
 * does, and that the shared memory allows, is taken. (The launcher checks the register count the
 * kernel was built with before it launches: the warpgroups' requests never exceed the block's
 * registers, or setmaxnreg.inc would wait forever.) */
static void plan_producer(struct kloop *l, const struct options *o, const struct arch_rules *a,
			  const struct variant_rules *vr, long smem)
{
	l->producer_threads = 32;
	if (!variant_row(l->variant)->producer_threads)
		return;
	if (o->arch != 90 || o->arch_suffix != 'a' || !a)
		return;
	int Rp = l->variant == VARIANT_WS ? vr->producer_registers : vr->producer_registers_cp_async, C = l->block_threads;
	if (!Rp) {
		l->regs_note = xstrdup("a one-warp producer: the rules hold no register count for a producer warpgroup");
		return;
	}
	if (!l->registers) {
		l->regs_note = xstrdup("a one-warp producer: a warpgroup that hands registers to the kernel's threads "
				       "(setmaxnreg) needs their register count, which --ptxas measures");
		return;
	}
	/* (PIPEFY_TEST_BREAK=warpgroups: a block of part warpgroups let through, the bug the CPU
	 * block model must catch; never in normal use) */
	if (C <= 0) {
		l->regs_note = xstrdup("a one-warp producer: setmaxnreg acts on whole warpgroups, and the block's size is "
				       "not known here");
		return;
	}
	if ((C % 128 && !test_break("warpgroups")) || C + 128 > 1024) {
		l->regs_note = xprintf("a one-warp producer: setmaxnreg acts on whole warpgroups, and the block has %d "
				       "threads%s%s%s, %s", C, l->block_source ? " (" : "", l->block_source ? l->block_source : "",
				       l->block_source ? ")" : "",
				       C + 128 > 1024 ? "no room for 128 more" : "not whole warpgroups of 128");
		return;
	}
	int T = C + 128, unit = a->reg_alloc_unit / 32 > 0 ? a->reg_alloc_unit / 32 : 8;
	int cap = a->max_regs_per_thread / unit * unit;
	for (int B = a->max_warps / (T / 32); B >= 1; B--) {
		int R = a->regs_per_sm / (T * B) / unit * unit;
		R = R > cap ? cap : R;
		int Rc = (R * T - 128 * Rp) / C / 8 * 8;
		Rc = Rc > 256 ? 256 : Rc;
		const char *limiter;
		if (R <= Rp || Rc <= R || Rc < l->registers || occupancy_blocks(a, T, 0, smem, &limiter) < B)
			continue;
		l->producer_threads = 128;
		l->regs_blocks = B;
		l->regs_entry = R;
		l->regs_producer = Rp;
		l->regs_consumer = Rc;
		char *why = xprintf("%s; from a producer warpgroup that hands registers to the kernel's threads (setmaxnreg, "
				    "sm_90a: %d a thread at launch for %d blocks an SM, %d for the producer, %d for the kernel's "
				    "threads, which ptxas measured at %d; %s)", l->plan_reason, R, B, Rp, Rc, l->registers,
				    vr->producer_registers_evidence);
		free(l->plan_reason);
		l->plan_reason = why;
		return;
	}
	l->regs_note = xprintf("a one-warp producer: no block count an SM leaves the kernel's threads the %d registers "
			       "ptxas measured once a producer warpgroup keeps %d", l->registers, Rp);
}

/* Whether [begin, end) touches a --lines range or the --offset/--length bytes. */
static bool in_ranges(const struct source *src, const struct options *o, struct span s)
{
	int first, last, col;
	source_line_col(src, s.begin, &first, &col);
	source_line_col(src, s.end > 0 ? s.end - 1 : 0, &last, &col);
	bool touched = false;
	for (int r = 0; r < o->nlines; r++)
		touched |= o->lines[r].first <= last && o->lines[r].last >= first;
	if (o->length >= 0)
		touched |= (size_t)o->offset < s.end && (size_t)(o->offset + o->length) >= s.begin;
	return touched;
}

/* --lines and --offset/--length: loops (and launches) outside every range are left as they
 * are, silently, the way clang-format leaves lines outside --lines. */
static void restrict_to_ranges(struct model *m, const struct source *src, const struct options *o)
{
	if (o->nlines == 0 && o->length < 0)
		return;
	for (int i = 0; i < m->nloops; i++)
		m->loops[i].out_of_range = !in_ranges(src, o, m->loops[i].loop);
	for (int i = 0; i < m->npairs; i++) /* (a persistent launch rewrites the first launch too) */
		m->pairs[i].out_of_range = !in_ranges(src, o, m->pairs[i].call) ||
					   (o->launches == LAUNCHES_QUEUE && !in_ranges(src, o, m->pairs[i].first_call));
}

void plan_kloops(struct model *m, const struct options *o, const struct rules *r, const struct source *src)
{
	size_t at = 0;
	size_t file_off_at = file_hint_off(src, &at) ? at + 1 : 0;
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		if (l->nrefusals == 0)
			plan_loop(l, o, r, src, file_off_at);
		else if (l->refused_both && forced_variant(o) && o->variant != VARIANT_NO_LOADS &&
			 !l->legal[o->variant].ok && l->legal[o->variant].refusal)
			/* (the variant asked for: its own reason first, not cp.async's) */
			plan_decline(l, "%s: %s", o->variant == VARIANT_CP_ASYNC ? "cp.async" : variant_row(o->variant)->noun,
				     l->legal[o->variant].refusal);
		else if (l->refused_both && !forced_variant(o) && min_copy_width(l) < r->variants.cp_async_min_copy_bytes) {
			/* (narrow copies: register staging is what auto would have chosen, its reason first) */
			char *why = check_both_reasons("register staging", l->legal[VARIANT_LDG].refusal, "cp.async",
						       l->legal[VARIANT_CP_ASYNC].refusal);
			plan_decline(l, "%s", why);
			free(why);
		}
	}
	restrict_to_ranges(m, src, o);
}

bool plan_fallback(struct kloop *l, const struct options *o, const struct rules *r, const struct source *src)
{
	if (!l->invalid || o->variant != VARIANT_AUTO || l->variant == VARIANT_AUTO || l->variant == VARIANT_NO_LOADS ||
	    l->hint || l->nrefusals > 0)
		return false;
	enum variant failed = l->variant;
	l->legal[failed].ok = false;
	free(l->legal[failed].refusal);
	l->legal[failed].refusal = l->invalid;
	l->invalid = NULL;
	/* (the planner's part of the model, cleared: planned again from check's facts; a field
	 * plan_loop comes to set must be cleared here too) */
	for (int i = 0; i < l->noptions; i++)
		free(l->options[i].verdict);
	l->noptions = 0;
	free(l->regs_note);
	free(l->plan_note);
	free(l->plan_reason);
	free(l->declined);
	l->regs_note = l->plan_note = l->plan_reason = l->declined = NULL;
	l->variant = VARIANT_AUTO;
	l->stages = 0;
	l->one_stage_why = NULL;
	l->keep_blocks = 0;
	l->promoted_bytes = 0;
	l->producer_threads = 0;
	l->regs_blocks = l->regs_entry = l->regs_producer = l->regs_consumer = 0;
	l->launch_stages = 0;
	size_t at = 0;
	plan_loop(l, o, r, src, file_hint_off(src, &at) ? at + 1 : 0);
	if (l->variant != VARIANT_AUTO) {
		/* (the report says what failed first, in validation's words: "the rewrite failed
		 * validation: WHY; the loop is left as written") */
		const char *why = l->legal[failed].refusal, *colon = strstr(why, "validation: ");
		why = colon ? colon + strlen("validation: ") : why;
		const char *left = strstr(why, "; the loop is left as written");
		char *note = xprintf("%s's rewrite failed validation (%.*s), so the next plan: %s", variant_name(failed),
				     left ? (int)(left - why) : (int)strlen(why), why, l->plan_reason ? l->plan_reason : "");
		free(l->plan_reason);
		l->plan_reason = note;
		return true;
	}
	l->invalid = xstrdup(l->legal[failed].refusal); /* (the first obstacle: what failed) */
	return false;
}

/* The launches of kernels whose tiles get stages in their dynamic shared memory: each gives
 * the most stages any of the kernel's loops has, one copy of the layout each. Every loop of
 * the kernel divides by that number (launch_stages). */
void plan_launch_stages(struct model *m)
{
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		l->launch_stages = 0;
		if (l->nrefusals > 0 || l->invalid || l->variant == VARIANT_AUTO || l->out_of_range || l->stages < 2 ||
		    !l->enlarge)
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

/* ---- launch pairs ---- */

/* --launches=queue: the pair as one persistent launch, where check found nothing against it and
 * no loop's rewrite edits either launch, and neither launch is another queue's already. */
static void plan_queue(struct launch_pair *p, const struct model *m, const struct arch_rules *a)
{
	p->quiet = false;
	if (p->queue_refusal)
		return;
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (l->function_span.end == 0 || l->nrefusals > 0 || l->variant == VARIANT_AUTO || l->out_of_range)
			continue;
		bool mine = l->function_span.begin == cursor_span(p->kernel).begin ||
			    l->function_span.begin == cursor_span(p->first_kernel).begin;
		if (mine && (variant_is_tensor(l->variant) || (l->enlarge && l->stages > 1) || l->promoted_bytes > 0)) {
			p->queue_declined = xprintf("the launches of '%s' are rewritten for its K-loop's %s", l->function,
						   variant_name(l->variant));
			return;
		}
	}
	for (const struct launch_pair *q = m->pairs; q < p; q++)
		if (q->queue && (q->call.begin == p->first_call.begin || q->first_call.begin == p->first_call.begin)) {
			p->queue_declined = xprintf("the launch of '%s' is in the persistent launch with '%s' already", p->first,
						   q->first);
			return;
		}
	p->queue = true;
	p->reason = xstrdup("--launches=queue");
	/* Both kernels' bodies in one kernel take more registers than either (48 against 32 and 14
	 * for the MLP's GEMM and bias+GELU, 64 against 38 and 31 for Q K^T and softmax): fewer
	 * blocks an SM than the kernels as written. Where ptxas measured both, the persistent kernel
	 * is held to the larger count, rounded up to what an SM allocates a thread anyway. */
	if (a && p->registers[0] > 0 && p->registers[1] > 0) {
		int most = p->registers[0] > p->registers[1] ? p->registers[0] : p->registers[1];
		int unit = a->reg_alloc_unit / 32 > 0 ? a->reg_alloc_unit / 32 : 1;
		p->queue_registers = (most + unit - 1) / unit * unit;
		if (p->queue_registers > a->max_regs_per_thread)
			p->queue_registers = a->max_regs_per_thread;
		free(p->reason);
		p->reason = xprintf("--launches=queue; the persistent kernel held to %d registers a thread, the most of "
				    "'%s' (%d) and '%s' (%d) rounded up to a whole allocation (ptxas)",
				    p->queue_registers, p->first, p->registers[0], p->second, p->registers[1]);
	}
}

/* Pairs the planner would not overlap anyway (an older GPU unless --launches named a way,
 * --launches=keep, or rules that do not say it pays) are quiet: a remark for every two launches of such a file would be noise;
 * --report still says why. A pair wanted but illegal, or in the way of a loop's launcher, is not. */
static void plan_pair(struct launch_pair *p, const struct model *m, const struct options *o, const struct rules *r)
{
	const struct variant_rules *vr = &r->variants;
	if (o->launches == LAUNCHES_QUEUE) {
		plan_queue(p, m, rules_arch(r, o->arch));
		return;
	}
	p->quiet = true;
	if (o->launches == LAUNCHES_KEEP)
		p->reason = xstrdup("--launches=keep");
	else if (o->arch < vr->overlap_min_sm) {
		p->reason = xprintf("sm_%d has no programmatic dependent launch (sm_%d and up)", o->arch, vr->overlap_min_sm);
		p->quiet = o->launches == LAUNCHES_AUTO; /* (asked for by name, the answer is said) */
		return;
	} else if (o->launches == LAUNCHES_AUTO && !vr->overlap_launches)
		p->reason = xprintf("not measured to pay (%s); --launches=overlap overlaps it", vr->overlap_evidence);
	else
		p->quiet = false;
	if (p->quiet || p->refusal)
		return;
	size_t def = cursor_span(p->kernel).begin;
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (l->function_span.end == 0 || l->function_span.begin != def || l->nrefusals > 0 || l->variant == VARIANT_AUTO ||
		    l->out_of_range)
			continue;
		if (variant_is_tensor(l->variant)) {
			p->reason = xprintf("the launches of '%s' go through pipefy_launch_%s, its %s loop's launcher", p->second,
					    p->second, variant_name(l->variant));
			return;
		}
		if ((l->enlarge && l->stages > 1) || l->promoted_bytes > 0) {
			p->reason = xprintf("the launch's shared memory is rewritten for the stages of '%s'", p->second);
			return;
		}
	}
	p->overlap = true;
	p->reason = o->launches == LAUNCHES_OVERLAP ? xstrdup("--launches=overlap")
		    : o->launches == LAUNCHES_EARLY ? xstrdup("--launches=early")
						    : xprintf("measured on %s", vr->overlap_evidence);
	if (o->launches != LAUNCHES_EARLY || clang_Cursor_isNull(p->first_kernel))
		return;
	/* the kernel ahead lets this one start once its blocks are past their K-loop (its last), or
	 * at once when it has none */
	p->trigger_at = p->first_body_open;
	size_t first = cursor_span(p->first_kernel).begin;
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (l->function_span.end && l->function_span.begin == first && !l->not_kloop && l->loop.end > p->trigger_at)
			p->trigger_at = l->loop.end;
	}
}

void plan_launch_pairs(struct model *m, const struct options *o, const struct rules *r)
{
	for (int i = 0; i < m->npairs; i++)
		plan_pair(&m->pairs[i], m, o, r);
}
