/*
 * check_public_api.c: libsilk-occ's API (include/silk-occ/silk-occ.h) at
 * its edges: names it must find and names it must refuse (with the "did
 * you mean" the programs give), every NULL, a size field too small, bad
 * kernel values, block sizes below 1, and the answers for both vendors
 * that calc gives (tests/lib/pkgconfig.sh compares the installed copy
 * with cuda_occupancy.h; this links the build tree's library).  And the
 * single call's table lookups (calc_plan.h) against the engine's own
 * occ_active_blocks over a grid of every built-in architecture, every
 * register count to past the allocation limit, block sizes that are and
 * are not whole warps, and shared memory that fits and does not.
 */
#include <silk-occ/silk-occ.h>

#include "occupancy.h"

#include <check.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static silk_occ_target *open_target(const char *name)
{
    silk_occ_target *t = NULL;
    ck_assert_int_eq(silk_occ_target_open(name, &t, NULL, 0), SILK_OCC_OK);
    ck_assert_ptr_nonnull(t);
    return t;
}

START_TEST(test_names)
{
    static const struct { const char *name, *arch, *product; int units, vendor; } cases[] = {
        {"sm_90", "sm_90", "", 0, SILK_OCC_NVIDIA},
        {"9.0", "sm_90", "", 0, SILK_OCC_NVIDIA},
        {"HOPPER", "sm_90", "", 0, SILK_OCC_NVIDIA},
        {"h100-sxm", "sm_90", "h100-sxm", 132, SILK_OCC_NVIDIA},
        {"gfx942", "gfx942", "", 0, SILK_OCC_AMD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        silk_occ_target *t = open_target(cases[i].name);
        ck_assert_str_eq(silk_occ_target_arch(t), cases[i].arch);
        ck_assert_str_eq(silk_occ_target_product(t), cases[i].product);
        ck_assert_int_eq(silk_occ_target_units(t), cases[i].units);
        ck_assert_int_eq(silk_occ_target_vendor(t), cases[i].vendor);
        silk_occ_target_close(t);
    }
    silk_occ_target *t = open_target("gfx942");
    ck_assert_int_eq(silk_occ_target_warp_size(t), 64);
    ck_assert_int_eq(silk_occ_target_max_threads(t), 1024);
    ck_assert_str_eq(silk_occ_limiter_name(t, 1), "vgprs");
    ck_assert_ptr_null(silk_occ_limiter_name(t, 6));
    silk_occ_target_close(t);
}
END_TEST

START_TEST(test_unknown_name)
{
    silk_occ_target *t = (silk_occ_target *)&t; /* must become NULL */
    char hint[32] = "junk";
    ck_assert_int_eq(silk_occ_target_open("sm_91", &t, hint, sizeof hint),
                     SILK_OCC_ERR_UNKNOWN_TARGET);
    ck_assert_ptr_null(t);
    ck_assert_str_eq(hint, "sm_90");
    ck_assert_int_eq(silk_occ_target_open("h100-sxn", &t, hint, sizeof hint),
                     SILK_OCC_ERR_UNKNOWN_TARGET);
    ck_assert_str_eq(hint, "h100-sxm");
    /* Nothing close: an empty suggestion, not the last one. */
    ck_assert_int_eq(silk_occ_target_open("zzzzzzzzzzzz", &t, hint, sizeof hint),
                     SILK_OCC_ERR_UNKNOWN_TARGET);
    ck_assert_str_eq(hint, "");
    /* A suggestion buffer of one byte, or none, is fine. */
    ck_assert_int_eq(silk_occ_target_open("sm_91", &t, hint, 1), SILK_OCC_ERR_UNKNOWN_TARGET);
    ck_assert_str_eq(hint, "");
    ck_assert_int_eq(silk_occ_target_open("sm_91", &t, NULL, 0), SILK_OCC_ERR_UNKNOWN_TARGET);
    ck_assert_str_eq(silk_occ_status_string(SILK_OCC_ERR_UNKNOWN_TARGET), "unknown target");
}
END_TEST

START_TEST(test_nulls)
{
    silk_occ_target *t = open_target("sm_80");
    silk_occ_kernel k;
    silk_occ_kernel_init(&k);
    silk_occ_result r = SILK_OCC_RESULT_INIT;
    silk_occ_step s = SILK_OCC_STEP_INIT;
    silk_occ_plan *p = NULL;
    int threads, groups;
    ck_assert_int_eq(silk_occ_target_open(NULL, &t, NULL, 0), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_target_open("sm_80", NULL, NULL, 0), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_active(NULL, &k, 256, 0, &r), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_active(t, NULL, 256, 0, &r), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, NULL), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_plan_new(NULL, &k, &p), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_plan_new(t, NULL, &p), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_plan_new(t, &k, NULL), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_plan_eval(NULL, 256, 0, &r), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_next_step(t, &k, 256, 0, NULL), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_next_step(NULL, &k, 256, 0, &s), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_best_block_size(t, &k, 0, 0, NULL, &groups), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_best_block_size(t, &k, 0, 0, &threads, NULL), SILK_OCC_ERR_INVALID);
    /* The accessors and the destructors take NULL. */
    ck_assert_str_eq(silk_occ_target_arch(NULL), "");
    ck_assert_int_eq(silk_occ_target_units(NULL), 0);
    ck_assert_ptr_null(silk_occ_limiter_name(NULL, 0));
    silk_occ_kernel_init(NULL);
    silk_occ_plan_free(NULL);
    silk_occ_target_close(NULL);
    silk_occ_target_close(t);
}
END_TEST

/* Each bad kernel value, alone, on both paths. */
START_TEST(test_bad_kernels)
{
    silk_occ_target *t = open_target("sm_90");
    silk_occ_result r = SILK_OCC_RESULT_INIT;
    silk_occ_plan *p = NULL;
    for (int i = 0; i < 11; i++) {
        silk_occ_kernel k;
        silk_occ_kernel_init(&k);
        switch (i) {
        case 0: k.size = 0; break;
        case 1: k.size = offsetof(silk_occ_kernel, lds); break;
        case 2: k.regs = -1; break;
        case 3: k.barriers = -1; break;
        case 4: k.smem_optin = 2; break;
        case 5: k.carveout = -2; break;
        case 6: k.carveout = 101; break;
        case 7: k.cluster[0] = 2; break; /* 2 x 0 x 0 */
        case 8: k.cluster[0] = k.cluster[1] = k.cluster[2] = 1025; break;
        case 9: k.vgprs = -1; break;
        case 10: k.sgprs = INT_MIN; break;
        }
        ck_assert_msg(silk_occ_active(t, &k, 256, 0, &r) == SILK_OCC_ERR_INVALID, "case %d", i);
        ck_assert_msg(silk_occ_plan_new(t, &k, &p) == SILK_OCC_ERR_INVALID, "plan case %d", i);
        ck_assert_ptr_null(p);
    }
    silk_occ_kernel k;
    silk_occ_kernel_init(&k);
    ck_assert_int_eq(silk_occ_active(t, &k, 0, 0, &r), SILK_OCC_ERR_INVALID);
    ck_assert_int_eq(silk_occ_active(t, &k, -32, 0, &r), SILK_OCC_ERR_INVALID);
    r.size = offsetof(silk_occ_result, clusters); /* a version without the last field */
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, &r), SILK_OCC_ERR_INVALID);
    silk_occ_target_close(t);
}
END_TEST

/* What does not fit is an answer, not an error: nothing resident, the
 * binding limit at 0. */
START_TEST(test_does_not_fit)
{
    silk_occ_target *t = open_target("sm_90");
    silk_occ_kernel k;
    silk_occ_kernel_init(&k);
    silk_occ_result r = SILK_OCC_RESULT_INIT;
    ck_assert_int_eq(silk_occ_active(t, &k, 1025, 0, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.groups, 0);
    ck_assert_uint_eq(r.limited_by, 1u << 0); /* warps */
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 300000, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.groups, 0);
    ck_assert_uint_eq(r.limited_by, 1u << 2); /* shared_memory */
    silk_occ_target_close(t);
    t = open_target("gfx942");
    ck_assert_int_eq(silk_occ_active(t, &k, 2048, 0, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.groups, 0);
    ck_assert_str_eq(silk_occ_limiter_name(t, __builtin_ctz(r.limited_by)), "workgroups");
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 65537, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.groups, 0);
    ck_assert_str_eq(silk_occ_limiter_name(t, __builtin_ctz(r.limited_by)), "lds");
    k.vgprs = 513; /* above the unified file's 512 */
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, &r), SILK_OCC_ERR_INVALID);
    silk_occ_target_close(t);
}
END_TEST

/* calc's answers: `silk-occ calc --gpu h100-sxm --threads 256 --regs 64
 * --smem 12288` and `--arch gfx942 --threads 256 --vgprs 128 --sgprs 48
 * --lds 16384`. */
START_TEST(test_answers)
{
    silk_occ_target *t = open_target("h100-sxm");
    silk_occ_kernel k;
    silk_occ_kernel_init(&k);
    k.regs = 64;
    k.static_smem = 12288;
    silk_occ_result r = SILK_OCC_RESULT_INIT, planned = SILK_OCC_RESULT_INIT;
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.groups, 4);
    ck_assert_int_eq(r.active, 32);
    ck_assert_int_eq(r.max_active, 64);
    ck_assert_double_eq(r.occupancy, 0.5);
    ck_assert_uint_eq(r.limited_by, 1u << 1); /* registers */
    ck_assert_int_eq(r.clusters, 0);
    silk_occ_plan *p;
    ck_assert_int_eq(silk_occ_plan_new(t, &k, &p), SILK_OCC_OK);
    ck_assert_int_eq(silk_occ_plan_eval(p, 256, 0, &planned), SILK_OCC_OK);
    ck_assert_int_eq(memcmp(&r, &planned, sizeof r), 0);
    ck_assert_int_eq(silk_occ_plan_eval(p, 512, 32768, &planned), SILK_OCC_OK);
    ck_assert_int_eq(planned.groups, 2);
    ck_assert_int_eq(silk_occ_plan_eval(p, 0, 0, &planned), SILK_OCC_ERR_INVALID);
    silk_occ_plan_free(p);
    silk_occ_step s = SILK_OCC_STEP_INIT;
    ck_assert_int_eq(silk_occ_next_step(t, &k, 256, 0, &s), SILK_OCC_OK);
    ck_assert_int_eq(s.regs_to_cut, 16);
    ck_assert_int_eq(s.regs_gained, 5);
    ck_assert_int_eq(s.regs_slack, 0);
    ck_assert_int_eq(s.smem_slack, 45056);
    ck_assert_int_eq(s.sgprs_to_cut, -1);
    int threads, groups;
    ck_assert_int_eq(silk_occ_best_block_size(t, &k, 0, 0, &threads, &groups), SILK_OCC_OK);
    ck_assert_int_eq(threads, 256);
    ck_assert_int_eq(groups, 4);
    k.cluster[0] = 2, k.cluster[1] = k.cluster[2] = 1;
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, &r), SILK_OCC_OK);
    ck_assert_int_gt(r.clusters, 0);
    k.cluster[0] = 32; /* above the non-portable 16 */
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.clusters, 0);
    silk_occ_target_close(t);

    t = open_target("gfx942");
    silk_occ_kernel_init(&k);
    k.vgprs = 128;
    k.sgprs = 48;
    k.lds = 16384;
    ck_assert_int_eq(silk_occ_active(t, &k, 256, 0, &r), SILK_OCC_OK);
    ck_assert_int_eq(r.groups, 4);
    ck_assert_int_eq(r.active, 4);
    ck_assert_int_eq(r.max_active, 8);
    ck_assert_uint_eq(r.limited_by, (1u << 1) | (1u << 3)); /* vgprs, lds */
    ck_assert_int_eq(silk_occ_plan_new(t, &k, &p), SILK_OCC_OK);
    ck_assert_int_eq(silk_occ_plan_eval(p, 256, 0, &planned), SILK_OCC_OK);
    ck_assert_int_eq(memcmp(&r, &planned, sizeof r), 0);
    silk_occ_plan_free(p);
    /* calc: "no single resource cut gains a wave per SIMD", "0 more VGPRs,
     * 0 B more LDS, before losing a wave". */
    s = (silk_occ_step)SILK_OCC_STEP_INIT;
    ck_assert_int_eq(silk_occ_next_step(t, &k, 256, 0, &s), SILK_OCC_OK);
    ck_assert_int_eq(s.regs_to_cut, -1);
    ck_assert_int_eq(s.smem_to_cut, -1);
    ck_assert_int_eq(s.regs_slack, 0);
    ck_assert_int_eq(s.smem_slack, 0);
    silk_occ_target_close(t);
}
END_TEST

/* Both API paths against the engine, field by field. */
static void compare_with_engine(const ArchLimits *a, const silk_occ_target *t,
                                const silk_occ_kernel *k, int threads, uint64_t dyn)
{
    KernelResources r = occ_kernel_defaults(a, k->regs, k->static_smem, true);
    r.barriers = k->barriers;
    OccResult want;
    ck_assert_int_eq(occ_active_blocks(a, &r, threads, dyn, &want), OCC_OK);
    silk_occ_result got = SILK_OCC_RESULT_INIT;
    ck_assert_int_eq(silk_occ_active(t, k, threads, dyn, &got), SILK_OCC_OK);
    ck_assert_msg(got.groups == want.active_blocks && got.active == want.active_warps &&
                      got.max_active == want.max_warps && got.limited_by == want.limited_by &&
                      got.occupancy == occ_occupancy(&want),
                  "sm_%d%d regs=%d static=%llu threads=%d dyn=%llu: %d vs %d CTAs", a->major,
                  a->minor, k->regs, (unsigned long long)k->static_smem, threads,
                  (unsigned long long)dyn, got.groups, want.active_blocks);
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        ck_assert_int_eq(got.limit[i], want.limit[i]);
}

START_TEST(test_tables_equal_engine)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    static const uint64_t smem[] = {0, 1, 4096, 40000, 100000};
    long compared = 0;
    for (size_t i = 0; i < table.n_archs; i++) {
        const ArchLimits *a = &table.archs[i];
        char name[16];
        silk_occ_target *t = open_target(arch_sm_name(a, name, sizeof name));
        for (int regs = 0; regs <= a->reg_alloc_limit_per_thread + 2; regs += 1 + regs / 64)
            for (size_t s = 0; s < sizeof smem / sizeof smem[0]; s++)
                for (int threads = 1; threads <= a->max_threads_per_block + 40; threads += 37) {
                    silk_occ_kernel k;
                    silk_occ_kernel_init(&k);
                    k.regs = regs;
                    k.static_smem = smem[s] / 2;
                    k.barriers = threads % 3;
                    compare_with_engine(a, t, &k, threads, smem[s] - smem[s] / 2);
                    compared++;
                }
        silk_occ_target_close(t);
    }
    ck_assert_int_gt(compared, 100000);
    arch_table_free(&table);
}
END_TEST

START_TEST(test_version)
{
    ck_assert_int_eq(silk_occ_api_version(), SILK_OCC_API_VERSION);
    ck_assert_str_eq(silk_occ_version(), PACKAGE_VERSION);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("public_api");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_unknown_name);
    tcase_add_test(tc, test_nulls);
    tcase_add_test(tc, test_bad_kernels);
    tcase_add_test(tc, test_does_not_fit);
    tcase_add_test(tc, test_answers);
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_tables_equal_engine);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
