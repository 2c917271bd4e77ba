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
#include "calc_plan.h"

#include <stdlib.h>

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

int arch_max_warps_per_sm(const ArchLimits *arch) { return plan_max_warps(arch); }

bool occ_align_to_carveout(const ArchLimits *arch, uint64_t bytes, uint64_t *carveout)
{
    return plan_align_to_carveout(arch, bytes, carveout);
}

OccStatus occ_preferred_smem_per_sm(const ArchLimits *arch, int carveout, uint64_t *bytes)
{
    return plan_preferred_smem(arch, carveout, bytes);
}

int arch_barriers_per_sm(const ArchLimits *arch) { return plan_barriers_per_sm(arch); }

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

/* A table row with absurd register limits is not tabulated: the generic
 * path answers for it. */
enum { MAX_TABLE_REGS = 1024, MAX_TABLE_WARPS = 64 };

bool occ_arch_tables_build(const ArchLimits *arch, OccArchTables *t)
{
    *t = (OccArchTables){0};
    if (!arch_is_usable(arch) || arch->reg_alloc_limit_per_thread < 0 ||
        arch->reg_alloc_limit_per_thread >= MAX_TABLE_REGS)
        return false;
    int n_regs = arch->reg_alloc_limit_per_thread + 1;
    int n_warps = div_round_up(arch->max_threads_per_block, arch->warp_size);
    if (n_warps > MAX_TABLE_WARPS)
        return false;
    int *regs = malloc((size_t)n_regs * (size_t)n_warps * sizeof *regs);
    int *warps = malloc((size_t)n_warps * sizeof *warps);
    if (!regs || !warps) {
        free(regs);
        free(warps);
        return false;
    }
    for (int r = 0; r < n_regs; r++) {
        KernelResources k;
        OccPlan p;
        plan_kernel_defaults(arch, r, 0, false, &k);
        if (plan_kernel(arch, &k, 0, &p) != OCC_OK) {
            free(regs);
            free(warps);
            return false;
        }
        for (int w = 1; w <= n_warps; w++) {
            OccPartitionedGc gc = OCC_GC_OFF;
            regs[(size_t)r * (size_t)n_warps + (size_t)(w - 1)] = registers_limit_family(&p, w, &gc);
            if (r == 0)
                warps[w - 1] = warps_limit(&p, OCC_GC_OFF, 1, w);
        }
    }
    *t = (OccArchTables){.n_regs = n_regs, .n_warps = n_warps,
                         .max_threads = arch->max_threads_per_block,
                         .max_warps = arch_max_warps_per_sm(arch), .reg_blocks = regs,
                         .warp_blocks = warps};
    return true;
}

void occ_arch_tables_free(OccArchTables *t)
{
    free(t->reg_blocks);
    free(t->warp_blocks);
    *t = (OccArchTables){0};
}

KernelResources occ_kernel_defaults(const ArchLimits *arch, int regs, uint64_t static_smem,
                                    bool optin)
{
    KernelResources k;
    plan_kernel_defaults(arch, regs, static_smem, optin, &k);
    return k;
}
