/*
 * measure_cubin.c: the .cubin input, which comes measured already
 * and needs no ptxas: it is read as an ELF (cubin.h).
 *
 * A cubin holds machine code for one architecture, and the driver runs it
 * only on that major version at the same or a later minor one (an sm_80
 * cubin runs on sm_86 and sm_89, not on sm_90 or sm_75).  So a cubin is
 * reported for the targets that can run it, the others skipped with a
 * warning naming them; a cubin that none of the targets runs is an error
 * that says which --arch would.  Given only cubins and no target, the
 * report is for the cubins' own architectures.  A cubin records no spills
 * (-1: unknown) nor .minnctapersm (-1: not recorded); it records the
 * register cap ptxas worked under, which becomes the kernel's maxnreg.
 */
#include "measure_internal.h"

#include "escape.h"

#include "ptx/cubin.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* x x y x z of a .maxntid or .reqntid; 0 when absent (all dims 0).  A
 * crafted file's dimensions may multiply past INT_MAX: the product is
 * taken in 64 bits and held there, above every architecture's limit. */
static int dims_product(const int dims[3])
{
    if (dims[0] <= 0)
        return 0;
    int64_t product = dims[0];
    for (int i = 1; i < 3; i++)
        if (dims[i] > 0 && (product *= dims[i]) > INT_MAX)
            return INT_MAX;
    return (int)product;
}

MeasuredKernel *measure_cubin_kernels(const UsageReport *r, const CubinKernel *details,
                                      const char *file, InputKind kind, Arena *arena)
{
    MeasuredKernel *kernels = ARENA_ARRAY(arena, MeasuredKernel, (size_t)r->n_kernels + 1);
    for (int k = 0; k < r->n_kernels; k++) {
        const CubinKernel *d = &details[k];
        MeasuredKernel *rk = &kernels[k];
        *rk = (MeasuredKernel){.name = r->kernels[k].name, .file = file, .input = kind,
                             .usage = r->kernels[k], .minnctapersm = -1};
        rk->reqntid = dims_product(d->req_threads_dim);
        rk->maxntid = rk->reqntid ? 0 : dims_product(d->max_threads_dim);
        /* 255 is every architecture's per-thread limit: no cap. */
        rk->maxnreg = d->max_registers > 0 && d->max_registers < 255 ? d->max_registers : 0;
        rk->extern_smem = d->dynamic_smem;
        rk->extern_smem_unknown = !d->dynamic_smem_known;
        rk->calls_out = d->calls_out;
        memcpy(rk->cluster, d->cluster_dim, sizeof rk->cluster);
        rk->explicit_cluster = d->explicit_cluster;
        rk->max_cluster_rank = d->max_cluster_rank;
    }
    return kernels;
}

/* The kernels of a cubin, shared by every target. */
static void collect_kernels(const UsageReport *r, const CubinKernel *details, const char *path,
                            int n_targets, Arena *arena, MeasuredFile *s)
{
    MeasuredKernel *kernels = measure_cubin_kernels(r, details, path, INPUT_CUBIN, arena);
    for (int t = 0; t < n_targets; t++) {
        s->kernels[t] = kernels;
        s->n_kernels[t] = r->n_kernels;
    }
}

bool measure_cubin_runs_on(int sm, const Target *t)
{
    return t->arch->major == sm / 10 && t->arch->minor >= sm % 10;
}

/* Whether machine code for `cubin_arch` ("sm_80") runs on target t. */
static bool runs_on(const char *cubin_arch, const Target *t)
{
    return measure_cubin_runs_on(atoi(cubin_arch + 3), t);
}

/* The names of the targets marked in `which`, "sm_75, sm_90". */
static void list_targets(const Target *targets, const bool *which, int n, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        if (which[i]) {
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, "%s%s", used ? ", " : "", targets[i].sm_name);
        }
}

/* Marks the targets the cubin cannot run on; false (said) when none can. */
static bool match_targets(Measure *m, const char *path, const char *arch, const Target *targets,
                          int n, MeasuredFile *s)
{
    bool quiet = m->options->own_targets;
    s->skipped = ARENA_ARRAY(m->arena, bool, (size_t)n + 1);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        s->skipped[i] = !runs_on(arch, &targets[i]);
        kept += !s->skipped[i];
    }
    char names[512];
    list_targets(targets, s->skipped, n, names, sizeof names);
    if (kept == 0) {
        measure_error(m, "%s: a cubin for %s, which none of the targets (%s) runs: give --arch %s",
                  ESCAPED(path), arch, names, arch);
        return false;
    }
    int sm = atoi(arch + 3);
    if (kept < n && !quiet)
        measure_warning(m, "%s: a cubin for %s runs only on compute capability %d.%d to %d.9: "
                             "not reported for %s", path, arch, sm / 10, sm % 10, sm / 10, names);
    return true;
}

int measure_load_cubin(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *s)
{
    UsageReport r;
    CubinKernel *details;
    char error[512];
    /* Said as for any input; cubin_read_file would put the path inside. */
    if (access(path, R_OK) != 0) {
        measure_error(m, "%s: cannot read: %s", ESCAPED(path), strerror(errno));
        return EXIT_USAGE;
    }
    if (!cubin_read_file(path, m->arena, &r, &details, error, sizeof error)) {
        measure_error(m, "%s: %s", ESCAPED(path), error);
        return EXIT_USAGE;
    }
    if (!match_targets(m, path, r.arch, targets, n, s))
        return EXIT_USAGE;
    s->measured = true;
    collect_kernels(&r, details, path, n, m->arena, s);
    return EXIT_OK;
}

bool measure_cubin_arch(const char *path, char *buf, size_t size)
{
    Arena *arena = arena_new();
    char error[256];
    UsageReport r;
    bool ok = cubin_read_file(path, arena, &r, NULL, error, sizeof error);
    if (ok)
        snprintf(buf, size, "%s", r.arch);
    arena_free(arena);
    return ok;
}
