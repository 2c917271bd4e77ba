/*
 * report_across.c: the report's summary across targets.  A kernel built
 * for several targets of one vendor is launched with one block size, yet
 * each target's section selects its own: this finds the one size that is
 * best over all of them, as silkc's -Wocc-limit advises it, through the
 * same policy (occ_advise_block_size_across: the highest lowest occupancy
 * over the targets, then the guide's tie rule on the worst tail).
 *
 * Only NVIDIA targets for now: the AMD engine's figures count waves per
 * SIMD, which the policy across targets does not compare yet.  The sizes
 * weighed are those every target's table has (the permitted sizes can
 * differ where an architecture's block limit does); the tail is weighed
 * for 1-D work on the GPU each target's tail section names first.
 */
#include "report_model.h"

#include <stdlib.h>
#include <string.h>

/* Entries first..end-1 are one kernel of one file (report_build.c puts
 * every target of a kernel together); the end of that run. */
static int kernel_run(const ReportModel *m, int first)
{
    const ReportEntry *a = &m->entries[first];
    int end = first + 1;
    while (end < m->n_entries && m->entries[end].file_index == a->file_index &&
           strcmp(m->entries[end].kernel.name, a->kernel.name) == 0)
        end++;
    return end;
}

/* The row of `threads` in e, or NULL. */
static const ReportRow *row_of(const ReportEntry *e, int threads)
{
    for (int i = 0; i < e->n_rows; i++)
        if (e->rows[i].threads == threads)
            return &e->rows[i];
    return NULL;
}

/* The CTA slots left idle at row r: as the target's own selection weighs
 * them (1-D work on its tail section's first GPU), 0 otherwise. */
static double idle_at(const ReportEntry *e, const ReportRow *r)
{
    OccWaves w;
    if (!e->have_work || e->work_rows || e->n_tails == 0)
        return 0;
    return occ_waves(e->work, r->threads, r->fig.groups, e->tails[0].sm_count, &w)
               ? w.idle_fraction : 0;
}

/* The candidates of the sizes of the run's first entry, slot by slot on
 * every target; a size one target lacks runs on none. */
static void fill(const ReportModel *m, int first, int end, OccCandidate *c,
                 OccTargetCandidates *t, int *sizes, int *n_sizes)
{
    const ReportEntry *a = &m->entries[first];
    *n_sizes = a->n_rows;
    for (int i = 0; i < a->n_rows; i++)
        sizes[i] = a->rows[i].threads;
    for (int k = 0; k < end - first; k++) {
        const ReportEntry *e = &m->entries[first + k];
        OccCandidate *row = &c[k * REPORT_MAX_SIZES];
        for (int i = 0; i < *n_sizes; i++) {
            const ReportRow *r = row_of(e, sizes[i]);
            row[i] = r ? (OccCandidate){sizes[i], r->fig.groups, r->fig.resident, idle_at(e, r)}
                       : (OccCandidate){sizes[i], 0, 0, 0};
        }
        int max = e->n_rows ? e->rows[0].fig.max_active : 0;
        t[k] = (OccTargetCandidates){row, max};
    }
}

/* The summary of entries first..end-1, when they are two or more NVIDIA
 * targets. */
static bool summarise(const ReportModel *m, int first, int end, ReportAcross *out)
{
    int n = end - first;
    if (n < 2 || n > REPORT_MAX_ACROSS)
        return false;
    for (int k = first; k < end; k++)
        if (m->entries[k].target.vendor != OCC_NVIDIA)
            return false;
    OccCandidate c[REPORT_MAX_ACROSS * REPORT_MAX_SIZES];
    OccTargetCandidates t[REPORT_MAX_ACROSS];
    int sizes[REPORT_MAX_SIZES], n_sizes;
    fill(m, first, end, c, t, sizes, &n_sizes);
    *out = (ReportAcross){.first = first, .n_targets = n};
    int best = occ_advise_block_size_across(t, (size_t)n, (size_t)n_sizes);
    if (best >= 0) {
        out->threads = sizes[best];
        out->min_occupancy = occ_lowest_occupancy(t, (size_t)n, (size_t)best);
    }
    for (int k = 0; k < n; k++) {
        const ReportEntry *e = &m->entries[first + k];
        const ReportRow *r = report_selected(e);
        out->per_target[k] = (ReportAcrossTarget){
            e->target.sm_name, r ? r->threads : 0,
            r ? occ_figures_occupancy(&r->fig) : 0};
    }
    return true;
}

bool report_across_build(ReportModel *m)
{
    m->across = NULL;
    m->n_across = 0;
    for (int first = 0; first < m->n_entries;) {
        int end = kernel_run(m, first);
        ReportAcross a;
        if (summarise(m, first, end, &a)) {
            ReportAcross *grown = realloc(m->across, ((size_t)m->n_across + 1) * sizeof *grown);
            if (!grown)
                return false;
            m->across = grown;
            m->across[m->n_across++] = a;
        }
        first = end;
    }
    return true;
}

const ReportAcross *report_across_after(const ReportModel *m, int entry)
{
    for (int i = 0; i < m->n_across; i++)
        if (m->across[i].first + m->across[i].n_targets - 1 == entry)
            return &m->across[i];
    return NULL;
}
