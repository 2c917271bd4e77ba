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
 *               (3) built for several targets, where the targets alone
 *               would advise different sizes at a site (the kernel's own
 *               size or a launch block), (1) is given once for all of them
 *               (judge_across): the size of the highest lowest occupancy
 *               (occ_advise_block_size_across), each target's own optimum
 *               a note.  Per target, (1) would make -Werror unsatisfiable
 *               (@launch(1024) on sm_80, @launch(512) on sm_90); across,
 *               a kernel at the advised size has no size of higher lowest
 *               occupancy, so it is warned on no target.  Caps stay per
 *               target: ptxas measures each on its own target only.
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
enum { N_CANDIDATES = sizeof CANDIDATE_SIZES / sizeof *CANDIDATE_SIZES, N_SLOTS = N_CANDIDATES + 1 };
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
    /* across[site] for this kernel: its size advice was given once for every
     * target (judge_across); site 0 is the kernel's own, 1 + i launch i */
    const bool *across;
    const Sites *sites;
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

/* The candidates at `block`, in slots that are the same on every target
 * (the advice across targets compares them slot by slot): the kernel's own
 * size first, its figures `now`, then CANDIDATE_SIZES.  A size that is the
 * kernel's own, does not run or, at a launch block, does not divide the
 * grid (it would leave a tail) keeps active_warps 0: no advice. */
static void fill_candidates(const Judge *j, int block, const OccResult *now, OccCandidate *c,
                            OccResult *results)
{
    c[0] = (OccCandidate){block, now->active_blocks, now->active_warps, 0};
    results[0] = *now;
    for (size_t i = 0; i < N_CANDIDATES; i++) {
        int size = CANDIDATE_SIZES[i];
        OccResult *r = &results[i + 1];
        c[i + 1] = (OccCandidate){size, 0, 0, 0};
        if (size == block || (j->launch && j->launch->grid % (uint64_t)size != 0) ||
            !evaluate(j, &j->res, size, r))
            continue;
        c[i + 1] = (OccCandidate){size, r->active_blocks, r->active_warps, 0};
    }
}

/* The engine's advice (occ_advise_block_size) among CANDIDATE_SIZES and
 * the kernel's own size; at a launch block only sizes that divide the
 * grid, so no candidate leaves a tail.  Writes its result to *r. */
static int advised_size(const Judge *j, int block, const OccResult *now, OccResult *r)
{
    OccCandidate c[N_SLOTS];
    OccResult results[N_SLOTS];
    fill_candidates(j, block, now, c, results);
    int best = occ_advise_block_size(c, N_SLOTS);
    if (best < 0)
        return 0;
    *r = results[best];
    return c[best].threads;
}

/* Whether the size advice at j's site was given across targets. */
static bool advised_across(const Judge *j)
{
    size_t site = j->launch ? (size_t)(j->launch - j->sites->items) + 1 : 0;
    return j->across && j->across[site];
}

/* (1) of occ-limit: a block size of higher occupancy, if the policy
 * advises one. */
static void check_size_limit(const Judge *j, int block, const OccResult *now)
{
    if (advised_across(j))
        return;
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

/* ---- one piece of advice across targets ----------------------------------------------------- */

/* One site of one kernel on one target, for judge_site_across. */
typedef struct SiteTarget {
    Judge j;
    OccCandidate c[N_SLOTS];
    OccResult r[N_SLOTS];
    int own; /* the slot this target alone would advise (advised_size's) */
    int own_sizes; /* its choice among CANDIDATE_SIZES alone: what the
                    * kernel's current size cannot change (judge_site_across) */
    const char *name; /* the target, "sm_90" */
} SiteTarget;

/* The NVIDIA architecture of a report, NULL for AMD or one the tables lack. */
static const ArchLimits *report_arch(const ArchTable *table, const UsageReport *report)
{
    return report->arch && backend_find(report->arch) != &backend_amdgpu
               ? arch_table_find(table, report->arch) : NULL;
}

/* Whether site `site` (-1: the kernel's own size) is judged for a size on
 * j's target, as judge_kernel judges it; sets j's launch and span. */
static bool site_applies(Judge *j, const Node *decl, int site)
{
    if (site < 0)
        return j->f->reqntid > 0;
    const LaunchSite *s = &j->sites->items[site];
    j->launch = s;
    j->at = s->block->span;
    return s->target == decl && j->f->reqntid == 0 &&
           s->workspace <= (uint64_t)j->arch->max_threads_per_block;
}

/* The size this target alone would advise among CANDIDATE_SIZES, the
 * kernel's own size left out unless it is one of them; 0 when none runs. */
static int own_among_sizes(const OccCandidate *c, int block)
{
    OccCandidate sizes[N_SLOTS];
    memcpy(sizes, c, sizeof sizes);
    bool listed = false;
    for (size_t i = 0; i < N_CANDIDATES; i++)
        listed |= CANDIDATE_SIZES[i] == block;
    if (!listed)
        sizes[0].active_warps = 0;
    int best = occ_advise_block_size(sizes, N_SLOTS);
    return best < 0 ? 0 : sizes[best].threads;
}

/* Kernel k at `site` on every target where it was built, into t[]; the
 * number of targets, 0 when one of them does not judge the site (it is
 * then judged per target, as with one target). */
static int gather_site(const Compilation *c, const IrModule *m, const UsageReport *reports, int n,
                       const ArchTable *table, const Sites *sites, uint32_t k, int site,
                       SiteTarget *t)
{
    int got = 0;
    for (int i = 0; i < n; i++) {
        SiteTarget *st = &t[got];
        st->j = (Judge){.table = table, .sites = sites, .arch = report_arch(table, &reports[i])};
        const Node *decl;
        if (!st->j.arch || !judge_init(&st->j, c, m, &reports[i], k, &decl))
            continue;
        if (!site_applies(&st->j, decl, site))
            return 0;
        int block = site < 0 ? st->j.f->reqntid : (int)st->j.launch->workspace;
        OccResult now;
        if (!evaluate(&st->j, &st->j.res, block, &now) || now.active_blocks == 0)
            return 0; /* occ-low's, per target */
        fill_candidates(&st->j, block, &now, st->c, st->r);
        st->name = reports[i].arch;
        st->own = occ_advise_block_size(st->c, N_SLOTS);
        st->own_sizes = own_among_sizes(st->c, block);
        got++;
    }
    return got;
}

/* "on sm_80, sm_90", with " (estimated)" when any target's figures are. */
static void across_prefix(const SiteTarget *t, int n, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "on");
    bool estimated = false;
    for (int i = 0; i < n && used < size; i++) {
        used += (size_t)snprintf(buf + used, size - used, "%s %s", i ? "," : "", t[i].name);
        estimated |= t[i].j.u->estimated;
    }
    if (estimated && used < size)
        snprintf(buf + used, size - used, " (estimated)");
}

/* "2 CTAs/SM on sm_80, 2 on sm_90" at slot `slot`. */
static void per_target_blocks(const SiteTarget *t, int n, int slot, char *buf, size_t size)
{
    size_t used = 0;
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, i ? ", %d on %s" : "%d CTAs/SM on %s",
                                 t[i].r[slot].active_blocks, t[i].name);
}

/* The warning once for every target, and each target's own optimum, where
 * it differs, as a note. */
static void warn_across(Diag *d, const SiteTarget *t, int n, const OccTargetCandidates *oc,
                        int best)
{
    char prefix[256], blocks[256], with[32], pct_best[PCT_SIZE], pct_now[PCT_SIZE];
    across_prefix(t, n, prefix, sizeof prefix);
    per_target_blocks(t, n, best, blocks, sizeof blocks);
    const Judge *j = &t[0].j;
    diag_warning(d, W_OCC_LIMIT, j->at,
                 "%s: %s is best over all these targets, lowest occupancy %s (%s), instead of %s "
                 "at %d threads",
                 prefix, size_text(j, t[0].c[best].threads, with, sizeof with),
                 percent(occ_lowest_occupancy(oc, (size_t)n, (size_t)best), pct_best, sizeof pct_best),
                 blocks, percent(occ_lowest_occupancy(oc, (size_t)n, 0), pct_now, sizeof pct_now),
                 t[0].c[0].threads);
    for (int i = 0; i < n; i++) {
        const SiteTarget *st = &t[i];
        if (st->own < 0 || st->c[st->own].threads == st->c[best].threads)
            continue;
        diag_note(d, j->at,
                  "%s alone, %s would give %d CTAs/SM of %d threads (%s occupancy); %d threads "
                  "give %s there",
                  st->j.prefix, size_text(j, st->c[st->own].threads, with, sizeof with),
                  st->r[st->own].active_blocks, st->c[st->own].threads,
                  percent(occ_occupancy(&st->r[st->own]), pct_now, sizeof pct_now),
                  st->c[best].threads, percent(occ_occupancy(&st->r[best]), pct_best, sizeof pct_best));
    }
}

/* Kernel k at `site` across the targets: when the targets alone would
 * advise different sizes, one warning gives the size of the highest lowest
 * occupancy (occ_advise_block_size_across), so that following it leaves
 * no target a size of higher occupancy than it (none warns again).
 * Whether they differ is judged among CANDIDATE_SIZES alone, which the
 * kernel's current size does not change: a kernel that followed the
 * advice is judged across the targets again, and silently.  Returns
 * whether the site's size advice was given here. */
static bool judge_site_across(Compilation *c, const IrModule *m, const UsageReport *reports,
                              int n, const ArchTable *table, const Sites *sites, uint32_t k,
                              int site, SiteTarget *t, OccTargetCandidates *oc)
{
    int got = gather_site(c, m, reports, n, table, sites, k, site, t);
    bool differ = false;
    for (int i = 1; i < got; i++)
        differ |= t[i].own_sizes != t[0].own_sizes;
    if (got < 2 || !differ)
        return false;
    for (int i = 0; i < got; i++)
        oc[i] = (OccTargetCandidates){t[i].c, t[i].r[0].max_warps};
    int best = occ_advise_block_size_across(oc, (size_t)got, N_SLOTS);
    /* exact: equal fractions of integers divide to the same double */
    if (best > 0 && occ_lowest_occupancy(oc, (size_t)got, (size_t)best) >
                        occ_lowest_occupancy(oc, (size_t)got, 0))
        warn_across(&c->diag, t, got, oc, best);
    return true;
}

/* across[k * (sites + 1) + site]: whether kernel k's size advice at each
 * site was given across the targets. */
static bool *judge_across(Compilation *c, const IrModule *m, const UsageReport *reports, int n,
                          const ArchTable *table, const Sites *sites, Arena *scratch)
{
    size_t per = (size_t)sites->n + 1;
    bool *across = ARENA_ARRAY(scratch, bool, (size_t)m->n_funcs * per + 1);
    SiteTarget *t = ARENA_ARRAY(scratch, SiteTarget, (size_t)n + 1);
    OccTargetCandidates *oc = ARENA_ARRAY(scratch, OccTargetCandidates, (size_t)n + 1);
    for (uint32_t k = 0; n > 1 && k < m->n_funcs; k++)
        for (int site = -1; site < (int)sites->n; site++)
            across[k * per + (size_t)(site + 1)] =
                judge_site_across(c, m, reports, n, table, sites, k, site, t, oc);
    return across;
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
                         const UsageReport *at_caps, const ArchTable *table, const Sites *sites,
                         const bool *across)
{
    Judge j = {.diag = &c->diag, .table = table, .sites = sites};
    /* AMD targets get no NVIDIA figures: their warnings await the AMD engine */
    j.arch = report->arch && backend_find(report->arch) != &backend_amdgpu
                 ? arch_table_find(table, report->arch) : NULL;
    for (uint32_t k = 0; j.arch && k < m->n_funcs; k++) {
        const Node *decl;
        if (!judge_init(&j, c, m, report, k, &decl))
            continue;
        j.at_cap = at_caps ? usage_kernel(at_caps, j.f->name) : NULL;
        j.across = &across[k * ((size_t)sites->n + 1)];
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
    const bool *across = judge_across(c, m, reports, n, &table, &sites, scratch);
    for (int i = 0; i < n; i++)
        judge_target(c, m, &reports[i], at_caps ? &at_caps[i] : NULL, &table, &sites, across);
    arena_free(scratch);
    arch_table_free(&table);
}
