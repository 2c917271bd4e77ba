/*
 * cmd_report.c: `silk-occ report`, the launch-configuration report: read
 * the options and targets, load each input as PTX per target, each target
 * with its own kernels (report_input.c; a .cu file through nvcc -ptx,
 * report_cuda.c; a .cubin file comes measured, report_cubin.c), measure
 * every kernel with ptxas -v for all targets at once (or take the
 * compiler's estimate without ptxas, for Silk), compute each kernel x
 * target that compiles it (report_model.c), ask ptxas what the advised
 * register cap costs, print, and check the --expect options.
 */
#include "backend.h"
#include "escape.h"
#include "report_input.h"
#include "report_writers.h"
#include "ptx/ptx.h"
#include "ptx/ptxas.h"
#include "tempdir.h"
#include "verify.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const COMMAND = "report";

enum { MAX_TARGETS = 64 };

static const unsigned REPORT_FORMATS = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) |
                                       FORMAT_BIT(FORMAT_CSV) | FORMAT_BIT(FORMAT_MARKDOWN);

typedef struct ReportOptions {
    char *archs, *gpus;
    bool all;
    const char *kernel_glob;
    ReportLoadOptions load;    /* --nvcc-flags; targets from the cubins */
    ReportSettings settings;
    SizeExpr *dyn_smem;        /* --dyn-smem, freed by the command */
    OutputFormat format;
    bool check_all_caps;       /* --check-caps: no budget */
    long long expect_blocks;   /* -1: not asked */
    double expect_occupancy;   /* percent; < 0: not asked */
    char *tables[MAX_TABLE_FILES];
    int n_tables;
    char **files;              /* the operands */
    int n_files;
} ReportOptions;

void cmd_report_usage(FILE *out)
{
    fputs("usage: silk-occ report FILE... [options]\n"
          "\n"
          "The launch configuration of every kernel of .silk, .ptx, .cu and .cubin files,\n"
          "per target:\n"
          "occupancy table, selected block size and why, tail, launch-bounds advice, host\n"
          "code, grid validity and the cudaOccupancy check.\n"
          "\n"
          "  --arch LIST            architectures: sm_80,sm_90 (each product's SMs shown)\n"
          "  --gpu LIST             GPU products: h100-sxm,l4,mi300x\n"
          "  --all                  every product of an architecture from sm_75 on\n"
          "                         (default: this machine's GPU, else sm_80,sm_90,sm_120)\n"
          "  --kernel GLOB          only the kernels whose name matches\n"
          "  --work N               work items of a 1-D launch: grid, waves, tail\n"
          "  --work COLSxROWS       work of a 2-D launch (blocks of 32 x threads/32)\n"
          "  --dyn-smem BYTES|EXPR  dynamic shared memory per CTA: 20K, or over the block\n"
          "                         size: '4*threads+256' (threads, warps, + - * / ( ))\n"
          "  --block-sizes LIST     more candidate block sizes (besides 64,128,256,512,1024)\n"
          "  --format F             text | json | csv | markdown\n"
          "  --expect-blocks-per-sm N   exit 1 when the selected size keeps fewer CTAs\n"
          "  --expect-occupancy P       exit 1 when it reaches less than P percent\n"
          "  --arch-table FILE      add or override table rows (may be repeated)\n"
          "  --nvcc-flags \"FLAGS\"   more nvcc options for .cu files (-O3 -DN=4)\n"
          "  --check-caps           compile every kernel at its advised register cap\n"
          "                         (by default at most 64 per run are)\n"
          "\n"
          "Registers come from ptxas -v ($SILK_PTXAS, or the CUDA toolkit's); without\n"
          "ptxas, Silk kernels use the compiler's estimate (marked estimated).  A .cu\n"
          "file is compiled by nvcc -ptx for each target; a .cubin is read as it is\n"
          "and records no spills.\n"
          "See silk-occ(1).\n",
          out);
}

static const struct option long_options[] = {
    {"arch", required_argument, NULL, 'a'},        {"gpu", required_argument, NULL, 'g'},
    {"all", no_argument, NULL, 'A'},               {"kernel", required_argument, NULL, 'k'},
    {"work", required_argument, NULL, 'w'},        {"block-sizes", required_argument, NULL, 'b'},
    {"format", required_argument, NULL, 'f'},      {"expect-blocks-per-sm", required_argument, NULL, 'e'},
    {"expect-occupancy", required_argument, NULL, 'o'}, {"arch-table", required_argument, NULL, 'T'},
    {"nvcc-flags", required_argument, NULL, 'N'},   {"check-caps", no_argument, NULL, 'C'},
    {"dyn-smem", required_argument, NULL, 'd'},
    {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
};

static void add_size(ReportSettings *s, int size)
{
    for (int i = 0; i < s->n_sizes; i++)
        if (s->sizes[i] == size)
            return;
    int i = s->n_sizes++;
    for (; i > 0 && s->sizes[i - 1] > size; i--)
        s->sizes[i] = s->sizes[i - 1];
    s->sizes[i] = size;
}

static bool take_block_size(char *item, void *settings)
{
    ReportSettings *s = settings;
    long long size;
    if (!cli_parse_integer(COMMAND, "--block-sizes", item, 1, 1024, &size))
        return false;
    /* One place stays for a kernel's own .maxntid. */
    if (s->n_sizes == REPORT_MAX_SIZES - 1) {
        cli_error(COMMAND, "--block-sizes: at most %d more sizes", REPORT_MAX_SIZES - 1 - 5);
        return false;
    }
    add_size(s, (int)size);
    return true;
}

static bool parse_block_sizes(ReportSettings *s, char *list)
{
    return cli_split_list(COMMAND, "--block-sizes", list, take_block_size, s);
}

/* A percentage: digits, a fraction, a '%' (50, 62.5, 75%); not a hex
 * float or a number after spaces, as strtod would take. */
static bool parse_percent(const char *text, double *out)
{
    size_t whole = strspn(text, "0123456789");
    size_t fraction = text[whole] == '.' ? strspn(text + whole + 1, "0123456789") : 0;
    const char *end = text + whole + (text[whole] == '.' ? 1 + fraction : 0);
    double p = whole ? strtod(text, NULL) : 0;
    if (*end == '%')
        end++;
    if (!whole || (text[whole] == '.' && !fraction) || *end || !(p > 0 && p <= 100)) {
        cli_error(COMMAND, "--expect-occupancy: '%s' is not a percentage above 0 and at most 100",
                  QUOTED(text));
        return false;
    }
    *out = p;
    return true;
}

/* --dyn-smem: a size or an expression over the block size, evaluated
 * for each row (where it must have a value: report_entry_compute). */
static bool parse_dyn_smem(ReportOptions *o, const char *arg)
{
    char error[SIZE_EXPR_ERROR_SIZE];
    size_expr_free(o->dyn_smem);
    o->dyn_smem = size_expr_parse(arg, error, sizeof error);
    if (!o->dyn_smem) {
        cli_error(COMMAND, "--dyn-smem '%s': %s", QUOTED(arg), error);
        return false;
    }
    o->settings.dyn_smem = o->dyn_smem;
    o->settings.dyn_smem_text = arg;
    return true;
}

/* --work N, or COLSxROWS for a 2-D launch; the product stays below 2^53,
 * where JSON's numbers are exact. */
static bool parse_work(ReportSettings *s, char *arg)
{
    long long cols, rows = 0;
    char *x = strpbrk(arg, "xX");
    if (x)
        *x = '\0';
    bool ok = cli_parse_integer(COMMAND, "--work", arg, 1, INT64_MAX, &cols) &&
              (!x || cli_parse_integer(COMMAND, "--work", x + 1, 1, INT64_MAX, &rows));
    if (x)
        *x = 'x';
    if (ok && x && (double)cols * (double)rows >= 9007199254740992.0) {
        cli_error(COMMAND, "--work %s: more than 2^53 work items", QUOTED(arg));
        ok = false;
    }
    s->have_work = ok;
    s->work = ok ? (uint64_t)cols : 0;
    s->work_rows = ok ? (uint64_t)rows : 0;
    return ok;
}

static bool read_option(ReportOptions *o, int c, char *arg)
{
    switch (c) {
    case 'a': o->archs = arg; return true;
    case 'g': o->gpus = arg; return true;
    case 'A': o->all = true; return true;
    case 'k': o->kernel_glob = arg; return true;
    case 'N': o->load.nvcc_flags = arg; return true;
    case 'C': o->check_all_caps = true; return true;
    case 'b': return parse_block_sizes(&o->settings, arg);
    case 'f': return cli_parse_format_among(COMMAND, arg, REPORT_FORMATS, &o->format);
    case 'o': return parse_percent(arg, &o->expect_occupancy);
    case 'e': return cli_parse_integer(COMMAND, "--expect-blocks-per-sm", arg, 1, 64, &o->expect_blocks);
    case 'T': return target_add_table_file(COMMAND, o->tables, &o->n_tables, arg);
    case 'd': return parse_dyn_smem(o, arg);
    case 'w': return parse_work(&o->settings, arg);
    }
    return false;
}

static bool take_option(int c, char *arg, void *o)
{
    return read_option(o, c, arg);
}

/* Returns EXIT_OK, EXIT_USAGE, or EXIT_HELP when --help was asked (and printed). */
static int parse_options(int argc, char **argv, ReportOptions *o)
{
    *o = (ReportOptions){.expect_blocks = -1, .expect_occupancy = -1};
    static const int defaults[] = {64, 128, 256, 512, 1024};
    for (int i = 0; i < 5; i++)
        add_size(&o->settings, defaults[i]);
    int first;
    /* --arch-table adds a file, --block-sizes more sizes: both repeat. */
    int rc = cli_getopt(COMMAND, argc, argv, "Tb", long_options, cmd_report_usage, take_option, o,
                        &first);
    if (rc != EXIT_OK)
        return rc;
    o->files = argv + first;
    o->n_files = argc - first;
    if (o->n_files == 0) {
        cli_error(COMMAND, "give one or more .silk, .ptx, .cu or .cubin files");
        return EXIT_USAGE;
    }
    if ((o->archs != NULL) + (o->gpus != NULL) + o->all > 1) {
        cli_error(COMMAND, "--arch, --gpu and --all: give one of them");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Only NVIDIA architectures the back end (and so ptxas) can target; an
 * AMD target's row serves a .hsaco file whatever silkc compiles for. */
static bool add_target(Target *targets, int *n, const Target *t)
{
    if (t->vendor == OCC_NVIDIA && !backend_find(t->sm_name)) {
        cli_error(COMMAND, "%s: not a target of the compiler and ptxas (sm_75 and later)",
                  t->sm_name);
        return false;
    }
    if (*n == MAX_TARGETS) {
        cli_error(COMMAND, "at most %d targets", MAX_TARGETS);
        return false;
    }
    targets[(*n)++] = *t;
    return true;
}

/* The GPU of this machine, when the CUDA runtime finds one: the table's
 * product of its compute capability and SM count, else `device` filled
 * from the properties (which the caller keeps alive). */
static bool device_target(const ArchTable *table, GpuProduct *device, Target *t)
{
    if (!verify_have_cuda() || (getenv("SILK_NO_DEVICE") && *getenv("SILK_NO_DEVICE")))
        return false;
    VerifyRuntime rt;
    DeviceProps props;
    char error[256], cc[16];
    verify_runtime_cuda(&rt);
    if (!rt.open(&rt, 0, &props, error, sizeof error))
        return false;
    rt.close(&rt);
    snprintf(cc, sizeof cc, "%d.%d", props.major, props.minor);
    *t = (Target){.arch = arch_table_find(table, cc), .sm_count = props.sm_count};
    if (!t->arch)
        return false;
    arch_sm_name(t->arch, t->sm_name, sizeof t->sm_name);
    if (!backend_find(t->sm_name))
        return false;
    for (size_t i = 0; i < table->n_products; i++) {
        const GpuProduct *g = &table->products[i];
        if (g->major == props.major && g->minor == props.minor && g->sm_count == props.sm_count) {
            t->gpu = g;
            return true;
        }
    }
    *device = (GpuProduct){.major = props.major, .minor = props.minor, .sm_count = props.sm_count};
    snprintf(device->id, sizeof device->id, "device-0");
    snprintf(device->name, sizeof device->name, "%.60s", props.name);
    t->gpu = device;
    return true;
}

/* The targets of an --arch or --gpu list, as they are named. */
typedef struct TargetList {
    const ArchTable *table;
    const AmdTable *amd;
    bool gpus;
    Target *targets;
    int *n;
} TargetList;

static bool take_target(char *name, void *context)
{
    TargetList *l = context;
    Target t;
    bool ok = target_resolve_amd(l->amd, name, l->gpus, &t) ||
              (l->gpus ? target_resolve_gpu(COMMAND, l->table, name, &t)
                       : target_resolve_arch(COMMAND, l->table, name, &t));
    return ok && add_target(l->targets, l->n, &t);
}

static bool resolve_targets(ReportOptions *o, const ArchTable *table, const AmdTable *amd,
                            GpuProduct *device, Target *targets, int *n)
{
    char fallback[] = "sm_80,sm_90,sm_120";
    *n = 0;
    Target t;
    if (o->all) {
        for (size_t i = 0; i < table->n_products; i++) {
            if (!target_resolve_gpu(COMMAND, table, table->products[i].id, &t))
                return false;
            if (backend_find(t.sm_name) && !add_target(targets, n, &t))
                return false;
        }
        return true;
    }
    if (!o->gpus && !o->archs && device_target(table, device, &t))
        return add_target(targets, n, &t);
    TargetList list = {table, amd, o->gpus != NULL, targets, n};
    return cli_split_list(COMMAND, list.gpus ? "--gpu" : "--arch",
                          list.gpus ? o->gpus : o->archs ? o->archs : fallback, take_target, &list);
}

/* ---- measuring ------------------------------------------------------------ */

typedef struct Run {
    const ReportOptions *options;
    const Target *targets;
    int n_targets;
    ReportSource *sources;
    int n_sources;
    const char *ptxas;
    const char *tmpdir;
    Arena *arena;
    ReportModel model;
} Run;

/* ptxas -v on every (file, target) pair with PTX at once (when there is
 * a ptxas); a .cubin or .cu file comes measured already. */
static int measure(Run *r, UsageReport *reports)
{
    int n = 0, total = r->n_sources * r->n_targets;
    const char **paths = ARENA_ARRAY(r->arena, const char *, (size_t)total);
    const char **archs = ARENA_ARRAY(r->arena, const char *, (size_t)total);
    int *pair = ARENA_ARRAY(r->arena, int, (size_t)total);
    for (int f = 0; f < r->n_sources; f++)
        for (int t = 0; t < r->n_targets; t++) {
            if (r->sources[f].measured || !report_source_runs_on(&r->sources[f], t))
                continue;
            paths[n] = r->sources[f].ptx_paths[t];
            archs[n] = r->targets[t].sm_name;
            pair[n++] = f * r->n_targets + t;
        }
    if (n == 0 || !r->ptxas)
        return EXIT_OK;
    UsageReport *run = ARENA_ARRAY(r->arena, UsageReport, (size_t)n);
    int status = ptxas_run_targets(r->ptxas, paths, archs, n, r->arena, run);
    if (status == PTXAS_NOT_STARTED) {
        cli_error(COMMAND, "cannot start %s: %s", r->ptxas, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    for (int i = 0; i < n; i++)
        reports[pair[i]] = run[i];
    for (int i = 0; status != 0 && i < n; i++)
        if (run[i].exit_status != 0) {
            const ReportSource *s = &r->sources[pair[i] / r->n_targets];
            return report_ptxas_failed(r->ptxas, s->path, s->kind, &run[i], archs[i]);
        }
    return EXIT_OK;
}

/* --kernel GLOB matches the symbol or the demangled name, with or
 * without its parameters. */
static bool wanted(const Run *r, const MeasuredKernel *k)
{
    const char *glob = r->options->kernel_glob;
    return !glob || fnmatch(glob, k->name, 0) == 0 || fnmatch(glob, k->title, 0) == 0 ||
           fnmatch(glob, k->cxx_name, 0) == 0;
}

static void push_entry(Run *r, const ReportEntry *e, int *cap)
{
    if (r->model.n_entries == *cap) {
        int grown = *cap ? *cap * 2 : 16;
        r->model.entries = arena_grow(r->arena, r->model.entries, (size_t)*cap, (size_t)grown,
                                      sizeof *r->model.entries);
        *cap = grown;
    }
    r->model.entries[r->model.n_entries++] = *e;
}

/* The kernels of source s on any target, each once: the first target's in
 * its order, then those only later targets compile. */
static int kernel_union(const Run *r, const ReportSource *s, const MeasuredKernel ***out)
{
    int total = 0, n = 0;
    for (int t = 0; t < r->n_targets; t++)
        total += s->n_kernels[t];
    const MeasuredKernel **list = ARENA_ARRAY(r->arena, const MeasuredKernel *, (size_t)total + 1);
    for (int t = 0; t < r->n_targets; t++) {
        if (t > 0 && s->kernels[t] == s->kernels[t - 1])
            continue; /* the same list (Silk, PTX, a cubin) */
        for (int k = 0; k < s->n_kernels[t]; k++) {
            int i = 0;
            while (i < n && strcmp(list[i]->name, s->kernels[t][k].name) != 0)
                i++;
            if (i == n)
                list[n++] = &s->kernels[t][k];
        }
    }
    *out = list;
    return n;
}

/* The reported targets whose compile of s lacks kernel `name`, as
 * "sm_80, sm_86"; NULL when every one has it. */
static const char *absent_on(const Run *r, const ReportSource *s, const char *name)
{
    char list[512] = "";
    size_t used = 0;
    for (int t = 0; t < r->n_targets; t++)
        if (report_source_runs_on(s, t) && !report_source_kernel(s, t, name) &&
            !strstr(list, r->targets[t].sm_name))
            used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                                     "%s%s", used ? ", " : "", r->targets[t].sm_name);
    return used ? arena_strndup(r->arena, list, strlen(list)) : NULL;
}

static int add_entry(Run *r, const ReportSource *s, const MeasuredKernel *k, int t,
                     const UsageReport *reports, int *cap)
{
    ReportEntry e = {.kernel = *k, .target = r->targets[t]};
    if (k->amd_row) { /* a code object's wave64 kernel: its row's figures */
        e.target.amd = k->amd_row;
        snprintf(e.target.sm_name, sizeof e.target.sm_name, "%s", k->amd_row->gfx);
    }
    if (!s->measured && reports) {
        const KernelUsage *u = usage_kernel(&reports[(s - r->sources) * r->n_targets + t], k->name);
        if (u)
            e.kernel.usage = *u;
    }
    char error[512];
    if (!report_entry_compute(&e, &r->options->settings, error, sizeof error)) {
        cli_error(COMMAND, "%s", error);
        return EXIT_USAGE;
    }
    push_entry(r, &e, cap);
    return EXIT_OK;
}

/* One entry per kernel and target that compiles it, kernel by kernel. */
static int build_entries(Run *r, const UsageReport *reports)
{
    int cap = 0;
    for (int f = 0; f < r->n_sources; f++) {
        const ReportSource *s = &r->sources[f];
        const MeasuredKernel **kernels;
        int n = kernel_union(r, s, &kernels);
        for (int k = 0; k < n; k++) {
            if (!wanted(r, kernels[k]))
                continue;
            const char *absent = absent_on(r, s, kernels[k]->name);
            for (int t = 0; t < r->n_targets; t++) {
                const MeasuredKernel *on_t = report_source_kernel(s, t, kernels[k]->name);
                if (!report_source_runs_on(s, t) || !on_t)
                    continue;
                MeasuredKernel kernel = *on_t;
                kernel.absent_on = absent;
                if (add_entry(r, s, &kernel, t, reports, &cap) != EXIT_OK)
                    return EXIT_USAGE;
            }
        }
    }
    return EXIT_OK;
}

/* The source and target index an entry came from. */
static const ReportSource *source_of(const Run *r, const ReportEntry *e, int *target)
{
    *target = 0;
    while (*target < r->n_targets && strcmp(r->targets[*target].sm_name, e->target.sm_name) != 0)
        ++*target;
    for (int f = 0; f < r->n_sources && *target < r->n_targets; f++)
        if (r->sources[f].path == e->kernel.file)
            return &r->sources[f];
    return NULL;
}

/* Kernels compiled again at their advised register cap in one run, unless
 * --check-caps: ptxas on register-limited kernels is the costly part of a
 * report (bench/report: a thousand kernels took 0.9 of ptxas alone with
 * every cap checked, 0.5 without), and a file of hundreds is better served
 * fast, saying which caps went unchecked. */
enum { CAP_CHECK_BUDGET = 64 };

/* The entries whose advice has a cap and whose PTX the report holds. */
static int capped_entries(Run *r)
{
    int n = 0, t;
    for (int i = 0; i < r->model.n_entries; i++) {
        const ReportEntry *e = &r->model.entries[i];
        const ReportSource *s = e->cap.applies ? source_of(r, e, &t) : NULL;
        n += s && report_source_entry(s, t, e->kernel.name) != NULL;
    }
    return n;
}

/* Source f's PTX for target t with each capped entry at its cap and the
 * others left out, written for ptxas; NULL when none is capped. */
static const char *caps_ptx(Run *r, int f, int t)
{
    const ReportSource *s = &r->sources[f];
    int n = s->n_entries[t], any = 0, et;
    int *caps = ARENA_ARRAY(r->arena, int, (size_t)n + 1);
    for (int k = 0; k < n; k++)
        caps[k] = -1;
    for (int i = 0; i < r->model.n_entries; i++) {
        const ReportEntry *e = &r->model.entries[i];
        if (!e->cap.applies || source_of(r, e, &et) != s || et != t)
            continue;
        const PtxEntry *pe = report_source_entry(s, t, e->kernel.name);
        if (pe) {
            caps[pe - s->entries[t]] = e->cap.cap;
            any = 1;
        }
    }
    if (!any)
        return NULL;
    size_t len;
    char *text = ptx_with_register_caps(s->ptx_texts[t], s->ptx_lens[t], s->entries[t], n, caps,
                                      r->arena, &len);
    char stem[48];
    snprintf(stem, sizeof stem, "caps%d-%d", f, t);
    return report_write_temp(r->tmpdir, stem, text, len, r->arena);
}

/* What ptxas did for entry e at its cap, from the run of e's file and target. */
static void take_cap_result(Run *r, ReportEntry *e, const UsageReport *reports, const int *job)
{
    int t;
    const ReportSource *s = source_of(r, e, &t);
    if (!s)
        return;
    int j = job[(s - r->sources) * r->n_targets + t];
    const KernelUsage *u = j >= 0 && reports[j].exit_status == 0
                               ? usage_kernel(&reports[j], e->kernel.name)
                               : NULL;
    if (!u)
        return;
    e->cap.checked = true;
    e->cap.cap_registers = u->registers;
    e->cap.cap_spill_stores = u->spill_stores;
    e->cap.cap_spill_loads = u->spill_loads;
}

/* Compiles the kernels whose advice has a register cap at that cap, one
 * ptxas per file and target, all at once, to say whether they would spill
 * there; over the budget, marks them unchecked instead. */
static void check_caps(Run *r)
{
    int wanted = capped_entries(r);
    if (wanted == 0)
        return;
    if (wanted > CAP_CHECK_BUDGET && !r->options->check_all_caps) {
        for (int i = 0; i < r->model.n_entries; i++)
            r->model.entries[i].cap.over_budget = r->model.entries[i].cap.applies;
        return;
    }
    int slots = r->n_sources * r->n_targets, n = 0;
    const char **paths = ARENA_ARRAY(r->arena, const char *, (size_t)slots + 1);
    const char **archs = ARENA_ARRAY(r->arena, const char *, (size_t)slots + 1);
    int *job = ARENA_ARRAY(r->arena, int, (size_t)slots + 1);
    for (int f = 0; f < r->n_sources; f++)
        for (int t = 0; t < r->n_targets; t++) {
            job[f * r->n_targets + t] = -1;
            if ((paths[n] = caps_ptx(r, f, t))) {
                archs[n] = r->targets[t].sm_name;
                job[f * r->n_targets + t] = n++;
            }
        }
    UsageReport *reports = ARENA_ARRAY(r->arena, UsageReport, (size_t)n + 1);
    ptxas_run_targets(r->ptxas, paths, archs, n, r->arena, reports);
    for (int i = 0; i < r->model.n_entries; i++)
        if (r->model.entries[i].cap.applies)
            take_cap_result(r, &r->model.entries[i], reports, job);
}

/* ---- the command ---------------------------------------------------------- */

static bool any_kernel_matches(const Run *r)
{
    for (int f = 0; f < r->n_sources; f++) {
        const MeasuredKernel **kernels;
        int n = kernel_union(r, &r->sources[f], &kernels);
        for (int k = 0; k < n; k++)
            if (wanted(r, kernels[k]))
                return true;
    }
    return false;
}

static void list_kernels(const Run *r, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int f = 0; f < r->n_sources; f++) {
        const MeasuredKernel **kernels;
        int n = kernel_union(r, &r->sources[f], &kernels);
        for (int k = 0; k < n; k++) {
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, "%s%s", used ? ", " : "", kernels[k]->cxx_name);
        }
    }
}

/* --expect-*: one line per kernel and target that falls short. */
static int check_expectations(const Run *r)
{
    const ReportOptions *o = r->options;
    int rc = EXIT_OK;
    for (int i = 0; i < r->model.n_entries; i++) {
        const ReportEntry *e = &r->model.entries[i];
        const ReportRow *row = report_selected(e);
        int blocks = row ? row->fig.groups : 0;
        double occupancy = row ? 100.0 * occ_figures_occupancy(&row->fig) : 0;
        int threads = row ? row->threads : 0;
        char escaped[256];
        const char *name = escape_if_needed(e->kernel.name, escaped, sizeof escaped);
        if (o->expect_blocks > 0 && blocks < o->expect_blocks) {
            cli_error(COMMAND, "%s on %s: %d CTAs per SM at %d threads, below --expect-blocks-per-sm %lld",
                      name, e->target.sm_name, blocks, threads, o->expect_blocks);
            rc = EXIT_FINDINGS;
        }
        if (o->expect_occupancy > 0 && occupancy + 1e-9 < o->expect_occupancy) {
            cli_error(COMMAND, "%s on %s: %.1f%% occupancy at %d threads, below --expect-occupancy %g%%",
                      name, e->target.sm_name, occupancy, threads, o->expect_occupancy);
            rc = EXIT_FINDINGS;
        }
    }
    return rc;
}

static bool any_target_runs(const Run *r, const ReportSource *s)
{
    for (int t = 0; t < r->n_targets; t++)
        if (report_source_runs_on(s, t))
            return true;
    return false;
}

static int load_all(Run *r, char **files, int n_files)
{
    r->sources = ARENA_ARRAY(r->arena, ReportSource, (size_t)n_files);
    for (int i = 0; i < n_files; i++) {
        int rc = report_load(files[i], &r->options->load, r->targets, r->n_targets, r->tmpdir,
                             r->arena, &r->sources[i]);
        if (rc != EXIT_OK)
            return rc;
        r->n_sources++;
        if (r->sources[i].kind != INPUT_SILK && !r->sources[i].measured && !r->ptxas &&
            any_target_runs(r, &r->sources[i])) {
            cli_error(COMMAND, "%s: PTX input needs ptxas for its register counts, and none was found "
                               "(put the CUDA toolkit's bin on PATH, or set SILK_PTXAS)", ESCAPED(files[i]));
            return EXIT_ENVIRONMENT;
        }
    }
    if (!any_kernel_matches(r)) {
        char names[1024];
        list_kernels(r, names, sizeof names);
        if (r->options->kernel_glob)
            cli_error(COMMAND, "--kernel: no kernel matches '%s' (the kernels: %s)",
                      QUOTED(r->options->kernel_glob), names[0] ? names : "none");
        else
            cli_error(COMMAND, "the input has no kernels");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* One writer per --format. */
static int write_report(const ReportModel *m, OutputFormat format, FILE *out)
{
    switch (format) {
    case FORMAT_JSON: return report_write_json(m, out);
    case FORMAT_CSV: return report_write_csv(m, out);
    case FORMAT_MARKDOWN: return report_write_markdown(m, out);
    case FORMAT_TEXT: break;
    }
    return report_write_text(m, out);
}

static int analyse(Run *r, char **files, int n_files)
{
    int rc = load_all(r, files, n_files);
    UsageReport *reports = NULL;
    if (rc == EXIT_OK) {
        reports = ARENA_ARRAY(r->arena, UsageReport, (size_t)(r->n_sources * r->n_targets));
        rc = measure(r, reports);
    }
    if (rc == EXIT_OK)
        rc = build_entries(r, reports);
    if (rc == EXIT_OK && r->ptxas)
        check_caps(r);
    if (rc != EXIT_OK)
        return rc;
    rc = write_report(&r->model, r->options->format, stdout);
    fflush(stdout);
    return rc == EXIT_OK ? check_expectations(r) : rc;
}

int cmd_report(int argc, char **argv)
{
    ReportOptions o;
    int rc = parse_options(argc, argv, &o);
    ArchTable table;
    AmdTable amd_table;
    if (rc == EXIT_OK && !target_load_tables(COMMAND, &table, &amd_table, o.tables, o.n_tables))
        rc = EXIT_USAGE;
    if (rc != EXIT_OK) {
        size_expr_free(o.dyn_smem);
        return rc < 0 ? EXIT_OK : rc;
    }
    o.settings.table = &table;
    o.settings.amd_table = &amd_table;
    o.load.amd_table = &amd_table;
    Target targets[MAX_TARGETS];
    GpuProduct device;
    Run r = {.options = &o, .targets = targets, .ptxas = ptxas_find(), .arena = arena_new()};
    char object_archs[1024];
    /* Given only cubins and code objects and no target: their own. */
    int own = !o.archs && !o.gpus && !o.all
                  ? report_object_archs(o.files, o.n_files, &amd_table, object_archs,
                                        sizeof object_archs)
                  : 0;
    if (own > 0) {
        o.archs = object_archs;
        o.load.targets_from_cubins = true;
    }
    if (own < 0)
        rc = EXIT_USAGE;
    if (rc == EXIT_OK && !resolve_targets(&o, &table, &amd_table, &device, targets, &r.n_targets))
        rc = EXIT_USAGE;
    /* The PTX ptxas reads, and a .cu file's directory of nvcc's PTX: gone
     * at the end, or when a signal ends the run first (tempdir.h). */
    const char *base;
    char *dir = rc == EXIT_OK ? tempdir_make("silk-occ-report", &base) : NULL;
    if (rc == EXIT_OK && !dir) {
        cli_error(COMMAND, "cannot make a temporary directory in %s: %s", base, strerror(errno));
        rc = EXIT_ENVIRONMENT;
    } else if (rc == EXIT_OK) {
        r.tmpdir = dir;
        rc = analyse(&r, o.files, o.n_files);
        tempdir_remove(dir, 1);
    }
    arena_free(r.arena);
    size_expr_free(o.dyn_smem);
    arch_table_free(&table);
    amd_table_free(&amd_table);
    return rc;
}
