/* variant.c: the variants, one row each. A row says what the rest of pipefy needs to know of a
 * variant without naming it: the name --variant takes, the oldest architecture it runs on, the
 * stages it can have, what it adds to a block (threads, shared memory), the words the planner
 * uses when it cannot be had, and its hooks: check.c's reading of the facts it needs, and
 * its family file's rewrite and validation of the rewrite. The rows are in the order the planner weighs them (and the report
 * lists them); a new variant is a row here, a family file (or a row in one), rules and tests. */
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
	 .rewrite = rewrite_cp_async, .validate = validate_cp_async},
	/* a full and an empty mbarrier a stage (16 bytes) */
	/* (check_boxes decides tma, bulk and ws together: the same boxes) */
	{.id = VARIANT_TMA, .name = "tma", TENSOR_FAMILY, .min_arch = 90, .barrier_bytes = 16, .noun = "tensor copies",
	 .arch_why = NEEDS_SM90, .check = check_boxes, .validate = validate_tensor},
	{.id = VARIANT_BULK, .name = "bulk", TENSOR_FAMILY, .min_arch = 90, .barrier_bytes = 16, .noun = "bulk copies",
	 .arch_why = NEEDS_SM90, .validate = validate_tensor},
	{.id = VARIANT_WS, .name = "ws", TENSOR_FAMILY, .min_arch = 90, .barrier_bytes = 16, .producer_threads = 32,
	 .noun = "a producer warp", .arch_why = "its tensor copies need sm_90 or later (--arch)", .validate = validate_tensor},
	/* named barriers 1 to 2 x S + 1 of the 16 (no shared memory): 7 stages at most */
	{.id = VARIANT_WS_CP_ASYNC, .name = "ws-cp.async", TENSOR_FAMILY, .min_arch = 80, .max_stages = 7,
	 .producer_threads = 32, .noun = "a producer warp with cp.async", .arch_why = "cp.async needs sm_80 or later (--arch)",
	 .stages_why = "its two named barriers a stage and one more allow 7 stages at most", .check = check_ws_cp_async,
	 .validate = validate_ws_cp_async},
	{.id = VARIANT_LDG, .name = "ldg", .family = FAMILY_REGISTERS, .listed = true, .min_stages = 1, .max_stages = 2,
	 .noun = "register staging", .check = check_ldg, .rewrite = rewrite_registers, .validate = validate_registers},
	/* a measuring aid, not a pipeline: nothing to validate */
	{.id = VARIANT_NO_LOADS, .name = "no-loads", .min_stages = 1, .rewrite = rewrite_no_loads},
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

int variant_max_stages(const struct variant_row *v, int rules_max)
{
	return v->max_stages && v->max_stages < rules_max ? v->max_stages : rules_max;
}
