/*
 * check_verify.c: verify's engine (libsilkverify) with no device and no
 * program run: the questions the plan asks, the device's properties
 * against the tables, the engine's answers and the agreement rule, and
 * records written and read back, with the exact error of each kind of
 * malformed record.  (tests/oracle/check_verify_oracle.c asks the whole
 * plan of cuda_occupancy.h; tests/cli/check_cli.c replays records through
 * the command.)
 *
 * The device is the H200 as cudaGetDeviceProperties describes it: cc 9.0,
 * 132 SMs, 228 KiB of shared memory an SM, 48 KiB a CTA by default and
 * 227 KiB opted in, 1 KiB reserved per CTA.
 */
#include <config.h>

#include "verify_engine.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static DeviceProps h200(void)
{
    DeviceProps p = {"NVIDIA H200", 9, 0, 132, 32, 1024, 2048, 32, 65536, 65536,
                     233472, 49152, 232448, 1024, {2147483647, 65535, 65535}};
    return p;
}

/* 32 registers, no shared memory, at most 256 threads, loaded with the
 * default 48 KiB dynamic limit. */
static const FuncAttrs attrs_32 = {32, 0, 0, 0, 256, 49152, {0, 0, 0}};

static void assert_query(const VerifyQuery *q, VerifyQueryKind kind, int carveout,
                         int64_t max_dynamic_smem, int block_size, int64_t dynamic_smem,
                         int num_blocks)
{
    ck_assert_str_eq(verify_query_name(q->kind), verify_query_name(kind));
    ck_assert_int_eq(q->carveout, carveout);
    ck_assert_int_eq(q->max_dynamic_smem, max_dynamic_smem);
    ck_assert_int_eq(q->block_size, block_size);
    ck_assert_int_eq(q->dynamic_smem, dynamic_smem);
    ck_assert_int_eq(q->num_blocks, num_blocks);
}

/* ---- the plan ------------------------------------------------------------ */

/* Per carveout (default, 0, 50, 100) and dynamic limit (the loaded 48 KiB,
 * then the opt-in 227 KiB = 232448 B): four dynamic sizes (0, 4 KiB, half,
 * all), each asked at 32..256 threads (8) and once for the block size;
 * then 4 CTA counts at 32, 128 and 256 threads for the dynamic limit.
 * 4 x 9 + 12 = 48 a setting, 8 settings. */
START_TEST(test_plan_walks_every_setting)
{
    DeviceProps p = h200();
    int n = 0;
    VerifyQuery *q = verify_plan(&p, &attrs_32, &n);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(n, 8 * 48);
    assert_query(&q[0], VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 49152, 32, 0, 0);
    assert_query(&q[7], VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 49152, 256, 0, 0);
    assert_query(&q[8], VQ_BLOCK_SIZE, OCC_CARVEOUT_DEFAULT, 49152, 0, 0, 0);
    assert_query(&q[9], VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 49152, 32, 4096, 0);
    assert_query(&q[18], VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 49152, 32, 24576, 0);
    assert_query(&q[35], VQ_BLOCK_SIZE, OCC_CARVEOUT_DEFAULT, 49152, 0, 49152, 0);
    assert_query(&q[36], VQ_DYNAMIC_SMEM, OCC_CARVEOUT_DEFAULT, 49152, 32, 0, 1);
    assert_query(&q[47], VQ_DYNAMIC_SMEM, OCC_CARVEOUT_DEFAULT, 49152, 256, 0, 8);
    assert_query(&q[48 + 18], VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 232448, 32, 116224, 0);
    assert_query(&q[48 + 35], VQ_BLOCK_SIZE, OCC_CARVEOUT_DEFAULT, 232448, 0, 232448, 0);
    assert_query(&q[96], VQ_ACTIVE_BLOCKS, 0, 49152, 32, 0, 0);
    assert_query(&q[7 * 48], VQ_ACTIVE_BLOCKS, 100, 232448, 32, 0, 0);
    int kinds[VQ_KINDS] = {0};
    for (int i = 0; i < n; i++) {
        kinds[q[i].kind]++;
        ck_assert_int_le(q[i].dynamic_smem, q[i].max_dynamic_smem);
        ck_assert_int_le(q[i].block_size, 256);
    }
    ck_assert_int_eq(kinds[VQ_ACTIVE_BLOCKS], 8 * 32);
    ck_assert_int_eq(kinds[VQ_BLOCK_SIZE], 8 * 4);
    ck_assert_int_eq(kinds[VQ_DYNAMIC_SMEM], 8 * 12);
    free(q);
}
END_TEST

/* A 1000-byte limit that opting in does not raise: one setting a
 * carveout, and the 4 KiB size left out as above the limit (0, 500, 1000). */
START_TEST(test_plan_keeps_sizes_within_the_limit)
{
    DeviceProps p = h200();
    p.smem_per_block_optin = 1000;
    FuncAttrs a = attrs_32;
    a.max_dynamic_smem = 1000;
    int n = 0;
    VerifyQuery *q = verify_plan(&p, &a, &n);
    ck_assert_int_eq(n, 4 * (3 * 9 + 12));
    assert_query(&q[9], VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 1000, 32, 500, 0);
    assert_query(&q[26], VQ_BLOCK_SIZE, OCC_CARVEOUT_DEFAULT, 1000, 0, 1000, 0);
    assert_query(&q[39], VQ_ACTIVE_BLOCKS, 0, 1000, 32, 0, 0);
    free(q);
}
END_TEST

/* Clusters, 9.0 on: 2, 4, 8 and (the table allowing) 16 CTAs, at 128 and
 * 256 threads (the kernel's largest is 256), no dynamic shared memory;
 * a kernel compiled with its own cluster is asked only that one. */
START_TEST(test_plan_clusters)
{
    DeviceProps p = h200();
    static const int sizes[] = {2, 2, 4, 4, 8, 8, 16, 16};
    int n = -1;
    VerifyQuery *q = verify_plan_clusters(&p, &attrs_32, 16, &n);
    ck_assert_int_eq(n, 8);
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(verify_query_name(q[i].kind), "active_clusters");
        ck_assert_int_eq(q[i].cluster_size, sizes[i]);
        ck_assert_int_eq(q[i].block_size, i % 2 ? 256 : 128);
        ck_assert_int_eq(q[i].dynamic_smem, 0);
        ck_assert_int_eq(q[i].carveout, OCC_CARVEOUT_DEFAULT);
        ck_assert_int_eq(q[i].max_dynamic_smem, 49152);
    }
    free(q);
    q = verify_plan_clusters(&p, &attrs_32, 8, &n); /* portable sizes only */
    ck_assert_int_eq(n, 6);
    free(q);
    FuncAttrs own = attrs_32;
    own.max_threads_per_block = 1024;
    own.cluster_dims[0] = own.cluster_dims[1] = 2;
    own.cluster_dims[2] = 1;
    q = verify_plan_clusters(&p, &own, 16, &n);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(q[0].cluster_size, 4);
    ck_assert_int_eq(q[2].block_size, 1024);
    free(q);
    p.major = 8; /* no clusters before Hopper */
    q = verify_plan_clusters(&p, &attrs_32, 16, &n);
    ck_assert_int_eq(n, 0);
    ck_assert_ptr_null(q);
}
END_TEST

/* ---- properties against the tables --------------------------------------- */

START_TEST(test_h200_agrees_with_its_rows)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    DeviceProps p = h200();
    const ArchLimits *row = verify_table_row(&table, &p);
    ck_assert_ptr_nonnull(row);
    ck_assert_int_eq(row->major * 10 + row->minor, 90);

    /* 13 limits of the 9.0 row, then the product found by the name
     * without "NVIDIA ": its capability and SM count. */
    int n = 0;
    PropCheck *c = verify_properties(&table, &p, &n);
    ck_assert_int_eq(n, 15);
    ck_assert_str_eq(c[0].field, "warp_size");
    ck_assert_str_eq(c[0].source, "the 9.0 row");
    ck_assert_str_eq(c[12].field, "max_grid_z");
    ck_assert_str_eq(c[13].field, "compute_capability");
    ck_assert_str_eq(c[13].source, "product h200");
    ck_assert_int_eq(c[13].device, 90);
    ck_assert_str_eq(c[14].field, "sm_count");
    for (int i = 0; i < n; i++)
        ck_assert_msg(c[i].device == c[i].table, "%s: %lld, table %lld", c[i].field,
                      (long long)c[i].device, (long long)c[i].table);
    free(c);

    /* A card the tables do not know by name is checked against its row
     * alone; a wrong SM count shows against the product. */
    snprintf(p.name, sizeof p.name, "NVIDIA H200 NVL");
    c = verify_properties(&table, &p, &n);
    ck_assert_int_eq(n, 13);
    free(c);
    p = h200();
    p.sm_count = 100;
    c = verify_properties(&table, &p, &n);
    ck_assert_int_eq(c[14].device, 100);
    ck_assert_int_eq(c[14].table, 132);
    free(c);

    /* A capability the tables lack has no row to compare. */
    p.major = 1;
    ck_assert_ptr_null(verify_table_row(&table, &p));
    arch_table_free(&table);
}
END_TEST

/* The engine's limits are the device's where it reports them, the table's
 * (allocation units, carveouts) where it does not. */
START_TEST(test_arch_takes_the_device_limits)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    DeviceProps p = h200();
    p.smem_per_block_optin = 100000;
    p.max_blocks_per_sm = 16;
    const ArchLimits *row = verify_table_row(&table, &p);
    ArchLimits a = verify_arch_from_props(row, &p);
    ck_assert_int_eq(a.smem_per_block_optin, 100000);
    ck_assert_int_eq(a.max_blocks_per_sm, 16);
    ck_assert_int_eq(a.reg_alloc_unit, row->reg_alloc_unit);
    ck_assert_int_eq(a.smem_alloc_unit, 128);
    arch_table_free(&table);
}
END_TEST

/* ---- the engine's answers and the agreement rule ------------------------------ */

/* 32 registers: 1024 a warp, 16 warps a sub-partition, all 64 warp slots:
 * 8 CTAs of 256.  With 48 KiB dynamic a CTA takes 49 KiB of the 228 KiB:
 * 4 CTAs.  The block-size search keeps 256 at 8 CTAs, a grid of 8 x 132.
 * One CTA may have all 227 KiB; a ninth CTA of 256 does not fit. */
START_TEST(test_engine_answers)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    DeviceProps p = h200();
    ArchLimits a = verify_arch_from_props(verify_table_row(&table, &p), &p);
    VerifyAnswer out;
    VerifyQuery q = {VQ_ACTIVE_BLOCKS, OCC_CARVEOUT_DEFAULT, 49152, 256, 0, 0, 0};
    verify_engine_answer(&a, p.sm_count, &attrs_32, &q, &out);
    ck_assert(out.ok);
    ck_assert_int_eq(out.value, 8);

    q.dynamic_smem = 49152;
    verify_engine_answer(&a, p.sm_count, &attrs_32, &q, &out);
    ck_assert_int_eq(out.value, 4);

    q = (VerifyQuery){VQ_BLOCK_SIZE, OCC_CARVEOUT_DEFAULT, 49152, 0, 0, 0, 0};
    verify_engine_answer(&a, p.sm_count, &attrs_32, &q, &out);
    ck_assert(out.ok);
    ck_assert_int_eq(out.value, 256);
    ck_assert_int_eq(out.min_grid, 8 * 132);

    q = (VerifyQuery){VQ_DYNAMIC_SMEM, OCC_CARVEOUT_DEFAULT, 232448, 256, 0, 1, 0};
    verify_engine_answer(&a, p.sm_count, &attrs_32, &q, &out);
    ck_assert(out.ok);
    ck_assert_int_eq(out.value, 232448);

    q.num_blocks = 9;
    verify_engine_answer(&a, p.sm_count, &attrs_32, &q, &out);
    ck_assert(!out.ok);
    ck_assert_str_eq(out.error, "does not fit");
    arch_table_free(&table);
}
END_TEST

/* H100 SXM5: 66 TPCs in 8 GPCs, so 2 GPCs of 18 SMs and 6 of 16.  8 CTAs
 * of 256 a SM: clusters of 4, 2 x 36 + 6 x 32 = 264.  2 CTAs of 1024:
 * clusters of 8 fit 4 a GPC, 32 in all, where 132 x 2 / 8 = 33 is only the
 * bound a GPC count not public leaves. */
START_TEST(test_cluster_answers)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    DeviceProps p = h200();
    ArchLimits a = verify_arch_from_props(verify_table_row(&table, &p), &p);
    FuncAttrs wide = attrs_32;
    wide.max_threads_per_block = 1024;
    VerifyQuery q = {.kind = VQ_ACTIVE_CLUSTERS, .carveout = OCC_CARVEOUT_DEFAULT,
                     .max_dynamic_smem = 49152, .block_size = 256, .cluster_size = 4};
    VerifyAnswer out;
    verify_cluster_answer(&a, 132, 8, &wide, &q, &out);
    ck_assert(out.ok && !out.bound);
    ck_assert_int_eq(out.value, 264);
    q.block_size = 1024;
    q.cluster_size = 8;
    verify_cluster_answer(&a, 132, 8, &wide, &q, &out);
    ck_assert_int_eq(out.value, 32);
    verify_engine_answer(&a, 132, &wide, &q, &out); /* no layout: the bound */
    ck_assert(out.ok && out.bound);
    ck_assert_int_eq(out.value, 33);
    q.cluster_size = 32;
    verify_cluster_answer(&a, 132, 8, &wide, &q, &out);
    ck_assert(!out.ok);
    ck_assert_str_eq(out.error, "a cluster of 32 CTAs is above the limit of 16");
    arch_table_free(&table);
}
END_TEST

/* The layout: by the device's name first (the H200's GPC count is not
 * public), else the one product of its capability and SM count with one. */
START_TEST(test_cluster_product)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    DeviceProps p = h200();
    bool by_name = false;
    const GpuProduct *gpu = verify_cluster_product(&table, &p, &by_name);
    ck_assert_ptr_nonnull(gpu);
    ck_assert_str_eq(gpu->id, "h200");
    ck_assert(by_name);
    ck_assert_int_eq(gpu->gpcs, 0);
    snprintf(p.name, sizeof p.name, "NVIDIA H100 80GB HBM3");
    gpu = verify_cluster_product(&table, &p, &by_name);
    ck_assert_ptr_nonnull(gpu);
    ck_assert_str_eq(gpu->id, "h100-sxm");
    ck_assert(!by_name);
    ck_assert_int_eq(gpu->gpcs, 8);
    p.sm_count = 114; /* an H100 PCIe by another name: no public GPC count */
    ck_assert_ptr_null(verify_cluster_product(&table, &p, &by_name));
    arch_table_free(&table);
}
END_TEST

START_TEST(test_agreement_rule)
{
    VerifyQuery active = {.kind = VQ_ACTIVE_BLOCKS}, search = {.kind = VQ_BLOCK_SIZE};
    VerifyAnswer eight = {.ok = true, .value = 8, .min_grid = 1056};
    VerifyAnswer eight_other_grid = {.ok = true, .value = 8, .min_grid = 1};
    VerifyAnswer seven = {.ok = true, .value = 7};
    VerifyAnswer failed = {.ok = false, .error = "cudaErrorInvalidValue"};
    VerifyAnswer failed_too = {.ok = false, .error = "does not fit"};
    ck_assert(verify_answers_agree(&active, &eight, &eight));
    ck_assert(!verify_answers_agree(&active, &eight, &seven));
    /* The minimum grid is an answer only of the block-size search. */
    ck_assert(verify_answers_agree(&active, &eight, &eight_other_grid));
    ck_assert(!verify_answers_agree(&search, &eight, &eight_other_grid));
    /* Both refusing agree, whatever the words; one refusing does not. */
    ck_assert(verify_answers_agree(&active, &failed, &failed_too));
    ck_assert(!verify_answers_agree(&active, &failed, &eight));
    /* Against a bound, the device may answer less, never more. */
    VerifyQuery clusters = {.kind = VQ_ACTIVE_CLUSTERS};
    VerifyAnswer bound = {.ok = true, .value = 33, .bound = true};
    VerifyAnswer exact = {.ok = true, .value = 32};
    VerifyAnswer over = {.ok = true, .value = 34};
    ck_assert(verify_answers_agree(&clusters, &exact, &bound));
    ck_assert(!verify_answers_agree(&clusters, &over, &bound));
    ck_assert(!verify_answers_agree(&clusters, &exact, &(VerifyAnswer){.ok = true, .value = 33}));
}
END_TEST

START_TEST(test_query_names)
{
    ck_assert_str_eq(verify_query_call(VQ_ACTIVE_BLOCKS),
                     "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    ck_assert_str_eq(verify_query_call(VQ_BLOCK_SIZE), "cudaOccupancyMaxPotentialBlockSize");
    ck_assert_str_eq(verify_query_call(VQ_DYNAMIC_SMEM),
                     "cudaOccupancyAvailableDynamicSMemPerBlock");
    for (int k = 0; k < VQ_KINDS; k++) {
        VerifyQueryKind back;
        ck_assert(verify_query_kind(verify_query_name((VerifyQueryKind)k), &back));
        ck_assert_int_eq(back, k);
    }
    VerifyQueryKind unknown;
    ck_assert(!verify_query_kind("Block_Size", &unknown));
}
END_TEST

/* ---- records -------------------------------------------------------------------- */

#define DIR_TEMPLATE "/tmp/check-verify-XXXXXX"
static char dir[sizeof DIR_TEMPLATE];
static char path[sizeof dir + 32];

/* A directory of its own per test (mkdtemp fills in the template). */
static void make_dir(void)
{
    memcpy(dir, DIR_TEMPLATE, sizeof dir);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/record.json", dir);
}

static void remove_dir(void)
{
    remove(path);
    rmdir(dir);
}

static void write_text(const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* One kernel, three questions, one answered with the runtime's error. */
START_TEST(test_record_round_trip)
{
    VerifyKernel kernel = {.name = "regs_32", .origin = "built-in", .attrs = attrs_32};
    VerifyQuery queries[] = {
        {VQ_ACTIVE_BLOCKS, 50, 49152, 256, 4096, 0, 0},
        {VQ_BLOCK_SIZE, OCC_CARVEOUT_DEFAULT, 232448, 0, 116224, 0, 0},
        {VQ_DYNAMIC_SMEM, 100, 49152, 1024, 0, 4, 0},
    };
    VerifyAnswer answers[] = {
        {.ok = true, .value = 8},
        {.ok = true, .value = 256, .min_grid = 1056},
        {.ok = false, .error = "cudaOccupancyAvailableDynamicSMemPerBlock: invalid argument"},
    };
    VerifyQuery *q = queries;
    VerifyAnswer *a = answers;
    int n_queries = 3;
    VerifyRecord rec = {.props = h200(), .kernels = &kernel, .n_kernels = 1,
                        .queries = &q, .answers = &a, .n_queries = &n_queries};
    char error[512];
    ck_assert_msg(verify_record_write(path, NULL, 0, &rec, error, sizeof error), "%s", error);

    VerifyRecord back;
    ck_assert_msg(verify_record_read(path, &back, error, sizeof error), "%s", error);
    ck_assert_mem_eq(&back.props, &rec.props, sizeof back.props);
    ck_assert_int_eq(back.n_kernels, 1);
    ck_assert_str_eq(back.kernels[0].name, "regs_32");
    ck_assert_str_eq(back.kernels[0].origin, path); /* replayed kernels come from the file */
    ck_assert_mem_eq(&back.kernels[0].attrs, &attrs_32, sizeof attrs_32);
    ck_assert_int_eq(back.n_queries[0], 3);
    for (int i = 0; i < 3; i++) {
        const VerifyQuery *x = &queries[i];
        assert_query(&back.queries[0][i], x->kind, x->carveout, x->max_dynamic_smem,
                     x->block_size, x->dynamic_smem, x->num_blocks);
        ck_assert_int_eq(back.answers[0][i].ok, answers[i].ok);
        ck_assert_int_eq(back.answers[0][i].value, answers[i].value);
        ck_assert_int_eq(back.answers[0][i].min_grid, answers[i].min_grid);
        ck_assert_str_eq(back.answers[0][i].error, answers[i].error);
    }
    verify_record_free(&back);
}
END_TEST

#define DEVICE                                                                              \
    "\"device\": {\"name\": \"NVIDIA H200\", \"major\": 9, \"minor\": 0, \"sm_count\": 132, " \
    "\"warp_size\": 32, \"max_threads_per_block\": 1024, \"max_threads_per_sm\": 2048, "      \
    "\"max_blocks_per_sm\": 32, \"regs_per_sm\": 65536, \"regs_per_block\": 65536, "          \
    "\"smem_per_sm\": 233472, \"smem_per_block\": 49152, \"smem_per_block_optin\": 232448, "  \
    "\"reserved_smem_per_block\": 1024, \"max_grid_x\": 2147483647, \"max_grid_y\": 65535, "  \
    "\"max_grid_z\": 65535}"
#define ATTRIBUTES                                                                          \
    "\"attributes\": {\"num_regs\": 32, \"static_smem\": 0, \"local_bytes\": 0, "            \
    "\"const_bytes\": 0, \"max_threads_per_block\": 256, \"max_dynamic_smem\": 49152}"
#define RECORD_WITH(answer)                                                                 \
    "{\"schema\": \"silk-occ/verify-record/1\", " DEVICE ", \"kernels\": [{\"name\": \"k\", " \
    ATTRIBUTES ", \"answers\": [" answer "]}]}\n"

/* Each malformed record's one line: the file, where, and what is wrong. */
static const struct {
    const char *text, *error; /* error after "PATH" */
} malformed[] = {
    {"{\"schema\": \"silk-occ/verify-record/2\"}",
     ": schema: not a silk-occ verify record (\"silk-occ/verify-record/1\")"},
    /* Line 2, column 12: where the value should start. */
    {"{\"schema\": \"silk-occ/verify-record/1\",\n \"device\": }", ":2:12: not valid JSON"},
    {RECORD_WITH("[\"active_blocks\", -1, 49152, 256, 0, 0, 8, 0]") " x",
     ":2:2: not valid JSON"},
    {"{\"schema\": \"silk-occ/verify-record/1\", \"device\": {\"name\": \"x\"}}",
     ": device.major: missing, or not a number"},
    /* 2^32 + 32 threads would be 32 if it were cut to an int. */
    {RECORD_WITH("[\"active_blocks\", -1, 49152, 4294967328, 0, 0, 8, 0]"),
     ": kernels[0].answers[0][3] (block_size): 4294967328 is not a whole number in 0..65536"},
    {RECORD_WITH("[\"active_blocks\", 150, 49152, 256, 0, 0, 8, 0]"),
     ": kernels[0].answers[0][1] (carveout): 150 is not a whole number in -1..100"},
    {RECORD_WITH("[\"max_active_blocks\", -1, 49152, 256, 0, 0, 8, 0]"),
     ": kernels[0].answers[0]: field 1 is not active_blocks, block_size, dynamic_smem or "
     "active_clusters"},
    /* A cluster answer carries its cluster size, in 1..1024. */
    {RECORD_WITH("[\"active_clusters\", -1, 49152, 256, 0, 0, 264, 0]"),
     ": kernels[0].answers[0]: an active_clusters answer is not an array of 9 fields"},
    {RECORD_WITH("[\"active_clusters\", -1, 49152, 256, 0, 0, 264, 0, 0]"),
     ": kernels[0].answers[0][8] (cluster_size): 0 is not a whole number in 1..1024"},
    {RECORD_WITH("[\"active_blocks\", -1, 49152, 256, 0, 0, 8, 0, 4]"),
     ": kernels[0].answers[0]: not an array of 8 fields"},
    {RECORD_WITH("[\"active_blocks\", -1, 49152, 256, 0, 0, 8]"),
     ": kernels[0].answers[0]: not an array of 8 fields"},
};
enum { N_MALFORMED = sizeof malformed / sizeof *malformed };

/* A cluster question and a kernel's own cluster read back as written. */
START_TEST(test_record_clusters_round_trip)
{
    VerifyKernel kernel = {.name = "pair", .origin = "built-in", .attrs = attrs_32};
    kernel.attrs.cluster_dims[0] = 2;
    kernel.attrs.cluster_dims[1] = kernel.attrs.cluster_dims[2] = 1;
    VerifyQuery query = {.kind = VQ_ACTIVE_CLUSTERS, .carveout = OCC_CARVEOUT_DEFAULT,
                         .max_dynamic_smem = 49152, .block_size = 128, .cluster_size = 2};
    VerifyAnswer answer = {.ok = true, .value = 1056};
    VerifyQuery *q = &query;
    VerifyAnswer *a = &answer;
    int n_queries = 1;
    VerifyRecord rec = {.props = h200(), .kernels = &kernel, .n_kernels = 1,
                        .queries = &q, .answers = &a, .n_queries = &n_queries};
    char error[512];
    ck_assert_msg(verify_record_write(path, NULL, 0, &rec, error, sizeof error), "%s", error);
    VerifyRecord back;
    ck_assert_msg(verify_record_read(path, &back, error, sizeof error), "%s", error);
    ck_assert_mem_eq(&back.kernels[0].attrs, &kernel.attrs, sizeof kernel.attrs);
    ck_assert_int_eq(back.queries[0][0].kind, VQ_ACTIVE_CLUSTERS);
    ck_assert_int_eq(back.queries[0][0].cluster_size, 2);
    ck_assert_int_eq(back.queries[0][0].block_size, 128);
    ck_assert_int_eq(back.answers[0][0].value, 1056);
    verify_record_free(&back);
}
END_TEST

START_TEST(test_malformed_record_says_where)
{
    write_text(malformed[_i].text);
    VerifyRecord rec;
    char error[512], want[512];
    ck_assert(!verify_record_read(path, &rec, error, sizeof error));
    snprintf(want, sizeof want, "%s%s", path, malformed[_i].error);
    ck_assert_str_eq(error, want);
    ck_assert_int_eq(rec.n_kernels, 0); /* nothing half-read is left */
}
END_TEST

/* The well-formed record those are made from reads. */
START_TEST(test_record_template_reads)
{
    write_text(RECORD_WITH("[\"active_blocks\", -1, 49152, 256, 0, 0, 8, 0]"));
    VerifyRecord rec;
    char error[512];
    ck_assert_msg(verify_record_read(path, &rec, error, sizeof error), "%s", error);
    ck_assert_int_eq(rec.n_queries[0], 1);
    ck_assert_int_eq(rec.answers[0][0].value, 8);
    verify_record_free(&rec);
}
END_TEST

START_TEST(test_missing_record)
{
    VerifyRecord rec;
    char absent[sizeof dir + 32], error[512], want[600];
    snprintf(absent, sizeof absent, "%s/absent.json", dir);
    snprintf(want, sizeof want, "%s: cannot read: No such file or directory", absent);
    ck_assert(!verify_record_read(absent, &rec, error, sizeof error));
    ck_assert_str_eq(error, want);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("verify");
    TCase *plan = tcase_create("plan");
    tcase_add_test(plan, test_plan_walks_every_setting);
    tcase_add_test(plan, test_plan_keeps_sizes_within_the_limit);
    tcase_add_test(plan, test_plan_clusters);
    suite_add_tcase(s, plan);
    TCase *compare = tcase_create("compare");
    tcase_add_test(compare, test_h200_agrees_with_its_rows);
    tcase_add_test(compare, test_arch_takes_the_device_limits);
    tcase_add_test(compare, test_engine_answers);
    tcase_add_test(compare, test_cluster_answers);
    tcase_add_test(compare, test_cluster_product);
    tcase_add_test(compare, test_agreement_rule);
    tcase_add_test(compare, test_query_names);
    suite_add_tcase(s, compare);
    TCase *record = tcase_create("record");
    tcase_add_checked_fixture(record, make_dir, remove_dir);
    tcase_add_test(record, test_record_round_trip);
    tcase_add_test(record, test_record_clusters_round_trip);
    tcase_add_test(record, test_record_template_reads);
    tcase_add_loop_test(record, test_malformed_record_says_where, 0, N_MALFORMED);
    tcase_add_test(record, test_missing_record);
    suite_add_tcase(s, record);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
