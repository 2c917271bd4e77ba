/*
 * advice.c: how far a kernel is from one more resident CTA per SM, and how
 * much it may grow before it loses one.
 *
 * The answer is that of two plain scans: registers one per thread at a
 * time, shared memory one allocation unit at a time (allocation rounds
 * every size within a unit to the same footprint).  They are scans rather
 * than bisections because the carveout rule makes the CTA count not quite
 * monotonic in shared memory.  Past MAX_SMEM_STEPS units the shared-memory
 * scan strides several at a time (a legal table row may have a billion
 * 1-byte units), and its answer is then exact to within a stride.
 *
 * The scans are not run step by step, because the report asks this for
 * every row of every kernel and a step by step scan costs up to ~1,800
 * occupancy calculations a row.  Instead each scan walks runs: stretches
 * of steps over which the CTA count provably does not change, evaluating
 * only the first step of each and taking the run's last step in one move.
 * The runs come from what the calculation depends on:
 *
 *   registers  only through the registers per warp (constant over the
 *              registers that round to the same allocation) and the
 *              per-thread allocation limit (past it, no CTA at all);
 *   shared     only through the allocation a (static + dynamic + reserved,
 *              rounded), at a handful of change points: where the cut
 *              reaches the static part, the kernel's dynamic limit, the
 *              per-CTA limits, the preferred carveout and each carveout;
 *              between them the carveout K is fixed and the count is
 *              min(other limits, floor(K / a)), constant between the
 *              points where that floor changes.
 *
 * So the steps taken are exactly the old scan's, and the answer is the
 * same for every input (tests/unit/check_next_step.c compares it with the
 * step by step scan over every built-in architecture).
 */
#include "internal.h"

#include <limits.h>

enum { MAX_SMEM_STEPS = 4096 };

static int blocks_with(const ArchLimits *arch, const KernelResources *k, int block_size,
                       uint64_t dynamic_smem)
{
    OccResult r;
    if (occ_active_blocks(arch, k, block_size, dynamic_smem, &r) != OCC_OK)
        return -1;
    return r.active_blocks;
}

static int min_of(const OccResult *r, unsigned which)
{
    int m = INT_MAX;
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if ((which >> i) & 1u && r->limit[i] < m)
            m = r->limit[i];
    return m;
}

/* ---- registers ----------------------------------------------------------- */

/* The registers per thread, around `regs`, that give the same CTA count:
 * those with the same per-warp allocation on the same side of the
 * allocation limit, or every count past that limit (where the register
 * limit is 0 whatever the allocation). */
static void register_run(const ArchLimits *arch, int regs, int64_t *bottom, int64_t *top)
{
    int64_t limit = arch->reg_alloc_limit_per_thread;
    if (regs > limit) {
        *bottom = limit + 1;
        *top = INT64_MAX;
        return;
    }
    int64_t ws = arch->warp_size, unit = arch->reg_alloc_unit;
    int64_t m = ((int64_t)regs * ws + unit - 1) / unit; /* allocation units per warp */
    *bottom = m == 0 ? 0 : (m - 1) * unit / ws + 1;
    *top = m * unit / ws;
    if (*top > limit)
        *top = limit;
}

/* `fixed`: what the limits registers do not touch allow (shared memory,
 * CTA slots, barriers, virtual resources); a cut cannot gain past it. */
static void register_steps(const ArchLimits *arch, const KernelResources *k, int block_size,
                           uint64_t dynamic_smem, int now, int fixed, OccNextStep *out)
{
    KernelResources trial = *k;
    int64_t bottom, top;
    out->regs_to_cut = -1;
    out->regs_gained_blocks = -1;
    for (int regs = k->regs_per_thread - 1; regs >= 0 && fixed > now;) {
        trial.regs_per_thread = regs;
        int blocks = blocks_with(arch, &trial, block_size, dynamic_smem);
        if (blocks > now) {
            out->regs_to_cut = k->regs_per_thread - regs;
            out->regs_gained_blocks = blocks;
            break;
        }
        register_run(arch, regs, &bottom, &top);
        regs = (int)bottom - 1;
    }
    out->regs_slack = 0;
    for (int regs = k->regs_per_thread + 1; regs <= arch->max_regs_per_thread;) {
        trial.regs_per_thread = regs;
        if (blocks_with(arch, &trial, block_size, dynamic_smem) < now)
            break;
        register_run(arch, regs, &bottom, &top);
        if (top > arch->max_regs_per_thread)
            top = arch->max_regs_per_thread;
        out->regs_slack = (int)top - k->regs_per_thread;
        regs = (int)top + 1;
    }
}

/* ---- shared memory -------------------------------------------------------- */

enum { MAX_POINTS = OCC_MAX_SMEM_CONFIGS + 12 };

/* One shared-memory scan: the kernel, what the other limits allow, and
 * the allocations a at which anything but floor(K / a) may change (x is a
 * change point when a = x - 1 and a = x may differ). */
typedef struct SmemScan {
    const ArchLimits *arch;
    const KernelResources *k;
    int others;
    uint64_t points[MAX_POINTS];
    int n_points;
} SmemScan;

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

static void add_point(SmemScan *s, uint64_t x) { s->points[s->n_points++] = x; }

/* Every branch of plan_shared_memory (calc.c) that depends on the total,
 * as the allocation where it may turn. */
static void smem_points(SmemScan *s)
{
    const ArchLimits *arch = s->arch;
    const KernelResources *k = s->k;
    uint64_t reserved = (uint64_t)arch->reserved_smem_per_block;
    uint64_t per_block = (uint64_t)arch->smem_per_block;
    uint64_t md = k->max_dynamic_smem;
    s->n_points = 0;
    add_point(s, 1);            /* a 0 allocation has no shared-memory limit */
    add_point(s, reserved + 1); /* below it the candidate total is 0 */
    /* The cut reaches the static part (static' = total below it). */
    add_point(s, add_sat(k->static_smem, reserved));
    /* The dynamic part passes the kernel's limit. */
    add_point(s, add_sat(add_sat(k->static_smem, md), add_sat(reserved, 1)));
    /* The opt-in limit applies once static' + reserved + md > per_block,
     * computed modulo 2^64 as calc.c computes it: where it crosses, and
     * where it wraps. */
    add_point(s, per_block + 1 - md);
    add_point(s, 0 - md);
    /* The allocation passes either per-CTA limit. */
    add_point(s, per_block + reserved + 1);
    add_point(s, (uint64_t)arch->smem_per_block_optin + reserved + 1);
    /* The preferred carveout, and each carveout it yields to. */
    uint64_t preferred;
    if (occ_preferred_smem_per_sm(arch, k->carveout, &preferred) == OCC_OK)
        add_point(s, preferred + 1);
    for (int i = 0; i < arch->n_smem_configs; i++)
        add_point(s, (uint64_t)arch->smem_configs[i] + 1);
}

/* CTAs per SM at a total of `total` bytes per CTA (cut from the dynamic
 * part first), -1 when the calculation refuses it, and the carveout. */
static int smem_probe(const SmemScan *s, uint64_t total, uint64_t *per_sm)
{
    KernelResources trial = *s->k;
    if (total < trial.static_smem)
        trial.static_smem = total;
    int smem;
    if (occ_smem_blocks(s->arch, &trial, total - trial.static_smem, &smem, per_sm) != OCC_OK)
        return -1;
    return smem < s->others ? smem : s->others;
}

/* The last allocation from a up that keeps the count of a (min(others,
 * floor(K / a)) with the same branches). */
static uint64_t run_end(const SmemScan *s, uint64_t a, uint64_t per_sm)
{
    uint64_t next = UINT64_MAX;
    for (int i = 0; i < s->n_points; i++)
        if (s->points[i] > a && s->points[i] < next)
            next = s->points[i];
    if (a > 0 && s->others > 0) {
        uint64_t v = per_sm / a, o = (uint64_t)s->others, floor_next = UINT64_MAX;
        if (v >= o)
            floor_next = per_sm / o + 1;
        else if (v > 0)
            floor_next = per_sm / v + 1;
        if (floor_next < next)
            next = floor_next;
    }
    return next - 1;
}

/* The first allocation from a down that keeps the count of a. */
static uint64_t run_start(const SmemScan *s, uint64_t a, uint64_t per_sm)
{
    uint64_t start = 0;
    for (int i = 0; i < s->n_points; i++)
        if (s->points[i] <= a && s->points[i] > start)
            start = s->points[i];
    if (a > 0) {
        uint64_t v = per_sm / a;
        if (v < (uint64_t)s->others && per_sm / (v + 1) + 1 > start)
            start = per_sm / (v + 1) + 1;
    }
    return start;
}

/* The cut: down from the CTA's allocation class, the first total that
 * gains a CTA.  Only shared memory changes, so none can gain when the
 * other limits allow no more than now.  The old scan's `candidate >=
 * total` skip never fires: the first class holds total, every step
 * below holds less. */
static void smem_cut(const SmemScan *s, uint64_t total, uint64_t first_class, uint64_t stride,
                     int now, OccNextStep *out)
{
    uint64_t unit = (uint64_t)s->arch->smem_alloc_unit;
    uint64_t reserved = (uint64_t)s->arch->reserved_smem_per_block;
    out->smem_to_cut = -1;
    out->smem_gained_blocks = -1;
    for (uint64_t c = first_class; c > 0 && total > 0 && s->others > now;) {
        c = c > stride ? c - stride : 0;
        uint64_t candidate = c * unit > reserved ? c * unit - reserved : 0;
        uint64_t per_sm;
        int blocks = smem_probe(s, candidate, &per_sm);
        if (blocks > now) {
            out->smem_to_cut = (int64_t)(total - candidate);
            out->smem_gained_blocks = blocks;
            return;
        }
        if (candidate == 0)
            return;
        /* Skip to the run's lowest step; the loop steps below it. */
        uint64_t lowest = (run_start(s, c * unit, per_sm) + unit - 1) / unit;
        c -= (c - lowest) / stride * stride;
    }
}

/* The slack: up from the allocation class, the last total that keeps
 * now.  Every step's candidate is at least total (the first class holds
 * it), so the old scan's `candidate < total` skip never fires here
 * either. */
static void smem_slack(const SmemScan *s, uint64_t total, uint64_t first_class, uint64_t stride,
                       uint64_t ceiling, int now, OccNextStep *out)
{
    uint64_t unit = (uint64_t)s->arch->smem_alloc_unit;
    uint64_t reserved = (uint64_t)s->arch->reserved_smem_per_block;
    out->smem_slack = 0;
    for (uint64_t c = first_class; c * unit <= ceiling;) {
        uint64_t per_sm;
        if (smem_probe(s, c * unit - reserved, &per_sm) < now)
            return;
        uint64_t end = run_end(s, c * unit, per_sm);
        if (end > ceiling)
            end = ceiling;
        uint64_t last = c + (end / unit - c) / stride * stride;
        out->smem_slack = (int64_t)(last * unit - reserved - total);
        c = last + stride;
    }
}

static void smem_steps(const ArchLimits *arch, const KernelResources *k, uint64_t dynamic_smem,
                       int now, int others, OccNextStep *out)
{
    SmemScan s = {.arch = arch, .k = k, .others = others};
    smem_points(&s);
    uint64_t unit = (uint64_t)arch->smem_alloc_unit;
    uint64_t reserved = (uint64_t)arch->reserved_smem_per_block;
    uint64_t total = k->static_smem + dynamic_smem;
    /* The CTA's allocation class (its footprint in units). */
    uint64_t first_class = (total + reserved + unit - 1) / unit;
    uint64_t ceiling = (uint64_t)arch->smem_per_block_optin + reserved;
    uint64_t stride = (ceiling / unit + MAX_SMEM_STEPS) / MAX_SMEM_STEPS;
    smem_cut(&s, total, first_class, stride, now, out);
    smem_slack(&s, total, first_class, stride, ceiling, now, out);
}

OccStatus occ_next_step(const ArchLimits *arch, const KernelResources *k, int block_size,
                        uint64_t dynamic_smem, OccNextStep *out)
{
    OccResult r;
    OccStatus status = occ_active_blocks(arch, k, block_size, dynamic_smem, &r);
    if (status != OCC_OK)
        return status;
    unsigned not_registers = 1u << OCC_LIMITER_SHARED_MEMORY | 1u << OCC_LIMITER_BLOCKS |
                             1u << OCC_LIMITER_BARRIERS | 1u << OCC_LIMITER_VIRTUAL_RESOURCES;
    unsigned not_smem = ((1u << OCC_N_LIMITERS) - 1) & ~(1u << OCC_LIMITER_SHARED_MEMORY);
    register_steps(arch, k, block_size, dynamic_smem, r.active_blocks, min_of(&r, not_registers),
                   out);
    smem_steps(arch, k, dynamic_smem, r.active_blocks, min_of(&r, not_smem), out);
    return OCC_OK;
}
