/*
 * check_amd_occupancy.c: unit tests of the AMD occupancy engine (amd.h).
 *
 * Each expected value was worked out by hand from the rules in
 * occupancy/amd_calc.c (LLVM 19's) and the rows of arch-tables/amd-targets.csv;
 * the comment beside each case shows the arithmetic.  Cases whose kernel
 * the LLVM-IR oracle also compiled say so ("llc-19: N").  Notation: wpg =
 * waves per workgroup, comb = VGPRs and AGPRs combined, alloc = comb at
 * the granule.
 */
#include "amd.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static AmdTable table;

static void load_tables(void)
{
    OccError err;
    ck_assert_msg(amd_table_load_builtin(&table, &err) == 0, "%s", err.message);
}

static void free_tables(void) { amd_table_free(&table); }

static const AmdTarget *target(const char *gfx)
{
    const AmdTarget *t = amd_table_find(&table, gfx);
    ck_assert_msg(t != NULL, "no target %s", gfx);
    return t;
}

enum { W = 1u << AMD_LIMITER_WAVES, V = 1u << AMD_LIMITER_VGPRS, S = 1u << AMD_LIMITER_SGPRS,
       L = 1u << AMD_LIMITER_LDS, G = 1u << AMD_LIMITER_WORKGROUPS,
       E = 1u << AMD_LIMITER_WAVES_PER_EU, NONE = INT_MAX };

typedef struct Case {
    const char *gfx;
    int threads;
    AmdKernel kernel;
    int waves;
    unsigned limited_by;
    int limit[AMD_N_LIMITERS];
    int workgroups, alloc_vgprs, waves_per_eu_max;
} Case;

static const Case cases[] = {
    /* comb 64+8=72, 512/72=7; SGPR 36<=80: 10; LDS 65536/4096=16 groups x4
     * waves /4 SIMDs = 16 -> 8; slots min(32/4, 16)=8 -> 8; wg min(7*4/4,16,8) = 7.
     * llc-19: 7. */
    {"gfx90a", 256, {64, 8, 36, 4096, 256, 0, 0}, 7, V, {8, 7, 10, 8, 8, NONE}, 7, 72, 8},
    /* AGPRs start at the VGPRs aligned to 4: 62 -> 64, +1 = 65 -> 72: 512/72 = 7
     * (62+1 = 63 would give 64: 8).  llc-19: 7. */
    {"gfx942", 256, {62, 1, 20, 0, 256, 0, 0}, 7, V, {8, 7, 10, NONE, 8, NONE}, 7, 72, 8},
    /* separate files: max(64, 8)=64, 256/64 = 4.  llc-19: 4. */
    {"gfx908", 256, {64, 8, 36, 4096, 256, 0, 0}, 4, V, {10, 4, 10, 10, 10, NONE}, 4, 64, 10},
    /* wpg 8; VGPR 30 -> 48: 1536/48 = 32 -> 16; LDS 131072/20000 = 6 x 8 / 4 = 12;
     * slots min(64/8, 32) = 8 -> 16; wg min(12*4/8, 6, 8) = 6.  llc-19: 12. */
    {"gfx1100", 256, {30, 0, 10, 20000, 256, 0, 0}, 12, L, {16, 16, NONE, 12, 16, NONE}, 6, 48, 16},
    /* wpg 6: slots 64/6 = 10 -> 60/4 = 15.  llc-19: 15. */
    {"gfx1100", 192, {30, 0, 10, 16, 192, 0, 0}, 15, G, {16, 16, NONE, 16, 15, NONE}, 10, 48, 16},
    /* gfx90a at 192: slots 32/3 = 10 -> ceil(30/4) = 8.  llc-19: 8. */
    {"gfx90a", 192, {30, 0, 14, 16, 192, 0, 0}, 8, W | V | L | G, {8, 8, 10, 8, 8, NONE}, 10, 32, 8},
    /* SGPRs 101 > 100: 7 on gfx9 */
    {"gfx908", 64, {8, 0, 101, 0, 64, 0, 0}, 7, S, {10, 10, 7, NONE, 10, NONE}, 28, 8, 10},
    /* waves-per-eu 9,9: least VGPRs 1+min(28-4, 24) = 25 -> 28: 9 waves; the kernel's
     * 30 -> 32: 8.  llc-19: 8. */
    {"gfx908", 64, {30, 0, 14, 16, 64, 9, 9}, 8, V, {10, 8, 10, 10, 10, 9}, 32, 32, 9},
    /* waves-per-eu 4,4 on gfx1100: below the 5 waves 256 VGPRs allow (264: 1536/264),
     * so LLVM takes 5: 1+min(288-24, 240) = 241 -> 264 -> 5.  llc-19: 5. */
    {"gfx1100", 64, {30, 0, 10, 16, 64, 4, 4}, 5, E, {16, 16, NONE, 16, 16, 5}, 10, 48, 4},
    /* 1024 work-items: implied minimum ceil(16/4) = 4 > 2, the attribute is refused;
     * slots min(40/16, 16) = 2 -> 32/4 = 8.  llc-19: 8. */
    {"gfx908", 1024, {8, 0, 14, 16, 1024, 2, 9}, 8, G, {10, 10, 10, 10, 8, NONE}, 2, 8, 10},
    /* waves-per-eu with a minimum only keeps the maximum: no limit.  llc-19: 8. */
    {"gfx90a", 64, {30, 0, 14, 16, 64, 4, 0}, 8, W | V | L | G, {8, 8, 10, 8, 8, NONE}, 32, 32, 8},
    /* gfx1201: 128 -> 144: 1536/144 = 10 (1.5x file).  llc-19: 10. */
    {"gfx1201", 64, {128, 0, 10, 16, 64, 0, 0}, 10, V, {16, 10, NONE, 16, 16, NONE}, 20, 144, 16},
    /* gfx1030: 128 -> 128: 1024/128 = 8.  llc-19: 8. */
    {"gfx1030", 64, {128, 0, 10, 16, 64, 0, 0}, 8, V, {16, 8, NONE, 16, 16, NONE}, 16, 128, 16},
    /* +wavefrontsize64: 100 -> 108 of 768: 7 (wave32: 120 of 1536, 12); wpg 4, slots
     * min(64/4, 32) = 16 -> 16; wg 7*4/4 = 7.  llc-19: 7. */
    {"gfx1100+wave64", 256, {100, 0, 10, 0, 256, 0, 0}, 7, V, {16, 7, NONE, NONE, 16, NONE}, 7, 108, 16},
    /* +cumode: a CU of 2 SIMDs, 64 KiB: 65536/40000 = 1 group x 8 waves / 2 = 4; slots
     * min(32/8, 16) = 4 -> 16; wg min(4*2/8, 1, 4) = 1.  llc-19: 4 (a WGP: 6). */
    {"gfx1100+cumode", 256, {30, 0, 10, 40000, 256, 0, 0}, 4, L, {16, 16, NONE, 4, 16, NONE}, 1, 48, 16},
    /* waves-per-eu 5,1 is ignored (min above max): 100 -> 104: 512/104 = 4.  llc-19: 4. */
    {"gfx942", 256, {100, 0, 16, 0, 256, 5, 1}, 4, V, {8, 4, 10, NONE, 8, NONE}, 4, 104, 8},
};

typedef struct WavesPerEuCase {
    const char *gfx;
    AmdKernel kernel;
    AmdWavesPerEu status;
    int implied_min;
} WavesPerEuCase;

/* AMDGPUSubtarget::getWavesPerEU's reasons to keep the default. */
static const WavesPerEuCase wpe_cases[] = {
    {"gfx942", {8, 0, 8, 0, 256, 0, 0}, AMD_WPE_NOT_GIVEN, 1},
    {"gfx942", {8, 0, 8, 0, 256, 2, 4}, AMD_WPE_TAKEN, 1},
    {"gfx942", {8, 0, 8, 0, 256, 5, 1}, AMD_WPE_MIN_ABOVE_MAX, 1},
    {"gfx942", {8, 0, 8, 0, 256, 9, 0}, AMD_WPE_MIN_ABOVE_MAX, 1}, /* above the default 8 */
    {"gfx942", {8, 0, 8, 0, 256, 1, 9}, AMD_WPE_MAX_ABOVE_SLOTS, 1},
    {"gfx942", {8, 0, 8, 0, 1024, 1, 3}, AMD_WPE_MIN_BELOW_WORKGROUP, 4},
    {"gfx1100+wave64", {8, 0, 8, 0, 1024, 3, 8}, AMD_WPE_MIN_BELOW_WORKGROUP, 4},
    {"gfx1100", {8, 0, 8, 0, 1024, 8, 16}, AMD_WPE_TAKEN, 8}, /* 32 waves of 32 over 4 SIMDs */
};

START_TEST(test_waves_per_eu)
{
    const WavesPerEuCase *c = &wpe_cases[_i];
    int implied_min;
    ck_assert_int_eq(amd_waves_per_eu(target(c->gfx), &c->kernel, &implied_min), c->status);
    ck_assert_int_eq(implied_min, c->implied_min);
}
END_TEST

START_TEST(test_cases)
{
    const Case *c = &cases[_i];
    AmdResult r;
    ck_assert_int_eq(amd_occupancy_calc(target(c->gfx), &c->kernel, c->threads, &r), OCC_OK);
    ck_assert_int_eq(r.waves_per_simd, c->waves);
    ck_assert_uint_eq(r.limited_by, c->limited_by);
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        ck_assert_msg(r.limit[i] == c->limit[i], "case %d limit %s: %d, expected %d", _i,
                      amd_limiter_name((AmdLimiter)i), r.limit[i], c->limit[i]);
    ck_assert_int_eq(r.workgroups_per_unit, c->workgroups);
    ck_assert_int_eq(r.allocated_vgprs, c->alloc_vgprs);
    ck_assert_int_eq(r.waves_per_eu_max, c->waves_per_eu_max);
}
END_TEST

typedef struct Invalid {
    const char *gfx;
    int threads;
    AmdKernel kernel;
    OccStatus status;
} Invalid;

static const Invalid invalid_cases[] = {
    {"gfx942", 1025, {8, 0, 8, 0, 0, 0, 0}, OCC_ERR_INVALID_INPUT},   /* above 1024 */
    {"gfx942", 512, {8, 0, 8, 0, 256, 0, 0}, OCC_ERR_INVALID_INPUT},  /* above the attribute */
    {"gfx1100", 64, {8, 4, 8, 0, 0, 0, 0}, OCC_ERR_INVALID_INPUT},    /* no AGPRs on RDNA */
    {"gfx90a", 64, {256, 257, 8, 0, 0, 0, 0}, OCC_ERR_INVALID_INPUT}, /* 513 > 512 */
    {"gfx90a", 64, {8, 0, 103, 0, 0, 0, 0}, OCC_ERR_INVALID_INPUT},   /* 103 > 102 SGPRs */
    {"gfx942", 64, {8, 0, 8, 65537, 0, 0, 0}, OCC_ERR_DOES_NOT_FIT},  /* LDS above 64 KiB */
};

START_TEST(test_invalid)
{
    const Invalid *c = &invalid_cases[_i];
    AmdResult r;
    ck_assert_int_eq(amd_occupancy_calc(target(c->gfx), &c->kernel, c->threads, &r), c->status);
}
END_TEST

typedef struct Step {
    const char *gfx;
    int threads;
    AmdKernel kernel;
    AmdNextStep want;
} Step;

static const Step step_cases[] = {
    /* 7 waves at comb 72: 64 gives 8 (cut 8); 73 -> 80: 6, so no slack; SGPRs do not
     * bind; LDS for 7 waves: 7 groups, 65536/7 = 9362: slack 5266. */
    {"gfx90a", 256, {64, 8, 36, 4096, 256, 0, 0}, {8, 8, 0, -1, -1, -1, -1, 5266}},
    /* LDS-bound 12: 7 groups (14 waves) at 131072/7 = 18724: cut 1276; VGPRs may grow
     * to 120 (1536/120 = 12) from 30: slack 90. */
    {"gfx1100", 256, {30, 0, 10, 20000, 256, 0, 0}, {-1, -1, 90, -1, -1, 1276, 14, 1845}},
    /* SGPR-bound 7 at 101: 100 gives 8 (cut 1); VGPRs for 7: 256/7 -> 36, slack 28;
     * LDS for 7 waves of one-wave workgroups: 25 groups, 65536/25 = 2621. */
    {"gfx908", 64, {8, 0, 101, 0, 64, 0, 0}, {-1, -1, 28, 1, 8, -1, -1, 2621}},
    /* No workgroup of 1024 (16 waves, 4 per SIMD) fits at 201 -> 208 (2 waves): the
     * step is to 128 (4 waves, one workgroup), not to 168 (3 waves, still none). */
    {"gfx942", 1024, {201, 0, 0, 0, 1024, 0, 0}, {73, 4, 55, -1, -1, -1, -1, 65536}},
};

START_TEST(test_next_step)
{
    const Step *c = &step_cases[_i];
    AmdNextStep s;
    ck_assert_int_eq(amd_next_step(target(c->gfx), &c->kernel, c->threads, &s), OCC_OK);
    ck_assert_int_eq(s.vgprs_to_cut, c->want.vgprs_to_cut);
    ck_assert_int_eq(s.vgprs_gained_waves, c->want.vgprs_gained_waves);
    ck_assert_int_eq(s.vgprs_slack, c->want.vgprs_slack);
    ck_assert_int_eq(s.sgprs_to_cut, c->want.sgprs_to_cut);
    ck_assert_int_eq(s.sgprs_gained_waves, c->want.sgprs_gained_waves);
    ck_assert_int_eq(s.lds_to_cut, c->want.lds_to_cut);
    ck_assert_int_eq(s.lds_gained_waves, c->want.lds_gained_waves);
    ck_assert_int_eq(s.lds_slack, c->want.lds_slack);
}
END_TEST

START_TEST(test_lookup)
{
    ck_assert_str_eq(amd_table_find(&table, "CDNA3")->gfx, "gfx942");
    const AmdProduct *p = amd_table_find_product(&table, "RX-7900-XTX");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(amd_product_units(amd_table_product_target(&table, p), p), 48);
    p = amd_table_find_product(&table, "mi300x");
    ck_assert_int_eq(amd_product_units(amd_table_product_target(&table, p), p), 304);
    ck_assert_ptr_null(amd_table_find(&table, "sm_90"));
}
END_TEST

typedef struct BadTable {
    const char *text, *error;
} BadTable;

static const BadTable bad_tables[] = {
    {"gfx,wave_size\ngfx9000,7\n", "t.csv:2: field 'wave_size': 7 is outside 16..64"},
    {"gfx,sgpr_waves\ngfx90a,80:10;70:9\n",
     "t.csv:2: field 'sgpr_waves': steps must rise in SGPRs and fall in waves"},
    {"gfx,agpr_file\ngfx90a,shared\n",
     "t.csv:2: field 'agpr_file': 'shared' is not none, separate or unified"},
    {"gfx,family\ngfx90a,A\ngfx90a,B\n",
     "t.csv:3: field 'gfx': 'gfx90a' is given twice in the file (lines 2 and 3)"},
    {"gfx,wave_size\ngfx2000,32\n",
     "t.csv:2: field 'cus_per_unit': missing (a new row must give every column)"},
    {"id,name,gfx,compute_units,memory_gib\nnew-gpu,New,gfx77,10,1\n", "t.csv:2: field 'gfx': 'gfx77' is not in the AMD target table"},
    {"gfx,colour\n", "t.csv:1: field 'colour': not a column of the AMD target table"},
    /* the faults every table shares, in the NVIDIA tables' words (check_arch.c) */
    {"gfx,wave_size\ngfx90a,32,5\n", "t.csv:2: field 'wave_size': the row has 3 fields, the header 2"},
    {"gfx,wave_size\ngfx90a,\"32\n",
     "t.csv:2: field 'wave_size': malformed CSV: a quoted field that never closes"},
    {"gfx,wave_size\ngfx90a,3\"2\n",
     "t.csv:2: field 'wave_size': malformed CSV: a quote inside a field, or text after a closing quote"},
    {"gfx,family\ngfx90a,0123456789012345678901234567890123456789012345678901234567890123\n",
     "t.csv:2: field 'family': longer than 63 characters"},
    {"gfx,family\ngfx90a,\"a\nb\"\n", "t.csv:2: field 'family': holds a control character"},
    {"wave_size\n32\n", "t.csv:1: field 'gfx': the header has no 'gfx' column"},
    {"", "t.csv:1: the file has no header row"},
};

START_TEST(test_bad_tables)
{
    const BadTable *c = &bad_tables[_i];
    OccError err;
    size_t before = table.n_targets;
    ck_assert_int_eq(amd_table_load_text(&table, c->text, strlen(c->text), "t.csv", &err), -1);
    ck_assert_str_eq(err.message, c->error);
    ck_assert_uint_eq(table.n_targets, before);
}
END_TEST

START_TEST(test_override)
{
    const char *text = "# a faster part\ngfx,max_waves_per_simd\ngfx90a,10\n";
    OccError err;
    ck_assert_int_eq(amd_table_load_text(&table, text, strlen(text), "o.csv", &err), 0);
    ck_assert_int_eq(target("gfx90a")->max_waves_per_simd, 10);
    ck_assert_int_eq(target("gfx90a")->vgprs_per_simd, 512);
}
END_TEST

static Suite *amd_suite(void)
{
    Suite *s = suite_create("amd_occupancy");
    TCase *tc = tcase_create("engine");
    tcase_add_checked_fixture(tc, load_tables, free_tables);
    tcase_add_loop_test(tc, test_cases, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_loop_test(tc, test_invalid, 0, (int)(sizeof invalid_cases / sizeof *invalid_cases));
    tcase_add_loop_test(tc, test_next_step, 0, (int)(sizeof step_cases / sizeof *step_cases));
    tcase_add_loop_test(tc, test_waves_per_eu, 0, (int)(sizeof wpe_cases / sizeof *wpe_cases));
    tcase_add_test(tc, test_lookup);
    tcase_add_loop_test(tc, test_bad_tables, 0, (int)(sizeof bad_tables / sizeof *bad_tables));
    tcase_add_test(tc, test_override);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(amd_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
