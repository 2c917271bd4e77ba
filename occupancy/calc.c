/*
 * calc.c: resident CTAs per SM.
 *
 * Each resource gets its own function that says how many CTAs it allows;
 * the result is their minimum.  The rules are NVIDIA's (they are what the
 * driver and cuda_occupancy.h do), written from the architecture tables
 * rather than from switches on the compute capability:
 *
 *   warps      warp slots per SM / warps per CTA
 *   registers  registers go to warps in reg_alloc_unit chunks and each warp
 *              lives in one sub-partition's quarter of the register file
 *   shared     static + dynamic + reserved bytes, rounded to the allocation
 *              unit, placed in the carveout the kernel prefers (or the next
 *              larger one the SM supports when one CTA would not fit)
 *   blocks     the SM's CTA slots
 *   barriers   named barriers shared by resident CTAs (cc 9.0 and newer)
 *   virtual    virtual resources (cc 10.0 and newer)
 *
 * Most of the work depends on the kernel but not on the block size, so it
 * is done once in a plan; evaluating a block size then costs two divisions.
 * A single call and a sweep over block sizes run the same code.
 */
#include "internal.h"

#include <limits.h>

static const char *const limiter_names[] = {
#define LIMITER(e, json, what) json,
#include "limiters.def"
#undef LIMITER
};

static const char *const limiter_whats[] = {
#define LIMITER(e, json, what) what,
#include "limiters.def"
#undef LIMITER
};

const char *occ_limiter_name(OccLimiter limiter) { return limiter_names[limiter]; }
const char *occ_limiter_what(OccLimiter limiter) { return limiter_whats[limiter]; }

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

int arch_max_warps_per_sm(const ArchLimits *arch)
{
    return (int)divide((uint32_t)arch->max_threads_per_sm, (uint32_t)arch->warp_size);
}

/* Scans from the largest carveout down: the default preference is the
 * largest, so the common case takes one comparison. */
bool occ_align_to_carveout(const ArchLimits *arch, uint64_t bytes, uint64_t *carveout)
{
    int i = arch->n_smem_configs - 1;
    if (i < 0 || bytes > (uint64_t)arch->smem_configs[i])
        return false;
    while (i > 0 && bytes <= (uint64_t)arch->smem_configs[i - 1])
        i--;
    *carveout = (uint64_t)arch->smem_configs[i];
    return true;
}

OccStatus occ_preferred_smem_per_sm(const ArchLimits *arch, int carveout, uint64_t *bytes)
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
    return occ_align_to_carveout(arch, wanted, bytes) ? OCC_OK : OCC_ERR_INVALID_INPUT;
}

/* The most shared memory one CTA may be allocated.  The opt-in limit applies
 * once the kernel has opted in and may use more than the default. */
static uint64_t smem_limit_per_block(const ArchLimits *arch, const KernelResources *k,
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

static int warps_per_partition(const ArchLimits *arch, uint64_t regs_per_warp, int partitions)
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

static OccStatus plan_shared_memory(OccPlan *p, uint64_t dynamic_smem)
{
    const ArchLimits *arch = p->arch;
    const KernelResources *k = p->kernel;
    uint64_t preferred;
    OccStatus status = occ_preferred_smem_per_sm(arch, k->carveout, &preferred);
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
        else if (!occ_align_to_carveout(arch, allocated, &per_sm))
            return OCC_ERR_INVALID_INPUT;
    }
    p->smem_per_sm = per_sm;
    /* Both fit in 32 bits: allocated is within the per-CTA limit here. */
    p->smem_blocks = allocated ? (int)((uint32_t)per_sm / (uint32_t)allocated) : INT_MAX;
    return OCC_OK;
}

/* The shared-memory half alone, for scans that vary only shared memory
 * (advice.c): the other limits do not depend on it. */
OccStatus occ_smem_blocks(const ArchLimits *arch, const KernelResources *k,
                          uint64_t dynamic_smem, int *blocks, uint64_t *per_sm)
{
    OccPlan p = {.arch = arch, .kernel = k};
    OccStatus status = plan_shared_memory(&p, dynamic_smem);
    *blocks = p.smem_blocks;
    *per_sm = p.smem_per_sm;
    return status;
}

static int virtual_resources_limit(const ArchLimits *arch, const KernelResources *k)
{
    if (arch->virtual_resources_per_sm <= 0 || k->virtual_resources <= 0)
        return INT_MAX;
    return arch->virtual_resources_per_sm / k->virtual_resources;
}

/* The SM has a fixed number of named barriers per CTA slot, which the
 * resident CTAs share; they limit only where the table gives that number. */
int arch_barriers_per_sm(const ArchLimits *arch)
{
    return arch->barriers_per_cta_slot * arch->max_blocks_per_sm;
}

static int barriers_limit(const ArchLimits *arch, const KernelResources *k)
{
    if (arch->barriers_per_cta_slot <= 0 || k->barriers <= 0)
        return INT_MAX;
    return arch_barriers_per_sm(arch) / k->barriers;
}

static bool arch_is_usable(const ArchLimits *a)
{
    return a->warp_size > 0 && a->max_threads_per_block > 0 && a->max_threads_per_sm > 0 &&
           a->max_blocks_per_sm > 0 && a->regs_per_sm > 0 && a->regs_per_block > 0 &&
           a->reg_alloc_unit > 0 && a->sub_partitions > 0 && a->warp_alloc_granularity > 0 &&
           a->smem_per_sm > 0 && a->smem_per_block > 0 && a->smem_alloc_unit > 0;
}

static OccStatus plan_kernel(const ArchLimits *arch, const KernelResources *k,
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
    p->max_warps = arch_max_warps_per_sm(arch);
    p->barrier_blocks = barriers_limit(arch, k);
    p->virtual_blocks = virtual_resources_limit(arch, k);
    return plan_shared_memory(p, dynamic_smem);
}

/* The block-size-dependent half of the calculation. */
static void evaluate(const OccPlan *p, int block_size, OccResult *r)
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

    /* Unrolled: these two loops are half the time of a block size. */
    int active = INT_MAX;
#pragma GCC unroll 8
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        active = min_int(active, limit[i]);
    unsigned limited_by = 0;
#pragma GCC unroll 8
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (limit[i] == active)
            limited_by |= 1u << i;

    r->active_blocks = active;
    r->limited_by = limited_by;
    r->warps_per_block = warps;
    r->active_warps = active * warps;
    r->max_warps = p->max_warps;
    r->allocated_regs_per_block = regs > INT_MAX ? INT_MAX : (int)regs;
    r->allocated_smem_per_block = p->smem_allocated;
    r->smem_per_sm = p->smem_per_sm;
    r->partitioned_gc = gc;
}

OccStatus occ_active_blocks(const ArchLimits *arch, const KernelResources *k, int block_size,
                            uint64_t dynamic_smem, OccResult *out)
{
    OccPlan plan;
    if (!out || block_size <= 0)
        return OCC_ERR_INVALID_INPUT;
    OccStatus status = plan_kernel(arch, k, dynamic_smem, &plan);
    if (status == OCC_OK)
        evaluate(&plan, block_size, out);
    return status;
}

OccStatus occ_active_blocks_sizes(const ArchLimits *arch, const KernelResources *k,
                                  uint64_t dynamic_smem, const int *block_sizes, size_t n,
                                  OccResult *out)
{
    OccPlan plan;
    if (!out || (n > 0 && !block_sizes))
        return OCC_ERR_INVALID_INPUT;
    for (size_t i = 0; i < n; i++)
        if (block_sizes[i] <= 0)
            return OCC_ERR_INVALID_INPUT;
    OccStatus status = plan_kernel(arch, k, dynamic_smem, &plan);
    for (size_t i = 0; status == OCC_OK && i < n; i++)
        evaluate(&plan, block_sizes[i], &out[i]);
    return status;
}

/* The plan as internal.h's interface, for the installed API's plans
 * (public.c), which keep one across calls. */
OccStatus occ_plan_kernel(const ArchLimits *arch, const KernelResources *k, uint64_t dynamic_smem,
                          OccPlan *p)
{
    return plan_kernel(arch, k, dynamic_smem, p);
}

OccStatus occ_plan_dynamic_smem(OccPlan *p, uint64_t dynamic_smem)
{
    return plan_shared_memory(p, dynamic_smem);
}

void occ_plan_evaluate(const OccPlan *p, int block_size, OccResult *out)
{
    evaluate(p, block_size, out);
}

KernelResources occ_kernel_defaults(const ArchLimits *arch, int regs, uint64_t static_smem,
                                    bool optin)
{
    uint64_t limit = (uint64_t)(optin ? arch->smem_per_block_optin : arch->smem_per_block);
    KernelResources k = {
        .regs_per_thread = regs,
        .static_smem = static_smem,
        .barriers = 1,
        .smem_optin = optin,
        .max_dynamic_smem = static_smem < limit ? limit - static_smem : 0,
        .carveout = OCC_CARVEOUT_DEFAULT,
        .partitioned_gc = OCC_GC_OFF,
    };
    return k;
}
