/*
 * cmd_verify.c: `silk-occ verify`, the engine and the tables proved against
 * the CUDA runtime on a real device.
 *
 *   silk-occ verify [FILE...] [--device N] [--format text|json]
 *                   [--record FILE | --replay FILE] [--arch-table FILE]
 *
 * Live, it reads the device's properties, loads each kernel (the built-in
 * set when no FILE is given; Silk compiled for the device, or .ptx/.cubin),
 * asks the runtime the questions of verify_plan (and, on 9.0 and newer,
 * verify_plan_clusters) and compares every answer with the engine's.  --record saves what the device said; --replay
 * compares against a saved record instead of a device.  Exit 0 when all
 * agree, 1 when something disagrees, 2 for bad usage or input, 3 when
 * there is no device to ask.
 */
#include "verify.h"
#include "escape.h"

#include "read_file.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char COMMAND[] = "verify";

typedef struct VerifyOptions {
    int device;
    OutputFormat format;
    const char *record, *replay;
    char *tables[MAX_TABLE_FILES];
    int n_tables;
    char **files;
    int n_files;
} VerifyOptions;

void cmd_verify_usage(FILE *out)
{
    fputs("usage: silk-occ verify [FILE...] [OPTIONS]\n"
          "\n"
          "Compare the occupancy engine and the tables with the CUDA runtime on a device:\n"
          "the device's properties against its table rows, and for each kernel (the\n"
          "built-in set, or each FILE: .silk, .ptx, .cubin) every block size, dynamic\n"
          "shared memory size and carveout against cudaOccupancy* calls; on 9.0 and\n"
          "newer, resident clusters against the GPC estimate of the device's product.\n"
          "\n"
          "options:\n"
          "  --device N           the CUDA device to use (default 0)\n"
          "  --format text|json   the report's form (default text)\n"
          "  --record FILE        also save what the device answered, to replay elsewhere\n"
          "  --replay FILE        compare against a saved record instead of a device\n"
          "  --arch-table FILE    add or override table rows (repeatable)\n"
          "  -h, --help           this help\n"
          "\n"
          "exit status: 0 all agree, 1 a disagreement, 2 bad usage or input, 3 no device\n",
          out);
}

static bool option(int c, char *arg, void *context)
{
    VerifyOptions *o = context;
    long long value;
    switch (c) {
    case 'd':
        if (!cli_parse_integer(COMMAND, "--device", arg, 0, 1023, &value))
            return false;
        o->device = (int)value;
        return true;
    case 'f': return cli_parse_format(COMMAND, arg, false, &o->format);
    case 'r': o->record = arg; return true;
    case 'p': o->replay = arg; return true;
    case 'T': return target_add_table_file(COMMAND, o->tables, &o->n_tables, arg);
    default: return false;
    }
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Each FILE must be a kind verify reads, and readable: said before any
 * device is asked, so that a typo is not reported as a missing GPU. */
static bool check_files(const VerifyOptions *o)
{
    for (int i = 0; i < o->n_files; i++) {
        const char *f = o->files[i];
        if (!has_suffix(f, ".silk") && !has_suffix(f, ".ptx") && !has_suffix(f, ".cubin")) {
            cli_error(COMMAND, "%s: not a .silk, .ptx or .cubin file", ESCAPED(f));
            return false;
        }
        FILE *probe = fopen(f, "rb");
        if (!probe) {
            cli_error(COMMAND, "%s: cannot read: %s", ESCAPED(f), strerror(errno));
            return false;
        }
        fclose(probe);
    }
    return true;
}

/* EXIT_OK to go on, EXIT_USAGE, or EXIT_HELP after --help. */
static int parse_options(int argc, char **argv, VerifyOptions *o)
{
    static const struct option options[] = {
        {"device", required_argument, NULL, 'd'},  {"format", required_argument, NULL, 'f'},
        {"record", required_argument, NULL, 'r'},  {"replay", required_argument, NULL, 'p'},
        {"arch-table", required_argument, NULL, 'T'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int first;
    int rc = cli_getopt(COMMAND, argc, argv, "T", options, cmd_verify_usage, option, o, &first);
    if (rc != EXIT_OK)
        return rc;
    o->files = argv + first;
    o->n_files = argc - first;
    if (o->replay && (o->record || o->n_files > 0)) {
        cli_error(COMMAND, "--replay: a record already holds its kernels; give no FILE and no --record");
        return EXIT_USAGE;
    }
    return check_files(o) ? EXIT_OK : EXIT_USAGE;
}

/* ---- a live run ---------------------------------------------------------- */

/* A .ptx or .cubin file, whole (PTX text NUL-terminated, as the runtime
 * wants it). */
static char *read_image(const char *path, char *error, size_t size)
{
    size_t len;
    char *data = read_file(path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!data) {
        char reason[128];
        snprintf(error, size, "%s: %s", ESCAPED(path),
                 read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, reason, sizeof reason));
    }
    return data;
}

/* The image of one FILE for the device of `props`. */
static char *file_image(const char *path, const DeviceProps *props, char *error, size_t size)
{
    if (has_suffix(path, ".ptx") || has_suffix(path, ".cubin"))
        return read_image(path, error, size);
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d%d", props->major, props->minor);
    char *ptx = verify_silk_ptx(path, NULL, 0, arch);
    if (!ptx)
        snprintf(error, size, "%s: does not compile for %s", path, arch);
    return ptx;
}

/* Loads the kernels (each FILE, or the built-in set) into rec->kernels. */
static int load_kernels(VerifyRuntime *rt, const VerifyOptions *o, VerifyRecord *rec,
                        char **images)
{
    char error[512];
    int n_images = o->n_files > 0 ? o->n_files : 1;
    for (int i = 0; i < n_images; i++) {
        const char *origin = o->n_files > 0 ? o->files[i] : "built-in";
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d%d", rec->props.major, rec->props.minor);
        images[i] = o->n_files > 0 ? file_image(o->files[i], &rec->props, error, sizeof error)
                                   : verify_builtin_ptx(arch, error, sizeof error);
        if (!images[i] ||
            !rt->load(rt, images[i], origin, &rec->kernels, &rec->n_kernels, error, sizeof error)) {
            if (images[i])
                cli_error(COMMAND, "%s: %s", ESCAPED(origin), error);
            else
                cli_error(COMMAND, "%s", error);
            return o->n_files > 0 ? EXIT_USAGE : EXIT_ENVIRONMENT;
        }
    }
    return EXIT_OK;
}

/* The plan of kernel `i`: verify_plan's questions, then the cluster ones. */
static void plan_kernel(const ArchTable *table, VerifyRecord *rec, int i)
{
    const FuncAttrs *attrs = &rec->kernels[i].attrs;
    int n = 0, n_clusters = 0;
    VerifyQuery *q = verify_plan(&rec->props, attrs, &n);
    const ArchLimits *row = verify_table_row(table, &rec->props);
    int max_cluster = row ? occ_cluster_limit(row, true) : 0;
    VerifyQuery *c = verify_plan_clusters(&rec->props, attrs, max_cluster, &n_clusters);
    VerifyQuery *all = realloc(q, ((size_t)n + (size_t)n_clusters + 1) * sizeof *all);
    if (!all)
        abort();
    for (int j = 0; j < n_clusters; j++)
        all[n + j] = c[j];
    free(c);
    rec->queries[i] = all;
    rec->n_queries[i] = n + n_clusters;
}

static void ask_all(const ArchTable *table, VerifyRuntime *rt, VerifyRecord *rec)
{
    int n = rec->n_kernels;
    rec->queries = calloc((size_t)n + 1, sizeof *rec->queries);
    rec->answers = calloc((size_t)n + 1, sizeof *rec->answers);
    rec->n_queries = calloc((size_t)n + 1, sizeof *rec->n_queries);
    if (!rec->queries || !rec->answers || !rec->n_queries)
        abort();
    for (int i = 0; i < n; i++) {
        plan_kernel(table, rec, i);
        rec->answers[i] = calloc((size_t)rec->n_queries[i] + 1, sizeof **rec->answers);
        if (!rec->answers[i])
            abort();
        for (int j = 0; j < rec->n_queries[i]; j++)
            rt->ask(rt, &rec->kernels[i], &rec->queries[i][j], &rec->answers[i][j]);
    }
}

/* The device's record: properties, kernels, answers; an exit status. */
static int live_run(const VerifyOptions *o, const ArchTable *table, VerifyRecord *rec)
{
    VerifyRuntime rt;
    verify_runtime_cuda(&rt);
    char error[512];
    rec->device = o->device;
    if (!rt.open(&rt, o->device, &rec->props, error, sizeof error)) {
        cli_error(COMMAND, "no CUDA device: %s", error);
        return EXIT_ENVIRONMENT;
    }
    int n_images = o->n_files > 0 ? o->n_files : 1;
    char **images = calloc((size_t)n_images, sizeof *images);
    int rc = images ? load_kernels(&rt, o, rec, images) : EXIT_ENVIRONMENT;
    if (rc == EXIT_OK)
        ask_all(table, &rt, rec);
    rt.close(&rt);
    for (int i = 0; images && i < n_images; i++)
        free(images[i]);
    free(images);
    return rc;
}

/* ---- the comparison --------------------------------------------------------- */

typedef struct Outcome {
    VerifyReport report;
    PropCheck *props;
    int *checked, *disagree;
    VerifyDisagreement *disagreements, *clusters;
    int n_disagreements, cap, n_clusters, clusters_cap;
    const GpuProduct *cluster_product;
    bool cluster_by_name;
    char row_name[16];
} Outcome;

/* Appends a row to a growing list (disagreements, cluster answers). */
static void note_row(VerifyDisagreement **list, int *n, int *cap, VerifyDisagreement row)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *list = realloc(*list, (size_t)*cap * sizeof **list);
        if (!*list)
            abort();
    }
    (*list)[(*n)++] = row;
}

/* The engine's answer: cluster questions on the product's GPC layout. */
static void engine_answer(const ArchLimits *arch, const VerifyRecord *rec, const Outcome *out,
                          int i, const VerifyQuery *q, VerifyAnswer *engine)
{
    const FuncAttrs *attrs = &rec->kernels[i].attrs;
    if (q->kind == VQ_ACTIVE_CLUSTERS) {
        int gpcs = out->cluster_product ? out->cluster_product->gpcs : 0;
        verify_cluster_answer(arch, rec->props.sm_count, gpcs, attrs, q, engine);
    } else {
        verify_engine_answer(arch, rec->props.sm_count, attrs, q, engine);
    }
}

static void compare_answers(const ArchLimits *arch, const VerifyRecord *rec, Outcome *out)
{
    for (int i = 0; i < rec->n_kernels; i++)
        for (int j = 0; j < rec->n_queries[i]; j++) {
            const VerifyQuery *q = &rec->queries[i][j];
            VerifyAnswer engine;
            engine_answer(arch, rec, out, i, q, &engine);
            out->checked[i]++;
            VerifyDisagreement row = {i, *q, rec->answers[i][j], engine};
            if (q->kind == VQ_ACTIVE_CLUSTERS)
                note_row(&out->clusters, &out->n_clusters, &out->clusters_cap, row);
            if (!verify_answers_agree(q, &rec->answers[i][j], &engine)) {
                out->disagree[i]++;
                note_row(&out->disagreements, &out->n_disagreements, &out->cap, row);
            }
        }
}

static void compare(const ArchTable *table, const VerifyRecord *rec, Outcome *out)
{
    VerifyReport *r = &out->report;
    out->checked = calloc((size_t)rec->n_kernels + 1, sizeof *out->checked);
    out->disagree = calloc((size_t)rec->n_kernels + 1, sizeof *out->disagree);
    if (!out->checked || !out->disagree)
        abort();
    out->props = verify_properties(table, &rec->props, &r->n_props);
    out->cluster_product = verify_cluster_product(table, &rec->props, &out->cluster_by_name);
    const ArchLimits *row = verify_table_row(table, &rec->props);
    if (row) {
        snprintf(out->row_name, sizeof out->row_name, "%d.%d", row->major, row->minor);
        ArchLimits arch = verify_arch_from_props(row, &rec->props);
        compare_answers(&arch, rec, out);
    }
    *r = (VerifyReport){&rec->props, rec->device, row ? out->row_name : NULL, out->props, r->n_props,
                        rec->kernels, rec->n_kernels, out->checked, out->disagree,
                        out->disagreements, out->n_disagreements, 0, 0,
                        out->clusters, out->n_clusters, out->cluster_product,
                        out->cluster_by_name};
    /* A missing row is one failed check: nothing else could be compared. */
    r->checked = r->n_props + (row ? 0 : 1);
    r->disagree = row ? 0 : 1;
    for (int i = 0; i < r->n_props; i++)
        r->disagree += out->props[i].device != out->props[i].table;
    for (int i = 0; i < rec->n_kernels; i++) {
        r->checked += out->checked[i];
        r->disagree += out->disagree[i];
    }
}

static void outcome_free(Outcome *out)
{
    free(out->props);
    free(out->checked);
    free(out->disagree);
    free(out->disagreements);
    free(out->clusters);
}

/* --record FILE, which may be none of the files the command read. */
static bool write_record(const VerifyOptions *o, const VerifyRecord *rec, char *error, size_t size)
{
    const char **inputs = malloc((MAX_TABLE_FILES + 1 + (size_t)o->n_files) * sizeof *inputs);
    if (!inputs) {
        snprintf(error, size, "out of memory");
        return false;
    }
    int n = 0;
    for (int i = 0; i < o->n_tables; i++)
        inputs[n++] = o->tables[i];
    for (int i = 0; i < o->n_files; i++)
        inputs[n++] = o->files[i];
    if (o->replay)
        inputs[n++] = o->replay;
    bool ok = verify_record_write(o->record, inputs, n, rec, error, size);
    free(inputs);
    return ok;
}

int cmd_verify(int argc, char **argv)
{
    VerifyOptions o = {.format = FORMAT_TEXT};
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    ArchTable table;
    AmdTable amd;
    if (!target_load_tables(COMMAND, &table, &amd, o.tables, o.n_tables))
        return EXIT_USAGE;
    amd_table_free(&amd); /* verify runs NVIDIA kernels only */
    VerifyRecord rec = {0};
    char error[512];
    if (o.replay)
        rc = verify_record_read(o.replay, &rec, error, sizeof error) ? EXIT_OK : EXIT_USAGE;
    else
        rc = live_run(&o, &table, &rec);
    if (o.replay && rc != EXIT_OK)
        cli_error(COMMAND, "--replay: %s", error);
    if (rc == EXIT_OK && o.record && !write_record(&o, &rec, error, sizeof error)) {
        cli_error(COMMAND, "--record: %s", error);
        rc = EXIT_USAGE;
    }
    if (rc == EXIT_OK) {
        Outcome out = {0};
        compare(&table, &rec, &out);
        rc = out.report.disagree == 0 ? EXIT_OK : EXIT_FINDINGS;
        if (o.format == FORMAT_TEXT)
            verify_print_text(&out.report, stdout);
        else if (verify_print_json(&out.report, stdout) != EXIT_OK)
            rc = EXIT_ENVIRONMENT;
        outcome_free(&out);
    }
    verify_record_free(&rec);
    arch_table_free(&table);
    return rc;
}
