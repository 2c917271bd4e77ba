/*
 * check_prune.c: unit tests of occupancy/prune.c, occ_prune_config: each
 * reason a configuration is dropped, at the limit and one past it, on
 * sm_80, sm_90 and sm_120 of the built-in tables; the order the checks
 * come in when a configuration breaks several limits; and a feasible
 * configuration's CTAs per SM equal to occ_active_blocks' for the same
 * kernel (the verdict is the engine's, not a second calculation).
 */
#include <config.h>

#include "occupancy.h"

#include <check.h>
#include <stdlib.h>

static ArchTable table;

static const ArchLimits *arch(const char *name)
{
    const ArchLimits *a = arch_table_find(&table, name);
    ck_assert_msg(a != NULL, "no %s in the built-in tables", name);
    return a;
}

typedef struct PruneCase {
    const char *arch;
    OccPruneConfig config;
    OccPruneReason want;
    int blocks; /* CTAs per SM when feasible */
} PruneCase;

enum { K = 1024 };

static const PruneCase cases[] = {
    /* The block's size: 0, the limit, one past it. */
    {"sm_90", {0, 32, 0, 0, 0}, OCC_PRUNE_EMPTY_BLOCK, 0},
    {"sm_90", {1024, 32, 0, 0, 0}, OCC_PRUNE_FEASIBLE, 2},
    {"sm_90", {1025, 32, 0, 0, 0}, OCC_PRUNE_BLOCK_TOO_LARGE, 0},
    /* Registers: 255 is every table's maximum per thread. */
    {"sm_80", {32, 255, 0, 0, 0}, OCC_PRUNE_FEASIBLE, 8},
    {"sm_80", {32, 256, 0, 0, 0}, OCC_PRUNE_REGS_OVER_MAX, 0},
    /* Static shared memory: 48 KiB, then the opt-in limit for the sum
     * (227 KiB on sm_90, 163 KiB on sm_80, 99 KiB on sm_120). */
    {"sm_90", {128, 32, 48 * K, 0, 0}, OCC_PRUNE_FEASIBLE, 4},
    {"sm_90", {128, 32, 48 * K + 1, 0, 0}, OCC_PRUNE_STATIC_SMEM_OVER_LIMIT, 0},
    {"sm_90", {128, 32, 0, 227 * K, 0}, OCC_PRUNE_FEASIBLE, 1},
    {"sm_90", {128, 32, 1 * K, 226 * K + 1, 0}, OCC_PRUNE_SMEM_OVER_OPTIN, 0},
    {"sm_80", {128, 32, 0, 163 * K + 1, 0}, OCC_PRUNE_SMEM_OVER_OPTIN, 0},
    {"sm_120", {128, 32, 0, 99 * K, 0}, OCC_PRUNE_FEASIBLE, 1},
    {"sm_120", {128, 32, 0, 99 * K + 1, 0}, OCC_PRUNE_SMEM_OVER_OPTIN, 0},
    /* A dynamic size past 2^32 is a verdict, not an overflow. */
    {"sm_90", {128, 32, 0, UINT64_C(1) << 40, 0}, OCC_PRUNE_SMEM_OVER_OPTIN, 0},
    /* Clusters: none on sm_80; 16 nonportable on sm_90, 8 on sm_120. */
    {"sm_80", {128, 32, 0, 0, 2}, OCC_PRUNE_CLUSTER_NOT_RESIDENT, 0},
    {"sm_80", {128, 32, 0, 0, 1}, OCC_PRUNE_FEASIBLE, 16},
    {"sm_90", {128, 32, 0, 0, 16}, OCC_PRUNE_FEASIBLE, 16},
    {"sm_90", {128, 32, 0, 0, 17}, OCC_PRUNE_CLUSTER_NOT_RESIDENT, 0},
    {"sm_120", {128, 32, 0, 0, 9}, OCC_PRUNE_CLUSTER_NOT_RESIDENT, 0},
    /* Within every per-block limit, yet no CTA fits an SM: 1024 x 255
     * registers are four times an SM's 65536; in a cluster, the cluster's. */
    {"sm_90", {1024, 255, 0, 0, 0}, OCC_PRUNE_NO_CTA_RESIDENT, 0},
    {"sm_90", {1024, 255, 0, 0, 2}, OCC_PRUNE_CLUSTER_NOT_RESIDENT, 0},
    {"sm_90", {1024, 64, 0, 0, 0}, OCC_PRUNE_FEASIBLE, 1},
    /* Several limits broken: the first in the order a launch meets them. */
    {"sm_90", {2048, 300, 64 * K, 300 * K, 32}, OCC_PRUNE_BLOCK_TOO_LARGE, 0},
    {"sm_90", {256, 300, 64 * K, 300 * K, 32}, OCC_PRUNE_REGS_OVER_MAX, 0},
    {"sm_90", {256, 32, 64 * K, 300 * K, 32}, OCC_PRUNE_STATIC_SMEM_OVER_LIMIT, 0},
    {"sm_90", {256, 32, 0, 300 * K, 32}, OCC_PRUNE_SMEM_OVER_OPTIN, 0},
};

START_TEST(test_verdicts)
{
    const PruneCase *c = &cases[_i];
    const ArchLimits *a = arch(c->arch);
    OccPruneVerdict v;
    ck_assert_int_eq(occ_prune_config(a, &c->config, &v), OCC_OK);
    ck_assert_msg(v.reason == c->want, "case %d on %s: %s, want %s", _i, c->arch,
                  occ_prune_reason_name(v.reason), occ_prune_reason_name(c->want));
    if (c->want != OCC_PRUNE_FEASIBLE)
        return;
    ck_assert_int_eq(v.figures.groups, c->blocks);
    /* The engine's own answer for the same kernel. */
    KernelResources k = occ_kernel_defaults(a, (int)c->config.regs, c->config.static_smem, true);
    OccResult r;
    ck_assert_int_eq(occ_active_blocks(a, &k, (int)c->config.threads, c->config.dynamic_smem, &r), OCC_OK);
    ck_assert_int_eq(r.active_blocks, v.result.active_blocks);
}
END_TEST

START_TEST(test_reason_names)
{
    static const char *const names[] = {"feasible", "empty_block", "block_too_large",
                                        "regs_over_max", "static_smem_over_limit",
                                        "smem_over_optin", "cluster_not_resident",
                                        "no_cta_resident"};
    for (int i = 0; i < OCC_PRUNE_N_REASONS; i++)
        ck_assert_str_eq(occ_prune_reason_name((OccPruneReason)i), names[i]);
    ck_assert_str_eq(occ_prune_reason_name(OCC_PRUNE_N_REASONS), "unknown");
}
END_TEST

static void setup(void)
{
    OccError err;
    ck_assert_msg(arch_table_load_builtin(&table, &err) == 0, "%s", err.message);
}

static void teardown(void)
{
    arch_table_free(&table);
}

int main(void)
{
    Suite *s = suite_create("prune");
    TCase *tc = tcase_create("prune");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_verdicts, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, test_reason_names);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
