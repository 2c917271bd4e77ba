/*
 * silkc_compile.c: `silkc compile`, the back end after the front end's
 * checks: lower the root package to IR, verify it, and write it as IR or
 * as one PTX module per --arch; with --resource-usage, run ptxas on each
 * module and print what every kernel uses (registers, spills, stack,
 * shared memory, barriers), as a table or as JSON.
 *
 *   silkc compile FILE... --arch sm_90[,sm_80...] [-o OUT] [--emit=ptx|ir]
 *                 [--resource-usage [--format text|json]]
 *
 * With one target the PTX goes to OUT (default: the first file's name
 * with .ptx); with several, to OUT with the target before the extension
 * (k.sm_90.ptx, k.sm_80.ptx).
 */
#include "silkc.h"

#include "ir.h"
#include "lower.h"
#include "ptx.h"
#include "ptxas.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TARGETS = 16 };

typedef struct Outputs {
    const char *archs[MAX_TARGETS];
    const char *paths[MAX_TARGETS];
    int n;
} Outputs;

/* "sm_90,sm_80" -> each known target, or a usage error naming the bad one. */
static int split_targets(Compilation *c, const char *list, Outputs *out)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
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
        p += len + (p[len] == ',');
    }
    if (out->n == 0) {
        fprintf(stderr, "silkc: error: --arch: give at least one target, as --arch sm_90\n");
        return EXIT_USAGE;
    }
    return EXIT_CLEAN;
}

/* OUT for one target; OUT with ".sm_XX" before its extension for several. */
static void output_paths(Compilation *c, const SilkcRequest *r, const char *first_file, Outputs *o)
{
    const char *base = r->output ? r->output : first_file;
    const char *dot = strrchr(base, '.');
    const char *slash = strrchr(base, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - base) : strlen(base);
    const char *ext = r->output && dot && (!slash || dot > slash) ? dot : ".ptx";
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

static bool write_ptx(Compilation *c, const IrModule *m, const Outputs *o)
{
    for (int i = 0; i < o->n; i++) {
        FILE *f = fopen(o->paths[i], "w");
        if (!f) {
            fprintf(stderr, "silkc: error: %s: cannot write: %s\n", o->paths[i], strerror(errno));
            return false;
        }
        bool ok = ptx_emit_module(m, o->archs[i], f, &c->diag);
        ok = fclose(f) == 0 && ok;
        if (!ok)
            return false;
    }
    return true;
}

/* ---- resource usage ---------------------------------------------------------------- */

static void print_usage_text(const PtxasReport *reports, int n)
{
    printf("%-8s %-24s %9s %12s %11s %6s %6s %8s\n", "target", "kernel", "registers",
           "spill stores", "spill loads", "stack", "smem", "barriers");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < reports[i].n_kernels; j++) {
            const KernelUsage *u = &reports[i].kernels[j];
            printf("%-8s %-24s %9d %12d %11d %6d %6d %8d\n", reports[i].arch, u->name, u->registers,
                   u->spill_stores, u->spill_loads, u->stack_frame, u->static_smem,
                   u->barriers < 0 ? 0 : u->barriers);
        }
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

/* Without ptxas there is nothing to measure: an estimate from the IR is
 * not implemented yet, and a guess presented as a figure would mislead. */
static int resource_usage(Compilation *c, const SilkcRequest *r, Outputs *o)
{
    const char *ptxas = ptxas_find();
    if (!ptxas) {
        fprintf(stderr, "silkc: error: --resource-usage needs ptxas, and none was found "
                        "(install the CUDA toolkit, or set SILK_PTXAS)\n");
        return EXIT_ENVIRONMENT;
    }
    PtxasReport *reports = arena_alloc(c->arena, (size_t)o->n, sizeof *reports);
    int status = ptxas_run_targets(ptxas, o->paths, o->archs, o->n, c->arena, reports);
    if (status != 0) {
        for (int i = 0; i < o->n; i++)
            if (reports[i].errors)
                fprintf(stderr, "silkc: error: ptxas rejected %s for %s (a compiler bug):\n%s",
                        o->paths[i], o->archs[i], reports[i].errors);
        if (status == PTXAS_NOT_STARTED)
            fprintf(stderr, "silkc: error: cannot start %s: %s\n", ptxas, strerror(errno));
        return EXIT_ERRORS;
    }
    if (r->json)
        print_usage_json(reports, o->n);
    else
        print_usage_text(reports, o->n);
    return EXIT_CLEAN;
}

/* ---- the command ------------------------------------------------------------------------ */

int silkc_compile(Compilation *c, const SilkcRequest *r, const char *first_file)
{
    if (!r->archs && r->emit != EMIT_IR) {
        fprintf(stderr, "silkc: error: --arch: give the targets, as --arch sm_90,sm_80\n");
        return EXIT_USAGE;
    }
    Outputs o = {0};
    if (r->archs) {
        int rc = split_targets(c, r->archs, &o);
        if (rc != EXIT_CLEAN)
            return rc;
    }
    if (compile_check(c) > 0)
        return EXIT_ERRORS;
    IrModule *m = lower_module(c, c->arena);
    if (!m)
        return EXIT_ERRORS;
    if (ir_verify(m, &c->diag) > 0) {
        fprintf(stderr, "silkc: error: the IR failed verification: a compiler bug\n");
        return EXIT_ERRORS;
    }
    if (r->emit == EMIT_IR) {
        FILE *f = r->output ? fopen(r->output, "w") : stdout;
        if (!f) {
            fprintf(stderr, "silkc: error: %s: cannot write: %s\n", r->output, strerror(errno));
            return EXIT_USAGE;
        }
        ir_print(m, f);
        if (f != stdout)
            fclose(f);
        return EXIT_CLEAN;
    }
    output_paths(c, r, first_file, &o);
    if (!write_ptx(c, m, &o))
        return EXIT_ERRORS;
    return r->resource_usage ? resource_usage(c, r, &o) : EXIT_CLEAN;
}
