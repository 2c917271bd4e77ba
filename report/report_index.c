/*
 * report_index.c: a measured file's kernels sorted by name, per target
 * (report_index.h).  Ties keep the kernels' own order, so that a lookup
 * finds the first of several with one name, as measured_kernel's scan
 * does.
 */
#include "report_index.h"

#include <stdlib.h>
#include <string.h>

static int by_name_then_index(const void *a, const void *b)
{
    const ReportIndexSlot *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

bool report_index_build(ReportIndex *x, const MeasuredFile *f, int n_targets)
{
    *x = (ReportIndex){.file = f, .n_targets = n_targets};
    x->slots = calloc(n_targets > 0 ? (size_t)n_targets : 1, sizeof *x->slots);
    if (!x->slots)
        return false;
    for (int t = 0; t < n_targets; t++) {
        int n = f->n_kernels[t];
        x->slots[t] = malloc((n > 0 ? (size_t)n : 1) * sizeof *x->slots[t]);
        if (!x->slots[t]) {
            report_index_free(x);
            return false;
        }
        for (int k = 0; k < n; k++)
            x->slots[t][k] = (ReportIndexSlot){f->kernels[t][k].name, k};
        qsort(x->slots[t], (size_t)n, sizeof *x->slots[t], by_name_then_index);
    }
    return true;
}

void report_index_free(ReportIndex *x)
{
    for (int t = 0; x->slots && t < x->n_targets; t++)
        free(x->slots[t]);
    free(x->slots);
    x->slots = NULL;
}

const MeasuredKernel *report_index_find(const ReportIndex *x, int t, const char *name)
{
    return report_index_find_nth(x, t, name, 0);
}

const MeasuredKernel *report_index_find_nth(const ReportIndex *x, int t, const char *name, int nth)
{
    const ReportIndexSlot *s = x->slots[t];
    int lo = 0, hi = x->file->n_kernels[t];
    while (lo < hi) { /* the first slot not below name */
        int mid = lo + (hi - lo) / 2;
        if (strcmp(s[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    lo += nth; /* the slots of one name are consecutive, in the kernels' order */
    if (lo < x->file->n_kernels[t] && strcmp(s[lo].name, name) == 0)
        return &x->file->kernels[t][s[lo].k];
    return NULL;
}
