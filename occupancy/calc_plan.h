/*
 * calc_plan.h: the calculation of resident CTAs (calc.c) as inline
 * functions, for the two places that run it: calc.c, whose exported
 * functions are the engine's API, and the installed API's single call
 * (public.c), which inlines it whole as cuda_occupancy.h is inlined into
 * its caller, so that the result is written straight from registers into
 * the caller's struct (issue 26, item 2).  Internal to occupancy/; calc.c
 * says what the rules are.
 */
#ifndef SILK_OCCUPANCY_CALC_PLAN_H
#define SILK_OCCUPANCY_CALC_PLAN_H

#include "internal.h"

#include <limits.h>

/* The functions the installed API's single call runs, inlined whatever the
 * compiler's size heuristics say: a call costs as much as what they do. */
#if defined(__GNUC__)
#define OCC_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define OCC_ALWAYS_INLINE static inline
#endif

/* The tables' units and counts (warp size, allocation units, sub-partitions)
 * are powers of two on every GPU so far; dividing by them with a shift
 * instead of a division instruction makes the whole calculation several
 * times faster.  The branch is the same on every call for a given row. */
static inline bool is_power_of_two(uint64_t x) { return (x & (x - 1)) == 0; }

static inline uint32_t divide(uint32_t x, uint32_t d)
{
    return is_power_of_two(d) ? x >> __builtin_ctz(d) : x / d;
}

static inline uint64_t round_up(uint64_t x, uint64_t unit)
{
    if (is_power_of_two(unit))
        return (x + unit - 1) & ~(unit - 1);
    return (x + unit - 1) / unit * unit;
}

static inline int div_round_up(int x, int y) { return (int)divide((uint32_t)(x + y - 1), (uint32_t)y); }
static inline int min_int(int a, int b) { return a < b ? a : b; }

static inline int plan_max_warps(const ArchLimits *arch)
{
    return (int)divide((uint32_t)arch->max_threads_per_sm, (uint32_t)arch->warp_size);
}

/* Scans from the largest carveout down: the default preference is the
 * largest, so the common case takes one comparison. */
static inline bool plan_align_to_carveout(const ArchLimits *arch, uint64_t bytes,
                                          uint64_t *carveout)
{
    int i = arch->n_smem_configs - 1;
    if (i < 0 || bytes > (uint64_t)arch->smem_configs[i])
        return false;
    while (i > 0 && bytes <= (uint64_t)arch->smem_configs[i - 1])
        i--;
    *carveout = (uint64_t)arch->smem_configs[i];
    return true;
}

static inline OccStatus plan_preferred_smem(const ArchLimits *arch, int carveout, uint64_t *bytes)
{
    /* An SM without carveouts has nothing to prefer, so any value goes. */
    if (arch->n_smem_configs == 0) {
        *bytes = (uint64_t)arch->smem_per_sm;
        return OCC_OK;
    }
    if (carveout < OCC_CARVEOUT_DEFAULT || carveout > 100)
        return OCC_ERR_INVALID_INPUT;
    uint64_t wanted = (uint64_t)arch->smem_per_sm;
    if (carveout != OCC_CARVEOUT_DEFAULT)
        wanted = (uint64_t)carveout * (uint64_t)arch->smem_per_sm / 100;
    return plan_align_to_carveout(arch, wanted, bytes) ? OCC_OK : OCC_ERR_INVALID_INPUT;
}

/* The most shared memory one CTA may be allocated.  The opt-in limit applies
 * once the kernel has opted in and may use more than the default. */
static inline uint64_t smem_limit_per_block(const ArchLimits *arch, const KernelResources *k,
                                     uint64_t max_usage)
{
    uint64_t limit = (uint64_t)arch->smem_per_block;
    if (k->smem_optin && max_usage > limit)
        limit = (uint64_t)arch->smem_per_block_optin;
    return limit + (uint64_t)arch->reserved_smem_per_block;
}


static inline int warps_limit(const OccPlan *p, OccPartitionedGc gc, int block_size,
                       int warps_per_block)
{
    if (block_size > p->arch->max_threads_per_block)
        return 0;
    if (gc != OCC_GC_OFF) /* a CTA lives in half an SM */
        return p->max_warps / 2 / warps_per_block * 2;
    return p->max_warps / warps_per_block;
}

static inline int warps_per_partition(const ArchLimits *arch, uint64_t regs_per_warp, int partitions)
{
    if (regs_per_warp == 0 || regs_per_warp > (uint64_t)arch->regs_per_sm)
        return 0;
    return (int)(divide((uint32_t)arch->regs_per_sm, (uint32_t)partitions) /
                 (uint32_t)regs_per_warp);
}

/* Registers, on an SM of `partitions` sub-partitions (each holding
 * `per_partition` of the kernel's warps) whose per-CTA check counts warps in
 * groups of `granularity`.  May switch partitioned caching off, as the
 * hardware does when a CTA does not fit with it on. */
static inline int registers_limit(const OccPlan *p, int warps_per_block, int partitions,
                           int granularity, int per_partition, OccPartitionedGc *gc)
{
    const ArchLimits *arch = p->arch;
    uint64_t per_block = p->regs_per_warp * (uint64_t)warps_per_block;
    /* The hardware checks the per-CTA limit as if the CTA's warps were
     * spread over all sub-partitions at once. */
    uint64_t assumed_per_block =
        p->regs_per_warp * round_up((uint64_t)warps_per_block, (uint64_t)granularity);
    if ((uint64_t)arch->regs_per_block < assumed_per_block ||
        (uint64_t)arch->regs_per_block < per_block ||
        p->kernel->regs_per_thread > arch->reg_alloc_limit_per_thread)
        return 0;
    if (p->regs_per_warp == 0)
        return INT_MAX;

    int blocks = 0;
    if (*gc != OCC_GC_OFF)
        blocks = per_partition * (partitions / 2) / warps_per_block * 2;
    if (blocks == 0 && *gc != OCC_GC_ON_STRICT) {
        *gc = OCC_GC_OFF;
        blocks = per_partition * partitions / warps_per_block;
    }
    return blocks;
}

/* Registers, including the family rule: code for an SM with few
 * sub-partitions must also fit its siblings with more (cc 6.0 vs 6.x). */
static inline int registers_limit_family(const OccPlan *p, int warps_per_block, OccPartitionedGc *gc)
{
    const ArchLimits *arch = p->arch;
    int blocks = registers_limit(p, warps_per_block, arch->sub_partitions,
                                 arch->warp_alloc_granularity, p->warps_per_partition, gc);
    int sibling = arch->compat_sub_partitions;
    if (blocks == 0 || sibling == 0)
        return blocks;
    OccPartitionedGc sibling_gc = *gc;
    int per_partition = warps_per_partition(arch, p->regs_per_warp, sibling);
    if (registers_limit(p, warps_per_block, sibling, sibling, per_partition, &sibling_gc) == 0)
        return 0;
    return blocks;
}

OCC_ALWAYS_INLINE OccStatus plan_shared_memory(OccPlan *p, uint64_t dynamic_smem)
{
    const ArchLimits *arch = p->arch;
    const KernelResources *k = p->kernel;
    uint64_t preferred;
    OccStatus status = plan_preferred_smem(arch, k->carveout, &preferred);
    if (status != OCC_OK)
        return status;

    uint64_t static_part = k->static_smem + (uint64_t)arch->reserved_smem_per_block;
    uint64_t allocated = round_up(static_part + dynamic_smem, (uint64_t)arch->smem_alloc_unit);
    uint64_t limit = smem_limit_per_block(arch, k, static_part + k->max_dynamic_smem);
    p->smem_allocated = allocated;
    p->smem_per_sm = preferred;

    if ((k->smem_optin && dynamic_smem > k->max_dynamic_smem) || allocated > limit) {
        p->smem_blocks = 0;
        return OCC_OK;
    }
    /* The preference yields when one CTA would not fit in it. */
    uint64_t per_sm = preferred;
    if (preferred < allocated) {
        if (arch->n_smem_configs == 0)
            per_sm = (uint64_t)arch->smem_per_sm;
        else if (!plan_align_to_carveout(arch, allocated, &per_sm))
            return OCC_ERR_INVALID_INPUT;
    }
    p->smem_per_sm = per_sm;
    /* Both fit in 32 bits: allocated is within the per-CTA limit here. */
    p->smem_blocks = allocated ? (int)((uint32_t)per_sm / (uint32_t)allocated) : INT_MAX;
    return OCC_OK;
}

static inline int virtual_resources_limit(const ArchLimits *arch, const KernelResources *k)
{
    if (arch->virtual_resources_per_sm <= 0 || k->virtual_resources <= 0)
        return INT_MAX;
    return arch->virtual_resources_per_sm / k->virtual_resources;
}

/* The SM has a fixed number of named barriers per CTA slot, which the
 * resident CTAs share; they limit only where the table gives that number. */
static inline int plan_barriers_per_sm(const ArchLimits *arch)
{
    return arch->barriers_per_cta_slot * arch->max_blocks_per_sm;
}

static inline int barriers_limit(const ArchLimits *arch, const KernelResources *k)
{
    if (arch->barriers_per_cta_slot <= 0 || k->barriers <= 0)
        return INT_MAX;
    return (int)divide((uint32_t)plan_barriers_per_sm(arch), (uint32_t)k->barriers);
}

static inline bool arch_is_usable(const ArchLimits *a)
{
    return a->warp_size > 0 && a->max_threads_per_block > 0 && a->max_threads_per_sm > 0 &&
           a->max_blocks_per_sm > 0 && a->regs_per_sm > 0 && a->regs_per_block > 0 &&
           a->reg_alloc_unit > 0 && a->sub_partitions > 0 && a->warp_alloc_granularity > 0 &&
           a->smem_per_sm > 0 && a->smem_per_block > 0 && a->smem_alloc_unit > 0;
}

static inline OccStatus plan_kernel(const ArchLimits *arch, const KernelResources *k,
                             uint64_t dynamic_smem, OccPlan *p)
{
    if (!arch || !k || k->regs_per_thread < 0 || k->max_threads_per_block < 0 ||
        !arch_is_usable(arch))
        return OCC_ERR_INVALID_INPUT;
    p->arch = arch;
    p->kernel = k;
    p->gc = arch->partitioned_gc ? k->partitioned_gc : OCC_GC_OFF;
    /* 64 bits, so that no register count, however absurd, overflows. */
    p->regs_per_warp = round_up((uint64_t)k->regs_per_thread * (uint64_t)arch->warp_size,
                                (uint64_t)arch->reg_alloc_unit);
    p->warps_per_partition = warps_per_partition(arch, p->regs_per_warp, arch->sub_partitions);
    p->max_warps = plan_max_warps(arch);
    p->barrier_blocks = barriers_limit(arch, k);
    p->virtual_blocks = virtual_resources_limit(arch, k);
    return plan_shared_memory(p, dynamic_smem);
}

/* The binding limit: the least count, and a bit for each limiter at it.
 * Unrolled: these two loops are half the time of a block size. */
static inline int bind_limits(const int *limit, unsigned *limited_by)
{
    int active = INT_MAX;
#pragma GCC unroll 8
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        active = min_int(active, limit[i]);
    unsigned set = 0;
#pragma GCC unroll 8
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (limit[i] == active)
            set |= 1u << i;
    *limited_by = set;
    return active;
}

/* The block-size-dependent half of the calculation. */
static inline void evaluate(const OccPlan *p, int block_size, OccResult *r)
{
    int *limit = r->limit;
    OccPartitionedGc gc = p->gc;
    int warps = div_round_up(block_size, p->arch->warp_size);
    uint64_t regs = p->regs_per_warp * (uint64_t)warps;

    limit[OCC_LIMITER_REGISTERS] = registers_limit_family(p, warps, &gc);
    limit[OCC_LIMITER_WARPS] = warps_limit(p, gc, block_size, warps);
    limit[OCC_LIMITER_SHARED_MEMORY] = p->smem_blocks;
    limit[OCC_LIMITER_BLOCKS] = p->arch->max_blocks_per_sm;
    limit[OCC_LIMITER_BARRIERS] = p->barrier_blocks;
    limit[OCC_LIMITER_VIRTUAL_RESOURCES] = p->virtual_blocks;

    int active = bind_limits(limit, &r->limited_by);
    r->active_blocks = active;
    r->warps_per_block = warps;
    r->active_warps = active * warps;
    r->max_warps = p->max_warps;
    r->allocated_regs_per_block = regs > INT_MAX ? INT_MAX : (int)regs;
    r->allocated_smem_per_block = p->smem_allocated;
    r->smem_per_sm = p->smem_per_sm;
    r->partitioned_gc = gc;
}

/* ---- an architecture's limits by registers and warps, in tables ---------- */

/* For kernels without partitioned caching (every kernel of the installed
 * API), the registers and warps limits depend only on the registers per
 * thread and the warps per CTA: few enough pairs (256 x 32 on every GPU so
 * far) to compute each once, with the functions above, when a target is
 * opened, and then look up, which saves the single call three of its
 * divisions (calc.c, occ_arch_tables_build). */
static inline bool tables_apply(const OccArchTables *t, int regs, int block_size)
{
    return t->reg_blocks && regs >= 0 && regs < t->n_regs && block_size <= t->max_threads;
}

/* Registers, then warps, for a pair tables_apply accepts (warps per CTA
 * of at most max_threads, so at most n_warps). */
static inline int tables_registers(const OccArchTables *t, int regs, int warps)
{
    return t->reg_blocks[(size_t)regs * (size_t)t->n_warps + (size_t)(warps - 1)];
}

static inline int tables_warps(const OccArchTables *t, int warps)
{
    return t->warp_blocks[warps - 1];
}

/* occ_kernel_defaults, written in place. */
static inline void plan_kernel_defaults(const ArchLimits *arch, int regs, uint64_t static_smem,
                                        bool optin, KernelResources *k)
{
    uint64_t limit = (uint64_t)(optin ? arch->smem_per_block_optin : arch->smem_per_block);
    *k = (KernelResources){
        .regs_per_thread = regs,
        .static_smem = static_smem,
        .barriers = 1,
        .smem_optin = optin,
        .max_dynamic_smem = static_smem < limit ? limit - static_smem : 0,
        .carveout = OCC_CARVEOUT_DEFAULT,
        .partitioned_gc = OCC_GC_OFF,
    };
}

#endif
