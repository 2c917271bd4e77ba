/*
 * advice.c: how far a kernel is from one more resident CTA per SM, and how
 * much it may grow before it loses one.
 *
 * Registers are searched one per thread at a time (at most a few hundred
 * steps); shared memory one allocation unit at a time, since allocation
 * rounds every size within a unit to the same footprint.  Both are plain
 * scans rather than bisection because the carveout rule makes the CTA count
 * not quite monotonic in shared memory.
 *
 * The scans are bounded by a step count, not by the table's values: a real
 * GPU has under 2,000 allocation units per CTA (227 KiB in 128-byte
 * units), but a legal table row may have a billion (1 GiB in 1-byte
 * units).  Past MAX_SMEM_STEPS units the scan strides several at a time,
 * and its answer is then exact to within a stride.
 */
#include "occupancy.h"

enum { MAX_SMEM_STEPS = 4096 };

static int blocks_with(const ArchLimits *arch, const KernelResources *k, int block_size,
                       uint64_t dynamic_smem)
{
    OccResult r;
    if (occ_active_blocks(arch, k, block_size, dynamic_smem, &r) != OCC_OK)
        return -1;
    return r.active_blocks;
}

static void register_steps(const ArchLimits *arch, const KernelResources *k, int block_size,
                           uint64_t dynamic_smem, int now, OccNextStep *out)
{
    KernelResources trial = *k;
    out->regs_to_cut = -1;
    out->regs_gained_blocks = -1;
    for (int regs = k->regs_per_thread - 1; regs >= 0; regs--) {
        trial.regs_per_thread = regs;
        int blocks = blocks_with(arch, &trial, block_size, dynamic_smem);
        if (blocks > now) {
            out->regs_to_cut = k->regs_per_thread - regs;
            out->regs_gained_blocks = blocks;
            break;
        }
    }
    out->regs_slack = 0;
    for (int regs = k->regs_per_thread + 1; regs <= arch->max_regs_per_thread; regs++) {
        trial.regs_per_thread = regs;
        if (blocks_with(arch, &trial, block_size, dynamic_smem) < now)
            break;
        out->regs_slack = regs - k->regs_per_thread;
    }
}

/* Shared memory is varied as one total per CTA: a cut comes out of the
 * dynamic part first, growth goes to the dynamic part. */
static int blocks_with_total(const ArchLimits *arch, const KernelResources *k, int block_size,
                             uint64_t total)
{
    KernelResources trial = *k;
    if (total < trial.static_smem)
        trial.static_smem = total;
    return blocks_with(arch, &trial, block_size, total - trial.static_smem);
}

static void smem_steps(const ArchLimits *arch, const KernelResources *k, int block_size,
                       uint64_t dynamic_smem, int now, OccNextStep *out)
{
    uint64_t unit = (uint64_t)arch->smem_alloc_unit;
    uint64_t reserved = (uint64_t)arch->reserved_smem_per_block;
    uint64_t total = k->static_smem + dynamic_smem;
    /* The largest total in allocation class c (footprint c units). */
    uint64_t first_class = (total + reserved + unit - 1) / unit;

    uint64_t ceiling = (uint64_t)arch->smem_per_block_optin + reserved;
    uint64_t stride = (ceiling / unit + MAX_SMEM_STEPS) / MAX_SMEM_STEPS;

    out->smem_to_cut = -1;
    out->smem_gained_blocks = -1;
    for (uint64_t c = first_class; c > 0 && total > 0;) {
        c = c > stride ? c - stride : 0;
        uint64_t candidate = c * unit > reserved ? c * unit - reserved : 0;
        if (candidate >= total)
            continue;
        int blocks = blocks_with_total(arch, k, block_size, candidate);
        if (blocks > now) {
            out->smem_to_cut = (int64_t)(total - candidate);
            out->smem_gained_blocks = blocks;
            break;
        }
        if (candidate == 0)
            break;
    }
    out->smem_slack = 0;
    for (uint64_t c = first_class; c * unit <= ceiling; c += stride) {
        uint64_t candidate = c * unit - reserved;
        if (candidate < total)
            continue;
        if (blocks_with_total(arch, k, block_size, candidate) < now)
            break;
        out->smem_slack = (int64_t)(candidate - total);
    }
}

OccStatus occ_next_step(const ArchLimits *arch, const KernelResources *k, int block_size,
                        uint64_t dynamic_smem, OccNextStep *out)
{
    OccResult r;
    OccStatus status = occ_active_blocks(arch, k, block_size, dynamic_smem, &r);
    if (status != OCC_OK)
        return status;
    register_steps(arch, k, block_size, dynamic_smem, r.active_blocks, out);
    smem_steps(arch, k, block_size, dynamic_smem, r.active_blocks, out);
    return OCC_OK;
}
