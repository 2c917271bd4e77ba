/*
 * cmd_report.c: `silk-occ report`, the launch-configuration report: read
 * the options and targets, load each input as PTX per target, each target
 * with its own kernels (report_input.c; a .cu file through nvcc -ptx,
 * report_cuda.c; a .cubin file comes measured, report_cubin.c), measure
 * every kernel with ptxas -v for all targets at once (or take the
 * compiler's estimate without ptxas, for Silk), compute each kernel x
 * target that compiles it (report_model.c), ask ptxas what the advised
 * register cap costs, print, and check the --expect options.  With
 * --compile-commands the inputs are a project's CUDA units instead, each
 * compiled with its own flags (compdb.h, measure_units), and the units
 * that fail are summed up after the report of the others.
 */
#include "backend.h"
#include "compdb.h"
#include "escape.h"
#include "json_figures.h"
#include "measure.h"
#include "report_writers.h"
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
    MeasureOptions load;       /* --nvcc-flags; the tables; targets the objects' own */
    ReportSettings settings;
    SizeExpr *dyn_smem;        /* --dyn-smem, freed by the command */
    const char *dyn_smem_text; /* parsed once every --param is known */
    CliParams params;          /* --param: the names --dyn-smem may use */
    OutputFormat format;
    bool check_all_caps;       /* --check-caps: no budget */
    long long expect_blocks;   /* -1: not asked */
    double expect_occupancy;   /* percent; < 0: not asked */
    char *tables[MAX_TABLE_FILES];
    int n_tables;
    char **files;              /* the operands */
    int n_files;
    bool block_sizes_given;    /* --block-sizes, which --only-block-sizes excludes */
    int only[REPORT_MAX_SIZES]; /* --only-block-sizes, as given */
    int n_only;
    FILE *out;                 /* where the report goes: stdout, or wrap's file */
    const char *compile_commands; /* --compile-commands: a project instead of files */
    long long jobs;            /* --jobs; 0: one per core */
    bool quiet;                /* --quiet: no progress line */
} ReportOptions;

void cmd_report_usage(FILE *out)
{
    fputs("usage: silk-occ report FILE... [options]\n"
          "       silk-occ report --compile-commands compile_commands.json [options]\n"
          "\n"
          "The launch configuration of every kernel of .silk, .ptx, .cu, .cubin and .hsaco\n"
          "files, per target of either vendor (sm_90, gfx942):\n"
          "occupancy table, selected block size and why, tail, launch-bounds advice, host\n"
          "code, grid validity and the cudaOccupancy (hipOccupancy) check.\n"
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
          "  --param NAME=N         a name --dyn-smem may use: --dyn-smem 'BK*STAGES*1K'\n"
          "                         --param BK=2 --param STAGES=3 (may be repeated)\n"
          "  --block-sizes LIST     more candidate block sizes (besides 64,128,256,512,1024)\n"
          "  --cluster X[,Y[,Z]]    launch in thread-block clusters of X x Y x Z CTAs\n"
          "                         (a kernel's own __cluster_dims__ needs no option)\n"
          "  --only-block-sizes LIST  only these candidate sizes: 96,192 (not the defaults,\n"
          "                         nor the kernel's bound)\n"
          "  --fixed-block-size     a kernel's __launch_bounds__ (.maxntid) is its block size\n"
          "  --fixed-namespace NS   NS's kernels keep their bound as their block size, as\n"
          "                         cub, thrust, cutlass and cute's do (may be repeated)\n"
          "  --format F             text | json | csv | markdown\n"
          "  --expect-blocks-per-sm N   exit 1 when the selected size keeps fewer CTAs\n"
          "  --expect-occupancy P       exit 1 when it reaches less than P percent\n"
          "  --arch-table FILE      add or override table rows (may be repeated)\n"
          "  --nvcc-flags \"FLAGS\"   more nvcc options for .cu files (-O3 -DN=4)\n"
          "  --check-caps           compile every kernel at its advised register cap\n"
          "                         (by default at most 64 per run are)\n"
          "  --compile-commands FILE  every CUDA unit of a compile database, each with its\n"
          "                         own flags (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)\n"
          "  --jobs N               compile at most N units at a time (default: the cores)\n"
          "  --quiet                no progress line on a terminal\n"
          "\n"
          "Registers come from ptxas -v ($SILK_PTXAS, or the CUDA toolkit's); without\n"
          "ptxas, Silk kernels use the compiler's estimate (marked estimated).  A .cu\n"
          "file is compiled by one nvcc run for all targets, as a build does; a .cubin\n"
          "is read as it is and records no spills.\n"
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
    {"dyn-smem", required_argument, NULL, 'd'},    {"cluster", required_argument, NULL, 'L'},
    {"only-block-sizes", required_argument, NULL, 'B'}, {"fixed-block-size", no_argument, NULL, 'F'},
    {"fixed-namespace", required_argument, NULL, 'n'},
    {"compile-commands", required_argument, NULL, 'P'}, {"jobs", required_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},              {"param", required_argument, NULL, 'p'},
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

static bool parse_block_sizes(ReportOptions *o, char *list)
{
    o->block_sizes_given = true;
    return cli_split_list(COMMAND, "--block-sizes", list, take_block_size, &o->settings);
}

/* --only-block-sizes: a size twice is a slip in a list meant to be the
 * whole of it, so it is refused rather than merged. */
static bool take_only_size(char *item, void *options)
{
    ReportOptions *o = options;
    long long size;
    if (!cli_parse_integer(COMMAND, "--only-block-sizes", item, 1, 1024, &size))
        return false;
    for (int i = 0; i < o->n_only; i++)
        if (o->only[i] == size) {
            cli_error(COMMAND, "--only-block-sizes: %lld is given twice", size);
            return false;
        }
    if (o->n_only == REPORT_MAX_SIZES) {
        cli_error(COMMAND, "--only-block-sizes: at most %d sizes", REPORT_MAX_SIZES);
        return false;
    }
    o->only[o->n_only++] = (int)size;
    return true;
}

/* --fixed-namespace NS: a namespace's name, which the report prints. */
static bool add_fixed_namespace(ReportSettings *s, const char *ns)
{
    if (!report_namespace_valid(ns)) {
        cli_error(COMMAND, "--fixed-namespace '%s': not a namespace (identifiers joined by ::, "
                           "as mylib or mylib::detail, at most %d bytes)",
                  QUOTED(ns), REPORT_NAMESPACE_MAX - 1);
        return false;
    }
    if (s->n_fixed_namespaces == REPORT_MAX_NAMESPACES) {
        cli_error(COMMAND, "--fixed-namespace: at most %d namespaces", REPORT_MAX_NAMESPACES);
        return false;
    }
    s->fixed_namespaces[s->n_fixed_namespaces++] = ns;
    return true;
}

/* --only-block-sizes replaces the candidates --block-sizes would add to:
 * one of the two, checked once every option is read. */
static bool apply_only_sizes(ReportOptions *o)
{
    if (o->n_only == 0)
        return true;
    if (o->block_sizes_given) {
        cli_error(COMMAND, "--block-sizes and --only-block-sizes: give one of them (--block-sizes "
                           "adds candidates, --only-block-sizes is the whole list)");
        return false;
    }
    o->settings.n_sizes = 0;
    for (int i = 0; i < o->n_only; i++)
        add_size(&o->settings, o->only[i]);
    o->settings.only_sizes = true;
    return true;
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

/* --dyn-smem: a size or an expression over the block size and the
 * --param names, evaluated for each row (where it must have a value:
 * report_entry_compute); parsed after the options, whatever their order. */
static bool parse_dyn_smem(ReportOptions *o)
{
    if (!o->dyn_smem_text)
        return true;
    o->dyn_smem = cli_parse_size_expr(COMMAND, "--dyn-smem", o->dyn_smem_text, &o->params);
    o->settings.dyn_smem = o->dyn_smem;
    o->settings.dyn_smem_text = o->dyn_smem_text;
    return o->dyn_smem != NULL;
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
    case 'b': return parse_block_sizes(o, arg);
    case 'B': return cli_split_list(COMMAND, "--only-block-sizes", arg, take_only_size, o);
    case 'F': o->settings.fixed_block_size = true; return true;
    case 'n': return add_fixed_namespace(&o->settings, arg);
    case 'f': return cli_parse_format_among(COMMAND, arg, REPORT_FORMATS, &o->format);
    case 'o': return parse_percent(arg, &o->expect_occupancy);
    case 'e': return cli_parse_integer(COMMAND, "--expect-blocks-per-sm", arg, 1, 64, &o->expect_blocks);
    case 'T': return target_add_table_file(COMMAND, o->tables, &o->n_tables, arg);
    case 'd': o->dyn_smem_text = arg; return true;
    case 'p': return cli_parse_param(COMMAND, arg, &o->params);
    case 'w': return parse_work(&o->settings, arg);
    case 'L': return cli_parse_cluster(COMMAND, arg, o->settings.cluster);
    case 'P': o->compile_commands = arg; return true;
    case 'j': return cli_parse_integer(COMMAND, "--jobs", arg, 1, 1024, &o->jobs);
    case 'q': o->quiet = true; return true;
    }
    return false;
}

static bool take_option(int c, char *arg, void *o)
{
    return read_option(o, c, arg);
}

/* The measuring's messages, in the command's words. */
static void say(void *context, MeasureSeverity severity, const char *message)
{
    const char *command = context ? context : COMMAND; /* merge's, wrap's */
    if (severity == MEASURE_ERROR)
        cli_error(command, "%s", message);
    else
        cli_warning(command, "%s", message);
}

/* Returns EXIT_OK, EXIT_USAGE, or EXIT_HELP when --help was asked (and printed). */
static int parse_options(int argc, char **argv, ReportOptions *o)
{
    *o = (ReportOptions){.expect_blocks = -1, .expect_occupancy = -1,
                         .load = {.program = "silk-occ report", .say = say}};
    static const int defaults[] = {64, 128, 256, 512, 1024};
    for (int i = 0; i < 5; i++)
        add_size(&o->settings, defaults[i]);
    int first;
    /* --arch-table adds a file, --block-sizes more sizes, --fixed-namespace
     * a namespace: they repeat. */
    int rc = cli_getopt(COMMAND, argc, argv, "Tbnp", long_options, cmd_report_usage, take_option, o,
                        &first);
    if (rc != EXIT_OK)
        return rc;
    if (!parse_dyn_smem(o) || !apply_only_sizes(o))
        return EXIT_USAGE;
    o->files = argv + first;
    o->n_files = argc - first;
    if (o->n_files == 0 && !o->compile_commands) {
        cli_error(COMMAND, "give one or more files (.silk, .ptx, .cu, .cubin, .hsaco, a built "
                           "binary or a report's .json), or --compile-commands");
        return EXIT_USAGE;
    }
    if (o->jobs && !o->compile_commands) {
        cli_error(COMMAND, "--jobs: only with --compile-commands (a project's units are what "
                           "compile in parallel)");
        return EXIT_USAGE;
    }
    if (o->n_files > 0 && o->compile_commands) {
        cli_error(COMMAND, "--compile-commands: give it or FILE operands, not both (the "
                           "database names the files)");
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

/* ---- the command ---------------------------------------------------------- */

/* --expect-*: one line per kernel and target that falls short. */
static int check_expectations(const ReportOptions *o, const ReportModel *m)
{
    int rc = EXIT_OK;
    for (int i = 0; i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        const ReportRow *row = report_selected(e);
        int blocks = row ? row->fig.groups : 0;
        double occupancy = row ? 100.0 * occ_figures_occupancy(&row->fig) : 0;
        int threads = row ? row->threads : 0;
        const char *name = ESCAPED(e->kernel.name);
        if (o->expect_blocks > 0 && blocks < o->expect_blocks) {
            cli_error(COMMAND, "%s on %s: %d %s per %s at %d threads, below --expect-blocks-per-sm %lld",
                      name, e->target.sm_name, blocks, report_terms(e).groups, report_terms(e).unit,
                      threads, o->expect_blocks);
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

/* The JSON names the tools behind its figures: each the run used asked
 * its version once (measure.h), only for this format. */
static int write_json(const ReportModel *m, Measure *measure, FILE *out)
{
    MeasureTools v;
    measure_tool_versions(measure, &v);
    return report_write_json(m, &(JsonTools){v.ptxas, v.nvcc, v.llc}, out);
}

/* One writer per --format. */
static int write_report(const ReportModel *m, Measure *measure, OutputFormat format, FILE *out)
{
    switch (format) {
    case FORMAT_JSON: return write_json(m, measure, out);
    case FORMAT_CSV: return report_write_csv(m, out);
    case FORMAT_MARKDOWN: return report_write_markdown(m, out);
    case FORMAT_TEXT: break;
    }
    return report_write_text(m, out);
}

/* No kernel to report: none in the input, or none --kernel matches. */
static bool have_kernels(const ReportOptions *o, const ReportBuild *b)
{
    char names[1024];
    bool any;
    report_kernel_names(b, &any, names, sizeof names);
    if (any)
        return true;
    if (o->kernel_glob)
        cli_error(COMMAND, "--kernel: no kernel matches '%s' (the kernels: %s)",
                  QUOTED(o->kernel_glob), names[0] ? names : "none");
    else
        cli_error(COMMAND, "the input has no kernels");
    return false;
}

/* A report read back has no PTX to compile: what ptxas made of the same
 * cap when that report was made (MeasuredChecks) stands in. */
static void take_recorded_cap(ReportEntry *e)
{
    const MeasuredChecks *r = e->kernel.checks;
    CapAdvice *cap = &e->cap;
    if (cap->checked || !r || r->cap != cap->cap)
        return;
    cap->checked = true;
    cap->over_budget = false;
    cap->cap_registers = r->cap_registers;
    cap->cap_spill_stores = r->cap_spill_stores;
    cap->cap_spill_loads = r->cap_spill_loads;
}

static void take_recorded_bound(ReportEntry *e)
{
    const MeasuredChecks *r = e->kernel.checks;
    if (e->bound_cost.checked || !r || !r->unbounded)
        return;
    e->bound_cost.over_budget = false;
    report_bound_cost_measured(e, r->registers, r->spill_stores, r->spill_loads);
}

/* The advice's register caps compiled again (compiler/measure.h), each
 * entry told what ptxas made of its cap, or that the run had too many. */
static void check_caps(const ReportOptions *o, Measure *measure, ReportModel *m)
{
    MeasureCap *caps = calloc((size_t)m->n_entries + 1, sizeof *caps);
    int n = 0;
    for (int i = 0; caps && i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        if (e->cap.applies)
            caps[n++] = (MeasureCap){.file = e->file_index, .target = e->target_index,
                                     .kernel = e->kernel.name, .cap = e->cap.cap};
    }
    bool within = caps && measure_caps(measure, caps, n, o->check_all_caps);
    for (int i = 0, c = 0; caps && i < m->n_entries; i++) {
        CapAdvice *cap = &m->entries[i].cap;
        if (!cap->applies)
            continue;
        cap->over_budget = !within && m->entries[i].target.vendor == OCC_NVIDIA;
        cap->checked = caps[c].checked;
        cap->cap_registers = caps[c].registers;
        cap->cap_spill_stores = caps[c].spill_stores;
        cap->cap_spill_loads = caps[c++].spill_loads;
        take_recorded_cap(&m->entries[i]);
    }
    free(caps);
}

/* The kernels that spill under a bound of their own compiled again
 * without it, each entry told what the bound costs, or that the run had
 * too many (measure_caps' budget, as for the caps). */
static void check_bounds(const ReportOptions *o, Measure *measure, ReportModel *m)
{
    MeasureCap *runs = calloc((size_t)m->n_entries + 1, sizeof *runs);
    int n = 0;
    for (int i = 0; runs && i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        if (e->bound_cost.applies)
            runs[n++] = (MeasureCap){.file = e->file_index, .target = e->target_index,
                                     .kernel = e->kernel.name, .unbounded = true};
    }
    bool within = runs && n && measure_caps(measure, runs, n, o->check_all_caps);
    for (int i = 0, c = 0; runs && n && i < m->n_entries; i++) {
        ReportEntry *e = &m->entries[i];
        if (!e->bound_cost.applies)
            continue;
        e->bound_cost.over_budget = !within;
        if (runs[c].checked)
            report_bound_cost_measured(e, runs[c].registers, runs[c].spill_stores,
                                       runs[c].spill_loads);
        c++;
        take_recorded_bound(e);
    }
    free(runs);
}

static int report_measured(const ReportOptions *o, Measure *measure);

static int analyse(const ReportOptions *o, Measure *measure, char **files, int n_files)
{
    int rc = measure_files(measure, files, n_files);
    if (rc != EXIT_OK)
        return rc;
    return report_measured(o, measure);
}

/* ---- a project: --compile-commands ------------------------------------------ */

/* The line "[37/600] sm_90 src/x.cu", rewritten in place on a terminal. */
static void show_progress(void *context, int done, int total, const char *archs,
                          const char *name)
{
    bool *shown = context;
    fprintf(stderr, "\r[%d/%d] %s %s\033[K", done, total, archs, ESCAPED(name));
    fflush(stderr);
    *shown = true;
}

/* The units that failed, each with nvcc's first error line: after the
 * report of the others, so it is the last thing a build log shows. */
static int say_failures(const CompdbUnit *units, int n, const char **failures)
{
    int failed = 0;
    for (int i = 0; i < n; i++)
        failed += failures[i] != NULL;
    if (failed == 0)
        return EXIT_OK;
    cli_error(COMMAND, "%d of %d CUDA units failed (the others are reported in full):", failed, n);
    for (int i = 0; i < n; i++)
        if (failures[i]) {
            /* nvcc's line names the file itself ("x.cu(4): error: ..."). */
            size_t len = strlen(units[i].name);
            if (strncmp(failures[i], units[i].name, len) != 0 || failures[i][len] != '(')
                fprintf(stderr, "  %s: ", ESCAPED(units[i].name));
            else
                fputs("  ", stderr);
            escape_fputs_message(failures[i], strlen(failures[i]), stderr);
            fputc('\n', stderr);
        }
    return EXIT_FINDINGS;
}

/* Every CUDA unit of the database, each with its own flags, as one
 * report; the units nvcc rejects are summed up at the end (exit 1). */
static int analyse_project(const ReportOptions *o, Measure *measure)
{
    CompdbUnit *units;
    int n;
    char error[1024];
    bool keep_arch = !o->archs && !o->gpus && !o->all;
    if (!compdb_read(o->compile_commands, keep_arch, measure->arena, &units, &n, error,
                     sizeof error)) {
        cli_error(COMMAND, "--compile-commands: %s", error);
        return EXIT_USAGE;
    }
    MeasureUnit *mu = ARENA_ARRAY(measure->arena, MeasureUnit, (size_t)n);
    const char **failures = ARENA_ARRAY(measure->arena, const char *, (size_t)n);
    for (int i = 0; i < n; i++)
        mu[i] = (MeasureUnit){.path = units[i].file, .name = units[i].name,
                              .directory = units[i].directory, .nvcc = units[i].compiler,
                              .flags = units[i].flags, .n_flags = units[i].n_flags};
    bool shown = false;
    MeasureBatch batch = {.jobs = (int)o->jobs, .context = &shown,
                          .progress = !o->quiet && isatty(STDERR_FILENO) ? show_progress : NULL};
    int rc = measure_units(measure, mu, n, &batch, failures);
    if (shown)
        fputs("\r\033[K", stderr);
    if (rc == EXIT_OK && measure->n_files > 0)
        rc = report_measured(o, measure);
    int failed = say_failures(units, n, failures);
    return rc > failed ? rc : failed;
}

/* The model of what was measured, written, and the --expect checks. */
static int report_measured(const ReportOptions *o, Measure *measure)
{
    int rc;
    ReportBuild build = {measure->files, measure->n_files, measure->targets, measure->n_targets,
                         o->kernel_glob, &o->settings};
    if (!have_kernels(o, &build))
        return EXIT_USAGE;
    ReportModel model;
    char error[512];
    if (!report_model_build(&model, &build, error, sizeof error)) {
        cli_error(COMMAND, "%s", error);
        report_model_free(&model);
        return EXIT_USAGE;
    }
    check_caps(o, measure, &model);
    check_bounds(o, measure, &model);
    rc = write_report(&model, measure, o->format, o->out);
    fflush(o->out);
    if (rc == EXIT_OK)
        rc = check_expectations(o, &model);
    report_model_free(&model);
    return rc;
}

/* The targets the project's build compiles for (its units' -arch,
 * -gencode and -code), for a report given none: false when the database
 * does not read (analyse_project says why) or names none. */
static bool project_archs(const ReportOptions *o, char *buf, size_t size)
{
    Arena *arena = arena_new();
    CompdbUnit *units;
    int n;
    char error[16];
    buf[0] = '\0';
    if (compdb_read(o->compile_commands, true, arena, &units, &n, error, sizeof error))
        compdb_build_archs(units, n, buf, size);
    arena_free(arena);
    return buf[0] != '\0';
}

int cmd_report(int argc, char **argv)
{
    return cmd_report_to(NULL, argc, argv, stdout);
}

int cmd_report_to(const char *command, int argc, char **argv, FILE *out)
{
    ReportOptions o;
    int rc = parse_options(argc, argv, &o);
    o.out = out;
    o.load.context = (void *)command;
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
    int n_targets = 0;
    char object_archs[1024];
    /* Given only cubins and code objects and no target: their own. */
    int own = !o.archs && !o.gpus && !o.all
                  ? measure_object_targets(o.files, o.n_files, &o.load, object_archs,
                                           sizeof object_archs)
                  : 0;
    if (own > 0) {
        o.archs = object_archs;
        o.load.own_targets = true;
    }
    if (own < 0)
        rc = EXIT_USAGE;
    /* A project given no target: the build's own. */
    char build_archs[1024];
    if (rc == EXIT_OK && o.compile_commands && !o.archs && !o.gpus && !o.all &&
        project_archs(&o, build_archs, sizeof build_archs))
        o.archs = build_archs;
    if (rc == EXIT_OK && !resolve_targets(&o, &table, &amd_table, &device, targets, &n_targets))
        rc = EXIT_USAGE;
    Arena *arena = arena_new();
    Measure measure;
    if (rc == EXIT_OK)
        rc = measure_open(&measure, &o.load, targets, n_targets, arena);
    if (rc == EXIT_OK) {
        rc = o.compile_commands ? analyse_project(&o, &measure)
                                : analyse(&o, &measure, o.files, o.n_files);
        measure_close(&measure);
    }
    arena_free(arena);
    size_expr_free(o.dyn_smem);
    arch_table_free(&table);
    amd_table_free(&amd_table);
    return rc;
}
