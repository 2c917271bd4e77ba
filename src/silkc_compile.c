/*
 * silkc_compile.c: `silkc compile`, the back end after the front end's
 * checks: lower the root package to IR, verify it, and write it as IR, as
 * one PTX module per --arch, as one cubin per --arch (ptxas assembles the
 * PTX), or as a C header embedding the PTX (silkc_header.c); with
 * --resource-usage, run ptxas on each module and print what every kernel
 * uses (registers, spills, stack, shared memory, barriers), as a table or
 * as JSON.  Without ptxas, --resource-usage prints an estimate from the
 * IR (regest.h) and says so in every form: a cubin cannot be estimated,
 * so --emit=cubin without ptxas exits 3.
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
 * build succeeded and every byte was written.  ptxas reads only its own
 * copy of the PTX and writes its cubins only into a private temporary
 * directory (tempdir.h), never the user's output, which may be a pipe,
 * /dev/stdout or /dev/null.
 *
 * Each build also measures its kernels on every target (ptxas -v, else
 * the estimate), unless every occupancy warning is off, and reports the
 * occupancy warnings of occ_warn.h; when one is an error (-Werror) no
 * output is written (an earlier build's file stays as it was) and the
 * exit status is 1.  `silkc check --arch`
 * (silkc_check_targets) does the same without writing anything.
 */
#include "silkc.h"

#include "ir.h"
#include "lower.h"
#include "occ_warn.h"
#include "pass.h"
#include "ptx.h"
#include "ptxas.h"
#include "regest.h"

#include "cleanup.h"
#include "output.h"
#include "tempdir.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_TARGETS = 16 };

typedef struct Outputs {
    const char *archs[MAX_TARGETS];
    const char *paths[MAX_TARGETS];     /* what --emit writes per target (PTX, cubin) */
    const char *ptx[MAX_TARGETS];       /* the PTX text of each target */
    const char *ptx_paths[MAX_TARGETS]; /* its copy for ptxas in tmpdir; NULL: none yet */
    const char *cap_paths[MAX_TARGETS]; /* temporary PTX with -Wocc-limit's register caps */
    const char *header;                 /* --emit=header: its path */
    Output files[MAX_TARGETS];          /* the outputs open, committed at the end */
    int n_files;
    bool ptx_out;                       /* --emit=ptx: files[i] holds ptx[i] */
    bool ptx_rejected;                  /* ptxas rejected it: kept for the bug report */
    char *tmpdir;                       /* the temporary directory, once made */
    int n;
} Outputs;

/* "sm_90,sm_80" -> each known target, or a usage error naming the bad one
 * (an empty element, as in "sm_90," or ",sm_90", included). */
static int split_targets(Compilation *c, const char *list, Outputs *out)
{
    if (!*list) {
        fprintf(stderr, "silkc: error: --arch: give at least one target, as --arch sm_90\n");
        return EXIT_USAGE;
    }
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            fprintf(stderr, "silkc: error: --arch: '%s' has an empty element\n", list);
            return EXIT_USAGE;
        }
        char *arch = arena_strndup(c->arena, p, len);
        if (!ptx_isa_version(arch)) {
            fprintf(stderr, "silkc: error: --arch: unknown target '%s' (sm_75 to sm_121)\n", arch);
            return EXIT_USAGE;
        }
        if (out->n == MAX_TARGETS) {
            fprintf(stderr, "silkc: error: --arch: at most %d targets\n", MAX_TARGETS);
            return EXIT_USAGE;
        }
        out->archs[out->n++] = arch;
        p += len;
        if (!*p)
            return EXIT_OK;
    }
}

/* The length of `path` without its extension (a dot in its last part). */
static size_t stem_length(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
}

/* OUT for one target; OUT with ".sm_XX" before its extension for several.
 * Without -o, the first file's name with `ext`. */
static void output_paths(Compilation *c, const SilkcRequest *r, const char *ext, Outputs *o)
{
    const char *base = r->output ? r->output : r->inputs[0];
    size_t stem = stem_length(base);
    if (r->output && base[stem])
        ext = base + stem;
    for (int i = 0; i < o->n; i++) {
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

/* -o - is standard output, as in cc: one file's worth, so one target's
 * PTX or cubin (or the header), and no cubin onto a terminal. */
static int check_standard_output(const SilkcRequest *r, const Outputs *o)
{
    if (!r->output || strcmp(r->output, "-") != 0)
        return EXIT_OK;
    if (r->emit != EMIT_HEADER && o->n > 1) {
        fprintf(stderr, "silkc: error: -o -: standard output takes one target's %s; give one "
                        "--arch, or -o FILE for one file per target\n",
                r->emit == EMIT_CUBIN ? "cubin" : "PTX");
        return EXIT_USAGE;
    }
    if (r->emit == EMIT_CUBIN && isatty(STDOUT_FILENO)) {
        fprintf(stderr, "silkc: error: -o -: a cubin is binary, not written to a terminal\n");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- outputs ----------------------------------------------------------------------------- */

/* An output that could not be opened or written: its line, and the exit
 * code (a target the user named wrongly is usage, a full disk the
 * environment). */
static int output_failed(const Output *out)
{
    fprintf(stderr, "silkc: error: %s\n", out->error);
    return out->failure == OUTPUT_CANNOT_WRITE ? EXIT_ENVIRONMENT : EXIT_USAGE;
}

/* Every file the compilation read, as given: no output may be one of them. */
static const char **input_files(Compilation *c, const SilkcRequest *r, int *n)
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
    const char **inputs = input_files(c, r, &n_inputs);
    for (o->n_files = 0; o->n_files < n; o->n_files++)
        if (!output_open(&o->files[o->n_files], targets[o->n_files], inputs, n_inputs)) {
            int rc = output_failed(&o->files[o->n_files]);
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
            rc = output_failed(&o->files[i]);
            commit = false; /* the first failure is the one reported */
        }
    o->n_files = 0;
    return rc;
}

/* ---- the PTX, and ptxas's files ---------------------------------------------------------- */

/* One target's PTX of `m`, in the arena; NULL when it cannot be made
 * (reported). */
static const char *ptx_text(Compilation *c, const IrModule *m, const char *arch)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        fprintf(stderr, "silkc: error: cannot write the PTX: %s\n", strerror(errno));
        return NULL;
    }
    bool ok = ptx_emit_module(m, arch, f, &c->diag);
    ok = fclose(f) == 0 && ok;
    const char *copy = ok ? arena_strndup(c->arena, text, len) : NULL;
    free(text);
    return copy;
}

/* Each target's PTX, in memory: the header embeds it, and the files are
 * written from it. */
static bool emit_ptx(Compilation *c, const IrModule *m, Outputs *o)
{
    for (int i = 0; i < o->n; i++)
        if (!(o->ptx[i] = ptx_text(c, m, o->archs[i])))
            return false;
    return true;
}

/* The private temporary directory (tempdir.h), made on first use. */
static bool make_tmpdir(Outputs *o)
{
    const char *base;
    if (!o->tmpdir && !(o->tmpdir = tempdir_make("silkc", &base))) {
        fprintf(stderr, "silkc: error: cannot make a temporary directory in %s: %s\n", base,
                strerror(errno));
        return false;
    }
    return true;
}

/* DIR/ARCH.EXT in the temporary directory, registered with cleanup.h
 * before anything makes it; NULL (reported) when out of memory. */
static const char *temporary_path(Compilation *c, const Outputs *o, const char *arch,
                                  const char *ext)
{
    size_t len = strlen(o->tmpdir) + strlen(arch) + strlen(ext) + 2;
    char *path = arena_alloc(c->arena, len, 1);
    snprintf(path, len, "%s/%s%s", o->tmpdir, arch, ext);
    if (cleanup_add_file(path))
        return path;
    fprintf(stderr, "silkc: error: out of memory\n");
    return NULL;
}

/* `text` to DIR/ARCH.EXT for ptxas; its path, or NULL (reported). */
static const char *write_temporary(Compilation *c, Outputs *o, const char *arch, const char *ext,
                                   const char *text)
{
    const char *path = make_tmpdir(o) ? temporary_path(c, o, arch, ext) : NULL;
    if (!path)
        return NULL;
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0;
    ok = f && fclose(f) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "silkc: error: %s: cannot write: %s\n", path, strerror(errno));
        return NULL;
    }
    return path;
}

/* The PTX of every target where ptxas reads it: always a private copy
 * (ARCH.ptx in the temporary directory), never the user's output, which
 * may be a pipe, /dev/stdout or /dev/null. */
static bool write_ptx_files(Compilation *c, Outputs *o)
{
    for (int i = 0; i < o->n; i++)
        if (!o->ptx_paths[i] && !(o->ptx_paths[i] = write_temporary(c, o, o->archs[i], ".ptx",
                                                                     o->ptx[i])))
            return false;
    return true;
}

/* ---- resource usage ---------------------------------------------------------------- */

/* An estimated row marks its registers "~N" and the table ends with a
 * footnote saying where the figures came from. */
static void print_usage_text(const PtxasReport *reports, int n)
{
    bool estimated = false;
    printf("%-8s %-24s %9s %12s %11s %6s %6s %8s\n", "target", "kernel", "registers",
           "spill stores", "spill loads", "stack", "smem", "barriers");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < reports[i].n_kernels; j++) {
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

static void print_usage_json(const PtxasReport *reports, int n)
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
            cJSON_AddItemToArray(kernels, k);
        }
    char *text = cJSON_Print(root);
    if (text)
        puts(text);
    free(text);
    cJSON_Delete(root);
}

/* Without ptxas: each kernel's estimate from the IR, the same for every
 * target (the IR is). */
static void estimate_usage(Compilation *c, const IrModule *m, const Outputs *o,
                           PtxasReport *reports)
{
    KernelUsage *kernels = ARENA_ARRAY(c->arena, KernelUsage, m->n_funcs + 1);
    int n = 0;
    for (uint32_t k = 0; k < m->n_funcs; k++)
        if (m->funcs[k]->kernel)
            kernels[n++] = regest_kernel(m, m->funcs[k], c->arena);
    for (int i = 0; i < o->n; i++)
        reports[i] = (PtxasReport){.arch = o->archs[i], .kernels = kernels, .n_kernels = n};
}

/* ptxas failed: a rejection of our PTX is a compiler bug, shown in
 * ptxas's own words for the report; a "ptxas" that exited 0 without its
 * results is a broken tool (the environment's fault). */
static int ptxas_failed(const char *ptxas, Outputs *o, const PtxasReport *reports, int status)
{
    int rc = EXIT_FINDINGS;
    for (int i = 0; i < o->n; i++) {
        if (reports[i].exit_status == PTXAS_NO_RESULT) {
            fprintf(stderr, "silkc: error: %s, run as ptxas for %s, %s\n", ptxas, o->archs[i],
                    reports[i].errors);
            rc = EXIT_ENVIRONMENT;
        } else if (reports[i].exit_status > 128 && !*reports[i].errors) {
            /* Killed without a word: no rejection (ulimit -f, the OOM killer, a crash). */
            fprintf(stderr, "silkc: error: %s for %s died of signal %d (%s)\n", ptxas,
                    o->archs[i], reports[i].exit_status - 128,
                    strsignal(reports[i].exit_status - 128));
        } else if (reports[i].errors && o->ptx_out) {
            o->ptx_rejected = true;
            fprintf(stderr, "silkc: error: ptxas rejected %s for %s (a compiler bug):\n%s",
                    strcmp(o->paths[i], "-") == 0 ? "the PTX on standard output" : o->paths[i],
                    o->archs[i], reports[i].errors);
        } else if (reports[i].errors) {
            fprintf(stderr, "silkc: error: ptxas rejected the PTX for %s (a compiler bug; "
                            "--emit=ptx writes that PTX):\n%s", o->archs[i], reports[i].errors);
        }
    }
    if (status == PTXAS_NOT_STARTED)
        fprintf(stderr, "silkc: error: cannot start %s: %s\n", ptxas, strerror(errno));
    return rc;
}

/* Every kernel's figures on every target: ptxas -v on the PTX, else the
 * estimate.  NULL when ptxas failed (reported; *rc says how to exit). */
static PtxasReport *measure(Compilation *c, const IrModule *m, Outputs *o, int *rc)
{
    PtxasReport *reports = ARENA_ARRAY(c->arena, PtxasReport, (size_t)o->n);
    const char *ptxas = ptxas_find();
    if (!ptxas) {
        estimate_usage(c, m, o, reports);
        return reports;
    }
    if (!write_ptx_files(c, o)) {
        *rc = EXIT_ENVIRONMENT;
        return NULL;
    }
    int status = ptxas_run_targets(ptxas, o->ptx_paths, o->archs, o->n, c->arena, reports);
    if (status != 0) {
        *rc = ptxas_failed(ptxas, o, reports, status);
        return NULL;
    }
    return reports;
}

/* One target's PTX with kernel k's .maxnreg set to caps[k] where that is
 * not 0; the module is left as it was. */
static const char *ptx_with_caps(Compilation *c, const IrModule *m, const char *arch,
                                 const int *caps)
{
    int *saved = ARENA_ARRAY(c->arena, int, m->n_funcs + 1);
    for (uint32_t k = 0; k < m->n_funcs; k++) {
        saved[k] = m->funcs[k]->maxnreg;
        if (caps[k])
            m->funcs[k]->maxnreg = caps[k];
    }
    const char *text = ptx_text(c, m, arch);
    for (uint32_t k = 0; k < m->n_funcs; k++)
        m->funcs[k]->maxnreg = saved[k];
    return text;
}

/* -Wocc-limit's register caps, measured: each target that has any is
 * compiled once more with them as .maxnreg, and ptxas says what the
 * kernels use there.  NULL when there is nothing to measure, no ptxas, or
 * ptxas failed: then no cap is suggested. */
static PtxasReport *measure_at_caps(Compilation *c, const IrModule *m, Outputs *o,
                                    const PtxasReport *reports)
{
    const char *ptxas = ptxas_find();
    const char *paths[MAX_TARGETS], *archs[MAX_TARGETS];
    int which[MAX_TARGETS], n = 0;
    int *caps = ARENA_ARRAY(c->arena, int, m->n_funcs + 1);
    for (int i = 0; ptxas && i < o->n; i++) {
        if (!occ_warn_register_caps(c, m, &reports[i], caps))
            continue;
        const char *text = ptx_with_caps(c, m, o->archs[i], caps);
        if (!text || !(o->cap_paths[i] = write_temporary(c, o, o->archs[i], ".caps.ptx", text)))
            return NULL;
        paths[n] = o->cap_paths[i];
        archs[n] = o->archs[i];
        which[n++] = i;
    }
    PtxasReport got[MAX_TARGETS];
    if (n == 0 || ptxas_run_targets(ptxas, paths, archs, n, c->arena, got) != 0)
        return NULL;
    PtxasReport *at_caps = ARENA_ARRAY(c->arena, PtxasReport, (size_t)o->n);
    for (int i = 0; i < n; i++)
        at_caps[which[i]] = got[i];
    return at_caps;
}

/* What needs the figures: the occupancy warnings (occ_warn.h), unless
 * every one is off, and --resource-usage.  `reports` when a run already
 * measured them (a cubin's), else measure. */
static int judge_usage(Compilation *c, const SilkcRequest *r, const IrModule *m, Outputs *o,
                       PtxasReport *reports)
{
    if (!r->resource_usage && !occ_warn_enabled(&c->diag))
        return EXIT_OK;
    int rc = EXIT_OK;
    if (!reports && !(reports = measure(c, m, o, &rc)))
        return rc;
    occ_warn_module(c, m, reports, measure_at_caps(c, m, o, reports), o->n);
    if (r->resource_usage && r->json)
        print_usage_json(reports, o->n);
    else if (r->resource_usage)
        print_usage_text(reports, o->n);
    return EXIT_OK;
}

/* Copies the file at `path` (a cubin ptxas wrote) to `out`; false
 * (reported) when it does not read.  Write errors are the output's, found
 * when it is committed. */
static bool copy_file(const char *path, FILE *out)
{
    FILE *in = fopen(path, "rb");
    char buf[65536];
    size_t got;
    while (in && (got = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, got, out) != got)
            break;
    bool ok = in && !ferror(in);
    if (!ok)
        fprintf(stderr, "silkc: error: %s: cannot read ptxas's cubin: %s\n", path,
                strerror(errno));
    if (in)
        fclose(in);
    return ok;
}

/* --emit=cubin: ptxas assembles each target's PTX into a cubin in the
 * temporary directory (never straight into the output, which may be a
 * pipe or one of the inputs), copied to the output once whole; a cubin
 * cannot be estimated, so without ptxas this exits 3.  Its -v report is
 * the --resource-usage. */
static int assemble(Compilation *c, const SilkcRequest *r, const IrModule *m, Outputs *o)
{
    const char *ptxas = ptxas_find();
    if (!ptxas) {
        fprintf(stderr, "silkc: error: --emit=cubin needs ptxas, and none was found "
                        "(install the CUDA toolkit, or set SILK_PTXAS)\n");
        return EXIT_ENVIRONMENT;
    }
    const char *cubins[MAX_TARGETS];
    if (!write_ptx_files(c, o))
        return EXIT_ENVIRONMENT;
    for (int i = 0; i < o->n; i++)
        if (!(cubins[i] = temporary_path(c, o, o->archs[i], ".cubin")))
            return EXIT_ENVIRONMENT;
    PtxasReport *reports = ARENA_ARRAY(c->arena, PtxasReport, (size_t)o->n);
    int status = ptxas_assemble_targets(ptxas, o->ptx_paths, o->archs, cubins, o->n, c->arena,
                                        reports);
    if (status != 0)
        return ptxas_failed(ptxas, o, reports, status);
    for (int i = 0; i < o->n; i++) {
        if (!copy_file(cubins[i], o->files[i].file))
            return EXIT_ENVIRONMENT;
        output_flush(&o->files[i]);
    }
    return judge_usage(c, r, m, o, reports);
}

/* Everything after the PTX is in memory: open the files --emit asks for,
 * write them, then --resource-usage; the files are committed by the
 * caller. */
static int emit_outputs(Compilation *c, const SilkcRequest *r, const IrModule *m, Outputs *o)
{
    bool header = r->emit == EMIT_HEADER;
    int rc = header ? open_outputs(c, r, &o->header, 1, o) : open_outputs(c, r, o->paths, o->n, o);
    if (rc != EXIT_OK)
        return rc;
    if (r->emit == EMIT_CUBIN)
        return assemble(c, r, m, o);
    if (header) {
        const char *name = strcmp(o->header, "-") == 0 ? default_header(c, r) : o->header;
        silkc_write_header(c, m, name, o->archs, o->ptx, o->n, o->files[0].file);
        output_flush(&o->files[0]);
    } else {
        for (int i = 0; i < o->n; i++) {
            fputs(o->ptx[i], o->files[i].file);
            output_flush(&o->files[i]);
        }
        o->ptx_out = true;
    }
    return judge_usage(c, r, m, o, NULL);
}

/* ---- the command ------------------------------------------------------------------------ */

/* The checked root package lowered, verified and (unless -O0) optimised;
 * NULL when any step failed (reported), with *rc the exit code. */
static IrModule *build_module(Compilation *c, const SilkcRequest *r, int *rc)
{
    *rc = EXIT_FINDINGS;
    if (compile_check(c) > 0)
        return NULL;
    IrModule *m = lower_module(c, c->arena);
    if (!m)
        return NULL;
    if (ir_verify(m, &c->diag) > 0) {
        fprintf(stderr, "silkc: error: the IR failed verification: a compiler bug\n");
        return NULL;
    }
    if (!r->no_optimize && !ir_optimize(m, &c->diag, PASS_VERIFY_EACH))
        return NULL; /* the verifier's faults and the pass are reported */
    *rc = EXIT_OK;
    return m;
}

/* `silkc check --arch`: the occupancy warnings need each kernel's figures,
 * so check builds as compile does, writing nothing but ptxas's temporary
 * input. */
int silkc_check_targets(Compilation *c, const SilkcRequest *r)
{
    Outputs o = {0};
    int rc = split_targets(c, r->archs, &o);
    IrModule *m = rc == EXIT_OK ? build_module(c, r, &rc) : NULL;
    if (!m || !occ_warn_enabled(&c->diag))
        return rc;
    if (!emit_ptx(c, m, &o))
        return EXIT_FINDINGS;
    PtxasReport *reports = measure(c, m, &o, &rc);
    if (reports)
        occ_warn_module(c, m, reports, measure_at_caps(c, m, &o, reports), o.n);
    tempdir_remove(o.tmpdir, 0);
    return rc;
}

/* --emit=ir: the module's text to -o, else standard output. */
static int emit_ir(Compilation *c, const SilkcRequest *r, const IrModule *m)
{
    Outputs o = {0};
    const char *target = r->output ? r->output : "-";
    int rc = open_outputs(c, r, &target, 1, &o);
    if (rc != EXIT_OK)
        return rc;
    ir_print(m, o.files[0].file);
    return close_outputs(&o, EXIT_OK);
}

int silkc_compile(Compilation *c, const SilkcRequest *r)
{
    if (!r->archs && r->emit != EMIT_IR) {
        fprintf(stderr, "silkc: error: --arch: give the targets, as --arch sm_90,sm_80\n");
        return EXIT_USAGE;
    }
    Outputs o = {0};
    int rc = r->archs ? split_targets(c, r->archs, &o) : EXIT_OK;
    if (rc == EXIT_OK && r->emit != EMIT_IR)
        rc = check_standard_output(r, &o);
    IrModule *m = rc == EXIT_OK ? build_module(c, r, &rc) : NULL;
    if (!m)
        return rc;
    if (r->emit == EMIT_IR)
        return emit_ir(c, r, m);
    output_paths(c, r, r->emit == EMIT_CUBIN ? ".cubin" : ".ptx", &o);
    o.header = r->output ? r->output : default_header(c, r);
    if (!emit_ptx(c, m, &o))
        return EXIT_FINDINGS;
    rc = emit_outputs(c, r, m, &o);
    /* A warning made an error fails the build: nothing is written, so
     * that make does not take a failed target for an up-to-date one. */
    if (rc == EXIT_OK && c->diag.errors > 0)
        rc = EXIT_FINDINGS;
    rc = close_outputs(&o, rc);
    tempdir_remove(o.tmpdir, 0);
    return rc;
}
