/*
 * report_build.c: the model of a whole report from what the measuring
 * gave (usage.h's MeasuredFile): one entry per kernel and target that
 * compiles it, kernel by kernel (every target of a kernel together, in the
 * targets' order), only the kernels --kernel matches.  CUDA code may
 * compile a different set of kernels per architecture (__CUDA_ARCH__):
 * each entry says on which reported targets its kernel is absent.
 */
#include "report_model.h"
#include "report_index.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --kernel GLOB matches the symbol or the demangled name, with or
 * without its parameters. */
static bool wanted(const char *glob, const MeasuredKernel *k)
{
    return !glob || fnmatch(glob, k->name, 0) == 0 || fnmatch(glob, k->title, 0) == 0 ||
           fnmatch(glob, k->cxx_name, 0) == 0;
}

/* Whether kernel k of target t is the first of its name on targets 0..t. */
static bool first_of_name(const ReportIndex *x, int t, int k)
{
    const MeasuredKernel *kernel = &x->file->kernels[t][k];
    for (int u = 0; u < t; u++)
        if (report_index_find(x, u, kernel->name))
            return false;
    return report_index_find(x, t, kernel->name) == kernel;
}

/* The kernels of file f on any target, each once: the first target's in
 * its order, then those only later targets compile.  malloc'd. */
static int kernel_union(const ReportIndex *x, const MeasuredKernel ***out)
{
    const MeasuredFile *f = x->file;
    int total = 0, n = 0;
    for (int t = 0; t < x->n_targets; t++)
        total += f->n_kernels[t];
    const MeasuredKernel **list = malloc(((size_t)total + 1) * sizeof *list);
    for (int t = 0; list && t < x->n_targets; t++)
        for (int k = 0; k < f->n_kernels[t]; k++)
            if (first_of_name(x, t, k))
                list[n++] = &f->kernels[t][k];
    *out = list;
    return list ? n : -1;
}

/* The reported targets whose compile of f lacks kernel `name`, as
 * "sm_80, sm_86" in buf; false when every one has it. */
static bool absent_on(const ReportIndex *x, const Target *targets, const char *name, char *buf,
                      size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < x->n_targets; t++)
        if (measured_runs_on(x->file, t) && !report_index_find(x, t, name) &&
            !strstr(buf, targets[t].sm_name))
            used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s",
                                     used ? ", " : "", targets[t].sm_name);
    return used > 0;
}

static bool push_entry(ReportModel *m, const ReportEntry *e, int *cap)
{
    if (m->n_entries == *cap) {
        int grown = *cap ? *cap * 2 : 16;
        ReportEntry *entries = realloc(m->entries, (size_t)grown * sizeof *entries);
        if (!entries)
            return false;
        m->entries = entries;
        *cap = grown;
    }
    m->entries[m->n_entries++] = *e;
    return true;
}

/* The entry of kernel k of file f on target t, computed. */
static bool add_entry(ReportModel *m, const ReportBuild *b, int f, int t, const MeasuredKernel *k,
                      int *cap, char *error, size_t size)
{
    ReportEntry e = {.kernel = *k, .target = b->targets[t], .file_index = f, .target_index = t};
    if (k->amd_row) { /* a code object's wave64 kernel: its row's figures */
        e.target.amd = k->amd_row;
        snprintf(e.target.sm_name, sizeof e.target.sm_name, "%s", k->amd_row->gfx);
    }
    if (!report_entry_compute(&e, b->settings, error, size)) {
        report_entry_free(&e);
        return false;
    }
    if (!push_entry(m, &e, cap)) {
        report_entry_free(&e);
        snprintf(error, size, "out of memory");
        return false;
    }
    return true;
}

/* File f's entries: each kernel on each target that compiles it. */
static bool add_file(ReportModel *m, const ReportBuild *b, int f, int *cap, char *error,
                     size_t size)
{
    const MeasuredFile *file = &b->files[f];
    const MeasuredKernel **kernels = NULL;
    ReportIndex index;
    int n = report_index_build(&index, file, b->n_targets) ? kernel_union(&index, &kernels) : -1;
    bool ok = n >= 0;
    for (int k = 0; ok && k < n; k++) {
        if (!wanted(b->kernel_glob, kernels[k]))
            continue;
        char absent[512];
        bool some_absent = absent_on(&index, b->targets, kernels[k]->name, absent,
                                     sizeof absent);
        for (int t = 0; ok && t < b->n_targets; t++) {
            const MeasuredKernel *on_t;
            for (int v = 0; ok && measured_runs_on(file, t) &&
                            (on_t = report_index_find_nth(&index, t, kernels[k]->name, v));
                 v++) { /* one entry per variant of the symbol */
                MeasuredKernel kernel = *on_t;
                kernel.absent_on = some_absent ? strdup(absent) : NULL;
                ok = add_entry(m, b, f, t, &kernel, cap, error, size);
            }
        }
    }
    free(kernels);
    report_index_free(&index);
    if (n < 0)
        snprintf(error, size, "out of memory");
    return ok;
}

bool report_model_build(ReportModel *m, const ReportBuild *b, char *error, size_t size)
{
    int cap = 0;
    *m = (ReportModel){0};
    for (int f = 0; f < b->n_files; f++)
        if (!add_file(m, b, f, &cap, error, size))
            return false;
    if (!report_units_join(m) || !report_across_build(m)) {
        snprintf(error, size, "out of memory");
        return false;
    }
    return true;
}

void report_model_free(ReportModel *m)
{
    for (int i = 0; i < m->n_entries; i++) {
        free((char *)m->entries[i].kernel.absent_on);
        free(m->entries[i].units);
        free(m->entries[i].other_units);
        report_entry_free(&m->entries[i]);
    }
    free(m->entries);
    free(m->across);
    *m = (ReportModel){0};
}

void report_kernel_names(const ReportBuild *b, bool *any_wanted, char *buf, size_t size)
{
    buf[0] = '\0';
    *any_wanted = false;
    for (int f = 0; f < b->n_files; f++) {
        const MeasuredKernel **kernels = NULL;
        ReportIndex index;
        int n = report_index_build(&index, &b->files[f], b->n_targets)
                    ? kernel_union(&index, &kernels) : -1;
        for (int k = 0; k < n; k++) {
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, "%s%s", used ? ", " : "", kernels[k]->cxx_name);
            *any_wanted |= wanted(b->kernel_glob, kernels[k]);
        }
        free(kernels);
        report_index_free(&index);
    }
}
