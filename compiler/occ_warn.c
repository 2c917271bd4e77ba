/*
 * occ_warn.c: the occupancy warnings of a build (occ_warn.h), from each
 * kernel's figures on each target and the occupancy engine.
 *
 * A kernel's block size is its fixed thread count (@launch, or the 256 of
 * a kernel without it): its warnings go to the @launch attribute, or to
 * its name.  A launchable attr(device=gpu) fn without @launch takes each
 * launch's workspace, so it is judged at each launch block whose
 * workspace is a constant, and its warnings go there; one without such a
 * launch is not judged.  The decisions:
 *
 *   occ-low     active warps over the SM's warp slots under 25% (no CTA
 *               fitting at all included), naming the limiting resource.
 *   occ-limit   (1) the block size the engine's policy advises
 *               (occ_advise_block_size: the most active warps; among
 *               equals 256 or 128, then the smaller size) among 64, 128,
 *               256, 512 and 1024 and the kernel's own, the kernel's
 *               registers and shared memory kept, when it has more active
 *               warps than the kernel's own size; at a launch block only
 *               sizes that divide the grid.
 *               (2) for a kernel of fixed size, the engine's register cap
 *               (occ_advise_register_cap: the one that gains a CTA, at
 *               least 16), when ptxas at that cap (occ_warn_register_caps:
 *               the caller compiles once more per target) fits the kernel
 *               in it without spilling (occ_cap_is_safe).  The estimate
 *               cannot say that a cap below its own count avoids spills,
 *               so without ptxas no cap is suggested.  `silk-occ report`
 *               advises the same size and cap through the same functions.
 *   spill       spill stores or loads in the figures (ptxas's, or the
 *               estimate's when the live registers pass the limit).
 *   tail        a launch block with a constant grid and workspace whose
 *               CTAs make at least one full wave and a last one under half
 *               full, leaving at least 10% of the launch's CTA slots idle,
 *               on the representative GPU of the target's compute
 *               capability (the first of it in products.csv; named in the
 *               message; none for a capability without products).  A grid
 *               of less than one wave has no tail.
 *   block-size  1024 threads per CTA where registers let at most two CTAs
 *               reside: the SM drains at every barrier and at each CTA's
 *               end.  (A size that is not a multiple of 32 is an error of
 *               @launch and, for a workspace, -Wpartial-warp already.)
 */
#include "occ_warn.h"

#include "backend.h"
#include "sema.h"

#include <stdio.h>
#include <string.h>

static const WarningId OCC_WARNINGS[] = {W_OCC_LOW, W_OCC_LIMIT, W_SPILL, W_TAIL, W_BLOCK_SIZE};
static const int CANDIDATE_SIZES[] = {64, 128, 256, 512, 1024};
enum { PCT_SIZE = 32 };
/* A tail worth a warning leaves this much of the launch idle: with many
 * waves a half-empty last one costs little. */
static const double TAIL_IDLE = 0.10;

bool occ_warn_enabled(const Diag *d)
{
    for (size_t i = 0; i < sizeof OCC_WARNINGS / sizeof *OCC_WARNINGS; i++)
        if (d->enabled[OCC_WARNINGS[i]])
            return true;
    return false;
}

/* ---- where the warnings go ------------------------------------------------------------ */

/* A constant launch block: its target's declaration and its geometry. */
typedef struct LaunchSite {
    Node *block;
    const Node *target; /* the ND_FUNC launched */
    uint64_t grid, workspace;
} LaunchSite;

typedef struct Sites {
    LaunchSite *items;
    uint32_t n;
    Arena *arena;
} Sites;

static bool constant(const Node *e, uint64_t *value)
{
    if (!e || e->folded != 1)
        return false;
    *value = e->int_value;
    return true;
}

/* The declaration a launch block calls, through its one call statement. */
static const Node *launch_target(const Node *launch)
{
    if (launch->list2.count != 1)
        return NULL;
    const Node *stmt = launch->list2.items[0];
    const Node *call = stmt->a;
    if (!call || call->kind != ND_CALL || !call->a || !call->a->symbol)
        return NULL;
    const Symbol *s = call->a->symbol; /* an import's alias too: its FuncInfo is shared */
    return s->kind == SYM_FUNC && s->func ? s->func->decl : NULL;
}

static void add_launch(Sites *s, Node *launch)
{
    LaunchSite site = {.block = launch, .target = launch_target(launch)};
    bool grid = false, workspace = false;
    for (uint32_t i = 0; i < launch->list.count; i++) {
        const Node *o = launch->list.items[i];
        if (strcmp(o->name, "grid") == 0)
            grid = constant(o->a, &site.grid);
        else if (strcmp(o->name, "workspace") == 0)
            workspace = constant(o->a, &site.workspace);
    }
    if (!site.target || !grid || !workspace || site.workspace == 0 || site.grid == 0)
        return;
    s->items = ir_grow(s->arena, s->items, s->n, sizeof *s->items);
    s->items[s->n++] = site;
}

/* Every launch block under `n`, in source order. */
static void visit_launch(Node *n, void *sites)
{
    if (n->kind == ND_LAUNCH)
        add_launch(sites, n);
}

/* In source order; ast_walk keeps its stack off the C stack, which a long
 * chain of operators would overflow. */
static void find_launches(Sites *s, Node *n)
{
    ast_walk(n, s->arena, visit_launch, s);
}

/* The root package's declaration of the GPU function lowered as `f`. */
static const Node *kernel_decl(const Compilation *c, const IrFunc *f)
{
    for (uint32_t i = 0; i < c->n_modules; i++) {
        const Module *m = c->modules[i];
        if (m->package != PKG_ROOT || !m->tree)
            continue;
        for (uint32_t j = 0; j < m->tree->list.count; j++) {
            const Node *d = m->tree->list.items[j];
            if (d->kind == ND_FUNC && d->b && (d->flags & (NF_KERNEL | NF_DEVICE)) &&
                strcmp(d->name, f->name) == 0)
                return d;
        }
    }
    return NULL;
}

/* The @launch attribute of a declaration, else its name. */
static Span kernel_span(const Node *decl)
{
    for (uint32_t i = 0; decl->attrs && i < decl->attrs->count; i++)
        if (strcmp(decl->attrs->items[i]->name, "launch") == 0)
            return decl->attrs->items[i]->span;
    return decl->name_span;
}

/* ---- one kernel on one target ------------------------------------------------------------ */

typedef struct Judge {
    Diag *diag;
    const ArchTable *table;
    const ArchLimits *arch;
    char prefix[64];       /* "on sm_90" or "on sm_90 (estimated)" */
    const IrFunc *f;
    const KernelUsage *u;
    KernelResources res;
    Span at;
    const LaunchSite *launch; /* when judged at a launch block */
    const KernelUsage *at_cap; /* ptxas's figures at register_cap's cap; NULL: none */
} Judge;

/* "50%", "37.5%", "18.8%". */
static const char *percent(double fraction, char *buf, size_t size)
{
    double p = fraction * 100.0;
    long tenths = (long)(p * 10.0 + 0.5);
    if (tenths % 10 == 0)
        snprintf(buf, size, "%ld%%", tenths / 10);
    else
        snprintf(buf, size, "%.1f%%", p);
    return buf;
}

/* "registers (72 per thread)", "shared memory (49152 bytes per CTA)". */
static const char *limiter_text(const Judge *j, const OccResult *r, char *buf, size_t size)
{
    for (int i = 0; i < OCC_N_LIMITERS; i++) {
        if (!(r->limited_by & (1u << i)))
            continue;
        if (i == OCC_LIMITER_REGISTERS)
            snprintf(buf, size, "registers (%d per thread)", j->res.regs_per_thread);
        else if (i == OCC_LIMITER_SHARED_MEMORY)
            snprintf(buf, size, "shared memory (%llu bytes per CTA)",
                     (unsigned long long)r->allocated_smem_per_block);
        else
            snprintf(buf, size, "%s", occ_limiter_what((OccLimiter)i));
        return buf;
    }
    return "nothing";
}

static bool evaluate(const Judge *j, const KernelResources *res, int block, OccResult *r)
{
    return occ_active_blocks(j->arch, res, block, j->f->dynamic_smem, r) == OCC_OK;
}

/* "@launch(128)" for a kernel, "workspace=128" at a launch block. */
static const char *size_text(const Judge *j, int block, char *buf, size_t size)
{
    snprintf(buf, size, j->launch ? "workspace=%d" : "@launch(%d)", block);
    return buf;
}

static void check_low(const Judge *j, int block, const OccResult *r)
{
    char pct[PCT_SIZE], limit[64];
    if (r->active_blocks == 0) {
        diag_warning(j->diag, W_OCC_LOW, j->at,
                     "%s: no CTA of '%s' at %d threads fits on an SM (limited by %s)", j->prefix,
                     j->f->name, block, limiter_text(j, r, limit, sizeof limit));
        return;
    }
    if (occ_occupancy(r) >= 0.25)
        return;
    diag_warning(j->diag, W_OCC_LOW, j->at,
                 "%s: theoretical occupancy of '%s' is %s at %d threads per CTA (%d CTA%s per SM, "
                 "%d of %d warps; limited by %s), below 25%%",
                 j->prefix, j->f->name, percent(occ_occupancy(r), pct, sizeof pct), block,
                 r->active_blocks, r->active_blocks == 1 ? "" : "s", r->active_warps, r->max_warps,
                 limiter_text(j, r, limit, sizeof limit));
}

/* The engine's advice (occ_advise_block_size) among CANDIDATE_SIZES and
 * the kernel's own size; at a launch block only sizes that divide the
 * grid, so no candidate leaves a tail.  Writes its result to *r. */
static int advised_size(const Judge *j, int block, const OccResult *now, OccResult *r)
{
    enum { N = sizeof CANDIDATE_SIZES / sizeof *CANDIDATE_SIZES };
    OccCandidate c[N + 1] = {{block, now->active_blocks, now->active_warps, 0}};
    OccResult results[N + 1] = {*now};
    size_t n = 1;
    for (size_t i = 0; i < N; i++) {
        int size = CANDIDATE_SIZES[i];
        if (size == block || (j->launch && j->launch->grid % (uint64_t)size != 0) ||
            !evaluate(j, &j->res, size, &results[n]))
            continue;
        c[n] = (OccCandidate){size, results[n].active_blocks, results[n].active_warps, 0};
        n++;
    }
    int best = occ_advise_block_size(c, n);
    if (best < 0)
        return 0;
    *r = results[best];
    return c[best].threads;
}

/* (1) of occ-limit: a block size of higher occupancy, if the policy
 * advises one. */
static void check_size_limit(const Judge *j, int block, const OccResult *now)
{
    OccResult best_r;
    int best = advised_size(j, block, now, &best_r);
    if (best == block || best_r.active_warps <= now->active_warps)
        best = 0;
    if (!best)
        return;
    char with[32], pct_best[PCT_SIZE], pct_now[PCT_SIZE];
    diag_warning(j->diag, W_OCC_LIMIT, j->at,
                 "%s: %s would give %d CTAs/SM of %d threads (%s occupancy) instead of %d of %d "
                 "(%s)",
                 j->prefix, size_text(j, best, with, sizeof with), best_r.active_blocks, best,
                 percent(occ_occupancy(&best_r), pct_best, sizeof pct_best), now->active_blocks,
                 block, percent(occ_occupancy(now), pct_now, sizeof pct_now));
}

/* The engine's register cap (occ_advise_register_cap) at the kernel's own
 * size, or 0: none, or the kernel has no fixed size. */
static int register_cap(const Judge *j)
{
    OccCapAdvice advice;
    if (j->f->reqntid <= 0 ||
        !occ_advise_register_cap(j->arch, &j->res, j->f->reqntid, j->f->dynamic_smem, &advice))
        return 0;
    return advice.cap;
}

/* (2) of occ-limit: the cap, when ptxas at that cap spilled nothing. */
static void check_register_limit(const Judge *j, int block, const OccResult *now)
{
    int cap = register_cap(j);
    const KernelUsage *u = j->at_cap;
    if (!cap || j->launch || !u ||
        !occ_cap_is_safe(cap, u->registers, u->spill_stores, u->spill_loads))
        return;
    KernelResources capped = j->res;
    capped.regs_per_thread = u->registers;
    OccResult r;
    if (!evaluate(j, &capped, block, &r) || r.active_blocks <= now->active_blocks)
        return;
    char pct_cap[PCT_SIZE], pct_now[PCT_SIZE];
    diag_warning(j->diag, W_OCC_LIMIT, j->at,
                 "%s: max_regs %d would give %d CTAs/SM of %d threads (%s occupancy) instead of "
                 "%d (%s): ptxas fits '%s' in %d registers at that cap without spilling (%d now)",
                 j->prefix, cap, r.active_blocks, block,
                 percent(occ_occupancy(&r), pct_cap, sizeof pct_cap), now->active_blocks,
                 percent(occ_occupancy(now), pct_now, sizeof pct_now), j->f->name, u->registers,
                 j->res.regs_per_thread);
}

static void check_block_size(const Judge *j, int block, const OccResult *r)
{
    if (block != 1024 || r->limit[OCC_LIMITER_REGISTERS] > 2 || r->active_blocks == 0)
        return;
    OccResult smaller;
    char with[32], pct_now[PCT_SIZE], pct_smaller[PCT_SIZE];
    int n = r->limit[OCC_LIMITER_REGISTERS];
    if (!evaluate(j, &j->res, 256, &smaller))
        return;
    diag_warning(j->diag, W_BLOCK_SIZE, j->at,
                 "%s: CTAs of 1024 threads at %d registers per thread: registers let only %d "
                 "reside on an SM (%s occupancy), so a barrier or a CTA's end stalls %s of its "
                 "warps; %s would allow %d (%s)",
                 j->prefix, j->res.regs_per_thread, n, percent(occ_occupancy(r), pct_now, sizeof pct_now),
                 n == 1 ? "all" : "half",
                 size_text(j, 256, with, sizeof with), smaller.active_blocks,
                 percent(occ_occupancy(&smaller), pct_smaller, sizeof pct_smaller));
}

/* The representative GPU of the target's compute capability: the first
 * product of it in products.csv, which lists each one's reference part
 * first (H100 SXM5 for 9.0, A100 40GB for 8.0).  NULL when it has none. */
static const GpuProduct *representative(const Judge *j)
{
    for (size_t i = 0; i < j->table->n_products; i++) {
        const GpuProduct *p = &j->table->products[i];
        if (p->major == j->arch->major && p->minor == j->arch->minor && p->sm_count > 0)
            return p;
    }
    return NULL;
}

static void check_tail(const Judge *j, const OccResult *r)
{
    const LaunchSite *s = j->launch;
    const GpuProduct *gpu = representative(j);
    OccWaves w;
    if (!gpu || !occ_waves(s->grid, (int)s->workspace, r->active_blocks, gpu->sm_count, &w) ||
        w.full_waves == 0 || w.last_wave_fill >= 0.5 || w.idle_fraction < TAIL_IDLE)
        return;
    char fill[PCT_SIZE], idle[PCT_SIZE];
    diag_warning(j->diag, W_TAIL, j->at,
                 "%s: the %llu CTAs of '%s' make %llu full wave%s and a last one %s full on %s "
                 "(%d SMs x %d CTAs = %llu per wave): %s of the launch's CTA slots idle",
                 j->prefix, (unsigned long long)w.ctas, j->f->name,
                 (unsigned long long)w.full_waves, w.full_waves == 1 ? "" : "s",
                 percent(w.last_wave_fill, fill, sizeof fill), gpu->name, gpu->sm_count,
                 r->active_blocks, (unsigned long long)w.ctas_per_wave,
                 percent(w.idle_fraction, idle, sizeof idle));
}

/* Everything judged at one block size: at the kernel, or at a launch block
 * of a function without a fixed size. */
static void judge_size(const Judge *j, int block)
{
    OccResult r;
    if (!evaluate(j, &j->res, block, &r))
        return;
    check_low(j, block, &r);
    if (r.active_blocks > 0) {
        check_size_limit(j, block, &r);
        check_register_limit(j, block, &r);
    }
    check_block_size(j, block, &r);
}

static void judge_spills(const Judge *j)
{
    if (j->u->spill_stores == 0 && j->u->spill_loads == 0)
        return;
    diag_warning(j->diag, W_SPILL, j->at,
                 "%s: '%s' spills registers to local memory: %d bytes stored and %d bytes loaded "
                 "per thread, at %d registers",
                 j->prefix, j->f->name, j->u->spill_stores, j->u->spill_loads, j->u->registers);
}

/* The judge of kernel `k` of `m` on the target of `report`: false when it
 * is no kernel, the report lacks it or it has no root declaration. */
static bool judge_init(Judge *j, const Compilation *c, const IrModule *m,
                       const UsageReport *report, uint32_t k, const Node **decl)
{
    j->f = m->funcs[k];
    j->u = j->f->kernel ? usage_kernel(report, j->f->name) : NULL;
    *decl = j->u ? kernel_decl(c, j->f) : NULL;
    if (!*decl)
        return false;
    snprintf(j->prefix, sizeof j->prefix, "on %s%s", report->arch,
             j->u->estimated ? " (estimated)" : "");
    uint64_t smem = (uint64_t)j->u->static_smem + j->f->dynamic_smem;
    j->res = usage_resources(j->u, j->arch, smem > (uint64_t)j->arch->smem_per_block);
    j->res.max_threads_per_block = 0; /* other sizes are judged as if @launch gave them */
    j->at = kernel_span(*decl);
    j->launch = NULL;
    return true;
}

/* One kernel on one target: at its own site, then at each launch block
 * that targets it. */
static void judge_kernel(Judge *j, const Node *decl, const Sites *sites)
{
    judge_spills(j);
    if (j->f->reqntid > 0)
        judge_size(j, j->f->reqntid);
    for (uint32_t i = 0; i < sites->n; i++) {
        const LaunchSite *s = &sites->items[i];
        if (s->target != decl || s->workspace > (uint64_t)j->arch->max_threads_per_block)
            continue;
        j->launch = s;
        j->at = s->block->span;
        OccResult r;
        if (j->f->reqntid == 0)
            judge_size(j, (int)s->workspace);
        if (evaluate(j, &j->res, (int)s->workspace, &r) && r.active_blocks > 0)
            check_tail(j, &r);
    }
}

/* ---- the module ----------------------------------------------------------------------------- */

static bool load_tables(ArchTable *table)
{
    OccError err;
    return arch_table_load_builtin(table, &err) == 0; /* the built-in tables are tested */
}

bool occ_warn_register_caps(const Compilation *c, const IrModule *m, const UsageReport *report,
                            int *caps)
{
    ArchTable table;
    bool any = false;
    if (!c->diag.enabled[W_OCC_LIMIT] || !load_tables(&table))
        return false;
    Judge j = {.table = &table};
    /* AMD targets: not the NVIDIA engine's (the AMD engine is not yet behind
     * these warnings), so no caps are advised for them */
    j.arch = report->arch && backend_find(report->arch) != &backend_amdgpu
                 ? arch_table_find(&table, report->arch) : NULL;
    for (uint32_t k = 0; k < m->n_funcs; k++) {
        const Node *decl;
        caps[k] = j.arch && judge_init(&j, c, m, report, k, &decl) && !j.u->estimated
                      ? register_cap(&j) : 0;
        any |= caps[k] > 0;
    }
    arch_table_free(&table);
    return any;
}

static void judge_target(Compilation *c, const IrModule *m, const UsageReport *report,
                         const UsageReport *at_caps, const ArchTable *table, const Sites *sites)
{
    Judge j = {.diag = &c->diag, .table = table};
    /* AMD targets get no NVIDIA figures: their warnings await the AMD engine */
    j.arch = report->arch && backend_find(report->arch) != &backend_amdgpu
                 ? arch_table_find(table, report->arch) : NULL;
    for (uint32_t k = 0; j.arch && k < m->n_funcs; k++) {
        const Node *decl;
        if (!judge_init(&j, c, m, report, k, &decl))
            continue;
        j.at_cap = at_caps ? usage_kernel(at_caps, j.f->name) : NULL;
        judge_kernel(&j, decl, sites);
    }
}

void occ_warn_module(Compilation *c, const IrModule *m, const UsageReport *reports,
                     const UsageReport *at_caps, int n)
{
    ArchTable table;
    if (!occ_warn_enabled(&c->diag) || !load_tables(&table))
        return;
    Arena *scratch = arena_new_like(c->arena);
    Sites sites = {.arena = scratch};
    for (uint32_t i = 0; i < c->n_modules; i++)
        if (c->modules[i]->package == PKG_ROOT)
            find_launches(&sites, c->modules[i]->tree);
    for (int i = 0; i < n; i++)
        judge_target(c, m, &reports[i], at_caps ? &at_caps[i] : NULL, &table, &sites);
    arena_free(scratch);
    arch_table_free(&table);
}
