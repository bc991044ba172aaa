/* variant.c: the variants, one row each. A row says what the rest of pipefy needs to know of a
 * variant without naming it: the name --variant takes, the oldest architecture it runs on, the
 * stages it can have, what it adds to a block (threads, shared memory), the words the planner
 * uses when it cannot be had, and its hooks: check.c's reading of the facts it needs, its
 * family file's rewrite and validation of the rewrite, and plan.c's rules for when auto
 * prefers it (auto_rank: the order auto asks). The rows are in the order the planner weighs
 * them (and the report lists them); a new variant is a row here, a family file (or a row in
 * one), rules and tests. */
#include "stage.h"
#include "region.h"

/* What the tensor family's rows share: tiles copied as boxes into 128-byte aligned stages. */
#define TENSOR_FAMILY \
	.family = FAMILY_TENSOR, .listed = true, .min_stages = 2, .tile_align = 128, .rewrite = rewrite_tensor
#define NEEDS_SM90 "they need sm_90 or later (--arch)"

static const struct variant_row rows[] = {
	{.id = VARIANT_AUTO, .name = "auto", .listed = true},
	/* (cuda_pipeline's primitives exist from sm_70; asynchronous in hardware from sm_80) */
	{.id = VARIANT_CP_ASYNC, .name = "cp.async", .alias = "cpasync", .family = FAMILY_CP_ASYNC, .listed = true,
	 .min_arch = 70, .min_stages = 2, .noun = "cp.async cannot take these copies", .check = check_cp_async,
	 .help = "the copies as cp.async into the stages",
	 .rewrite = rewrite_cp_async, .validate = validate_cp_async, .prefer = prefer_cp_async, .auto_rank = 3},
	/* a full and an empty mbarrier a stage (16 bytes) */
	/* (check_boxes decides tma, bulk and ws together: the same boxes) */
	{.id = VARIANT_TMA, .name = "tma", TENSOR_FAMILY, .min_arch = 90, .barrier_bytes = 16, .noun = "tensor copies",
	 .help = "tensor copies (the kernel's launches in the file go through a launcher)",
	 .arch_why = NEEDS_SM90, .check = check_boxes, .validate = validate_tensor, .prefer = prefer_tensor, .auto_rank = 1},
	{.id = VARIANT_BULK, .name = "bulk", TENSOR_FAMILY, .min_arch = 90, .barrier_bytes = 16, .noun = "bulk copies",
	 .help = "each tile row one bulk copy",
	 .arch_why = NEEDS_SM90, .validate = validate_tensor},
	{.id = VARIANT_WS, .name = "ws", TENSOR_FAMILY, .min_arch = 90, .barrier_bytes = 16, .producer_threads = 32,
	 .noun = "a producer warp", .help = "tma's copies issued by a producer warp added to the block",
	 .arch_why = "its tensor copies need sm_90 or later (--arch)", .validate = validate_tensor},
	/* named barriers 1 to 2 x S + 1 of the 16 (no shared memory): 7 stages at most */
	{.id = VARIANT_WS_CP_ASYNC, .name = "ws-cp.async", TENSOR_FAMILY, .min_arch = 80, .max_stages = 7,
	 .producer_threads = 32, .noun = "a producer warp with cp.async",
	 .help = "the producer warp's copies are cp.async, its signals named barriers", .arch_why = "cp.async needs sm_80 or later (--arch)",
	 .stages_why = "its two named barriers a stage and one more allow 7 stages at most", .check = check_ws_cp_async,
	 .validate = validate_ws_cp_async},
	{.id = VARIANT_LDG, .name = "ldg", .family = FAMILY_REGISTERS, .listed = true, .min_stages = 1, .max_stages = 2,
	 .noun = "register staging", .help = "the next tile's loads held in registers during the compute",
	 .check = check_ldg, .rewrite = rewrite_registers, .validate = validate_registers, .prefer = prefer_registers,
	 .auto_rank = 2},
	/* a measuring aid, not a pipeline: nothing to validate */
	{.id = VARIANT_NO_LOADS, .name = "no-loads", .min_stages = 1, .rewrite = rewrite_no_loads,
	 .help = "drops the copies, a benchmark's load-free ceiling"},
};

const struct variant_row *variant_rows(int *n)
{
	*n = (int)(sizeof rows / sizeof *rows);
	return rows;
}

const struct variant_row *variant_row(enum variant v)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (rows[i].id == v)
			return &rows[i];
	return &rows[0];
}

const struct variant_row *variant_named(const char *name)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (strcmp(name, rows[i].name) == 0 || (rows[i].alias && strcmp(name, rows[i].alias) == 0))
			return &rows[i];
	return NULL;
}

const char *variant_name(enum variant v) { return variant_row(v)->name; }

bool variant_is_tensor(enum variant v) { return variant_row(v)->family == FAMILY_TENSOR; }

static const char *const family_names[] = {"none", "registers", "cp.async", "tensor"};

void variant_list(FILE *out, int rules_max)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const struct variant_row *v = &rows[i];
		if (!v->listed || !v->rewrite)
			continue;
		char arch[16] = "any";
		if (v->min_arch)
			snprintf(arch, sizeof arch, "sm_%d", v->min_arch);
		fprintf(out, "%s\t%s\t%d-%d\t%s\n", v->name, arch, v->min_stages, variant_max_stages(v, rules_max),
			family_names[v->family]);
	}
}

/* Writes text at column `indent`, wrapped before column 80 at spaces; `at` is the column the
 * output stands at. */
static void wrap(FILE *out, const char *text, int at, int indent)
{
	for (const char *w = text; *w;) {
		size_t n = strcspn(w, " ");
		if (at > indent && at + 1 + (int)n > 80) {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
		} else if (at > indent) {
			fputc(' ', out);
			at++;
		}
		fprintf(out, "%.*s", (int)n, w);
		at += (int)n;
		w += n + (w[n] == ' ');
	}
	fputc('\n', out);
}

void variant_help(FILE *out, int rules_max)
{
	fputs("  --variant=V             auto (default: the planner's choice among the legal\n"
	      "                          variants), or one of these (oldest architecture,\n"
	      "                          shared-memory stages --stages takes):\n", out);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const struct variant_row *v = &rows[i];
		if (!v->rewrite)
			continue;
		char line[96];
		int at = snprintf(line, sizeof line, "%26s%-12s", "", v->name);
		if (v->listed) {
			char arch[16] = "any";
			if (v->min_arch)
				snprintf(arch, sizeof arch, "sm_%d", v->min_arch);
			at += snprintf(line + at, sizeof line - (size_t)at, " %s, %d-%d:", arch, v->min_stages,
				       variant_max_stages(v, rules_max));
		} else
			at += snprintf(line + at, sizeof line - (size_t)at, " not a pipeline:");
		fputs(line, out);
		wrap(out, v->help, at, 39);
	}
	fputs("  --stages=N              the variant's stages (default: the planner's choice)\n", out);
}

int variant_max_stages(const struct variant_row *v, int rules_max)
{
	return v->max_stages && v->max_stages < rules_max ? v->max_stages : rules_max;
}
