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

int arch_max_warps_per_sm(const ArchLimits *arch)
{
    return arch->max_threads_per_sm / arch->warp_size;
}

static uint64_t round_up(uint64_t x, uint64_t unit) { return (x + unit - 1) / unit * unit; }
static int div_round_up(int x, int y) { return (x + y - 1) / y; }
static int min_int(int a, int b) { return a < b ? a : b; }

bool occ_align_to_carveout(const ArchLimits *arch, uint64_t bytes, uint64_t *carveout)
{
    for (int i = 0; i < arch->n_smem_configs; i++) {
        if (bytes <= (uint64_t)arch->smem_configs[i]) {
            *carveout = (uint64_t)arch->smem_configs[i];
            return true;
        }
    }
    return false;
}

OccStatus occ_preferred_smem_per_sm(const ArchLimits *arch, int carveout, uint64_t *bytes)
{
    if (carveout < OCC_CARVEOUT_DEFAULT || carveout > 100)
        return OCC_ERR_INVALID_INPUT;
    if (arch->n_smem_configs == 0) {
        *bytes = (uint64_t)arch->smem_per_sm;
        return OCC_OK;
    }
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

static int warps_limit(const ArchLimits *arch, OccPartitionedGc gc, int block_size,
                       int warps_per_block)
{
    if (block_size > arch->max_threads_per_block)
        return 0;
    int max_warps = arch_max_warps_per_sm(arch);
    if (gc != OCC_GC_OFF) /* a CTA lives in half an SM */
        return max_warps / 2 / warps_per_block * 2;
    return max_warps / warps_per_block;
}

/* Registers, on an SM of `partitions` sub-partitions whose per-CTA check
 * counts warps in groups of `granularity`.  May switch partitioned caching
 * off, as the hardware does when a CTA does not fit with it on. */
static int registers_limit(const ArchLimits *arch, const KernelResources *k, int warps_per_block,
                           int partitions, int granularity, OccPartitionedGc *gc,
                           int *allocated_per_block)
{
    int regs_per_warp = (int)round_up((uint64_t)k->regs_per_thread * (uint64_t)arch->warp_size,
                                      (uint64_t)arch->reg_alloc_unit);
    int per_block = regs_per_warp * warps_per_block;
    /* The hardware checks the per-CTA limit as if the CTA's warps were
     * spread over all sub-partitions at once. */
    int assumed_per_block = regs_per_warp * (int)round_up((uint64_t)warps_per_block,
                                                          (uint64_t)granularity);
    *allocated_per_block = per_block;

    if (arch->regs_per_block < assumed_per_block || arch->regs_per_block < per_block ||
        k->regs_per_thread > arch->reg_alloc_limit_per_thread)
        return 0;
    if (regs_per_warp == 0)
        return INT_MAX;

    int warps_per_partition = arch->regs_per_sm / partitions / regs_per_warp;
    int blocks = 0;
    if (*gc != OCC_GC_OFF)
        blocks = warps_per_partition * (partitions / 2) / warps_per_block * 2;
    if (blocks == 0 && *gc != OCC_GC_ON_STRICT) {
        *gc = OCC_GC_OFF;
        blocks = warps_per_partition * partitions / warps_per_block;
    }
    return blocks;
}

/* Registers, including the family rule: code for an SM with few
 * sub-partitions must also fit its siblings with more (cc 6.0 vs 6.x). */
static int registers_limit_family(const ArchLimits *arch, const KernelResources *k,
                                  int warps_per_block, OccPartitionedGc *gc, int *allocated)
{
    int blocks = registers_limit(arch, k, warps_per_block, arch->sub_partitions,
                                 arch->warp_alloc_granularity, gc, allocated);
    int sibling = arch->compat_sub_partitions;
    if (blocks == 0 || sibling == 0)
        return blocks;
    OccPartitionedGc sibling_gc = *gc;
    int unused;
    if (registers_limit(arch, k, warps_per_block, sibling, sibling, &sibling_gc, &unused) == 0)
        return 0;
    return blocks;
}

static OccStatus shared_memory_limit(const ArchLimits *arch, const KernelResources *k,
                                     uint64_t dynamic_smem, int *blocks, OccResult *out)
{
    uint64_t preferred;
    OccStatus status = occ_preferred_smem_per_sm(arch, k->carveout, &preferred);
    if (status != OCC_OK)
        return status;

    uint64_t static_part = k->static_smem + (uint64_t)arch->reserved_smem_per_block;
    uint64_t allocated = round_up(static_part + dynamic_smem, (uint64_t)arch->smem_alloc_unit);
    uint64_t limit = smem_limit_per_block(arch, k, static_part + k->max_dynamic_smem);
    out->allocated_smem_per_block = allocated;
    out->smem_per_sm = preferred;

    if ((k->smem_optin && dynamic_smem > k->max_dynamic_smem) || allocated > limit) {
        *blocks = 0;
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
    out->smem_per_sm = per_sm;
    uint64_t n = allocated ? per_sm / allocated : (uint64_t)INT_MAX;
    *blocks = n > (uint64_t)INT_MAX ? INT_MAX : (int)n;
    return OCC_OK;
}

static int virtual_resources_limit(const ArchLimits *arch, const KernelResources *k)
{
    if (arch->virtual_resources_per_sm <= 0 || k->virtual_resources <= 0)
        return INT_MAX;
    return arch->virtual_resources_per_sm / k->virtual_resources;
}

/* Barriers are shared by the CTAs an SM can hold; they limit only on
 * architectures whose table gives a per-SM count. */
static int barriers_limit(const ArchLimits *arch, const KernelResources *k)
{
    if (arch->barriers_per_sm <= 0 || k->barriers <= 0)
        return INT_MAX;
    return arch->barriers_per_sm / k->barriers;
}

static bool arch_is_usable(const ArchLimits *a)
{
    return a->warp_size > 0 && a->max_threads_per_block > 0 && a->max_threads_per_sm > 0 &&
           a->max_blocks_per_sm > 0 && a->regs_per_sm > 0 && a->regs_per_block > 0 &&
           a->reg_alloc_unit > 0 && a->sub_partitions > 0 && a->warp_alloc_granularity > 0 &&
           a->smem_per_sm > 0 && a->smem_per_block > 0 && a->smem_alloc_unit > 0;
}

OccStatus occ_active_blocks(const ArchLimits *arch, const KernelResources *k, int block_size,
                            uint64_t dynamic_smem, OccResult *out)
{
    if (!arch || !k || !out || block_size <= 0 || k->regs_per_thread < 0 ||
        k->regs_per_thread > (1 << 16) ||
        k->max_threads_per_block < 0 || !arch_is_usable(arch))
        return OCC_ERR_INVALID_INPUT;

    OccResult r = {0};
    int *limit = r.limit;
    OccPartitionedGc gc = arch->partitioned_gc ? k->partitioned_gc : OCC_GC_OFF;
    r.warps_per_block = div_round_up(block_size, arch->warp_size);

    limit[OCC_LIMIT_REGISTERS] =
        registers_limit_family(arch, k, r.warps_per_block, &gc, &r.allocated_regs_per_block);
    limit[OCC_LIMIT_WARPS] = warps_limit(arch, gc, block_size, r.warps_per_block);
    limit[OCC_LIMIT_BLOCKS] = arch->max_blocks_per_sm;
    OccStatus status = shared_memory_limit(arch, k, dynamic_smem, &limit[OCC_LIMIT_SHARED_MEMORY], &r);
    if (status != OCC_OK)
        return status;
    limit[OCC_LIMIT_VIRTUAL_RESOURCES] = virtual_resources_limit(arch, k);
    limit[OCC_LIMIT_BARRIERS] = barriers_limit(arch, k);

    r.active_blocks = INT_MAX;
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        r.active_blocks = min_int(r.active_blocks, limit[i]);
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (limit[i] == r.active_blocks)
            r.limited_by |= 1u << i;

    r.partitioned_gc = gc;
    r.max_warps = arch_max_warps_per_sm(arch);
    r.active_warps = r.active_blocks * r.warps_per_block;
    r.occupancy = (double)r.active_warps / r.max_warps;
    *out = r;
    return OCC_OK;
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
