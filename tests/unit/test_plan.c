/* test_plan.c: the rules compiled in, and the occupancy arithmetic against figures worked
 * out by hand from the CUDA occupancy calculator's rules. */
#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>
#include "suites.h"

static struct rules rules;

static void load(void)
{
	char *err = NULL;
	ck_assert_msg(rules_load(&rules, NULL, &err), "%s", err ? err : "");
}

START_TEST(builtin_rules_cover_every_architecture)
{
	load();
	int want[] = {70, 75, 80, 86, 87, 89, 90, 100, 120};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ck_assert_msg(rules_arch(&rules, want[i]) != NULL, "sm_%d missing", want[i]);
	const struct arch_rules *a = rules_arch(&rules, 86);
	ck_assert_int_eq(a->smem_per_sm, 100 * 1024);
	ck_assert_int_eq(a->max_warps, 48);
	ck_assert_int_eq(a->smem_reserved, 1024);
	/* cp.async for 16-byte copies alone: 4 and 8-byte copies lost to registers (rules/variants.json) */
	ck_assert_int_eq(rules.variants.cp_async_min_copy_bytes, 16);
	ck_assert(strstr(rules.variants.narrow_cp_async_8_evidence, "colaws") != NULL);
	/* tensor copies for narrow copies (4-byte, as measured) and for wide ones from ratio 100,
	 * from sm_90, four stages */
	ck_assert(rules.variants.tma_for_narrow_copies);
	ck_assert_int_eq(rules.variants.tma_narrow_max_copy_bytes, 4);
	ck_assert_int_eq(rules.variants.tma_min_sm, 90);
	ck_assert_int_eq(rules.variants.tma_stages, 4);
	ck_assert_double_eq(rules.variants.tma_wide_min_ratio, 100);
	ck_assert(strstr(rules.variants.narrow_tma_evidence, "tma x4") != NULL);
}
END_TEST

START_TEST(sm80_hgemm_is_register_limited)
{
	load();
	const char *limit;
	/* 8 warps; 64 regs x 32 = 2048 per warp -> 32 warps -> 4 blocks; shared (18944 + 1024)
	 * = 19968 B -> 167936 / 19968 = 8 blocks; warps 64 / 8 = 8 blocks */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 80), 256, 64, 18944, &limit), 4);
	ck_assert_str_eq(limit, "registers");
	/* two stages: 37888 + 1024 = 38912 B -> 4 blocks, still 4 */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 80), 256, 64, 37888, &limit), 4);
}
END_TEST

START_TEST(sm86_cliff_of_the_seed)
{
	load();
	const char *limit;
	/* 128 threads, 32 regs: warps 48 / 4 = 12, registers 16; 28 KB + 1 KB reserved = 29696 B
	 * -> 102400 / 29696 = 3 blocks */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 86), 128, 32, 28 * 1024, &limit), 3);
	ck_assert_str_eq(limit, "shared");
	/* doubled to 56 KB: 58368 B -> 1 block: occupancy falls to a third */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 86), 128, 32, 56 * 1024, &limit), 1);
	/* 49 KB per block still fits twice (2 x 50 KB = 100 KB); 50 KB does not */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 86), 128, 32, 49 * 1024, &limit), 2);
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 86), 128, 32, 50 * 1024, &limit), 1);
}
END_TEST

START_TEST(sm90_limits)
{
	load();
	const char *limit;
	/* 1024 threads = 32 warps: 64 / 32 = 2 blocks; 32 regs -> 1024 per warp -> 64 warps -> 2 */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 90), 1024, 32, 8192, &limit), 2);
	ck_assert_str_eq(limit, "warps");
	/* 256 threads, 128 regs: 4096 per warp -> 16 warps -> 2 blocks; shared 39936 B -> 5 */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 90), 256, 128, 38912, &limit), 2);
	ck_assert_str_eq(limit, "registers");
	/* 255 regs round up to 8192 per warp: 8 warps per SM, one 256-thread block */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 90), 256, 255, 0, &limit), 1);
	/* over the opt-in maximum a block cannot launch at all */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 90), 256, 32, 233 * 1024, &limit), 0);
	/* tiny blocks: the 32-blocks-per-SM limit binds */
	ck_assert_int_eq(occupancy_blocks(rules_arch(&rules, 90), 32, 16, 0, &limit), 32);
	ck_assert_str_eq(limit, "blocks");
}
END_TEST

START_TEST(rules_from_a_directory_and_errors)
{
	char *err = NULL;
	struct rules r;
	load();
	ck_assert(rules_load(&r, SOURCE_DIR "/rules", &err));
	ck_assert_int_eq(r.narch, rules.narch);
	ck_assert(!rules_load(&r, "/nonexistent", &err));
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/arch.json"));
	free(err);
}
END_TEST

/* Rules in a folder of their own: arch.json as built in, variants.json as built in but for the
 * overlapped-launch keys: none when min_sm is 0, else these (evidence NULL: none quoted). */
static bool overlap_rules(bool overlap, int min_sm, const char *evidence, struct rules *r)
{
	char dir[] = "/tmp/pipefy-unit-rules-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *arch = xprintf("%s/arch.json", dir), *variants = xprintf("%s/variants.json", dir);
	FILE *f = fopen(arch, "w");
	fputs(rules_arch_json, f);
	fclose(f);
	json_t *v = json_loads(rules_variants_json, 0, NULL);
	json_t *said = json_object_get(v, "evidence");
	json_object_del(v, "overlap_launches");
	json_object_del(v, "overlap_launches_min_sm");
	json_object_del(said, "overlap_launches");
	if (min_sm) {
		json_object_set_new(v, "overlap_launches", json_boolean(overlap));
		json_object_set_new(v, "overlap_launches_min_sm", json_integer(min_sm));
	}
	if (evidence)
		json_object_set_new(said, "overlap_launches", json_string(evidence));
	ck_assert_int_eq(json_dump_file(v, variants, 0), 0);
	json_decref(v);
	char *err = NULL;
	bool ok = rules_load(r, dir, &err);
	free(err);
	unlink(arch);
	unlink(variants);
	rmdir(dir);
	free(arch);
	free(variants);
	return ok;
}

START_TEST(overlapped_launches_from_the_rules)
{
	load();
	/* the shipped rules: no kind of chain measured 2 % or more (issue 38), so auto keeps them */
	ck_assert(!rules.variants.overlap_launches);
	ck_assert_int_eq(rules.variants.overlap_min_sm, 90);
	ck_assert_ptr_nonnull(strstr(rules.variants.overlap_evidence, "H200"));
	struct rules r;
	/* without the keys (rules from before): never overlapped by auto, sm_90 still the floor */
	ck_assert(overlap_rules(false, 0, NULL, &r));
	ck_assert(!r.variants.overlap_launches);
	ck_assert_int_eq(r.variants.overlap_min_sm, 90);
	ck_assert_str_eq(r.variants.overlap_evidence, "no measurement in the rules");
	/* said to pay, with the measurement */
	ck_assert(overlap_rules(true, 90, "measured here", &r));
	ck_assert(r.variants.overlap_launches);
	ck_assert_str_eq(r.variants.overlap_evidence, "measured here");
	/* said to pay without a measurement to quote, or below sm_90 (no such launch there): off */
	ck_assert(overlap_rules(true, 90, NULL, &r));
	ck_assert(!r.variants.overlap_launches);
	ck_assert(overlap_rules(true, 80, "measured here", &r));
	ck_assert(!r.variants.overlap_launches);
	ck_assert_int_eq(r.variants.overlap_min_sm, 90);
}
END_TEST


Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("occupancy");
	tcase_add_test(tc, builtin_rules_cover_every_architecture);
	tcase_add_test(tc, sm80_hgemm_is_register_limited);
	tcase_add_test(tc, sm86_cliff_of_the_seed);
	tcase_add_test(tc, sm90_limits);
	tcase_add_test(tc, rules_from_a_directory_and_errors);
	tcase_add_test(tc, overlapped_launches_from_the_rules);
	suite_add_tcase(s, tc);
	return s;
}
