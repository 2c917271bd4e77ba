/*
 * check_occ_warn.c: unit tests of the occupancy warnings (compiler/occ_warn.c)
 * on figures written by hand, so that what needs a particular ptxas result
 * is tested without one: the register cap -Wocc-limit suggests only when
 * ptxas at that cap did not spill, the caps occ_warn_register_caps asks to
 * measure, the "(estimated)" mark, and -Wno-... turning each off.  The
 * shell test tests/cli/silkc_warnings.sh runs every warning end to end.
 */
#include <config.h>

#include "compile.h"
#include "ir.h"
#include "lower.h"
#include "occ_warn.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One 256-thread kernel, lowered; its diagnostics go to a string. */
typedef struct Fixture {
    Compilation c;
    IrModule *m;
    char *text;
    size_t len;
    FILE *out;
} Fixture;

static const char SOURCE[] = "@launch(256)\n"
                             "kernel k(out: tensor<f32>[256]) {\n"
                             "  out[ctx.tid] = 1.0\n"
                             "}\n";

static void fixture_init(Fixture *fx, const char *option)
{
    memset(fx, 0, sizeof *fx);
    fx->out = open_memstream(&fx->text, &fx->len);
    ck_assert_ptr_nonnull(fx->out);
    compile_init(&fx->c, fx->out);
    fx->c.options.nostd = true;
    if (option)
        ck_assert(diag_option(&fx->c.diag, option, NULL));
    ck_assert_ptr_nonnull(compile_add_text(&fx->c, "k.silk", SOURCE, strlen(SOURCE), PKG_ROOT));
    ck_assert_int_eq(compile_check(&fx->c), 0);
    fx->m = lower_module(&fx->c, fx->c.arena);
    ck_assert_ptr_nonnull(fx->m);
    ck_assert_uint_eq(fx->m->n_funcs, 1);
}

/* What was reported, NUL-terminated (owned by the fixture). */
static const char *fixture_output(Fixture *fx)
{
    fflush(fx->out);
    return fx->text ? fx->text : "";
}

static void fixture_free(Fixture *fx)
{
    compile_free(&fx->c);
    fclose(fx->out);
    free(fx->text);
}

static UsageReport report_of(KernelUsage *u)
{
    return (UsageReport){.arch = "sm_90", .kernels = u, .n_kernels = 1};
}

START_TEST(test_cap_suggested_when_ptxas_fits_it)
{
    Fixture fx;
    fixture_init(&fx, NULL);
    KernelUsage now = {.name = "k", .registers = 40, .barriers = 0};
    KernelUsage capped = {.name = "k", .registers = 32, .barriers = 0};
    UsageReport reports = report_of(&now), at_caps = report_of(&capped);
    int caps[1];
    ck_assert(occ_warn_register_caps(&fx.c, fx.m, &reports, caps));
    ck_assert_int_eq(caps[0], 32); /* 40 registers: 6 CTAs of 256; 32: 8 */
    occ_warn_module(&fx.c, fx.m, &reports, &at_caps, 1);
    ck_assert_str_eq(fixture_output(&fx),
                     "k.silk:1:1: warning: on sm_90: max_regs 32 would give 8 CTAs/SM of 256 "
                     "threads (100% occupancy) instead of 6 (75%): ptxas fits 'k' in 32 registers "
                     "at that cap without spilling (40 now) [-Wocc-limit]\n"
                     "    1 | @launch(256)\n"
                     "      | ^~~~~~~~~~~~\n");
    fixture_free(&fx);
}
END_TEST

START_TEST(test_no_cap_when_ptxas_spills_at_it)
{
    Fixture fx;
    fixture_init(&fx, NULL);
    KernelUsage now = {.name = "k", .registers = 40, .barriers = 0};
    KernelUsage capped = {.name = "k", .registers = 32, .spill_stores = 8, .spill_loads = 8};
    UsageReport reports = report_of(&now), at_caps = report_of(&capped);
    occ_warn_module(&fx.c, fx.m, &reports, &at_caps, 1);
    occ_warn_module(&fx.c, fx.m, &reports, NULL, 1); /* nor when unmeasured */
    ck_assert_str_eq(fixture_output(&fx), "");
    fixture_free(&fx);
}
END_TEST

START_TEST(test_estimate_asks_no_cap_and_is_marked)
{
    Fixture fx;
    fixture_init(&fx, NULL);
    KernelUsage now = {.name = "k", .registers = 40, .spill_stores = 4, .spill_loads = 4,
                       .estimated = true};
    UsageReport reports = report_of(&now);
    int caps[1] = {-1};
    ck_assert(!occ_warn_register_caps(&fx.c, fx.m, &reports, caps));
    ck_assert_int_eq(caps[0], 0);
    occ_warn_module(&fx.c, fx.m, &reports, NULL, 1);
    ck_assert_ptr_nonnull(strstr(fixture_output(&fx),
                                 "warning: on sm_90 (estimated): 'k' spills registers to local "
                                 "memory: 4 bytes stored and 4 bytes loaded per thread, at 40 "
                                 "registers [-Wspill]\n"));
    fixture_free(&fx);
}
END_TEST

START_TEST(test_wno_occ_limit_asks_no_cap)
{
    Fixture fx;
    fixture_init(&fx, "-Wno-occ-limit");
    KernelUsage now = {.name = "k", .registers = 40, .barriers = 0};
    UsageReport reports = report_of(&now);
    int caps[1];
    ck_assert(!occ_warn_register_caps(&fx.c, fx.m, &reports, caps));
    fixture_free(&fx);
}
END_TEST

START_TEST(test_low_occupancy_and_limiter)
{
    Fixture fx;
    fixture_init(&fx, NULL);
    /* 200 registers x 256 threads: one CTA, 8 of 64 warps */
    KernelUsage now = {.name = "k", .registers = 200, .barriers = 0};
    UsageReport reports = report_of(&now);
    occ_warn_module(&fx.c, fx.m, &reports, NULL, 1);
    ck_assert_ptr_nonnull(strstr(fixture_output(&fx),
                                 "k.silk:1:1: warning: on sm_90: theoretical occupancy of 'k' is "
                                 "12.5% at 256 threads per CTA (1 CTA per SM, 8 of 64 warps; "
                                 "limited by registers (200 per thread)), below 25% [-Wocc-low]\n"));
    fixture_free(&fx);
}
END_TEST

START_TEST(test_every_warning_off)
{
    Fixture fx;
    fixture_init(&fx, "-Wno-all");
    ck_assert(!occ_warn_enabled(&fx.c.diag));
    KernelUsage now = {.name = "k", .registers = 200, .spill_stores = 4, .spill_loads = 4};
    UsageReport reports = report_of(&now);
    occ_warn_module(&fx.c, fx.m, &reports, NULL, 1);
    ck_assert_str_eq(fixture_output(&fx), "");
    fixture_free(&fx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("occ_warn");
    TCase *tc = tcase_create("occ_warn");
    tcase_add_test(tc, test_cap_suggested_when_ptxas_fits_it);
    tcase_add_test(tc, test_no_cap_when_ptxas_spills_at_it);
    tcase_add_test(tc, test_estimate_asks_no_cap_and_is_marked);
    tcase_add_test(tc, test_wno_occ_limit_asks_no_cap);
    tcase_add_test(tc, test_low_occupancy_and_limiter);
    tcase_add_test(tc, test_every_warning_off);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
