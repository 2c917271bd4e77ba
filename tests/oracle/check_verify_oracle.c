/*
 * check_verify_oracle.c: `silk-occ verify`'s comparison, run end to end with
 * NVIDIA's cuda_occupancy.h standing in for the CUDA runtime.
 *
 * With no GPU here, this is how verify's plan, its engine answers and its
 * agreement rule are exercised for every compute capability: a
 * VerifyRuntime whose answers come from the header (the calculator the
 * driver's own numbers are documented to match), asked every question of
 * verify_plan for the built-in kernels' attributes (as ptxas reports them
 * for sm_90), on a device made from each table row.  Every answer must
 * agree.
 *
 * With SILK_WRITE_VERIFY_RECORD=FILE it also writes the record of the H200
 * (its cudaDeviceProp values as the CUDA samples' deviceQuery prints them)
 * that tests/cli/verify.sh replays: tests/data/verify/h200-header.json.
 */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read_file.h"
#include "verify_engine.h"

#ifdef HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>

/* The built-in kernels as ptxas 13.0 compiles them for sm_90. */
static const FuncAttrs builtin[] = {
    /* No cluster of their own: cluster_dims is left zero. */
    {.num_regs = 114, .max_threads_per_block = 256, .max_dynamic_smem = 49152},
    {.num_regs = 32, .local_bytes = 792, .max_threads_per_block = 256, .max_dynamic_smem = 49152},
    {.num_regs = 64, .local_bytes = 616, .max_threads_per_block = 128, .max_dynamic_smem = 49152},
    {.num_regs = 114, .max_threads_per_block = 64, .max_dynamic_smem = 49152},
    {.num_regs = 64, .local_bytes = 616, .max_threads_per_block = 1024, .max_dynamic_smem = 49152},
    {.num_regs = 16, .static_smem = 4096, .max_threads_per_block = 256, .max_dynamic_smem = 45056},
    {.num_regs = 16, .static_smem = 20480, .max_threads_per_block = 128, .max_dynamic_smem = 28672},
    {.num_regs = 16, .static_smem = 45056, .max_threads_per_block = 512, .max_dynamic_smem = 4096},
    {.num_regs = 12, .max_threads_per_block = 1024, .max_dynamic_smem = 49152},
};
static const char *const builtin_names[] = {"regs_free", "regs_32",  "regs_64",
                                            "regs_168",  "block_1024", "smem_4k",
                                            "smem_20k",  "smem_44k", "unbounded"};
enum { N_BUILTIN = sizeof builtin / sizeof *builtin };

static cudaOccDeviceProp header_device(const DeviceProps *p)
{
    cudaOccDeviceProp d = {0};
    d.computeMajor = p->major;
    d.computeMinor = p->minor;
    d.maxThreadsPerBlock = p->max_threads_per_block;
    d.maxThreadsPerMultiprocessor = p->max_threads_per_sm;
    d.regsPerBlock = p->regs_per_block;
    d.regsPerMultiprocessor = p->regs_per_sm;
    d.warpSize = p->warp_size;
    d.sharedMemPerBlock = (size_t)p->smem_per_block;
    d.sharedMemPerMultiprocessor = (size_t)p->smem_per_sm;
    d.numSms = p->sm_count;
    d.sharedMemPerBlockOptin = (size_t)p->smem_per_block_optin;
    d.reservedSharedMemPerBlock = (size_t)p->reserved_smem_per_block;
    return d;
}

/* As cudaOccFuncAttributes(const cudaFuncAttributes &) builds it. */
static cudaOccFuncAttributes header_func(const FuncAttrs *a, const VerifyQuery *q)
{
    cudaOccFuncAttributes f = {0};
    f.maxThreadsPerBlock = a->max_threads_per_block;
    f.numRegs = a->num_regs;
    f.sharedSizeBytes = (size_t)a->static_smem;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = (size_t)q->max_dynamic_smem;
    f.numBlockBarriers = 1;
    return f;
}

static void header_ask(VerifyRuntime *rt, VerifyKernel *k, const VerifyQuery *q, VerifyAnswer *out)
{
    memset(out, 0, sizeof *out);
    cudaOccDeviceProp d = header_device(rt->state);
    cudaOccFuncAttributes f = header_func(&k->attrs, q);
    cudaOccDeviceState s = {0};
    s.carveoutConfig = q->carveout;
    cudaOccError e = CUDA_OCC_ERROR_INVALID_INPUT;
    if (q->kind == VQ_ACTIVE_BLOCKS) {
        cudaOccResult r;
        e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &d, &f, &s, q->block_size,
                                                    (size_t)q->dynamic_smem);
        out->value = r.activeBlocksPerMultiprocessor;
    } else if (q->kind == VQ_BLOCK_SIZE) {
        int min_grid = 0, block = 0;
        e = cudaOccMaxPotentialOccupancyBlockSize(&min_grid, &block, &d, &f, &s, NULL,
                                                  (size_t)q->dynamic_smem);
        out->value = block;
        out->min_grid = min_grid;
    } else {
        size_t bytes = 0;
        e = cudaOccAvailableDynamicSMemPerBlock(&bytes, &d, &f, &s, q->num_blocks, q->block_size);
        out->value = (int64_t)bytes;
    }
    out->ok = e == CUDA_OCC_SUCCESS;
    if (!out->ok)
        snprintf(out->error, sizeof out->error, "cudaOcc error %d", (int)e);
}

static DeviceProps device_of_row(const ArchLimits *a, const char *name, int sms)
{
    DeviceProps p = {0};
    snprintf(p.name, sizeof p.name, "%s", name);
    p.major = a->major, p.minor = a->minor, p.sm_count = sms, p.warp_size = a->warp_size;
    p.max_threads_per_block = a->max_threads_per_block;
    p.max_threads_per_sm = a->max_threads_per_sm;
    p.max_blocks_per_sm = a->max_blocks_per_sm;
    p.regs_per_sm = a->regs_per_sm, p.regs_per_block = a->regs_per_block;
    p.smem_per_sm = a->smem_per_sm, p.smem_per_block = a->smem_per_block;
    p.smem_per_block_optin = a->smem_per_block_optin;
    p.reserved_smem_per_block = a->reserved_smem_per_block;
    p.max_grid[0] = a->max_grid_x, p.max_grid[1] = a->max_grid_y, p.max_grid[2] = a->max_grid_z;
    return p;
}

/* The built-in kernels on `p`, every question asked of the header: a record. */
static void ask_header(const DeviceProps *p, VerifyRecord *rec)
{
    VerifyRuntime rt = {NULL, NULL, header_ask, NULL, (void *)p};
    rec->props = *p;
    rec->n_kernels = N_BUILTIN;
    rec->kernels = calloc(N_BUILTIN, sizeof *rec->kernels);
    rec->queries = calloc(N_BUILTIN, sizeof *rec->queries);
    rec->answers = calloc(N_BUILTIN, sizeof *rec->answers);
    rec->n_queries = calloc(N_BUILTIN, sizeof *rec->n_queries);
    ck_assert(rec->kernels && rec->queries && rec->answers && rec->n_queries);
    for (int i = 0; i < N_BUILTIN; i++) {
        VerifyKernel *k = &rec->kernels[i];
        snprintf(k->name, sizeof k->name, "%s", builtin_names[i]);
        k->origin = "built-in";
        k->attrs = builtin[i];
        /* The loaded dynamic limit follows the device's default per-CTA limit. */
        k->attrs.max_dynamic_smem = p->smem_per_block - k->attrs.static_smem;
        rec->queries[i] = verify_plan(p, &k->attrs, &rec->n_queries[i]);
        rec->answers[i] = calloc((size_t)rec->n_queries[i], sizeof **rec->answers);
        ck_assert(rec->answers[i]);
        for (int j = 0; j < rec->n_queries[i]; j++)
            rt.ask(&rt, k, &rec->queries[i][j], &rec->answers[i][j]);
    }
}

/* Disagreements between the record's answers and the engine's. */
static long disagreements(const ArchTable *table, const VerifyRecord *rec, long *checked)
{
    ArchLimits arch = verify_arch_from_props(verify_table_row(table, &rec->props), &rec->props);
    long n = 0;
    for (int i = 0; i < rec->n_kernels; i++)
        for (int j = 0; j < rec->n_queries[i]; j++) {
            VerifyAnswer engine;
            const VerifyQuery *q = &rec->queries[i][j];
            verify_engine_answer(&arch, rec->props.sm_count, &rec->kernels[i].attrs, q, &engine);
            if (!verify_answers_agree(q, &rec->answers[i][j], &engine)) {
                if (n < 5)
                    fprintf(stderr, "cc %d.%d %s %s block %d dyn %lld carveout %d: header %lld, engine %lld\n",
                            rec->props.major, rec->props.minor, rec->kernels[i].name,
                            verify_query_name(q->kind), q->block_size, (long long)q->dynamic_smem,
                            q->carveout, (long long)rec->answers[i][j].value,
                            (long long)engine.value);
                n++;
            }
            (*checked)++;
        }
    return n;
}

START_TEST(every_row_agrees)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    long checked = 0, disagree = 0;
    for (size_t r = 0; r < table.n_archs; r++) {
        DeviceProps p = device_of_row(&table.archs[r], "a device made from the table row", 100);
        VerifyRecord rec = {0};
        ask_header(&p, &rec);
        disagree += disagreements(&table, &rec, &checked);
        verify_record_free(&rec);
    }
    printf("verify against cuda_occupancy.h: %zu rows, %ld checked, %ld disagree\n",
           table.n_archs, checked, disagree);
    ck_assert_int_eq(disagree, 0);
    ck_assert_int_gt(checked, 70000); /* 74,728 with 19 rows */
    arch_table_free(&table);
}
END_TEST

/* The H200 as cudaGetDeviceProperties describes it (deviceQuery). */
static DeviceProps h200(void)
{
    DeviceProps p = {"NVIDIA H200", 9, 0, 132, 32, 1024, 2048, 32, 65536, 65536,
                     233472, 49152, 232448, 1024, {2147483647, 65535, 65535}};
    return p;
}

START_TEST(h200_record_round_trips)
{
    ArchTable table;
    OccError err;
    ck_assert_int_eq(arch_table_load_builtin(&table, &err), 0);
    DeviceProps p = h200();
    VerifyRecord rec = {0}, back = {0};
    ask_header(&p, &rec);
    const char *out = getenv("SILK_WRITE_VERIFY_RECORD");
    char path[] = "/tmp/verify-record-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    char error[512];
    ck_assert_msg(verify_record_write(out ? out : path, NULL, 0, &rec, error, sizeof error), "%s",
                  error);
    ck_assert_msg(verify_record_read(out ? out : path, &back, error, sizeof error), "%s", error);
    remove(path);
    ck_assert_int_eq(back.n_kernels, N_BUILTIN);
    for (int i = 0; i < N_BUILTIN; i++) {
        ck_assert_int_eq(back.n_queries[i], rec.n_queries[i]);
        for (int j = 0; j < rec.n_queries[i]; j++) {
            const VerifyQuery *a = &back.queries[i][j], *b = &rec.queries[i][j];
            ck_assert(a->kind == b->kind && a->carveout == b->carveout &&
                      a->max_dynamic_smem == b->max_dynamic_smem && a->block_size == b->block_size &&
                      a->dynamic_smem == b->dynamic_smem && a->num_blocks == b->num_blocks);
            ck_assert_int_eq(back.answers[i][j].ok, rec.answers[i][j].ok);
            ck_assert_int_eq(back.answers[i][j].value, rec.answers[i][j].value);
            ck_assert_int_eq(back.answers[i][j].min_grid, rec.answers[i][j].min_grid);
        }
    }
    long checked = 0;
    ck_assert_int_eq(disagreements(&table, &back, &checked), 0);
    verify_record_free(&rec);
    verify_record_free(&back);
    arch_table_free(&table);
}
END_TEST

/* --record never writes over one of the command's inputs, and a record
 * that cannot be written is an error naming the file, with nothing left. */
START_TEST(record_refuses_inputs_and_missing_directories)
{
    DeviceProps p = h200();
    VerifyRecord rec = {0};
    ask_header(&p, &rec);
    char path[] = "/tmp/verify-input-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "input\n", 6), 6);
    close(fd);
    const char *inputs[] = {"some.cubin", path};
    char error[512], want[600];
    ck_assert(!verify_record_write(path, inputs, 2, &rec, error, sizeof error));
    snprintf(want, sizeof want, "%s: the output would overwrite the input %s", path, path);
    ck_assert_str_eq(error, want);
    size_t len;
    char *text = read_file(path, 1, &len);
    ck_assert_str_eq(text, "input\n");
    free(text);
    remove(path);
    ck_assert(!verify_record_write("/nonexistent-dir/r.json", NULL, 0, &rec, error, sizeof error));
    ck_assert_str_eq(error, "/nonexistent-dir/r.json: cannot create: No such file or directory");
    verify_record_free(&rec);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("verify-oracle");
    TCase *tc = tcase_create("header");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_row_agrees);
    tcase_add_test(tc, h200_record_round_trips);
    tcase_add_test(tc, record_refuses_inputs_and_missing_directories);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#else

int main(void)
{
    puts("SKIP: cuda_occupancy.h was not found by configure (install the CUDA toolkit)");
    return 77;
}

#endif
