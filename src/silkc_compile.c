/*
 * silkc_compile.c: `silkc compile` and `silkc check`, around the one build
 * pipeline (build.h): choose how far the build goes, run it, and write
 * what --emit asks for: the IR, one PTX module per --arch, one cubin per
 * --arch (made by the ptxas run that measured the kernels), or a C header
 * embedding the PTX (compiler/header.c); with --resource-usage, print what
 * every kernel uses (registers, spills, stack, shared memory, barriers),
 * as a table or as JSON.  Without ptxas the figures are the estimate from
 * the IR and every form says so: a cubin cannot be estimated, so
 * --emit=cubin without ptxas exits 3.
 *
 *   silkc compile FILE... --arch sm_90[,sm_80...] [-o OUT]
 *                 [--emit=ptx|ir|cubin|header] [--resource-usage [--format text|json]]
 *
 * With one target the PTX (cubin) goes to OUT (default: the first file's
 * name with .ptx, .cubin); with several, to OUT with the target before
 * the extension (k.sm_90.ptx, k.sm_80.ptx).  The header is one file for
 * all targets, OUT (default: the first file's name with .h).  OUT "-" is
 * standard output.  Every output goes through output.h: refused when it
 * is an input, written beside its target and renamed there only when the
 * build succeeded and every byte was written.
 *
 * Each build also measures its kernels on every target (ptxas -v, else
 * the estimate), unless every occupancy warning is off, and reports the
 * occupancy warnings of occ_warn.h; when one is an error (-Werror) no
 * output is written (an earlier build's file stays as it was) and the
 * exit status is 1.  `silkc check --arch` (silkc_check) does the same
 * without writing anything.
 */
#include "silkc.h"
#include "escape.h"

#include "build.h"
#include "occ_warn.h"

#include "output.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_TARGETS = SILKC_MAX_TARGETS };

typedef struct Outputs {
    const char *archs[MAX_TARGETS];
    const char *paths[MAX_TARGETS];     /* what --emit writes per target (PTX, cubin) */
    const char *header;                 /* --emit=header: its path */
    Output files[MAX_TARGETS];          /* the outputs open, committed at the end */
    int n_files;
    bool ptx_rejected;                  /* ptxas rejected it: kept for the bug report */
    Diag *diag;                         /* the request's (silkc_error) */
    int n;
} Outputs;

/* "sm_90,sm_80" -> each known target, or a usage error naming the bad one
 * (an empty element, as in "sm_90," or ",sm_90", included).  `cpu` says
 * why the CPU backend is not named here. */
int silkc_split_targets(Compilation *c, const char *list, const char *cpu, const char **archs,
                        int *n)
{
    if (!*list) {
        silkc_error(&c->diag, "--arch: give at least one target, as --arch sm_90");
        return EXIT_USAGE;
    }
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            silkc_error(&c->diag, "--arch: '%s' has an empty element", QUOTED(list));
            return EXIT_USAGE;
        }
        char *arch = arena_strndup(c->arena, p, len);
        if (backend_find(arch) == &backend_cpu) {
            silkc_error(&c->diag, "--arch cpu: %s", cpu);
            return EXIT_USAGE;
        }
        if (!backend_find(arch)) {
            silkc_error(&c->diag, "--arch: unknown target '%s' (sm_75 to sm_121, %s)", QUOTED(arch),
                        backend_amdgpu.target_range);
            return EXIT_USAGE;
        }
        if (*n == SILKC_MAX_TARGETS) {
            silkc_error(&c->diag, "--arch: at most %d targets", SILKC_MAX_TARGETS);
            return EXIT_USAGE;
        }
        archs[(*n)++] = arch;
        p += len;
        if (!*p)
            return EXIT_OK;
    }
}

static int split_targets(Compilation *c, const char *list, Outputs *out)
{
    return silkc_split_targets(c, list,
                               "the CPU backend runs kernels (silkc exec); compile and check "
                               "write and judge GPU code",
                               out->archs, &out->n);
}

/* The length of `path` without its extension (a dot in its last part). */
static size_t stem_length(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
}

static bool is_amd(const char *arch) { return backend_find(arch) == &backend_amdgpu; }

/* Whether the output for `arch` is a binary: a cubin, or an AMD target's
 * code object, its default output (llc and ld.lld make it). */
static bool binary_output(const SilkcRequest *r, const char *arch)
{
    return r->emit == EMIT_CUBIN || (r->emit == EMIT_PTX && is_amd(arch));
}

/* The extension of `arch`'s output: .cubin, .ll (--emit=llvm), .hsaco
 * (an AMD target's code object), else .ptx. */
static const char *target_extension(const SilkcRequest *r, const char *arch)
{
    if (r->emit == EMIT_CUBIN)
        return ".cubin";
    if (is_amd(arch))
        return r->emit == EMIT_LLVM ? ".ll" : ".hsaco";
    return ".ptx";
}

/* OUT for one target; OUT with ".sm_XX" before its extension for several.
 * Without -o, the first file's name with each target's extension. */
static void output_paths(Compilation *c, const SilkcRequest *r, Outputs *o)
{
    const char *base = r->output ? r->output : r->inputs[0];
    size_t stem = stem_length(base);
    for (int i = 0; i < o->n; i++) {
        const char *ext = r->output && base[stem] ? base + stem : target_extension(r, o->archs[i]);
        if (r->output && o->n == 1) {
            o->paths[i] = r->output;
            continue;
        }
        size_t len = stem + strlen(o->archs[i]) + strlen(ext) + 2;
        char *path = arena_alloc(c->arena, len, 1);
        if (o->n == 1)
            snprintf(path, len, "%.*s%s", (int)stem, base, ext);
        else
            snprintf(path, len, "%.*s.%s%s", (int)stem, base, o->archs[i], ext);
        o->paths[i] = path;
    }
}

/* The first file's name with .h: --emit=header's default output, and its
 * name for the identifiers when it goes to standard output. */
static const char *default_header(Compilation *c, const SilkcRequest *r)
{
    const char *first = r->inputs[0];
    size_t stem = stem_length(first);
    char *path = arena_alloc(c->arena, stem + 3, 1);
    snprintf(path, stem + 3, "%.*s.h", (int)stem, first);
    return path;
}

static bool has_amd_target(const Outputs *o)
{
    for (int i = 0; i < o->n; i++)
        if (is_amd(o->archs[i]))
            return true;
    return false;
}

/* -o - is standard output, as in cc: one file's worth, so one target's
 * PTX or cubin (or the header), and no cubin onto a terminal. */
static int check_standard_output(const SilkcRequest *r, const Outputs *o)
{
    if (!r->output || strcmp(r->output, "-") != 0)
        return EXIT_OK;
    if (r->emit != EMIT_HEADER && o->n > 1) {
        silkc_error(r->diag, "-o -: standard output takes one target's %s; give one "
                             "--arch, or -o FILE for one file per target",
                    r->emit == EMIT_CUBIN ? "cubin" : has_amd_target(o) ? "code" : "PTX");
        return EXIT_USAGE;
    }
    if (binary_output(r, o->archs[0]) && isatty(STDOUT_FILENO)) {
        silkc_error(r->diag, "-o -: a %s is binary, not written to a terminal",
                    r->emit == EMIT_CUBIN ? "cubin" : "code object");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- outputs ----------------------------------------------------------------------------- */

int silkc_output_failed(Diag *d, const Output *out)
{
    silkc_error(d, "%s", out->error);
    return out->failure == OUTPUT_CANNOT_WRITE ? EXIT_ENVIRONMENT : EXIT_USAGE;
}

const char **silkc_input_files(Compilation *c, const SilkcRequest *r, int *n)
{
    const char **inputs = ARENA_ARRAY(c->arena, const char *, (size_t)r->n_inputs + c->n_modules + 1);
    *n = 0;
    for (int i = 0; i < r->n_inputs; i++)
        inputs[(*n)++] = r->inputs[i];
    for (uint32_t i = 0; i < c->n_modules; i++)
        if (c->modules[i]->path)
            inputs[(*n)++] = c->modules[i]->path;
    return inputs;
}

/* Opens each of the n `targets` as o->files (output.h: a temporary beside
 * it until committed); on failure the ones opened are aborted. */
static int open_outputs(Compilation *c, const SilkcRequest *r, const char *const targets[], int n,
                        Outputs *o)
{
    int n_inputs;
    const char **inputs = silkc_input_files(c, r, &n_inputs);
    for (o->n_files = 0; o->n_files < n; o->n_files++)
        if (!output_open(&o->files[o->n_files], targets[o->n_files], inputs, n_inputs)) {
            int rc = silkc_output_failed(r->diag, &o->files[o->n_files]);
            while (o->n_files > 0)
                output_abort(&o->files[--o->n_files]);
            return rc;
        }
    return EXIT_OK;
}

/* The end of a build: each output committed when it succeeded (`rc`
 * clean), else removed, leaving what was there before; but PTX that
 * ptxas rejected is kept, whole, for the bug report. */
static int close_outputs(Outputs *o, int rc)
{
    bool commit = rc == EXIT_OK || o->ptx_rejected;
    for (int i = 0; i < o->n_files; i++)
        if (!commit) {
            output_abort(&o->files[i]);
        } else if (!output_commit(&o->files[i])) {
            rc = silkc_output_failed(o->diag, &o->files[i]);
            commit = false; /* the first failure is the one reported */
        }
    o->n_files = 0;
    return rc;
}

/* ---- resource usage ---------------------------------------------------------------- */

/* AMD targets' figures, in AMD's terms: VGPRs, AGPRs and SGPRs per lane
 * and wave, LDS per workgroup, scratch per lane, the wavefront size and
 * the registers spilled (AMD counts registers, not bytes). */
static void print_amd_usage_text(const UsageReport *reports, int n)
{
    printf("%-8s %-24s %5s %5s %5s %6s %7s %4s %11s %11s\n", "target", "kernel", "vgprs", "agprs",
           "sgprs", "lds", "scratch", "wave", "vgpr spills", "sgpr spills");
    for (int i = 0; i < n; i++)
        for (int j = 0; is_amd(reports[i].arch) && j < reports[i].n_kernels; j++) {
            const KernelUsage *u = &reports[i].kernels[j];
            printf("%-8s %-24s %5d %5d %5d %6d %7d %4d %11d %11d\n", reports[i].arch, u->name,
                   u->registers, u->agprs, u->sgprs, u->static_smem, u->stack_frame,
                   u->wavefront_size, u->vgpr_spills, u->sgpr_spills);
        }
}

/* An estimated row marks its registers "~N" and the table ends with a
 * footnote saying where the figures came from.  AMD targets have a table
 * of their own, after NVIDIA's. */
static void print_usage_text(const UsageReport *reports, int n)
{
    bool estimated = false, nvidia = false, amd = false;
    for (int i = 0; i < n; i++)
        *(is_amd(reports[i].arch) ? &amd : &nvidia) = true;
    if (amd)
        print_amd_usage_text(reports, n);
    if (!nvidia)
        return;
    if (amd)
        putchar('\n');
    printf("%-8s %-24s %9s %12s %11s %6s %6s %8s\n", "target", "kernel", "registers",
           "spill stores", "spill loads", "stack", "smem", "barriers");
    for (int i = 0; i < n; i++)
        for (int j = 0; !is_amd(reports[i].arch) && j < reports[i].n_kernels; j++) {
            const KernelUsage *u = &reports[i].kernels[j];
            char registers[16];
            snprintf(registers, sizeof registers, "%s%d", u->estimated ? "~" : "", u->registers);
            estimated |= u->estimated;
            printf("%-8s %-24s %9s %12d %11d %6d %6d %8d\n", reports[i].arch, u->name, registers,
                   u->spill_stores, u->spill_loads, u->stack_frame, u->static_smem,
                   u->barriers < 0 ? 0 : u->barriers);
        }
    if (estimated)
        printf("~ estimated: no ptxas was found, so these figures come from the IR: registers\n"
               "  by a liveness analysis (ptxas's count may differ by several), spills only\n"
               "  where that passes the kernel's register limit; smem and barriers exact\n");
}

/* An AMD kernel's own figures, beside the common keys. */
static void add_amd_usage_json(cJSON *k, const KernelUsage *u)
{
    cJSON_AddNumberToObject(k, "vgprs", u->registers);
    cJSON_AddNumberToObject(k, "agprs", u->agprs);
    cJSON_AddNumberToObject(k, "sgprs", u->sgprs);
    cJSON_AddNumberToObject(k, "lds", u->static_smem);
    cJSON_AddNumberToObject(k, "scratch", u->stack_frame);
    cJSON_AddNumberToObject(k, "wavefront_size", u->wavefront_size);
    cJSON_AddNumberToObject(k, "vgpr_spills", u->vgpr_spills);
    cJSON_AddNumberToObject(k, "sgpr_spills", u->sgpr_spills);
}

static void print_usage_json(const UsageReport *reports, int n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "silkc/resource-usage/1");
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < reports[i].n_kernels; j++) {
            const KernelUsage *u = &reports[i].kernels[j];
            cJSON *k = cJSON_CreateObject();
            cJSON_AddStringToObject(k, "target", reports[i].arch);
            cJSON_AddStringToObject(k, "kernel", u->name);
            cJSON_AddNumberToObject(k, "registers", u->registers);
            cJSON_AddNumberToObject(k, "spill_stores", u->spill_stores);
            cJSON_AddNumberToObject(k, "spill_loads", u->spill_loads);
            cJSON_AddNumberToObject(k, "stack_frame", u->stack_frame);
            cJSON_AddNumberToObject(k, "static_smem", u->static_smem);
            if (u->barriers >= 0)
                cJSON_AddNumberToObject(k, "barriers", u->barriers);
            else
                cJSON_AddNullToObject(k, "barriers");
            cJSON_AddBoolToObject(k, "estimated", u->estimated);
            if (is_amd(reports[i].arch)) /* registers is vgprs, stack_frame scratch, static_smem LDS */
                add_amd_usage_json(k, u);
            cJSON_AddItemToArray(kernels, k);
        }
    char *text = cJSON_Print(root);
    if (text)
        puts(text);
    free(text);
    cJSON_Delete(root);
}

/* The exit code of a build that stopped early, its tools' failures said
 * by the library (build_exit_status).  With --emit=ptx a target's PTX is
 * the user's file, which a rejection names, and which is then kept, whole,
 * for the bug report. */
static int build_failed(const SilkcRequest *r, const Build *b, BuildStatus status, Outputs *o)
{
    const char *kept[MAX_TARGETS] = {NULL};
    for (int i = 0; r->compile && r->emit == EMIT_PTX && i < o->n; i++)
        if (!is_amd(o->archs[i]))
            kept[i] = strcmp(o->paths[i], "-") == 0 ? "the PTX on standard output" : o->paths[i];
    int rc = build_exit_status(b, status, kept);
    for (int i = 0; status == BUILD_TOOL_FAILED && i < b->n_targets; i++)
        o->ptx_rejected = o->ptx_rejected || (kept[i] && b->targets[i].failure == TOOL_REJECTED);
    return rc;
}

/* The figures' readers: the occupancy warnings (occ_warn.h) and
 * --resource-usage. */
void silkc_judge_usage(Compilation *c, const SilkcRequest *r, const Build *b)
{
    UsageReport *usage = ARENA_ARRAY(c->arena, UsageReport, (size_t)b->n_targets + 1);
    UsageReport *at_caps = ARENA_ARRAY(c->arena, UsageReport, (size_t)b->n_targets + 1);
    for (int i = 0; i < b->n_targets; i++) {
        usage[i] = b->targets[i].usage;
        at_caps[i] = b->targets[i].at_caps;
    }
    occ_warn_module(c, b->module, usage, at_caps, b->n_targets);
    if (r->resource_usage && r->json)
        print_usage_json(usage, b->n_targets);
    else if (r->resource_usage)
        print_usage_text(usage, b->n_targets);
}

/* Copies the file at `path` (a cubin ptxas wrote) to `out`; false
 * (reported) when it does not read.  Write errors are the output's, found
 * when it is committed. */
static bool copy_file(Diag *d, const char *path, FILE *out)
{
    FILE *in = fopen(path, "rb");
    char buf[65536];
    size_t got;
    while (in && (got = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, got, out) != got)
            break;
    bool ok = in && !ferror(in);
    if (!ok)
        silkc_error(d, "%s: cannot read the assembler's binary: %s", path,
                    strerror(errno));
    if (in)
        fclose(in);
    return ok;
}

/* Each target's output: a binary (a cubin, an AMD code object), which
 * its tools made in the build's temporary directory (never straight into
 * the output, which may be a pipe or one of the inputs) in the run that
 * measured it; else its code (PTX, LLVM IR). */
static int write_targets(const SilkcRequest *r, const Build *b, Outputs *o)
{
    for (int i = 0; i < b->n_targets; i++) {
        if (!binary_output(r, o->archs[i]))
            fputs(b->targets[i].code, o->files[i].file);
        else if (!copy_file(r->diag, b->targets[i].binary_path, o->files[i].file))
            return EXIT_ENVIRONMENT;
        output_flush(&o->files[i]);
    }
    return EXIT_OK;
}

/* The files --emit asks for, opened and written; committed by the
 * caller. */
static int write_outputs(Compilation *c, const SilkcRequest *r, const Build *b, Outputs *o)
{
    bool header = r->emit == EMIT_HEADER;
    int rc = header ? open_outputs(c, r, &o->header, 1, o) : open_outputs(c, r, o->paths, o->n, o);
    if (rc != EXIT_OK)
        return rc;
    if (!header)
        return write_targets(r, b, o);
    const char **code = ARENA_ARRAY(c->arena, const char *, (size_t)b->n_targets + 1);
    for (int i = 0; i < b->n_targets; i++)
        code[i] = b->targets[i].code;
    const char *name = strcmp(o->header, "-") == 0 ? default_header(c, r) : o->header;
    header_write(c, b->module, name, o->archs, code, o->n, o->files[0].file);
    output_flush(&o->files[0]);
    return EXIT_OK;
}

/* ---- the command ------------------------------------------------------------------------ */

/* Whether some target is NVIDIA's: the occupancy warnings are for those
 * only, for now (the AMD engine is not yet behind them). */
static bool has_nvidia_target(const Outputs *o)
{
    for (int i = 0; i < o->n; i++)
        if (!is_amd(o->archs[i]))
            return true;
    return false;
}

static bool has_binary_output(const SilkcRequest *r, const Outputs *o)
{
    for (int i = 0; i < o->n; i++)
        if (binary_output(r, o->archs[i]))
            return true;
    return false;
}

/* How far the build goes: the occupancy warnings and --resource-usage
 * need the figures, and a cubin or code object is made by the run that
 * measures. */
static BuildOptions build_options(Compilation *c, const SilkcRequest *r, const Outputs *o)
{
    bool figures = r->resource_usage || (occ_warn_enabled(&c->diag) && has_nvidia_target(o));
    BuildStage last = !r->compile && !r->archs ? BUILD_CHECK
                      : !r->compile ? (figures ? BUILD_MEASURE : BUILD_IR)
                      : r->emit == EMIT_IR ? BUILD_IR
                      : figures || has_binary_output(r, o) ? BUILD_MEASURE
                                                           : BUILD_CODE;
    return (BuildOptions){.archs = o->archs, .n_archs = o->n, .last = last,
                          .optimize = !r->no_optimize, .measure_caps = true,
                          .program = "silkc"};
}

/* A cubin is ptxas's: without it --emit=cubin cannot be done (exit 3). */
static int need_assembler(const Outputs *o)
{
    for (int i = 0; i < o->n; i++)
        if (backend_find(o->archs[i]) == &backend_ptx && !backend_ptx.assembler()) {
            silkc_error(o->diag, "--emit=cubin needs ptxas, and none was found "
                                 "(install the CUDA toolkit, or set SILK_PTXAS)");
            return EXIT_ENVIRONMENT;
        }
    return EXIT_OK;
}

/* `silkc check`: the front end; with --arch the occupancy warnings too,
 * which need each kernel's figures, so check builds as compile does,
 * writing nothing. */
int silkc_check(Compilation *c, const SilkcRequest *r)
{
    Outputs o = {.diag = r->diag};
    int rc = r->archs ? split_targets(c, r->archs, &o) : EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    BuildOptions options = build_options(c, r, &o);
    Build b;
    BuildStatus status = build_run(c, &options, &b);
    rc = build_failed(r, &b, status, &o);
    if (status == BUILD_OK && options.last == BUILD_MEASURE)
        silkc_judge_usage(c, r, &b);
    build_finish(&b);
    return rc;
}

/* --emit=ir: the module's text to -o, else standard output. */
static int emit_ir(Compilation *c, const SilkcRequest *r, const IrModule *m)
{
    Outputs o = {.diag = r->diag};
    const char *target = r->output ? r->output : "-";
    int rc = open_outputs(c, r, &target, 1, &o);
    if (rc != EXIT_OK)
        return rc;
    ir_print(m, o.files[0].file);
    return close_outputs(&o, EXIT_OK);
}

/* --emit's kinds that are one vendor's: a cubin and the header (which
 * embeds PTX) NVIDIA's, LLVM IR AMD's. */
static int check_emit_targets(const SilkcRequest *r, const Outputs *o)
{
    for (int i = 0; i < o->n; i++) {
        bool amd = is_amd(o->archs[i]);
        const char *kind = r->emit == EMIT_CUBIN ? "cubin" : r->emit == EMIT_HEADER ? "header" : "llvm";
        if ((r->emit == EMIT_LLVM && !amd) || ((r->emit == EMIT_CUBIN || r->emit == EMIT_HEADER) && amd)) {
            silkc_error(r->diag, "--emit=%s: %s is %s target (--emit=%s is for %s targets)",
                        kind, o->archs[i], amd ? "an AMD" : "an NVIDIA", kind, amd ? "NVIDIA" : "AMD");
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* The request's targets and output names, checked before anything is
 * built. */
static int plan_outputs(Compilation *c, const SilkcRequest *r, Outputs *o)
{
    if (!r->archs && r->emit != EMIT_IR) {
        silkc_error(&c->diag, "--arch: give the targets, as --arch sm_90,sm_80");
        return EXIT_USAGE;
    }
    int rc = r->archs ? split_targets(c, r->archs, o) : EXIT_OK;
    if (rc != EXIT_OK || r->emit == EMIT_IR)
        return rc;
    if ((rc = check_standard_output(r, o)) != EXIT_OK)
        return rc;
    if ((rc = check_emit_targets(r, o)) != EXIT_OK)
        return rc;
    output_paths(c, r, o);
    o->header = r->output ? r->output : default_header(c, r);
    return r->emit == EMIT_CUBIN ? need_assembler(o) : EXIT_OK;
}

int silkc_compile(Compilation *c, const SilkcRequest *r)
{
    Outputs o = {.diag = r->diag};
    int rc = plan_outputs(c, r, &o);
    if (rc != EXIT_OK)
        return rc;
    BuildOptions options = build_options(c, r, &o);
    Build b;
    BuildStatus status = build_run(c, &options, &b);
    rc = build_failed(r, &b, status, &o);
    if (status == BUILD_OK && r->emit == EMIT_IR)
        rc = emit_ir(c, r, b.module);
    else if (status == BUILD_OK || o.ptx_rejected) {
        int written = write_outputs(c, r, &b, &o);
        rc = written == EXIT_OK ? rc : written;
    }
    if (status == BUILD_OK && rc == EXIT_OK && options.last == BUILD_MEASURE)
        silkc_judge_usage(c, r, &b);
    /* A warning made an error fails the build: nothing is written, so
     * that make does not take a failed target for an up-to-date one. */
    if (rc == EXIT_OK && c->diag.errors > 0)
        rc = EXIT_FINDINGS;
    rc = close_outputs(&o, rc);
    build_finish(&b);
    return rc;
}
