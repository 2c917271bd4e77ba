/*
 * cmd_calc.c: `silk-occ calc`, the occupancy of one kernel configuration on
 * one GPU of either vendor: read the options, find the target in the
 * NVIDIA or AMD tables, check the options against its limits (each wrong
 * value gets one line naming the option), compute the model with the
 * vendor's engine, and hand it to the writer of the chosen format, which
 * serves both vendors.
 */
#include "calc_model.h"
#include "escape.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "calc";


/* One message of the checks: on stderr, or into o->error for --batch. */
__attribute__((format(printf, 2, 3))) static void calc_error(const CalcOptions *o, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->error ? o->error : text, o->error ? o->error_size : sizeof text, fmt, ap);
    va_end(ap);
    if (!o->error)
        cli_error(COMMAND, "%s", text);
}

void cmd_calc_usage(FILE *out)
{
    fputs("usage: silk-occ calc (--arch ARCH | --gpu PRODUCT) --threads N --regs R [options]\n"
          "\n"
          "The resident CTAs per SM of a kernel, what limits them, and the next step.\n"
          "\n"
          "  --arch ARCH        compute capability: 9.0, sm_90, sm_90a, compute_90, hopper\n"
          "  --gpu PRODUCT      a GPU product (brings its SM count): h100-sxm, l4, ...\n"
          "  --threads N        threads per CTA (1 to the block limit)\n"
          "  --regs R           registers per thread (0 to 255)\n"
          "  --smem BYTES       static shared memory per CTA (default 0)\n"
          "  --dyn-smem BYTES   dynamic shared memory per CTA (default 0)\n"
          "                     (either may be an expression: '(BM+BN)*BK*2*STAGES', '16*threads')\n"
          "  --param NAME=N     a name the expressions may use (may be repeated)\n"
          "  --barriers N       named barriers the kernel uses (default 1)\n"
          "  --no-optin         the kernel has not opted in to the large shared-memory limit\n"
          "  --carveout C       default | max-shared | max-l1 | half | PERCENT\n"
          "  --work N           work items of a 1-D launch: CTAs, waves, last-wave fill\n"
          "  --sms N            SM count (default: the product's)\n"
          "  --sweep VAR        threads | regs | smem: occupancy against that variable\n"
          "  --cluster X[,Y,Z]  a thread-block cluster: its limits and resident clusters\n"
          "  --format F         text | json | csv\n"
          "  --arch-table FILE  add or override table rows (may be repeated)\n"
          "  --batch            JSON Lines on stdin ({\"arch\": \"sm_90\", \"threads\": 256, \"regs\": 64}),\n"
          "                     one answer (or {\"line\": N, \"error\": ...}) per line on stdout\n"
          "\n"
          "AMD targets (--arch gfx90a, gfx942, gfx1100, gfx1201, ...; --gpu mi300x, ...):\n"
          "  --threads N        work-items per workgroup (the amdgpu-flat-work-group-size)\n"
          "  --vgprs V          VGPRs per lane (the remark's VGPRs, .vgpr_count)\n"
          "  --agprs A          AGPRs per lane (CDNA; default 0)\n"
          "  --sgprs S          SGPRs per wave, VCC and FLAT_SCRATCH counted (default 0)\n"
          "  --lds BYTES        LDS per workgroup (default 0)\n"
          "  --waves-per-eu MIN[,MAX]  the amdgpu-waves-per-eu attribute\n"
          "  --work N, --format text|json|csv as above\n"
          "\n"
          "Sizes take K/KiB or M/MiB suffixes.  See silk-occ(1).\n",
          out);
}

static const struct option long_options[] = {
    {"arch", required_argument, NULL, 'a'},      {"gpu", required_argument, NULL, 'g'},
    {"threads", required_argument, NULL, 't'},   {"regs", required_argument, NULL, 'r'},
    {"smem", required_argument, NULL, 's'},      {"dyn-smem", required_argument, NULL, 'd'},
    {"barriers", required_argument, NULL, 'b'},  {"no-optin", no_argument, NULL, 'n'},
    {"carveout", required_argument, NULL, 'c'},  {"work", required_argument, NULL, 'w'},
    {"sms", required_argument, NULL, 'm'},       {"sweep", required_argument, NULL, 'S'},
    {"format", required_argument, NULL, 'f'},    {"arch-table", required_argument, NULL, 'T'},
    {"vgprs", required_argument, NULL, 'V'},     {"agprs", required_argument, NULL, 'A'},
    {"sgprs", required_argument, NULL, 'P'},     {"lds", required_argument, NULL, 'L'},
    {"waves-per-eu", required_argument, NULL, 'E'}, {"cluster", required_argument, NULL, 'C'},
    {"param", required_argument, NULL, 'p'},  {"batch", no_argument, NULL, 'B'},
    {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
};

static bool parse_sweep(const char *text, SweepKind *out)
{
    static const char *const names[] = {"threads", "regs", "smem"};
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (SweepKind)(SWEEP_THREADS + i);
            return true;
        }
    cli_error(COMMAND, "--sweep: '%s' is not threads, regs or smem", QUOTED(text));
    return false;
}

/* "MIN" or "MIN,MAX", as the attribute is written. */
static bool parse_waves_per_eu(const char *arg, CalcOptions *a)
{
    char min_text[32];
    const char *comma = strchr(arg, ',');
    size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
    long long min, max = 0;
    if (n >= sizeof min_text) {
        cli_error(COMMAND, "--waves-per-eu: '%s' is not MIN or MIN,MAX", QUOTED(arg));
        return false;
    }
    memcpy(min_text, arg, n);
    min_text[n] = '\0';
    if (!cli_parse_integer(COMMAND, "--waves-per-eu", min_text, 1, 64, &min) ||
        (comma && !cli_parse_integer(COMMAND, "--waves-per-eu", comma + 1, 1, 64, &max)))
        return false;
    /* A maximum below the minimum is LLVM's to ignore (warn_ignored_waves_per_eu). */
    a->waves_per_eu_min = (int)min;
    a->waves_per_eu_max = (int)max;
    return true;
}

/* The options only one vendor's targets take; the first given is named
 * when the target is the other vendor's. */
static void note_vendor_option(CalcOptions *o, int c)
{
    static const char nvidia[] = "rsdbncmSC", amd[] = "VAPLE";
    static const char *const nvidia_names[] = {"--regs", "--smem", "--dyn-smem", "--barriers",
                                               "--no-optin", "--carveout", "--sms", "--sweep",
                                               "--cluster"};
    static const char *const amd_names[] = {"--vgprs", "--agprs", "--sgprs", "--lds",
                                            "--waves-per-eu"};
    const char *p = strchr(nvidia, c);
    if (c && p && !o->nvidia_option)
        o->nvidia_option = nvidia_names[p - nvidia];
    p = strchr(amd, c);
    if (c && p && !o->amd_option)
        o->amd_option = amd_names[p - amd];
}

static bool read_amd_option(CalcOptions *a, int c, const char *arg)
{
    switch (c) {
    case 'V': a->have_vgprs = true; return cli_parse_integer(COMMAND, "--vgprs", arg, 0, 1 << 20, &a->vgprs);
    case 'A': return cli_parse_integer(COMMAND, "--agprs", arg, 0, 1 << 20, &a->agprs);
    case 'P': return cli_parse_integer(COMMAND, "--sgprs", arg, 0, 1 << 20, &a->sgprs);
    case 'L': return cli_parse_size(COMMAND, "--lds", arg, &a->lds);
    case 'E': return parse_waves_per_eu(arg, a);
    }
    return false;
}

/* Reads one option; false (with the message printed) on a bad value. */
static bool read_option(CalcOptions *o, int c, const char *arg)
{
    note_vendor_option(o, c);
    if (strchr("VAPLE", c))
        return read_amd_option(o, c, arg);
    switch (c) {
    case 'a': o->arch = arg; return true;
    case 'g': o->gpu = arg; return true;
    case 't': o->have_threads = true; return cli_parse_integer(COMMAND, "--threads", arg, 1, 1 << 30, &o->threads);
    case 'r': o->have_regs = true; return cli_parse_integer(COMMAND, "--regs", arg, 0, 1 << 30, &o->regs);
    case 's': o->smem_text = arg; return true;
    case 'd': o->dyn_smem_text = arg; return true;
    case 'p': return cli_parse_param(COMMAND, arg, o->params);
    case 'b': return cli_parse_integer(COMMAND, "--barriers", arg, 0, MAX_BARRIERS, &o->barriers);
    case 'n': o->optin = false; return true;
    case 'c': return cli_parse_carveout(COMMAND, arg, &o->carveout);
    case 'C': return cli_parse_cluster(COMMAND, arg, o->cluster);
    case 'm': o->have_sms = true; return cli_parse_integer(COMMAND, "--sms", arg, 1, 1 << 20, &o->sms);
    case 'S': return parse_sweep(arg, &o->sweep);
    case 'f': return cli_parse_format(COMMAND, arg, true, &o->format);
    case 'w': {
        long long work;
        o->have_work = true;
        if (!cli_parse_integer(COMMAND, "--work", arg, 1, INT64_MAX, &work))
            return false;
        o->work = (uint64_t)work;
        return true;
    }
    case 'T':
        return target_add_table_file(COMMAND, o->tables, &o->n_tables, (char *)arg);
    }
    return false;
}

static bool take_option(int c, char *arg, void *context)
{
    CalcOptions *o = context;
    if (c == 'B') {
        o->batch = true;
        return true;
    }
    if (c != 'T' && !o->other_option) /* for --batch's error */
        o->other_option = c;
    return read_option(o, c, arg);
}

/* Returns EXIT_OK, EXIT_USAGE, or EXIT_HELP when --help was asked (and printed). */
static int parse_options(int argc, char **argv, CalcOptions *o, CliParams *params)
{
    *o = (CalcOptions){.barriers = 1, .optin = true, .carveout = OCC_CARVEOUT_DEFAULT,
                       .params = params};
    int first;
    int rc = cli_getopt(COMMAND, argc, argv, "Tp", long_options, cmd_calc_usage, take_option, o, &first);
    if (rc != EXIT_OK)
        return rc;
    if (first < argc) {
        cli_error(COMMAND, "unexpected argument '%s'", QUOTED(argv[first]));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- NVIDIA targets: the checks ------------------------------------------- */

static bool check_required(const CalcOptions *o)
{
    if (!o->arch == !o->gpu) {
        calc_error(o, o->arch ? "--arch and --gpu: give one, not both"
                                   : "--arch or --gpu: the target GPU is required");
        return false;
    }
    if (!o->have_threads && o->sweep != SWEEP_THREADS) {
        calc_error(o, "--threads: required (threads per CTA)");
        return false;
    }
    if (!o->have_regs && o->sweep != SWEEP_REGS) {
        calc_error(o, "--regs: required (registers per thread, from ptxas -v)");
        return false;
    }
    return true;
}

/* The limits that depend on the architecture. */
static bool check_against_arch(const CalcOptions *o, const Target *t)
{
    const ArchLimits *a = t->arch;
    char limit[32], asked[32], optin[32];
    if (o->have_threads && o->threads > a->max_threads_per_block) {
        calc_error(o, "--threads: %lld is above the block limit of %d threads on %s",
                  o->threads, a->max_threads_per_block, t->sm_name);
        return false;
    }
    if (o->have_regs && o->regs > a->max_regs_per_thread) {
        calc_error(o, "--regs: %lld is above the %d registers a thread may use on %s",
                  o->regs, a->max_regs_per_thread, t->sm_name);
        return false;
    }
    if (o->smem > (uint64_t)a->smem_per_block) {
        format_bytes_pair(o->smem, asked, (uint64_t)a->smem_per_block, limit, sizeof asked);
        calc_error(o,
                  "--smem: %s of static shared memory is above the %s static limit per block on %s; "
                  "larger sizes must be dynamic (--dyn-smem)",
                  asked, limit, t->sm_name);
        return false;
    }
    uint64_t per_block = (uint64_t)(o->optin ? a->smem_per_block_optin : a->smem_per_block);
    if (o->smem + o->dyn_smem > per_block) {
        format_bytes_pair(o->smem + o->dyn_smem, asked, per_block, limit, sizeof asked);
        if (!o->optin && o->smem + o->dyn_smem <= (uint64_t)a->smem_per_block_optin)
            calc_error(o,
                      "--dyn-smem: %s of shared memory per block is above the %s default limit on %s; "
                      "drop --no-optin (the kernel opts in with cudaFuncSetAttribute(kernel, "
                      "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)) to use up to %s",
                      asked, limit, t->sm_name,
                      format_bytes((uint64_t)a->smem_per_block_optin, optin, sizeof optin));
        else
            calc_error(o, "--dyn-smem: %s of shared memory per block is above the %s %s limit on %s",
                      asked, limit, o->optin ? "opt-in" : "default", t->sm_name);
        return false;
    }
    return true;
}

/* The seed's "non-multiple-of-32" failure mode: the last warp runs with
 * idle lanes, which still take a whole warp's slot. */
static void warn_partial_warp(const CalcOptions *o, const ArchLimits *a)
{
    if (o->error || !o->have_threads || o->threads % a->warp_size == 0)
        return;
    long long warps = (o->threads + a->warp_size - 1) / a->warp_size;
    long long lanes = warps * a->warp_size;
    long long idle = lanes - o->threads;
    cli_warning(COMMAND,
                "--threads: %lld is not a multiple of %d: the last warp has %lld idle lanes, "
                "%.1f%% of the CTA's %lld warps (%lld lanes) wasted",
                o->threads, a->warp_size, idle, 100.0 * (double)idle / (double)lanes, warps, lanes);
}

/* --smem and --dyn-smem, sizes or expressions of the block and the
 * --param names.  A sweep of block sizes keeps one dynamic size, so an
 * expression of the block cannot be swept. */
static bool value_sizes(CalcOptions *o, const ArchLimits *a)
{
    long long threads = o->have_threads ? o->threads : 256;
    long long warps = (threads + a->warp_size - 1) / a->warp_size;
    bool constant[2];
    if ((o->smem_text && !cli_eval_size(COMMAND, "--smem", o->smem_text, o->params, threads,
                                        warps, &o->smem, &constant[0])) ||
        (o->dyn_smem_text && !cli_eval_size(COMMAND, "--dyn-smem", o->dyn_smem_text, o->params,
                                            threads, warps, &o->dyn_smem, &constant[1])))
        return false;
    for (int i = 0; i < 2 && o->sweep == SWEEP_THREADS; i++)
        if ((i ? o->dyn_smem_text : o->smem_text) && !constant[i]) {
            calc_error(o, "%s: an expression of threads or warps cannot be swept "
                               "(--sweep threads keeps one size)", i ? "--dyn-smem" : "--smem");
            return false;
        }
    return true;
}

/* The NVIDIA options that need no target. */
static bool check_nvidia_options(const CalcOptions *o)
{
    if (o->amd_option) {
        calc_error(o, "%s: is for AMD targets (gfx90a, gfx942, gfx1100, gfx1201, ...); "
                      "%s takes --regs and --smem",
                   o->amd_option, o->arch ? o->arch : o->gpu ? o->gpu : "an NVIDIA target");
        return false;
    }
    return check_required(o);
}

/* The options against the target's limits, t resolved. */
static bool check_nvidia_target(CalcOptions *o, Target *t)
{
    if (o->have_sms)
        t->sm_count = (int)o->sms;
    if (!value_sizes(o, t->arch) || !check_against_arch(o, t))
        return false;
    warn_partial_warp(o, t->arch);
    return true;
}

/* An NVIDIA target: the options it takes, found in `table` (read when a
 * target was named, which check_required makes sure of first). */
static bool check_nvidia(CalcOptions *o, const ArchTable *table, Target *t)
{
    if (!check_nvidia_options(o))
        return false;
    if (o->gpu ? !target_resolve_gpu(COMMAND, table, o->gpu, t) : !target_resolve_arch(COMMAND, table, o->arch, t))
        return false;
    return check_nvidia_target(o, t);
}

/* ---- AMD targets: the checks ---------------------------------------------- */

/* The arithmetic LLVM does not bound (a 300-VGPR kernel cannot exist):
 * one line naming the option and the target's limit. */
static bool check_amd_limits(const CalcOptions *o, const AmdTarget *t)
{
    if (o->threads > t->max_workgroup_size) {
        calc_error(o, "--threads: %lld is above the workgroup limit of %d work-items on %s",
                  o->threads, t->max_workgroup_size, t->gfx);
        return false;
    }
    if (o->vgprs > AMD_MAX_ARCH_VGPRS) {
        calc_error(o, "--vgprs: %lld is above the %d VGPRs a wave may address on %s",
                  o->vgprs, AMD_MAX_ARCH_VGPRS, t->gfx);
        return false;
    }
    if (o->agprs > 0 && t->agpr_file == AMD_AGPR_NONE) {
        calc_error(o, "--agprs: %s (%s) has no accumulation registers", t->gfx, t->family);
        return false;
    }
    if (o->agprs > AMD_MAX_ARCH_VGPRS) {
        calc_error(o, "--agprs: %lld is above the %d AGPRs a wave may address on %s",
                  o->agprs, AMD_MAX_ARCH_VGPRS, t->gfx);
        return false;
    }
    if (o->sgprs > t->addressable_sgprs) {
        calc_error(o, "--sgprs: %lld is above the %d SGPRs a wave may address on %s",
                  o->sgprs, t->addressable_sgprs, t->gfx);
        return false;
    }
    if (o->lds > (uint64_t)t->lds_per_workgroup) {
        char asked[32], limit[32];
        format_bytes_pair(o->lds, asked, (uint64_t)t->lds_per_workgroup, limit, sizeof asked);
        calc_error(o, "--lds: %s is above the %s of LDS a workgroup may allocate on %s",
                  asked, limit, t->gfx);
        return false;
    }
    return true;
}

static bool check_amd(const CalcOptions *o, const Target *t)
{
    if (o->nvidia_option) {
        calc_error(o, "%s: is for NVIDIA targets; %s takes --vgprs, --agprs, --sgprs and --lds",
                  o->nvidia_option, t->sm_name);
        return false;
    }
    if (!o->have_threads) {
        calc_error(o, "--threads: required (work-items per workgroup)");
        return false;
    }
    if (!o->have_vgprs) {
        calc_error(o, "--vgprs: required (VGPRs per lane, from the kernel-resource-usage "
                           "remark or the code object's .vgpr_count)");
        return false;
    }
    return check_amd_limits(o, t->amd);
}

/* LLVM compiles a kernel whose amdgpu-waves-per-eu it ignores, and keeps
 * the target's default: so does calc, saying why. */
static void warn_ignored_waves_per_eu(const AmdTarget *t, const AmdKernel *k, int threads)
{
    int implied_min;
    char given[32];
    snprintf(given, sizeof given, k->waves_per_eu_max ? "%d,%d" : "%d", k->waves_per_eu_min,
             k->waves_per_eu_max);
    switch (amd_waves_per_eu(t, k, &implied_min)) {
    case AMD_WPE_MIN_ABOVE_MAX:
        if (k->waves_per_eu_max)
            cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the minimum %d "
                                 "is above the maximum %d", given, k->waves_per_eu_min, k->waves_per_eu_max);
        else
            cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the minimum %d "
                                 "is above the %d waves a SIMD holds on %s",
                        given, k->waves_per_eu_min, t->max_waves_per_simd, t->gfx);
        break;
    case AMD_WPE_MAX_ABOVE_SLOTS:
        cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the maximum %d is "
                             "above the %d waves a SIMD holds on %s",
                    given, k->waves_per_eu_max, t->max_waves_per_simd, t->gfx);
        break;
    case AMD_WPE_MIN_BELOW_WORKGROUP:
        cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the minimum %d is "
                             "below the %d waves per SIMD a workgroup of %d work-items needs",
                    given, k->waves_per_eu_min, implied_min, threads);
        break;
    case AMD_WPE_NOT_GIVEN:
    case AMD_WPE_TAKEN:
        break;
    }
}

/* ---- the model ------------------------------------------------------------ */

static CalcRow nvidia_row(int threads, int regs, uint64_t static_smem, uint64_t dynamic_smem,
                          const OccResult *r)
{
    return (CalcRow){.threads = threads, .regs = regs, .static_smem = static_smem,
                     .dynamic_smem = dynamic_smem, .warps = r->warps_per_block,
                     .fig = occ_figures_nvidia(r), .nvidia = *r};
}

static bool evaluate(const CalcModel *m, int threads, int regs, uint64_t static_smem,
                     uint64_t dynamic_smem, CalcRow *row)
{
    KernelResources k = m->kernel;
    OccResult r;
    k.regs_per_thread = regs;
    k.static_smem = static_smem;
    if (occ_active_blocks(m->target.arch, &k, threads, dynamic_smem, &r) != OCC_OK)
        return false;
    *row = nvidia_row(threads, regs, static_smem, dynamic_smem, &r);
    return true;
}

static bool push_row(CalcModel *m, size_t *cap, CalcRow row)
{
    if (m->n_rows == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 64;
        CalcRow *grown = realloc(m->rows, grown_cap * sizeof *grown);
        if (!grown)
            return false;
        m->rows = grown;
        *cap = grown_cap;
    }
    m->rows[m->n_rows++] = row;
    return true;
}

/* A sweep's rows are bounded by what a person or a script can use, not by
 * the table's values: a hostile but legal row (1 GiB of shared memory in
 * 1-byte units) would otherwise ask for a billion rows. */
enum { MAX_SWEEP_ROWS = 4096 };

/* The step, `unit` or the least multiple of it, that covers 0..span in at
 * most MAX_SWEEP_ROWS rows. */
static uint64_t sweep_step(uint64_t span, uint64_t unit)
{
    uint64_t rows = span / unit + 1;
    return unit * ((rows + MAX_SWEEP_ROWS - 1) / MAX_SWEEP_ROWS);
}

/* Whole-warp block sizes (every one on a real GPU), in one call of the
 * engine. */
static bool sweep_block_sizes(CalcModel *m, size_t *cap)
{
    const ArchLimits *a = m->target.arch;
    uint64_t max = (uint64_t)a->max_threads_per_block;
    uint64_t step = sweep_step(max - (uint64_t)a->warp_size, (uint64_t)a->warp_size);
    size_t n = (size_t)((max - (uint64_t)a->warp_size) / step + 1);
    int *sizes = malloc(n * sizeof *sizes);
    OccResult *results = malloc(n * sizeof *results);
    bool ok = sizes && results;
    for (size_t i = 0; ok && i < n; i++)
        sizes[i] = a->warp_size + (int)(i * step);
    ok = ok && occ_active_blocks_sizes(a, &m->kernel, m->row.dynamic_smem, sizes, n, results) == OCC_OK;
    for (size_t i = 0; ok && i < n; i++)
        ok = push_row(m, cap, nvidia_row(sizes[i], m->kernel.regs_per_thread, m->kernel.static_smem,
                                         m->row.dynamic_smem, &results[i]));
    free(sizes);
    free(results);
    return ok;
}

/* Threads step by warps; registers by one; shared memory (the total per
 * CTA, the dynamic part growing) by the allocation unit: each coarser
 * when that would pass MAX_SWEEP_ROWS. */
static bool build_sweep(CalcModel *m)
{
    const ArchLimits *a = m->target.arch;
    const KernelResources *k = &m->kernel;
    int threads = m->row.threads;
    size_t cap = 0;
    CalcRow row;
    bool ok = true;
    if (m->sweep == SWEEP_THREADS)
        ok = sweep_block_sizes(m, &cap);
    if (m->sweep == SWEEP_REGS) {
        int step = (int)sweep_step((uint64_t)a->max_regs_per_thread, 1);
        for (int r = 0; r <= a->max_regs_per_thread && ok; r += step)
            ok = evaluate(m, threads, r, k->static_smem, m->row.dynamic_smem, &row) &&
                 push_row(m, &cap, row);
    }
    if (m->sweep == SWEEP_SMEM) {
        uint64_t limit = (uint64_t)(k->smem_optin ? a->smem_per_block_optin : a->smem_per_block);
        uint64_t room = limit > k->static_smem ? limit - k->static_smem : 0;
        uint64_t step = sweep_step(room, (uint64_t)a->smem_alloc_unit);
        for (uint64_t dyn = 0; k->static_smem + dyn <= limit && ok; dyn += step)
            ok = evaluate(m, threads, k->regs_per_thread, k->static_smem, dyn, &row) &&
                 push_row(m, &cap, row);
    }
    return ok;
}

/* The launch of --work items on the target's SMs (CUs, WGPs): the same
 * arithmetic for both vendors. */
static void add_launch(const CalcOptions *o, CalcModel *m)
{
    m->have_work = o->have_work;
    m->work = o->work;
    if (o->have_work)
        m->have_waves = occ_waves(o->work, m->row.threads, m->row.fig.groups, m->target.sm_count,
                                  &m->waves);
}

/* --cluster: the architecture's limits and the clusters the product
 * holds at once (an estimate from its public GPC count). */
static void add_cluster(const CalcOptions *o, CalcModel *m)
{
    CalcCluster *c = &m->cluster;
    if (o->cluster[0] == 0)
        return;
    for (int i = 0; i < 3; i++)
        c->dims[i] = o->cluster[i];
    c->size = c->dims[0] * c->dims[1] * c->dims[2];
    c->portable_limit = occ_cluster_limit(m->target.arch, false);
    c->limit = occ_cluster_limit(m->target.arch, true);
    const GpuProduct *g = m->target.gpu;
    c->resident = g ? occ_cluster_resident(m->target.sm_count, g->gpcs, m->row.fig.groups, c->size)
                    : -1;
}

static bool unusable_row(const CalcOptions *o, const Target *t)
{
    calc_error(o, "the tables' row for %s cannot be used for this calculation", t->sm_name);
    return false;
}

static bool build_nvidia(const CalcOptions *o, const Target *t, CalcModel *m)
{
    const ArchLimits *a = t->arch;
    *m = (CalcModel){.target = *t, .sweep = o->sweep, .have_best = true};
    int threads = o->have_threads ? (int)o->threads : 256;
    m->kernel = occ_kernel_defaults(a, o->have_regs ? (int)o->regs : 32, o->smem, o->optin);
    m->kernel.barriers = (int)o->barriers;
    m->kernel.carveout = o->carveout;

    if (!evaluate(m, threads, m->kernel.regs_per_thread, o->smem, o->dyn_smem, &m->row))
        return unusable_row(o, t);
    if (o->error) /* --batch: the figures only */
        return true;
    if (occ_next_step(a, &m->kernel, threads, o->dyn_smem, &m->next) != OCC_OK ||
        occ_best_block_size(a, &m->kernel, NULL, NULL, o->dyn_smem, t->sm_count,
                            &m->runtime_best) != OCC_OK ||
        occ_advise_block_size_all(a, &m->kernel, o->dyn_smem, o->have_work ? o->work : 0,
                                  t->sm_count, &m->best) != OCC_OK)
        return unusable_row(o, t);
    add_launch(o, m);
    add_cluster(o, m);
    if (o->sweep != SWEEP_NONE && !build_sweep(m)) {
        calc_error(o, "--sweep: out of memory");
        return false;
    }
    return true;
}

static bool build_amd(const CalcOptions *o, const Target *t, CalcModel *m)
{
    *m = (CalcModel){.target = *t};
    int threads = (int)o->threads;
    m->amd_kernel = (AmdKernel){.vgprs = (int)o->vgprs, .agprs = (int)o->agprs,
                                .sgprs = (int)o->sgprs, .lds = o->lds,
                                .flat_workgroup_max = threads,
                                .waves_per_eu_min = o->waves_per_eu_min,
                                .waves_per_eu_max = o->waves_per_eu_max};
    AmdResult r;
    if (amd_occupancy_calc(t->amd, &m->amd_kernel, threads, &r) != OCC_OK ||
        (!o->error && amd_next_step(t->amd, &m->amd_kernel, threads, &m->amd_next) != OCC_OK))
        return unusable_row(o, t);
    m->row = (CalcRow){.threads = threads, .regs = (int)o->vgprs, .static_smem = o->lds,
                       .warps = r.waves_per_workgroup, .fig = occ_figures_amd(&r), .amd = r};
    if (!o->error)
        warn_ignored_waves_per_eu(t->amd, &m->amd_kernel, threads);
    add_launch(o, m);
    return true;
}

bool calc_prepare(CalcOptions *o, Target *t, CalcModel *m)
{
    if (t->vendor == OCC_AMD)
        return check_amd(o, t) && build_amd(o, t, m);
    return check_nvidia_options(o) && check_nvidia_target(o, t) && build_nvidia(o, t, m);
}

int cmd_calc(int argc, char **argv)
{
    CalcOptions o;
    CliParams params = {0};
    int rc = parse_options(argc, argv, &o, &params);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    if (o.batch && o.other_option) {
        cli_error(COMMAND, "--batch: the configurations come on stdin, one JSON object a line; "
                           "only --arch-table goes with it");
        return EXIT_USAGE;
    }
    if (o.batch)
        return calc_batch(o.tables, o.n_tables, stdin, stdout);
    if (o.arch && o.gpu) { /* before either vendor's options are judged against one of them */
        cli_error(COMMAND, "--arch and --gpu: give one, not both");
        return EXIT_USAGE;
    }
    /* The tables are read when there is a name to find in them; without
     * one, the NVIDIA checks say what is missing. */
    ArchTable table;
    AmdTable amd;
    bool named = o.arch || o.gpu;
    if (named && !target_load_tables(COMMAND, &table, &amd, o.tables, o.n_tables))
        return EXIT_USAGE;
    Target target = {0};
    CalcModel m = {0};
    bool ok = named && target_resolve_amd(&amd, o.gpu ? o.gpu : o.arch, o.gpu != NULL, &target)
                  ? check_amd(&o, &target) && build_amd(&o, &target, &m)
                  : check_nvidia(&o, &table, &target) && build_nvidia(&o, &target, &m);
    rc = EXIT_USAGE;
    if (ok && o.format == FORMAT_JSON)
        rc = calc_write_json(&m, stdout);
    else if (ok && o.format == FORMAT_CSV)
        rc = calc_write_csv(&m, stdout);
    else if (ok)
        rc = calc_write_text(&m, stdout);
    free(m.rows);
    if (named) {
        amd_table_free(&amd);
        arch_table_free(&table);
    }
    return rc;
}
