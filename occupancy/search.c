/*
 * search.c: questions answered by running the calculation many times: the
 * block size of maximum occupancy, the dynamic shared memory that still
 * lets N CTAs reside, and how far a kernel is from the next CTA per SM.
 */
#include "internal.h"

#include <limits.h>

static int min_int(int a, int b) { return a < b ? a : b; }

/* Block sizes are tried from the largest down, one warp at a time; a size
 * wins only with strictly more resident threads, so among equals the
 * largest stays.  The search stops once the SM is full. */
OccStatus occ_best_block_size(const ArchLimits *arch, const KernelResources *k,
                              OccDynSmemFn dyn_fn, void *context, uint64_t dynamic_smem,
                              int sm_count, OccBlockSizeChoice *out)
{
    if (!arch || !k || !out || arch->warp_size <= 0)
        return OCC_ERR_INVALID_INPUT;
    int limit = arch->max_threads_per_block;
    if (k->max_threads_per_block > 0)
        limit = min_int(limit, k->max_threads_per_block);
    int granularity = arch->warp_size;
    int aligned = (limit + granularity - 1) / granularity * granularity;

    OccBlockSizeChoice best = {0};
    long best_threads = 0;
    for (int size = aligned; size > 0; size -= granularity) {
        int block = min_int(limit, size);
        uint64_t dyn = dyn_fn ? dyn_fn(block, context) : dynamic_smem;
        OccResult r;
        OccStatus status = occ_active_blocks(arch, k, block, dyn, &r);
        if (status != OCC_OK)
            return status;
        long threads = (long)block * r.active_blocks;
        if (threads > best_threads) {
            best.block_size = block;
            best.blocks_per_sm = r.active_blocks;
            best_threads = threads;
        }
        if (best_threads == arch->max_threads_per_sm)
            break;
    }
    best.min_grid = best.blocks_per_sm * (sm_count > 0 ? sm_count : 1);
    *out = best;
    return OCC_OK;
}

/* The SM's shared memory is shared evenly by the CTAs; a single CTA may take
 * the whole per-CTA limit whatever the carveout preference. */
OccStatus occ_available_dynamic_smem(const ArchLimits *arch, const KernelResources *k,
                                     int num_blocks, int block_size, uint64_t *bytes)
{
    if (!arch || !k || !bytes || num_blocks <= 0)
        return OCC_ERR_INVALID_INPUT;
    OccResult r;
    OccStatus status = occ_active_blocks(arch, k, block_size, 0, &r);
    if (status != OCC_OK)
        return status;
    if (r.active_blocks < num_blocks)
        return OCC_ERR_DOES_NOT_FIT;

    uint64_t per_block = (uint64_t)arch->smem_per_block;
    if (k->smem_optin && (uint64_t)arch->smem_per_sm > per_block)
        per_block = (uint64_t)arch->smem_per_block_optin;
    per_block += (uint64_t)arch->reserved_smem_per_block;

    uint64_t per_sm = per_block;
    if (num_blocks > 1) {
        /* Several CTAs share the carveout the kernel prefers; a zero
         * carveout means the smallest non-zero one. */
        status = occ_preferred_smem_per_sm(arch, k->carveout, &per_sm);
        if (status != OCC_OK)
            return status;
        if (per_sm == 0 && !occ_align_to_carveout(arch, 1, &per_sm))
            return OCC_ERR_INVALID_INPUT;
    }
    uint64_t unit = (uint64_t)arch->smem_alloc_unit;
    uint64_t available = per_sm / (uint64_t)num_blocks / unit * unit;
    if (available > per_block)
        available = per_block;
    available = available > k->static_smem ? available - k->static_smem : 0;
    if (available > k->max_dynamic_smem)
        available = k->max_dynamic_smem;
    *bytes = available;
    return OCC_OK;
}
