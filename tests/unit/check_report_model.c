/*
 * check_report_model.c: the report's model (libsilkreport,
 * report/report_model.c) on kernels written by hand, with no program run:
 * the permitted block sizes, the selected one and the reasons for it, the
 * tail on a product, the register cap (and the form it takes), a minimum
 * ptxas ignored, the cost of a bound the kernel spills under, the grid and
 * the host code.
 *
 * Every expected figure is worked out in the comment beside it from the
 * tables' sm_90 row: 32 threads a warp, 64 warps and 32 CTAs an SM,
 * 65536 registers in 4 sub-partitions (16384 each) given to warps in
 * units of 256, 1 KiB of shared memory reserved per CTA, gridDim.x up to
 * 2^31 - 1; and products.csv's Hopper parts, h100-sxm first (132 SMs),
 * then h100-pcie (114), h200 and gh200 (132).  A kernel of R registers
 * holds R x 32 registers a warp, rounded up to 256, so a sub-partition
 * keeps 16384 / that many warps.
 */
#include <config.h>

#include "report_model.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ArchTable table;

static void load_tables(void)
{
    OccError err;
    ck_assert_msg(arch_table_load_builtin(&table, &err) == 0, "%s", err.message);
}

static void free_tables(void)
{
    arch_table_free(&table);
}

/* An architecture ("sm_90"), or a product ("h100-sxm") and its architecture. */
static Target target_of(const char *name, bool product)
{
    Target t = {0};
    if (product) {
        t.gpu = arch_table_find_product(&table, name);
        ck_assert_ptr_nonnull(t.gpu);
        t.arch = arch_table_product_arch(&table, t.gpu);
        t.sm_count = t.gpu->sm_count;
    } else {
        t.arch = arch_table_find(&table, name);
    }
    ck_assert_ptr_nonnull(t.arch);
    arch_sm_name(t.arch, t.sm_name, sizeof t.sm_name);
    return t;
}

/* A PTX kernel `k` of `registers` registers, one barrier, nothing else. */
static MeasuredKernel kernel_of(int registers)
{
    return (MeasuredKernel){.name = "k", .title = "k", .cxx_name = "k", .file = "k.ptx",
                          .input = INPUT_PTX,
                          .usage = {.name = "k", .registers = registers, .barriers = 1}};
}

/* The report's five default candidates, no work, no --dyn-smem. */
static ReportSettings default_settings(void)
{
    return (ReportSettings){.sizes = {64, 128, 256, 512, 1024}, .n_sizes = 5, .table = &table};
}

/* An entry for `k` on `t`, computed; the test fails on an error.  `e`
 * is zeroed, or an earlier compute's, which is freed first. */
static void compute(ReportEntry *e, MeasuredKernel k, Target t, const ReportSettings *s)
{
    char error[256] = "";
    report_entry_free(e); /* what an earlier compute of the test left (e starts zeroed) */
    memset(e, 0, sizeof *e);
    e->kernel = k;
    e->target = t;
    ck_assert_msg(report_entry_compute(e, s, error, sizeof error), "%s", error);
}

static void assert_reason(const ReportEntry *e, int i, ReasonCode code, int threads, int blocks,
                          double value)
{
    ck_assert_int_gt(e->n_reasons, i);
    const Reason *r = &e->reasons[i];
    ck_assert_msg(r->code == code, "reason %d is %s, not %s", i, report_reason_name(r->code),
                  report_reason_name(code));
    ck_assert_int_eq(r->threads, threads);
    ck_assert_int_eq(r->blocks, blocks);
    ck_assert_double_eq_tol(r->value, value, 1e-12);
}

static void assert_host_code(const ReportEntry *e, const char *silk, const char *cuda)
{
    char buf[1024];
    report_silk_launch(e, buf, sizeof buf);
    ck_assert_str_eq(buf, silk);
    report_cuda_launch(e, buf, sizeof buf);
    ck_assert_str_eq(buf, cuda);
}

/* 40 registers: 1280 a warp, 12 warps a sub-partition, 48 of the 64 warp
 * slots.  64, 128, 256 and 512 threads all reach those 48 (24, 12, 6 and
 * 3 CTAs); 1024 threads (32 warps) fit once, 32 warps.  Of the four tied,
 * the guide's default 256 wins (before 128), and cutting to 32 registers
 * (1024 a warp, 16 warps a sub-partition: all 64) gives 8 CTAs of 256. */
START_TEST(test_tie_goes_to_256_and_the_cap_fills_the_sm)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    compute(&e, kernel_of(40), target_of("sm_90", false), &s);

    static const int threads[] = {64, 128, 256, 512, 1024}, ctas[] = {24, 12, 6, 3, 1};
    ck_assert_int_eq(e.n_rows, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(e.rows[i].threads, threads[i]);
        ck_assert_int_eq(e.rows[i].result.active_blocks, ctas[i]);
    }
    ck_assert_int_eq(e.selected, 2);
    ck_assert(e.rows[2].result.limited_by & (1u << OCC_LIMITER_REGISTERS));
    ck_assert_int_eq(e.n_reasons, 2);
    assert_reason(&e, 0, REASON_HIGHEST_OCCUPANCY, 256, 6, 0.75);
    assert_reason(&e, 1, REASON_TIE_DEFAULT, 256, 4, 0);

    ck_assert(e.cap.applies);
    ck_assert_int_eq(e.cap.cap, 32);
    ck_assert_int_eq(e.cap.min_blocks, 8);
    ck_assert_double_eq_tol(e.cap.occupancy, 1.0, 1e-12);
    ck_assert_int_eq(e.next.regs_to_cut, 8);
    ck_assert_int_eq(e.next.regs_gained_blocks, 8);
    ck_assert_int_eq(e.next.regs_slack, 0); /* 41 registers: 1536 a warp, 10 warps: 5 CTAs */

    /* No work: no tails; a persistent grid of 6 CTAs per SM on each Hopper. */
    ck_assert(!e.have_work);
    ck_assert_int_eq(e.n_tails, 0);
    static const char *const ids[] = {"h100-sxm", "h100-pcie", "h200", "gh200"};
    static const int grids[] = {792, 684, 792, 792};
    ck_assert_int_eq(e.n_persistent, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(e.persistent[i].gpu.id, ids[i]);
        ck_assert_int_eq(e.persistent[i].grid, grids[i]);
    }
    ck_assert(e.grid_valid);
    assert_host_code(&e, "gpu (grid=(n + 255) / 256 * 256, workspace=256) {\n  k(...);\n}",
                     "k<<<(n + 255) / 256, 256, 0>>>(...);");
    char snippet[512];
    report_verify_snippet(&e, snippet, sizeof snippet);
    ck_assert_str_eq(snippet, "int blocks = 0;\n"
                              "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);\n"
                              "// expect blocks == 6 on sm_90 (75.0% theoretical occupancy)");
    report_entry_free(&e);
}
END_TEST

/* The same kernel on an H100 SXM (132 SMs) with 228352 = 892 x 256 items.
 * At 256 threads a wave is 6 x 132 = 792 CTAs: one full wave and 100 CTAs,
 * 692 of 1584 slots idle.  64, 128 and 512 threads make the same waves
 * scaled, so the tie still goes to 256; 1024 threads would idle less
 * (223 CTAs over waves of 132: 41 of 264 idle) but at lower occupancy,
 * so it is only the tail's suggestion. */
START_TEST(test_bad_tail_names_the_better_size)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    s.have_work = true;
    s.work = 228352;
    compute(&e, kernel_of(40), target_of("h100-sxm", true), &s);

    ck_assert_int_eq(e.selected, 2);
    ck_assert_int_eq(e.n_reasons, 2);
    assert_reason(&e, 1, REASON_TIE_DEFAULT, 256, 4, 0);
    ck_assert_uint_eq(e.ctas, 892);
    ck_assert_uint_eq(e.tail_threads, 256);

    ck_assert_int_eq(e.n_tails, 1);
    const TailRow *t = &e.tails[0];
    ck_assert_str_eq(t->gpu.id, "h100-sxm");
    ck_assert_uint_eq(t->waves.ctas_per_wave, 792);
    ck_assert_uint_eq(t->waves.full_waves, 1);
    ck_assert_double_eq_tol(t->waves.last_wave_fill, 100.0 / 792, 1e-12);
    ck_assert_double_eq_tol(t->waves.idle_fraction, 692.0 / 1584, 1e-12);
    ck_assert(t->bad && !t->undersubscribed);
    ck_assert_int_eq(t->better_threads, 1024);
    ck_assert_uint_eq(t->better_waves.ctas, 223);
    ck_assert_double_eq_tol(t->better_waves.idle_fraction, 41.0 / 264, 1e-12);

    /* The named product is one of the architecture's: listed once. */
    ck_assert_int_eq(e.n_persistent, 4);
    assert_host_code(&e, "gpu (grid=228352, workspace=256) {\n  k(...);\n}",
                     "k<<<892, 256, 0>>>(...);");
    report_entry_free(&e);
}
END_TEST

/* The same work, row by row: each row's own CTAs and waves on the
 * h100-sxm, and its own next step.  64 threads: 3568 CTAs in waves of 24
 * x 132 = 3168, one full and 400 over, 2768 of 6336 slots idle (the 256
 * row's 692 of 1584, scaled); 1024 threads: the tail's better size, 223
 * CTAs, 41 of 264 idle.  At 1024 threads (1 CTA of 32 warps, 40 registers:
 * 12 warps a sub-partition, 48 of 64 slots) a cut to 32 registers (16
 * warps a sub-partition) gives a second CTA; the selected row's step is
 * the entry's. */
START_TEST(test_each_row_has_its_ctas_waves_and_next_step)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    s.have_work = true;
    s.work = 228352;
    compute(&e, kernel_of(40), target_of("h100-sxm", true), &s);

    static const uint64_t ctas[] = {3568, 1784, 892, 446, 223};
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(e.rows[i].ctas, ctas[i]);
        ck_assert(e.rows[i].has_waves);
        ck_assert_uint_eq(e.rows[i].waves[0].ctas, ctas[i]);
    }
    ck_assert_uint_eq(e.rows[0].waves[0].ctas_per_wave, 3168);
    ck_assert_double_eq_tol(e.rows[0].waves[0].idle_fraction, 2768.0 / 6336, 1e-12);
    ck_assert_uint_eq(e.rows[4].waves[0].ctas_per_wave, 132);
    ck_assert_double_eq_tol(e.rows[4].waves[0].idle_fraction, 41.0 / 264, 1e-12);
    ck_assert_double_eq_tol(e.rows[2].waves[0].idle_fraction, e.tails[0].waves.idle_fraction,
                            1e-15);

    ck_assert_int_eq(e.rows[4].next.regs_to_cut, 8);
    ck_assert_int_eq(e.rows[4].next.regs_gained_blocks, 2);
    ck_assert_mem_eq(&e.rows[2].next, &e.next, sizeof e.next);
    report_entry_free(&e);
}
END_TEST

/* Without work no row has CTAs or waves, and each still has its step. */
START_TEST(test_rows_without_work_have_no_waves)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    compute(&e, kernel_of(40), target_of("h100-sxm", true), &s);
    for (int i = 0; i < e.n_rows; i++) {
        ck_assert_uint_eq(e.rows[i].ctas, 0);
        ck_assert(!e.rows[i].has_waves);
    }
    ck_assert_int_eq(e.rows[0].next.regs_to_cut, 8); /* 24 CTAs of 2 warps: 32 at 32 registers */
    ck_assert_int_eq(e.rows[0].next.regs_gained_blocks, 32);
    report_entry_free(&e);
}
END_TEST

/* .reqntid 100 and 64 registers (2048 a warp, 8 warps a sub-partition: 32
 * of 64): 4 warps a CTA, 8 CTAs, 50%.  The last warp has 28 idle lanes,
 * and the spills are 8 + 12 bytes.  Cutting to 56 registers (1792 a warp,
 * 9 warps a sub-partition: 36) gives a ninth CTA, 36 of 64 warps. */
START_TEST(test_fixed_size_partial_warp_and_spills)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(64);
    k.reqntid = 100;
    k.usage.spill_stores = 8;
    k.usage.spill_loads = 12;
    compute(&e, k, target_of("sm_90", false), &s);

    ck_assert_int_eq(e.n_rows, 1);
    ck_assert_int_eq(e.rows[0].threads, 100);
    ck_assert_int_eq(e.resources.max_threads_per_block, 100);
    ck_assert_int_eq(e.n_reasons, 4);
    assert_reason(&e, 0, REASON_FIXED_SIZE, 100, 0, 0);
    assert_reason(&e, 1, REASON_HIGHEST_OCCUPANCY, 100, 8, 0.5);
    assert_reason(&e, 2, REASON_PARTIAL_WARP, 100, 28, 0);
    assert_reason(&e, 3, REASON_SPILLS, 100, 0, 20);

    ck_assert(e.cap.applies);
    ck_assert_int_eq(e.cap.cap, 56);
    ck_assert_int_eq(e.cap.min_blocks, 9);
    ck_assert_double_eq_tol(e.cap.occupancy, 36.0 / 64, 1e-12);
    report_entry_free(&e);
}
END_TEST

/* 255 registers: 8192 a warp, 2 warps a sub-partition, 8 of 64 warps.  A
 * CTA of 512 or 1024 threads needs more than the 65536 registers a CTA may
 * have, so it cannot run; 64, 128 and 256 threads reach 8 warps (4, 2, 1
 * CTAs).  256 wins the tie with one CTA at 12.5%: few CTAs, low
 * occupancy.  128 registers (4096 a warp, 4 warps a sub-partition: 16)
 * give a second CTA, 25%. */
START_TEST(test_few_ctas_and_low_occupancy)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    compute(&e, kernel_of(255), target_of("sm_90", false), &s);

    static const int ctas[] = {4, 2, 1, 0, 0};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(e.rows[i].result.active_blocks, ctas[i]);
    ck_assert_int_eq(e.selected, 2);
    ck_assert_int_eq(e.n_reasons, 4);
    assert_reason(&e, 0, REASON_HIGHEST_OCCUPANCY, 256, 1, 0.125);
    assert_reason(&e, 1, REASON_TIE_DEFAULT, 256, 3, 0);
    assert_reason(&e, 2, REASON_FEW_CTAS, 256, 1, 0);
    assert_reason(&e, 3, REASON_LOW_OCCUPANCY, 256, 1, 0.125);
    ck_assert(e.cap.applies);
    ck_assert_int_eq(e.cap.cap, 128);
    ck_assert_int_eq(e.cap.min_blocks, 2);
    ck_assert_double_eq_tol(e.cap.occupancy, 0.25, 1e-12);
    report_entry_free(&e);
}
END_TEST

/* .reqntid 2048 is above sm_90's 1024 threads per CTA: no size runs, so
 * there is nothing to select, advise or launch. */
START_TEST(test_no_permitted_size_runs)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(32);
    k.reqntid = 2048;
    compute(&e, k, target_of("sm_90", false), &s);

    ck_assert_int_eq(e.n_rows, 0);
    ck_assert_int_eq(e.selected, -1);
    ck_assert_ptr_null(report_selected(&e));
    ck_assert_int_eq(e.n_reasons, 1);
    assert_reason(&e, 0, REASON_FIXED_SIZE, 2048, 0, 0);
    ck_assert(!e.cap.applies);
    ck_assert_int_eq(e.n_persistent, 0);
    assert_host_code(&e, "// k cannot run on sm_90", "// k cannot run on sm_90");
    char snippet[64] = "untouched";
    report_verify_snippet(&e, snippet, sizeof snippet);
    ck_assert_str_eq(snippet, "");
    report_entry_free(&e);
}
END_TEST

/* .maxntid 200 allows 64 and 128 of the candidates, and 200 itself.  At
 * 32 registers (16 warps a sub-partition: all 64) 64 and 128 threads fill
 * the SM (32 and 16 CTAs); 200 threads are 7 warps, 9 CTAs, 63 warps. */
START_TEST(test_bounded_size_adds_the_bound)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(32);
    k.maxntid = 200;
    compute(&e, k, target_of("sm_90", false), &s);

    static const int threads[] = {64, 128, 200}, ctas[] = {32, 16, 9};
    ck_assert_int_eq(e.n_rows, 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(e.rows[i].threads, threads[i]);
        ck_assert_int_eq(e.rows[i].result.active_blocks, ctas[i]);
    }
    ck_assert_int_eq(e.selected, 1);
    ck_assert_int_eq(e.n_reasons, 3);
    assert_reason(&e, 0, REASON_BOUNDED_SIZE, 200, 0, 0);
    assert_reason(&e, 1, REASON_HIGHEST_OCCUPANCY, 128, 16, 1.0);
    assert_reason(&e, 2, REASON_TIE_DEFAULT, 128, 2, 0);
    ck_assert(!e.cap.applies); /* registers do not limit: warps and CTAs do */
    report_entry_free(&e);
}
END_TEST

/* 2-D work of 1000 x 1000 at 256 threads: warp-wide rows, a 32 x 8 block,
 * a grid of 32 x 125 CTAs, 4000 x 256 - 10^6 = 24000 threads past the
 * edges.  (At 32 registers all five sizes fill the SM; the tails on an
 * H100 SXM, the Hopper reference part, are the same for 128 and 256.) */
START_TEST(test_two_d_work_gets_a_two_d_grid)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    s.have_work = true;
    s.work = 1000;
    s.work_rows = 1000;
    compute(&e, kernel_of(32), target_of("sm_90", false), &s);

    ck_assert_int_eq(e.selected, 2);
    assert_reason(&e, 1, REASON_TIE_DEFAULT, 256, 5, 0);
    ck_assert_int_eq(e.block_x, 32);
    ck_assert_int_eq(e.block_y, 8);
    ck_assert_uint_eq(e.grid_x, 32);
    ck_assert_uint_eq(e.grid_y, 125);
    ck_assert_uint_eq(e.ctas, 4000);
    ck_assert_uint_eq(e.tail_threads, 24000);
    ck_assert(e.grid_valid);
    /* A bare architecture: the tail on each of its four products. */
    ck_assert_int_eq(e.n_tails, 4);
    ck_assert_uint_eq(e.tails[0].waves.full_waves, 3); /* 4000 CTAs, 1056 a wave */
    ck_assert(!e.tails[0].bad);
    assert_host_code(&e, "gpu (grid=1024000, workspace=256) {\n  k(...);\n}",
                     "k<<<dim3(32, 125), dim3(32, 8), 0>>>(...);");
    report_entry_free(&e);
}
END_TEST

/* 2^53 items of 1-D work at 256 threads: 2^45 CTAs, past gridDim.x's
 * 2^31 - 1, folded into ceil(2^45 / (2^31 - 1)) = 16385 rows, which a
 * 1-D launch cannot take as it is. */
START_TEST(test_one_d_work_past_grid_x_is_folded)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    s.have_work = true;
    s.work = UINT64_C(1) << 53;
    compute(&e, kernel_of(32), target_of("sm_90", false), &s);

    ck_assert_int_eq(e.selected, 2);
    ck_assert_uint_eq(e.ctas, UINT64_C(1) << 45);
    ck_assert_uint_eq(e.grid_x, 2147483647);
    ck_assert_uint_eq(e.grid_y, 16385);
    ck_assert_uint_eq(e.tail_threads, 256);
    ck_assert(!e.grid_valid);
    char buf[512];
    report_cuda_launch(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "k<<<dim3(2147483647, 16385), 256, 0>>>(...);"
                          "  // 2-D: index = blockIdx.y * gridDim.x + blockIdx.x");
    report_entry_free(&e);
}
END_TEST

/* A Silk kernel's first launch block gives the work when --work does not:
 * 2^20 items, 4096 CTAs of 256.  Its registers are the compiler's guess. */
START_TEST(test_work_from_the_launch_block_and_estimate)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(32);
    k.input = INPUT_SILK;
    k.usage.estimated = true;
    k.launch_work = UINT64_C(1) << 20;
    k.launch_line = 12;
    compute(&e, k, target_of("sm_90", false), &s);

    ck_assert(e.have_work && e.work_from_launch);
    ck_assert_uint_eq(e.work, UINT64_C(1) << 20);
    ck_assert_uint_eq(e.ctas, 4096);
    ck_assert_int_eq(e.n_reasons, 3);
    assert_reason(&e, 0, REASON_HIGHEST_OCCUPANCY, 256, 8, 1.0);
    assert_reason(&e, 1, REASON_TIE_DEFAULT, 256, 5, 0);
    assert_reason(&e, 2, REASON_ESTIMATED, 256, 0, 0);
    assert_host_code(&e, "gpu (grid=1048576, workspace=256) {\n  k(...);\n}",
                     "k<<<4096, 256, 0>>>(...);");
    report_entry_free(&e);
}
END_TEST

/* A Silk @persistent kernel of 32 registers at 256 threads: 8 warps a
 * CTA, 16 warps a sub-partition, 8 CTAs an SM, so 132 x 8 = 1056 CTAs on
 * an h100-sxm.  2^20 items are 4096 logical CTAs: the launch starts 1056
 * and passes 4096 last; 1000 items are 4, which it starts all of.  On
 * sm_90 without a work size the grid is written over n, and the
 * persistent grid is the first Hopper product's (h100-sxm). */
START_TEST(test_persistent_launch_passes_the_logical_ctas)
{
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(32);
    k.input = INPUT_SILK;
    k.persistent = true;
    s.have_work = true;
    s.work = UINT64_C(1) << 20;
    compute(&e, k, target_of("h100-sxm", true), &s);
    ck_assert_uint_eq(e.ctas, 4096);
    assert_host_code(&e,
                     "gpu (grid=1048576, workspace=256) {\n  k(...);\n}\n"
                     "// @persistent: the runtime starts 1056 CTAs (at most 132 SMs x 8 resident "
                     "on h100-sxm) and passes __silk_logical_ctas = 4096",
                     "k<<<1056, 256, 0>>>(..., 4096);  // at most 132 SMs x 8 resident on "
                     "h100-sxm; the last argument is __silk_logical_ctas");
    s.work = 1000;
    compute(&e, k, target_of("h100-sxm", true), &s);
    char buf[1024];
    report_cuda_launch(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "k<<<4, 256, 0>>>(..., 4);  // at most 132 SMs x 8 resident on "
                          "h100-sxm; the last argument is __silk_logical_ctas");
    s.have_work = false;
    compute(&e, k, target_of("sm_90", false), &s);
    report_cuda_launch(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "k<<<min((n + 255) / 256, 1056), 256, 0>>>(..., (n + 255) / 256);  "
                          "// at most 132 SMs x 8 resident on h100-sxm; the last argument is "
                          "__silk_logical_ctas");
    report_entry_free(&e);
}
END_TEST

/* --dyn-smem '4*threads+256' sizes the rows of a kernel that declares
 * dynamic shared memory: 512 B at 64 threads, 1280 B at 256. */
START_TEST(test_dyn_smem_sizes_each_row)
{
    char error[SIZE_EXPR_ERROR_SIZE];
    SizeExpr *expr = size_expr_parse("4*threads+256", error, sizeof error);
    ck_assert_ptr_nonnull(expr);
    ReportEntry e = {0};
    ReportSettings s = default_settings();
    s.dyn_smem = expr;
    s.dyn_smem_text = "4*threads+256";
    MeasuredKernel k = kernel_of(32);
    k.extern_smem = true;
    compute(&e, k, target_of("sm_90", false), &s);

    static const uint64_t bytes[] = {512, 768, 1280, 2304, 4352};
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(e.rows[i].dynamic_smem, bytes[i]);
    ck_assert(e.rows_sized && !e.dynamic_smem_unsized);
    ck_assert_uint_eq(e.dynamic_smem, 1280);
    char buf[256];
    report_cuda_launch(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "k<<<(n + 255) / 256, 256, 1280>>>(...);");

    /* A kernel without dynamic shared memory is not given any. */
    compute(&e, kernel_of(32), target_of("sm_90", false), &s);
    ck_assert_uint_eq(e.rows[2].dynamic_smem, 0);
    size_expr_free(expr);

    /* Without --dyn-smem the rows assume none: an upper bound. */
    s = default_settings();
    compute(&e, k, target_of("sm_90", false), &s);
    ck_assert_uint_eq(e.rows[2].dynamic_smem, 0);
    ck_assert(e.dynamic_smem_unsized && !e.rows_sized);
    report_entry_free(&e);
}
END_TEST

/* '4096 - 16*threads' has no value at 512 threads (4096 - 8192); the
 * message names the option, the size, the kernel as C++ writes it and
 * the step, at its operator (column 6). */
START_TEST(test_dyn_smem_without_a_value_is_an_error)
{
    char error[256];
    SizeExpr *expr = size_expr_parse("4096 - 16*threads", error, sizeof error);
    ck_assert_ptr_nonnull(expr);
    ReportSettings s = default_settings();
    s.dyn_smem = expr;
    s.dyn_smem_text = "4096 - 16*threads";
    ReportEntry e = {.kernel = kernel_of(32), .target = target_of("sm_90", false)};
    e.kernel.name = "_Z4tileIfEvPT_";
    e.kernel.cxx_name = "tile<float>";
    e.kernel.extern_smem = true;
    ck_assert(!report_entry_compute(&e, &s, error, sizeof error));
    ck_assert_str_eq(error,
                     "--dyn-smem '4096 - 16*threads': at 512 threads (tile<float>): "
                     "1:6: 4096 - 8192 is negative");
    size_expr_free(expr);
    report_entry_free(&e);
}
END_TEST

START_TEST(test_reason_names_and_texts)
{
    ck_assert_str_eq(report_reason_name(REASON_TIE_DEFAULT), "tie_prefers_default");
    ck_assert_str_eq(report_reason_name(REASON_ESTIMATED), "estimated");
    ck_assert_str_eq(report_reason_text(REASON_PARTIAL_WARP),
                     "{threads} threads is not a multiple of {warp_size}: {blocks} lanes of the "
                     "last {warp} idle");
}
END_TEST

/* An AMD code object's kernel on gfx942 (amd-targets.csv: 512 VGPRs a
 * SIMD lane in granules of 8, 8 wave slots, 4 SIMDs a CU, waves of 64):
 * 96 VGPRs allow 512 / 96 = 5 waves per SIMD, LLVM's count.  A workgroup
 * of 256 is 4 waves, one per SIMD, so 5 workgroups per CU, 62.5%; 1024
 * is 16 waves, 4 per SIMD: 1 workgroup fits, though LLVM's count (which
 * the engine keeps) stays 5 waves per SIMD; 128 ties with 256, which the
 * policy prefers.  80 VGPRs (512 / 6, down to the granule) allow 6 waves:
 * cut 16 for 6 workgroups, 75%.  HIP takes gridDim.x x 256 below 2^32. */
START_TEST(test_amd_kernel_gets_every_section)
{
    AmdTable amd;
    OccError err;
    ck_assert_msg(amd_table_load_builtin(&amd, &err) == 0, "%s", err.message);
    Target t = {.vendor = OCC_AMD, .amd = amd_table_find(&amd, "gfx942")};
    ck_assert_ptr_nonnull(t.amd);
    snprintf(t.sm_name, sizeof t.sm_name, "gfx942");
    MeasuredKernel k = {.name = "k", .title = "k", .cxx_name = "k", .file = "k.hsaco",
                      .input = INPUT_HSACO, .maxntid = 1024,
                      .usage = {.name = "k", .registers = 96, .sgprs = 30, .max_threads = 1024,
                                .wavefront_size = 64, .spill_stores = -1, .spill_loads = -1}};
    ReportSettings s = default_settings();
    s.amd_table = &amd;
    ReportEntry e = {0};
    compute(&e, k, t, &s);
    ck_assert_int_eq(e.n_rows, 5);
    const ReportRow *r = report_selected(&e);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->threads, 256);
    ck_assert_int_eq(r->fig.groups, 5);
    ck_assert_int_eq(r->fig.active, 5);
    ck_assert_int_eq(r->fig.max_active, 8);
    ck_assert(r->fig.limited_by & (1u << AMD_LIMITER_VGPRS));
    ck_assert_int_eq(e.rows[4].threads, 1024);
    ck_assert_int_eq(e.rows[4].fig.groups, 1);
    ck_assert_int_eq(e.rows[4].fig.active, 5);
    assert_reason(&e, 1, REASON_HIGHEST_OCCUPANCY, 256, 5, 0.625);
    ck_assert_int_eq(e.amd_next.vgprs_to_cut, 16);
    ck_assert_int_eq(e.amd_next.vgprs_gained_waves, 6);
    ck_assert(e.cap.applies);
    ck_assert_int_eq(e.cap.cap, 80);
    ck_assert_int_eq(e.cap.waves, 6);
    ck_assert_int_eq(e.cap.min_blocks, 6);
    ck_assert_uint_eq(e.max_grid_x, 16777215);
    /* Every gfx942 product's persistent grid: 5 per CU. */
    ck_assert_int_eq(e.n_persistent, 3);
    ck_assert_str_eq(e.persistent[1].gpu.id, "mi300x");
    ck_assert_int_eq(e.persistent[1].grid, 5 * 304);
    char code[1024];
    report_cuda_launch(&e, code, sizeof code);
    ck_assert_str_eq(code, "k<<<(n + 255) / 256, 256, 0>>>(...);\n"
                           "// from a code object (hipModuleGetFunction):\n"
                           "hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, "
                           "args, NULL);");
    report_verify_snippet(&e, code, sizeof code);
    ck_assert_str_eq(code, "int blocks = 0;\n"
                           "hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);\n"
                           "// expect blocks == 5 on gfx942 (62.5% theoretical occupancy)");
    amd_table_free(&amd);
    report_entry_free(&e);
}
END_TEST

/* The cap keeps the kernel's own form.  40 registers on sm_90: 1280 a
 * warp, 12 warps a sub-partition, 48 an SM: 6 CTAs of 256 threads where
 * warps allow 8; a cap of 32 (1024 a warp, 16 warps) reaches 8. */
START_TEST(test_cap_keeps_the_kernels_form)
{
    ReportSettings s = default_settings();
    Target t = target_of("sm_90", false);
    MeasuredKernel k = kernel_of(40);
    k.maxnreg = 40;
    ReportEntry e = {0};
    compute(&e, k, t, &s);
    ck_assert_int_eq(e.rows[e.selected].threads, 256);
    ck_assert_int_eq(e.rows[e.selected].fig.groups, 6);
    ck_assert(e.cap.applies);
    ck_assert_int_eq(e.cap.cap, 32);
    ck_assert_int_eq(e.cap.form, CAP_FORM_MAXNREG);
    ck_assert_str_eq(report_cap_form_name(e.cap.form), "maxnreg");
    k.maxntid = 256; /* a block bound: __launch_bounds__, not __maxnreg__ */
    compute(&e, k, t, &s);
    ck_assert_int_eq(e.rows[e.selected].threads, 256);
    ck_assert_int_eq(e.rows[e.selected].fig.groups, 6);
    ck_assert(e.cap.applies);
    ck_assert_int_eq(e.cap.cap, 32);
    ck_assert_int_eq(e.cap.min_blocks, 8);
    ck_assert_int_eq(e.cap.form, CAP_FORM_LAUNCH_BOUNDS);
    k.maxntid = 0;
    k.input = INPUT_CUBIN; /* a cubin's cap may be --maxrregcount's */
    compute(&e, k, t, &s);
    ck_assert_int_eq(e.cap.form, CAP_FORM_LAUNCH_BOUNDS);
    k.input = INPUT_SILK;
    compute(&e, k, t, &s);
    ck_assert_str_eq(report_cap_form_name(e.cap.form), "launch");
    report_entry_free(&e);
}
END_TEST

/* ptxas's warning that it ignores the minimum is read; another is not. */
START_TEST(test_ignored_minimum_from_the_warning)
{
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(32);
    k.maxntid = 1024;
    k.minnctapersm = 2;
    const char *warnings[] = {"Value of threads per SM for entry k is out of range. "
                              ".minnctapersm will be ignored"};
    ReportEntry e = {0};
    compute(&e, k, target_of("sm_120", false), &s);
    ck_assert(!e.min_ignored);
    k.usage.warnings = warnings;
    k.usage.n_warnings = 1;
    compute(&e, k, target_of("sm_120", false), &s);
    ck_assert(e.min_ignored);
    report_entry_free(&e);
}
END_TEST

/* A kernel of 64 registers that spills under __launch_bounds__(256, 4)
 * and uses 154 without it, on sm_90: 154 x 32 = 4928, 5120 in units of
 * 256, 3 warps a sub-partition, 12 an SM: 1 CTA of 8 warps (12.5%),
 * against 64's 2048 a warp, 32 warps, 4 CTAs (50%). */
START_TEST(test_bound_cost_compares_the_ctas)
{
    ReportSettings s = default_settings();
    MeasuredKernel k = kernel_of(64);
    k.maxntid = 256;
    k.minnctapersm = 4;
    ReportEntry e = {0};
    compute(&e, k, target_of("sm_90", false), &s);
    ck_assert(!e.bound_cost.applies); /* no spills: nothing to ask */
    k.usage.spill_stores = k.usage.spill_loads = 100;
    compute(&e, k, target_of("sm_90", false), &s);
    ck_assert(e.bound_cost.applies);
    ck_assert_int_eq(e.rows[e.selected].threads, 256);
    report_bound_cost_measured(&e, 154, 0, 0);
    ck_assert(e.bound_cost.checked && e.bound_cost.forces_spills);
    ck_assert_int_eq(e.bound_cost.blocks, 1);
    ck_assert_int_eq(e.bound_cost.bound_blocks, 4);
    ck_assert_double_eq_tol(e.bound_cost.occupancy, 0.125, 1e-9);
    ck_assert_double_eq_tol(e.bound_cost.bound_occupancy, 0.5, 1e-9);
    report_bound_cost_measured(&e, 255, 100, 100); /* spills as much: not the cause */
    ck_assert(!e.bound_cost.forces_spills);
    k.input = INPUT_CUBIN; /* no PTX to compile again, no spills known */
    compute(&e, k, target_of("sm_90", false), &s);
    ck_assert(!e.bound_cost.applies);
    report_entry_free(&e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_model");
    TCase *tc = tcase_create("report_model");
    tcase_add_checked_fixture(tc, load_tables, free_tables);
    tcase_add_test(tc, test_tie_goes_to_256_and_the_cap_fills_the_sm);
    tcase_add_test(tc, test_bad_tail_names_the_better_size);
    tcase_add_test(tc, test_each_row_has_its_ctas_waves_and_next_step);
    tcase_add_test(tc, test_rows_without_work_have_no_waves);
    tcase_add_test(tc, test_fixed_size_partial_warp_and_spills);
    tcase_add_test(tc, test_few_ctas_and_low_occupancy);
    tcase_add_test(tc, test_no_permitted_size_runs);
    tcase_add_test(tc, test_bounded_size_adds_the_bound);
    tcase_add_test(tc, test_two_d_work_gets_a_two_d_grid);
    tcase_add_test(tc, test_one_d_work_past_grid_x_is_folded);
    tcase_add_test(tc, test_work_from_the_launch_block_and_estimate);
    tcase_add_test(tc, test_persistent_launch_passes_the_logical_ctas);
    tcase_add_test(tc, test_dyn_smem_sizes_each_row);
    tcase_add_test(tc, test_dyn_smem_without_a_value_is_an_error);
    tcase_add_test(tc, test_reason_names_and_texts);
    tcase_add_test(tc, test_amd_kernel_gets_every_section);
    tcase_add_test(tc, test_cap_keeps_the_kernels_form);
    tcase_add_test(tc, test_ignored_minimum_from_the_warning);
    tcase_add_test(tc, test_bound_cost_compares_the_ctas);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
