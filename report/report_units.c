/*
 * report_units.c: one kernel defined in several files.  A project's
 * template and inline kernels are compiled into every translation unit
 * that instantiates them; a report of 600 units would show scale<float>
 * 40 times, alike.  Entries of one symbol on one target whose measured
 * figures are the same (so their rows, selection and advice are too)
 * become one, which names every file it stands for; figures that differ
 * (a unit's own -D changed the kernel) stay separate entries, each naming
 * its files and where the others are.  This works on any run of several
 * files, whatever read them (a compile database, files on the command
 * line, merged reports).
 *
 * Entries are grouped by sorting their indices on (symbol, target), so a
 * large project costs n log n, and the kept entries keep their order.
 */
#include "report_model.h"

#include <stdlib.h>
#include <string.h>

/* What decides an entry's figures: the kernel's measured usage and its
 * bounds, cluster and dynamic shared memory. */
static bool same_figures(const MeasuredKernel *a, const MeasuredKernel *b)
{
    const KernelUsage *u = &a->usage, *v = &b->usage;
    return u->registers == v->registers && u->spill_stores == v->spill_stores &&
           u->spill_loads == v->spill_loads && u->stack_frame == v->stack_frame &&
           u->static_smem == v->static_smem && u->const_bank0 == v->const_bank0 &&
           u->barriers == v->barriers && u->max_threads == v->max_threads &&
           u->estimated == v->estimated && u->wavefront_size == v->wavefront_size &&
           u->sgprs == v->sgprs && u->agprs == v->agprs && a->reqntid == b->reqntid &&
           a->maxntid == b->maxntid && a->minnctapersm == b->minnctapersm &&
           a->maxnreg == b->maxnreg && memcmp(a->cluster, b->cluster, sizeof a->cluster) == 0 &&
           a->explicit_cluster == b->explicit_cluster &&
           a->max_cluster_rank == b->max_cluster_rank && a->dynamic_smem == b->dynamic_smem &&
           a->extern_smem == b->extern_smem && a->persistent == b->persistent &&
           a->amd_row == b->amd_row && a->launch_work == b->launch_work &&
           a->from_ptx == b->from_ptx && a->calls_out == b->calls_out &&
           a->extern_smem_unknown == b->extern_smem_unknown;
}

/* An entry's place in the sort: its key beside its index, so that the
 * comparison needs no context (C11's qsort has none, and no global). */
typedef struct Key {
    const char *name;
    int target;
    int index;
} Key;

/* The order of the groups: symbol, then target, then the entry's place. */
static int by_key(const void *pa, const void *pb)
{
    const Key *x = pa, *y = pb;
    int c = strcmp(x->name, y->name);
    if (c == 0)
        c = (x->target > y->target) - (x->target < y->target);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The files of the kept entries of group g[0..n) other than `self`,
 * joined by ", " (malloc'd); NULL when there are none. */
static char *others_of(const ReportModel *m, const int *g, int n, const bool *dropped, int self)
{
    size_t size = 1;
    for (int k = 0; k < n; k++)
        if (!dropped[g[k]] && g[k] != self)
            for (int u = 0; u < m->entries[g[k]].n_units; u++)
                size += strlen(m->entries[g[k]].units[u]) + 2;
    if (size == 1)
        return NULL;
    char *list = calloc(size, 1);
    for (int k = 0; list && k < n; k++)
        if (!dropped[g[k]] && g[k] != self)
            for (int u = 0; u < m->entries[g[k]].n_units; u++) {
                if (list[0])
                    strcat(list, ", ");
                strcat(list, m->entries[g[k]].units[u]);
            }
    return list;
}

/* One group of entries of one symbol and target, in the entries' order:
 * each joins the first earlier kept entry of the same figures. */
static bool join_group(ReportModel *m, const int *g, int n, bool *dropped)
{
    if (n < 2)
        return true;
    for (int k = 0; k < n; k++) {
        ReportEntry *e = &m->entries[g[k]];
        e->units = malloc((size_t)n * sizeof *e->units);
        if (!e->units)
            return false;
        e->units[e->n_units++] = e->kernel.file;
    }
    for (int k = 1; k < n; k++)
        for (int j = 0; j < k; j++) {
            ReportEntry *first = &m->entries[g[j]], *e = &m->entries[g[k]];
            if (dropped[g[j]] || !same_figures(&first->kernel, &e->kernel))
                continue;
            first->units[first->n_units++] = e->kernel.file;
            dropped[g[k]] = true;
            break;
        }
    for (int k = 0; k < n; k++)
        if (!dropped[g[k]])
            m->entries[g[k]].other_units = others_of(m, g, n, dropped, g[k]);
    return true;
}

/* The kept entries, in their order; the dropped ones' memory freed. */
static void compact(ReportModel *m, const bool *dropped)
{
    int kept = 0;
    for (int i = 0; i < m->n_entries; i++) {
        ReportEntry *e = &m->entries[i];
        if (dropped[i]) {
            free((char *)e->kernel.absent_on);
            free(e->units);
            free(e->other_units);
            report_entry_free(e);
            continue;
        }
        m->entries[kept++] = *e;
    }
    m->n_entries = kept;
}

bool report_units_join(ReportModel *m)
{
    int n = m->n_entries;
    if (n < 2)
        return true;
    Key *keys = malloc((size_t)n * sizeof *keys);
    int *order = malloc((size_t)n * sizeof *order);
    bool *dropped = calloc((size_t)n, sizeof *dropped);
    bool ok = keys && order && dropped;
    for (int i = 0; ok && i < n; i++)
        keys[i] = (Key){m->entries[i].kernel.name, m->entries[i].target_index, i};
    if (ok)
        qsort(keys, (size_t)n, sizeof *keys, by_key);
    for (int i = 0; ok && i < n; i++)
        order[i] = keys[i].index;
    for (int start = 0, end; ok && start < n; start = end) {
        end = start + 1;
        while (end < n && by_key(&(Key){keys[start].name, keys[start].target, 0},
                                 &(Key){keys[end].name, keys[end].target, 0}) == 0)
            end++;
        ok = join_group(m, order + start, end - start, dropped);
    }
    if (ok)
        compact(m, dropped);
    free(keys);
    free(order);
    free(dropped);
    return ok;
}
