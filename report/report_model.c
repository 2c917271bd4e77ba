/*
 * report_model.c: the reasoning of the launch-configuration guide for one
 * kernel on one target, done with the occupancy engine: the table of
 * permitted block sizes, the selection and its reasons, the tail of the
 * work on each product, the register cap that would reach the next step,
 * the persistent grid, grid validity and the host code, and what the
 * kernel's own bound did (the form its cap takes, a minimum ptxas
 * ignored, the cost of a bound it spills under).  Only numbers; the
 * writers turn them into text or JSON.
 */
#include "report_model.h"
#include "report_vendor.h"
#include "escape.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Adds `size` to the ascending list of n sizes unless it is there. */
static int add_size(int *sizes, int n, int size)
{
    for (int i = 0; i < n; i++)
        if (sizes[i] == size)
            return n;
    int i = n;
    for (; i > 0 && sizes[i - 1] > size; i--)
        sizes[i] = sizes[i - 1];
    sizes[i] = size;
    return n + 1;
}

/* The block sizes the kernel permits: the one @launch/.reqntid fixes, or
 * the candidates up to .maxntid and the architecture's limit, with the
 * .maxntid bound itself among them. */
static int permitted_sizes(const ReportEntry *e, const ReportSettings *s, int *sizes)
{
    const MeasuredKernel *k = &e->kernel;
    int limit = report_max_block(e);
    int fixed = k->reqntid > 0 ? k->reqntid : e->pin.threads; /* report_pins.c's */
    if (fixed > 0) {
        sizes[0] = fixed;
        return fixed <= limit ? 1 : 0;
    }
    if (k->maxntid > 0 && k->maxntid < limit)
        limit = k->maxntid;
    int n = 0;
    for (int i = 0; i < s->n_sizes; i++)
        if (s->sizes[i] <= limit)
            sizes[n++] = s->sizes[i];
    /* --only-block-sizes restricts: neither the bound nor a stand-in joins. */
    if (s->only_sizes)
        return n;
    if (k->maxntid > 0 && k->maxntid <= limit)
        n = add_size(sizes, n, k->maxntid);
    if (n == 0)
        sizes[n++] = limit; /* a bound below every candidate: the bound itself */
    return n;
}

/* The dynamic shared memory of a CTA of `threads` in *bytes: Silk's
 * @smem, or --dyn-smem for a kernel that declares dynamic shared memory (a
 * launch that gives it to one that does not only wastes it, as the launch
 * guide says).  False, with the reason, when the expression has no value
 * there (below zero, a division by zero). */
static bool dynamic_smem_at(const ReportEntry *e, const ReportSettings *s, int threads,
                            uint64_t *bytes, char *error, size_t size)
{
    *bytes = e->kernel.dynamic_smem;
    if (!s->dyn_smem || *bytes || !(e->kernel.extern_smem || e->kernel.extern_smem_unknown))
        return true;
    int warp = report_warp_size(e);
    char why[SIZE_EXPR_ERROR_SIZE];
    if (size_expr_eval(s->dyn_smem, threads, (threads + warp - 1) / warp, bytes, why, sizeof why))
        return true;
    snprintf(error, size, "--dyn-smem '%s': at %d thread%s (%s): %s", QUOTED(s->dyn_smem_text), threads,
             threads == 1 ? "" : "s", e->kernel.cxx_name, why);
    return false;
}

static bool fill_rows(ReportEntry *e, const ReportSettings *s, char *error, size_t size)
{
    int sizes[REPORT_MAX_SIZES];
    int n = permitted_sizes(e, s, sizes);
    for (int i = 0; i < n; i++) {
        ReportRow *r = &e->rows[i];
        *r = (ReportRow){.threads = sizes[i]};
        if (!dynamic_smem_at(e, s, r->threads, &r->dynamic_smem, error, size))
            return false;
        if (!report_vendor_row(e, r) || !report_vendor_row_next_step(e, r)) {
            snprintf(error, size, "the tables' row for %s cannot be used", e->target.sm_name);
            return false;
        }
    }
    e->n_rows = n;
    e->dynamic_smem_unsized = e->kernel.extern_smem && !s->dyn_smem && !e->kernel.dynamic_smem;
    e->rows_sized = s->dyn_smem != NULL;
    return true;
}

static bool waves_at(const ReportEntry *e, const ReportRow *r, int sm_count, OccWaves *w);

/* The SMs of the GPU whose tail the selection weighs: the named product's
 * (or --sms), else those of the architecture's first product in
 * products.csv (its reference part, as -Wtail uses); 0 when none. */
static int tail_sm_count(const ReportEntry *e, const ReportSettings *s)
{
    ReportGpu first = {0};
    if (e->target.sm_count > 0)
        return e->target.sm_count;
    return report_vendor_products(e, s, &first, 1) > 0 ? first.sm_count : 0;
}

/* The tail of the work at one row: the CTA slots its waves leave idle on
 * that GPU; 0 without work or a GPU. */
static double tail_at(const ReportEntry *e, const ReportRow *r, int sm_count)
{
    OccWaves w;
    return e->have_work && waves_at(e, r, sm_count, &w) ? w.idle_fraction : 0;
}

/* The reason a tie went to `chosen`: the guide's defaults, the smaller
 * tail, or the most resident CTAs. */
static ReasonCode tie_reason(const OccCandidate *c, int n, int chosen)
{
    if (c[chosen].threads == 128 || c[chosen].threads == 256)
        return REASON_TIE_DEFAULT;
    for (int i = 0; i < n; i++)
        if (c[i].active_warps == c[chosen].active_warps &&
            c[i].idle_fraction != c[chosen].idle_fraction)
            return REASON_TIE_SMALLER_TAIL;
    return REASON_TIE_MORE_CTAS;
}

/* The engine's policy (occ_advise_block_size) over the rows, and the
 * reason when several reach the highest occupancy. */
static void select_row(ReportEntry *e, const ReportSettings *s)
{
    OccCandidate c[REPORT_MAX_SIZES];
    int sm_count = tail_sm_count(e, s);
    for (int i = 0; i < e->n_rows; i++) {
        const OccFigures *f = &e->rows[i].fig;
        c[i] = (OccCandidate){e->rows[i].threads, f->groups, f->resident,
                              tail_at(e, &e->rows[i], sm_count)};
    }
    e->selected = occ_advise_block_size(c, (size_t)e->n_rows);
    if (e->selected < 0)
        return;
    int tied = 0;
    for (int i = 0; i < e->n_rows; i++)
        tied += c[i].active_warps == c[e->selected].active_warps;
    if (tied > 1)
        add_reason(e, tie_reason(c, e->n_rows, e->selected), c[e->selected].threads, tied, 0);
}

/* The first reasons: what fixes or bounds the block size, and a
 * restriction that left no size. */
static void bound_reasons(ReportEntry *e, const ReportSettings *s)
{
    const MeasuredKernel *k = &e->kernel;
    const ReportPin *p = &e->pin;
    if (p->library[0] && (k->reqntid > 0 || p->by == REPORT_PIN_LIBRARY))
        add_reason(e, REASON_FIXED_BY_LIBRARY, k->reqntid > 0 ? k->reqntid : p->threads, 0, 0);
    else if (k->reqntid > 0)
        add_reason(e, REASON_FIXED_SIZE, k->reqntid, 0, 0);
    else if (p->by == REPORT_PIN_OPTION)
        add_reason(e, REASON_FIXED_BY_OPTION, p->threads, 0, 0);
    else if (k->maxntid > 0)
        add_reason(e, REASON_BOUNDED_SIZE, k->maxntid, 0, 0);
    if (p->by == REPORT_PIN_LIBRARY_UNBOUND)
        add_reason(e, REASON_LIBRARY_DECIDES, 0, 0, 0);
    if (p->template_bound)
        add_reason(e, REASON_TEMPLATE_BOUND, p->template_bound, 0, 0);
    if (s->only_sizes && e->n_rows == 0 && k->reqntid == 0 && p->threads == 0)
        add_reason(e, REASON_ONLY_SIZES_NONE,
                   k->maxntid > 0 && k->maxntid < report_max_block(e) ? k->maxntid
                                                                     : report_max_block(e),
                   0, 0);
}

static void explain(ReportEntry *e, const ReportSettings *s)
{
    const MeasuredKernel *k = &e->kernel;
    bound_reasons(e, s);
    int tie_reasons = e->n_reasons;
    select_row(e, s);
    const ReportRow *r = report_selected(e);
    if (!r)
        return;
    /* The tie reason follows the one it qualifies. */
    Reason tie = e->reasons[tie_reasons];
    bool had_tie = e->n_reasons > tie_reasons;
    e->n_reasons = tie_reasons;
    double occupancy = occ_figures_occupancy(&r->fig);
    add_reason(e, REASON_HIGHEST_OCCUPANCY, r->threads, r->fig.groups, occupancy);
    if (had_tie)
        add_reason(e, tie.code, tie.threads, tie.blocks, tie.value);
    if (r->fig.groups <= 2)
        add_reason(e, REASON_FEW_CTAS, r->threads, r->fig.groups, 0);
    if (occupancy < 0.25)
        add_reason(e, REASON_LOW_OCCUPANCY, r->threads, r->fig.groups, occupancy);
    int warp = report_warp_size(e);
    if (r->threads % warp)
        add_reason(e, REASON_PARTIAL_WARP, r->threads, warp - r->threads % warp, 0);
    if (k->usage.spill_stores > 0 || k->usage.spill_loads > 0)
        add_reason(e, REASON_SPILLS, r->threads, 0,
                   (double)k->usage.spill_stores + k->usage.spill_loads);
    if (k->usage.estimated)
        add_reason(e, REASON_ESTIMATED, r->threads, 0, 0);
}

/* A block of `threads` as dim3: 1-D work gets (threads, 1); 2-D work a
 * warp-wide row, (32, threads / 32), so that threadIdx.x runs along the
 * stride-1 columns as the launch guide asks, or (threads, 1) for a size
 * that is no multiple of 32. */
static void block_shape(const ReportEntry *e, int threads, int *x, int *y)
{
    int warp = report_warp_size(e);
    bool rows = e->work_rows > 0 && threads % warp == 0;
    *x = rows ? warp : threads;
    *y = rows ? threads / warp : 1;
}

/* The CTAs that cover the work at `threads` per CTA, and the grid's x and
 * y for 2-D work (for 1-D work, *y is 0 and *x the CTAs), in whole
 * clusters when the launch has one. */
static uint64_t grid_for(const ReportEntry *e, int threads, uint64_t *x, uint64_t *y)
{
    int bx, by;
    block_shape(e, threads, &bx, &by);
    if (e->work_rows == 0) {
        *x = report_cluster_round(e, (e->work + (uint64_t)threads - 1) / (uint64_t)threads, 0);
        *y = 0;
        return *x;
    }
    *x = report_cluster_round(e, (e->work + (uint64_t)bx - 1) / (uint64_t)bx, 0);
    *y = report_cluster_round(e, (e->work_rows + (uint64_t)by - 1) / (uint64_t)by, 1);
    /* x <= columns and y <= rows, whose product --work keeps below 2^53. */
    return *x * *y;
}

/* The waves of the work at one block size on a product of `sm_count`. */
static bool waves_at(const ReportEntry *e, const ReportRow *r, int sm_count, OccWaves *w)
{
    uint64_t x, y;
    return occ_waves_ctas(grid_for(e, r->threads, &x, &y), r->fig.groups, sm_count, w);
}

/* Of the permitted sizes, the one that leaves the fewest CTA slots idle. */
static void find_better_tail(const ReportEntry *e, TailRow *t)
{
    double idle = t->waves.idle_fraction;
    for (int i = 0; i < e->n_rows; i++) {
        OccWaves w;
        const ReportRow *r = &e->rows[i];
        if (waves_at(e, r, t->sm_count, &w) &&
            w.idle_fraction + 0.05 < idle) {
            idle = w.idle_fraction;
            t->better_threads = r->threads;
            t->better_waves = w;
        }
    }
}

/* One CTA per resident slot; for a cluster kernel, the CTAs of the
 * clusters resident at once (or, where the GPC layout is not public, the
 * slots rounded down to whole clusters, an upper bound). */
static void add_persistent(ReportEntry *e, const ReportGpu *gpu, const ReportRow *r)
{
    if (e->n_persistent == REPORT_MAX_PRODUCTS)
        return;
    int grid = (int)occ_persistent_grid(gpu->sm_count, r->fig.groups);
    int clusters = report_cluster_resident(e, gpu, r->fig.groups);
    if (e->cluster.size && clusters >= 0)
        grid = clusters * e->cluster.size;
    else if (e->cluster.size)
        grid -= grid % e->cluster.size;
    e->persistent[e->n_persistent++] = (PersistentRow){*gpu, grid, clusters};
}

static void add_tail(ReportEntry *e, const ReportGpu *gpu, const ReportRow *r)
{
    if (!e->have_work || e->n_tails == REPORT_MAX_PRODUCTS)
        return;
    TailRow *t = &e->tails[e->n_tails++];
    *t = (TailRow){.gpu = *gpu, .sm_count = gpu->sm_count};
    waves_at(e, r, gpu->sm_count, &t->waves);
    t->undersubscribed = t->waves.full_waves == 0;
    t->bad = !t->undersubscribed && t->waves.last_wave_fill < 0.5 && t->waves.waves < 4.0;
    if (t->bad)
        find_better_tail(e, t);
}

/* The tail on the named product, or on each product of a bare
 * architecture; the persistent grid on every product of the architecture
 * (and on this machine's device when it is none of them). */
static bool fill_products(ReportEntry *e, const ReportSettings *s)
{
    const ReportRow *r = report_selected(e);
    e->tails = NULL; /* a fresh entry, as in fill_row_waves */
    if (!r)
        return true;
    if (e->have_work && !(e->tails = calloc(REPORT_MAX_PRODUCTS, sizeof *e->tails)))
        return false;
    ReportGpu gpus[REPORT_MAX_PRODUCTS], named;
    bool has_named = report_named_gpu(e, &named), listed = false;
    int n = report_vendor_products(e, s, gpus, REPORT_MAX_PRODUCTS);
    for (int i = 0; i < n; i++) {
        add_persistent(e, &gpus[i], r);
        listed |= has_named && strcmp(gpus[i].id, named.id) == 0;
        if (!has_named)
            add_tail(e, &gpus[i], r);
    }
    if (has_named && !listed)
        add_persistent(e, &named, r);
    if (has_named)
        add_tail(e, &named, r);
    return true;
}

/* Each row's own CTAs and, on every product the tail lists, its waves:
 * what the selection weighed, for a script to compare sizes with. */
static bool fill_row_waves(ReportEntry *e)
{
    /* A fresh entry: report_entry_compute runs once on each. */
    e->row_waves = NULL;
    if (e->have_work && e->n_tails > 0) {
        e->row_waves = calloc((size_t)e->n_rows * (size_t)e->n_tails, sizeof *e->row_waves);
        if (!e->row_waves && e->n_rows > 0)
            return false;
    }
    for (int i = 0; i < e->n_rows; i++) {
        ReportRow *r = &e->rows[i];
        uint64_t x, y;
        r->ctas = e->have_work ? grid_for(e, r->threads, &x, &y) : 0;
        r->has_waves = e->have_work && e->n_tails > 0 && r->fig.groups > 0;
        r->waves = r->has_waves ? &e->row_waves[(size_t)i * (size_t)e->n_tails] : NULL;
        for (int t = 0; r->has_waves && t < e->n_tails; t++)
            waves_at(e, r, e->tails[t].sm_count, &r->waves[t]);
    }
    return true;
}

void report_entry_free(ReportEntry *e)
{
    free(e->tails);
    e->tails = NULL;
    e->n_tails = 0;
    free(e->row_waves);
    e->row_waves = NULL;
    for (int i = 0; i < e->n_rows; i++)
        e->rows[i].waves = NULL;
}

/* The grid of the selected size and whether the architecture takes it.
 * 1-D work past gridDim.x's limit is folded into a 2-D grid (x at the
 * limit, y the rest), which the host code indexes back to 1-D. */
static void fill_launch(ReportEntry *e)
{
    const ReportRow *r = report_selected(e);
    e->grid_valid = true;
    e->grid_x = e->grid_y = 0;
    e->block_x = r ? r->threads : 0;
    e->block_y = 1;
    if (r && e->have_work)
        block_shape(e, r->threads, &e->block_x, &e->block_y);
    report_vendor_grid_limits(e);
    if (!r || !e->have_work)
        return;
    e->ctas = grid_for(e, r->threads, &e->grid_x, &e->grid_y);
    if (e->work_rows == 0) {
        uint64_t needed = (e->work + (uint64_t)r->threads - 1) / (uint64_t)r->threads;
        e->tail_threads = e->work - (needed - 1) * (uint64_t)r->threads;
        e->cluster.padding_ctas = e->ctas - needed;
        if (e->grid_x > e->max_grid_x) {
            /* Folded: x stays a whole number of clusters. */
            uint64_t x = report_cluster_round(e, 1, 0);
            e->grid_x = e->max_grid_x / x * x;
            e->grid_y = (e->ctas + e->grid_x - 1) / e->grid_x;
        }
    } else {
        /* Threads past the work's right and bottom edges. */
        e->tail_threads = e->ctas * (uint64_t)r->threads - e->work * e->work_rows;
        uint64_t cols = (e->work + (uint64_t)e->block_x - 1) / (uint64_t)e->block_x;
        uint64_t rows = (e->work_rows + (uint64_t)e->block_y - 1) / (uint64_t)e->block_y;
        e->cluster.padding_ctas = e->ctas - cols * rows;
    }
    e->grid_valid = e->grid_x <= e->max_grid_x && e->grid_y <= e->max_grid_y &&
                    (e->work_rows > 0 || e->grid_y == 0);
}

/* Shared memory above the per-CTA default (48 KiB) needs the kernel's
 * opt-in, cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
 * bytes), and only dynamic shared memory may use it; above the opt-in
 * limit nothing launches. */
static void check_smem_optin(ReportEntry *e)
{
    const ReportRow *r = report_selected(e);
    if (e->target.vendor != OCC_NVIDIA)
        return;
    const ArchLimits *a = e->target.arch;
    /* Without a selected size, the least any row asks (none fits). */
    uint64_t dynamic = r ? r->dynamic_smem : UINT64_MAX;
    for (int i = 0; !r && i < e->n_rows; i++)
        dynamic = e->rows[i].dynamic_smem < dynamic ? e->rows[i].dynamic_smem : dynamic;
    if (dynamic == UINT64_MAX)
        dynamic = 0;
    uint64_t total = (uint64_t)e->kernel.usage.static_smem + dynamic;
    e->smem_bytes = total;
    e->smem_optin_limit = (uint64_t)a->smem_per_block_optin;
    e->smem_needs_optin = r && total > (uint64_t)a->smem_per_block;
    e->smem_over_optin = total > e->smem_optin_limit;
    if (e->smem_over_optin)
        e->grid_valid = false;
}

/* ---- the kernel's own bounds ------------------------------------------------ */

const char *report_cap_form_name(CapForm form)
{
    return form == CAP_FORM_MAXNREG ? "maxnreg" : form == CAP_FORM_LAUNCH ? "launch"
                                                                          : "launch_bounds";
}

/* The advice keeps the kernel's own way of capping registers: a CUDA
 * kernel with __maxnreg__ (.maxnreg, and no block bound, which nvcc
 * would not take beside it) a new __maxnreg__. */
static CapForm cap_form(const MeasuredKernel *k)
{
    if (k->input == INPUT_SILK)
        return CAP_FORM_LAUNCH;
    /* A cubin's cap may be --maxrregcount's or one a bound implied: only
     * a PTX .maxnreg (nvcc's for __maxnreg__) is the kernel's own form. */
    bool own_directive = k->input == INPUT_CUDA || k->input == INPUT_PTX;
    if (own_directive && k->maxnreg > 0 && !k->reqntid && !k->maxntid && k->minnctapersm <= 0)
        return CAP_FORM_MAXNREG;
    return CAP_FORM_LAUNCH_BOUNDS;
}

/* ptxas said it ignores the minimum of CTAs per SM: "... .minnctapersm
 * will be ignored" (CUDA 13.0, when minimum x block bound passes the
 * threads an SM holds). */
static bool minimum_ignored(const MeasuredKernel *k)
{
    for (int i = 0; i < k->usage.n_warnings; i++)
        if (strstr(k->usage.warnings[i], ".minnctapersm") &&
            strstr(k->usage.warnings[i], "ignored"))
            return true;
    return false;
}

/* Whether compiling the kernel again without its bound can say what the
 * bound costs: it spills, under a bound of its own, with PTX to compile. */
static bool bound_cost_applies(const ReportEntry *e)
{
    const MeasuredKernel *k = &e->kernel;
    const KernelUsage *u = &k->usage;
    bool bounded = k->maxnreg > 0 || k->minnctapersm > 0 || k->maxntid > 0;
    return e->target.vendor == OCC_NVIDIA && report_selected(e) && bounded && !u->estimated &&
           (k->input == INPUT_CUDA || k->input == INPUT_PTX || k->input == INPUT_SILK) &&
           (u->spill_stores > 0 || u->spill_loads > 0);
}

static void fill_bound_facts(ReportEntry *e)
{
    e->cap.form = cap_form(&e->kernel);
    e->min_ignored = minimum_ignored(&e->kernel);
    e->bound_cost = (BoundCost){.applies = bound_cost_applies(e)};
}

/* CTAs per SM and occupancy at the selected row with `registers` per
 * thread and no block bound but a fixed size: 0 when it cannot launch. */
static int blocks_with(const ReportEntry *e, int registers, double *occupancy)
{
    const ReportRow *r = report_selected(e);
    KernelResources k = e->resources;
    k.regs_per_thread = registers;
    k.max_threads_per_block = e->kernel.reqntid;
    OccResult result;
    *occupancy = 0;
    if (!r || occ_active_blocks(e->target.arch, &k, r->threads, r->dynamic_smem, &result) != OCC_OK)
        return 0;
    OccFigures f = occ_figures_nvidia(&result);
    *occupancy = occ_figures_occupancy(&f);
    return f.groups;
}

void report_bound_cost_measured(ReportEntry *e, int registers, int spill_stores, int spill_loads)
{
    BoundCost *b = &e->bound_cost;
    const KernelUsage *u = &e->kernel.usage;
    if (!b->applies)
        return;
    b->checked = true;
    b->registers = registers;
    b->spill_stores = spill_stores;
    b->spill_loads = spill_loads;
    b->blocks = blocks_with(e, registers, &b->occupancy);
    b->bound_blocks = blocks_with(e, u->registers, &b->bound_occupancy);
    b->forces_spills = spill_stores + spill_loads < u->spill_stores + u->spill_loads;
}

bool report_entry_compute(ReportEntry *e, const ReportSettings *s, char *error, size_t size)
{
    report_vendor_kernel(e);
    e->have_work = s->have_work;
    e->work = s->work;
    e->work_rows = s->work_rows;
    e->work_from_launch = !s->have_work && e->kernel.launch_work > 0;
    if (e->work_from_launch) {
        e->have_work = true;
        e->work = e->kernel.launch_work;
    }
    e->n_reasons = e->n_tails = e->n_persistent = 0;
    report_cluster_choose(e, s);
    report_pin_find(e, s);
    if (!fill_rows(e, s, error, size))
        return false;
    explain(e, s);
    const ReportRow *r = report_selected(e);
    e->dynamic_smem = r ? r->dynamic_smem : 0;
    if (!report_vendor_next_step(e)) {
        snprintf(error, size, "the tables' row for %s cannot be used", e->target.sm_name);
        return false;
    }
    if (!fill_products(e, s) || !fill_row_waves(e)) {
        snprintf(error, size, "out of memory");
        return false;
    }
    report_vendor_cap_advice(e);
    fill_bound_facts(e);
    fill_launch(e);
    report_cluster_check(e);
    check_smem_optin(e);
    return true;
}
