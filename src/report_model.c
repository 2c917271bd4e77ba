/*
 * report_model.c: the reasoning of the launch-configuration guide for one
 * kernel on one target, done with the occupancy engine: the table of
 * permitted block sizes, the selection and its reasons, the tail of the
 * work on each product, the register cap that would reach the next step,
 * the persistent grid, grid validity and the host code.  Only numbers; the
 * writers turn them into text or JSON.
 */
#include "report_model.h"

#include <string.h>

static const char *const reason_names[] = {
#define REASON(e, json, text) json,
#include "report_reasons.def"
#undef REASON
};
static const char *const reason_texts[] = {
#define REASON(e, json, text) text,
#include "report_reasons.def"
#undef REASON
};

const char *report_reason_name(ReasonCode code) { return reason_names[code]; }
const char *report_reason_text(ReasonCode code) { return reason_texts[code]; }

static void add_reason(ReportEntry *e, ReasonCode code, int threads, int blocks, double value)
{
    if (e->n_reasons < REPORT_MAX_REASONS)
        e->reasons[e->n_reasons++] = (Reason){code, threads, blocks, value};
}

/* The block sizes the kernel permits: the one @launch/.reqntid fixes, or
 * the candidates up to .maxntid and the architecture's limit. */
static int permitted_sizes(const ReportEntry *e, const ReportSettings *s, int *sizes)
{
    const ReportKernel *k = &e->kernel;
    int limit = e->target.arch->max_threads_per_block;
    if (k->reqntid > 0) {
        sizes[0] = k->reqntid;
        return k->reqntid <= limit ? 1 : 0;
    }
    if (k->maxntid > 0 && k->maxntid < limit)
        limit = k->maxntid;
    int n = 0;
    for (int i = 0; i < s->n_sizes; i++)
        if (s->sizes[i] <= limit)
            sizes[n++] = s->sizes[i];
    if (n == 0)
        sizes[n++] = limit; /* a bound below every candidate: the bound itself */
    return n;
}

static bool fill_rows(ReportEntry *e, const ReportSettings *s)
{
    int sizes[REPORT_MAX_SIZES];
    OccResult results[REPORT_MAX_SIZES];
    int n = permitted_sizes(e, s, sizes);
    if (n > 0 && occ_active_blocks_sizes(e->target.arch, &e->resources, e->dynamic_smem, sizes,
                                         (size_t)n, results) != OCC_OK)
        return false;
    for (int i = 0; i < n; i++)
        e->rows[i] = (ReportRow){sizes[i], results[i]};
    e->n_rows = n;
    return true;
}

static int row_index(const ReportEntry *e, int threads, int warps)
{
    for (int i = 0; i < e->n_rows; i++)
        if (e->rows[i].threads == threads && e->rows[i].result.active_warps == warps)
            return i;
    return -1;
}

/* Highest occupancy; among equals 256, then 128, then the most CTAs. */
static void select_row(ReportEntry *e)
{
    int best_warps = 0, tied = 0;
    for (int i = 0; i < e->n_rows; i++)
        if (e->rows[i].result.active_warps > best_warps)
            best_warps = e->rows[i].result.active_warps;
    e->selected = -1;
    if (best_warps == 0)
        return;
    for (int i = 0; i < e->n_rows; i++)
        if (e->rows[i].result.active_warps == best_warps) {
            tied++;
            if (e->selected < 0 ||
                e->rows[i].result.active_blocks > e->rows[e->selected].result.active_blocks)
                e->selected = i;
        }
    int preferred = row_index(e, 256, best_warps);
    if (preferred < 0)
        preferred = row_index(e, 128, best_warps);
    if (tied > 1)
        add_reason(e, preferred >= 0 ? REASON_TIE_DEFAULT : REASON_TIE_MORE_CTAS,
                   e->rows[preferred >= 0 ? preferred : e->selected].threads, tied, 0);
    if (preferred >= 0)
        e->selected = preferred;
}

static void explain(ReportEntry *e)
{
    const ReportKernel *k = &e->kernel;
    if (k->reqntid > 0)
        add_reason(e, REASON_FIXED_SIZE, k->reqntid, 0, 0);
    else if (k->maxntid > 0)
        add_reason(e, REASON_BOUNDED_SIZE, k->maxntid, 0, 0);
    int tie_reasons = e->n_reasons;
    select_row(e);
    const ReportRow *r = report_selected(e);
    if (!r)
        return;
    /* The tie reason follows the one it qualifies. */
    Reason tie = e->reasons[tie_reasons];
    bool had_tie = e->n_reasons > tie_reasons;
    e->n_reasons = tie_reasons;
    add_reason(e, REASON_HIGHEST_OCCUPANCY, r->threads, r->result.active_blocks,
               occ_occupancy(&r->result));
    if (had_tie)
        add_reason(e, tie.code, tie.threads, tie.blocks, tie.value);
    if (r->result.active_blocks <= 2)
        add_reason(e, REASON_FEW_CTAS, r->threads, r->result.active_blocks, 0);
    if (occ_occupancy(&r->result) < 0.25)
        add_reason(e, REASON_LOW_OCCUPANCY, r->threads, r->result.active_blocks,
                   occ_occupancy(&r->result));
    int warp = e->target.arch->warp_size;
    if (r->threads % warp)
        add_reason(e, REASON_PARTIAL_WARP, r->threads, warp - r->threads % warp, 0);
    if (k->usage.spill_stores > 0 || k->usage.spill_loads > 0)
        add_reason(e, REASON_SPILLS, r->threads, 0,
                   (double)k->usage.spill_stores + k->usage.spill_loads);
    if (k->usage.estimated)
        add_reason(e, REASON_ESTIMATED, r->threads, 0, 0);
}

/* Of the permitted sizes, the one that leaves the fewest CTA slots idle. */
static void find_better_tail(const ReportEntry *e, TailRow *t)
{
    double idle = t->waves.idle_fraction;
    for (int i = 0; i < e->n_rows; i++) {
        OccWaves w;
        const ReportRow *r = &e->rows[i];
        if (occ_waves(e->work, r->threads, r->result.active_blocks, t->sm_count, &w) &&
            w.idle_fraction + 0.05 < idle) {
            idle = w.idle_fraction;
            t->better_threads = r->threads;
            t->better_waves = w;
        }
    }
}

static void add_persistent(ReportEntry *e, const GpuProduct *gpu, const ReportRow *r)
{
    if (e->n_persistent < REPORT_MAX_PRODUCTS)
        e->persistent[e->n_persistent++] =
            (PersistentRow){gpu, gpu->sm_count * r->result.active_blocks};
}

static void add_tail(ReportEntry *e, const GpuProduct *gpu, const ReportRow *r)
{
    int blocks = r->result.active_blocks;
    if (!e->have_work || e->n_tails == REPORT_MAX_PRODUCTS)
        return;
    TailRow *t = &e->tails[e->n_tails++];
    *t = (TailRow){.gpu = gpu, .sm_count = gpu->sm_count};
    occ_waves(e->work, r->threads, blocks, gpu->sm_count, &t->waves);
    t->undersubscribed = t->waves.full_waves == 0;
    t->bad = !t->undersubscribed && t->waves.last_wave_fill < 0.5 && t->waves.waves < 4.0;
    if (t->bad)
        find_better_tail(e, t);
}

/* The tail on the named product, or on each product of a bare
 * architecture; the persistent grid on every product of the architecture
 * (and on this machine's device when it is none of them). */
static void fill_products(ReportEntry *e, const ReportSettings *s)
{
    const ReportRow *r = report_selected(e);
    if (!r)
        return;
    bool listed = false;
    for (size_t i = 0; i < s->table->n_products; i++) {
        const GpuProduct *g = &s->table->products[i];
        if (arch_table_product_arch(s->table, g) != e->target.arch)
            continue;
        add_persistent(e, g, r);
        listed |= g == e->target.gpu;
        if (!e->target.gpu)
            add_tail(e, g, r);
    }
    if (e->target.gpu && !listed)
        add_persistent(e, e->target.gpu, r);
    if (e->target.gpu)
        add_tail(e, e->target.gpu, r);
}

static void fill_cap_advice(ReportEntry *e)
{
    const ReportRow *r = report_selected(e);
    CapAdvice *c = &e->cap;
    *c = (CapAdvice){0};
    if (!r || !(r->result.limited_by & (1u << OCC_LIMITER_REGISTERS)) || e->next.regs_to_cut <= 0 ||
        e->next.regs_gained_blocks <= r->result.active_blocks)
        return;
    c->applies = true;
    c->cap = e->resources.regs_per_thread - e->next.regs_to_cut;
    c->min_blocks = e->next.regs_gained_blocks;
    c->occupancy = (double)c->min_blocks * r->result.warps_per_block / r->result.max_warps;
}

static void fill_launch(ReportEntry *e)
{
    const ReportRow *r = report_selected(e);
    e->grid_valid = true;
    e->grid_y = 0;
    if (!r || !e->have_work)
        return;
    e->ctas = (e->work + (uint64_t)r->threads - 1) / (uint64_t)r->threads;
    e->tail_threads = e->work - (e->ctas - 1) * (uint64_t)r->threads;
    uint64_t max_x = (uint64_t)e->target.arch->max_grid_x;
    if (e->ctas > max_x) {
        e->grid_valid = false;
        e->grid_y = (e->ctas + max_x - 1) / max_x;
    }
}

bool report_entry_compute(ReportEntry *e, const ReportSettings *s)
{
    const ArchLimits *a = e->target.arch;
    e->resources = ptxas_resources(&e->kernel.usage, a, true);
    e->resources.max_threads_per_block = e->kernel.reqntid ? e->kernel.reqntid : e->kernel.maxntid;
    e->dynamic_smem = e->kernel.dynamic_smem;
    e->have_work = s->have_work;
    e->work = s->work;
    e->work_from_launch = !s->have_work && e->kernel.launch_work > 0;
    if (e->work_from_launch) {
        e->have_work = true;
        e->work = e->kernel.launch_work;
    }
    e->n_reasons = e->n_tails = e->n_persistent = 0;
    if (!fill_rows(e, s))
        return false;
    explain(e);
    const ReportRow *r = report_selected(e);
    e->next = (OccNextStep){-1, -1, -1, -1, -1, -1};
    if (r && occ_next_step(a, &e->resources, r->threads, e->dynamic_smem, &e->next) != OCC_OK)
        return false;
    fill_products(e, s);
    fill_cap_advice(e);
    fill_launch(e);
    return true;
}
