/*
 * report_index.h: a measured file's kernels by name, per target, so that
 * building a report of a library with thousands of kernels looks each one
 * up in log time instead of scanning every kernel of every target for
 * every kernel (which made the model quadratic in the kernel count).
 */
#ifndef SILK_REPORT_INDEX_H
#define SILK_REPORT_INDEX_H

#include "usage.h"

typedef struct ReportIndexSlot {
    const char *name;
    int k; /* index into the target's kernels */
} ReportIndexSlot;

typedef struct ReportIndex {
    const MeasuredFile *file;
    int n_targets;
    ReportIndexSlot **slots; /* per target, sorted by name, then index */
} ReportIndex;

/* False when out of memory (nothing then to free). */
bool report_index_build(ReportIndex *x, const MeasuredFile *f, int n_targets);
void report_index_free(ReportIndex *x);

/* measured_kernel's answer: the first kernel of target t named `name`. */
const MeasuredKernel *report_index_find(const ReportIndex *x, int t, const char *name);

/* The nth (from 0) kernel of target t named `name`, in the target's order;
 * NULL past the last.  A built binary keeps one per figure set when its
 * units define a symbol differently (measure_binary.c). */
const MeasuredKernel *report_index_find_nth(const ReportIndex *x, int t, const char *name, int nth);

#endif
