/*
 * prune.c: whether one configuration of a tuning space can run on an
 * architecture, and if so how many CTAs an SM holds, or else the first
 * reason it cannot (occupancy.h, "pruning a tuning space").  The checks
 * come in the order a launch meets them: the block's size, the registers
 * a thread may use, shared memory per block (static, then with the
 * opt-in), the cluster, and last the engine's count of resident CTAs.
 * The words for people are the caller's (it knows the option names);
 * this file only classifies, so that silk-occ prune and the Python
 * module give the same verdicts.
 */
#include "occupancy.h"

#include <stddef.h>

static const char *const REASON_NAMES[] = {
    [OCC_PRUNE_FEASIBLE] = "feasible",
    [OCC_PRUNE_EMPTY_BLOCK] = "empty_block",
    [OCC_PRUNE_BLOCK_TOO_LARGE] = "block_too_large",
    [OCC_PRUNE_REGS_OVER_MAX] = "regs_over_max",
    [OCC_PRUNE_STATIC_SMEM_OVER_LIMIT] = "static_smem_over_limit",
    [OCC_PRUNE_SMEM_OVER_OPTIN] = "smem_over_optin",
    [OCC_PRUNE_CLUSTER_NOT_RESIDENT] = "cluster_not_resident",
    [OCC_PRUNE_NO_CTA_RESIDENT] = "no_cta_resident",
};

const char *occ_prune_reason_name(OccPruneReason reason)
{
    return (unsigned)reason < OCC_PRUNE_N_REASONS ? REASON_NAMES[reason] : "unknown";
}

/* The limits that need no engine: the first one c breaks, or FEASIBLE. */
static OccPruneReason check_limits(const ArchLimits *a, const OccPruneConfig *c)
{
    if (c->threads == 0)
        return OCC_PRUNE_EMPTY_BLOCK;
    if (c->threads > (uint64_t)a->max_threads_per_block)
        return OCC_PRUNE_BLOCK_TOO_LARGE;
    if (c->regs > (uint64_t)a->max_regs_per_thread)
        return OCC_PRUNE_REGS_OVER_MAX;
    if (c->static_smem > (uint64_t)a->smem_per_block)
        return OCC_PRUNE_STATIC_SMEM_OVER_LIMIT;
    /* Both below 2^31 now or the sum is over any table's limit. */
    if (c->dynamic_smem > (uint64_t)a->smem_per_block_optin ||
        c->static_smem + c->dynamic_smem > (uint64_t)a->smem_per_block_optin)
        return OCC_PRUNE_SMEM_OVER_OPTIN;
    if (c->cluster > 1 && (c->cluster > (uint64_t)occ_cluster_limit(a, true)))
        return OCC_PRUNE_CLUSTER_NOT_RESIDENT;
    return OCC_PRUNE_FEASIBLE;
}

OccStatus occ_prune_config(const ArchLimits *a, const OccPruneConfig *c, OccPruneVerdict *out)
{
    *out = (OccPruneVerdict){.reason = check_limits(a, c)};
    if (out->reason != OCC_PRUNE_FEASIBLE)
        return OCC_OK;
    KernelResources k = occ_kernel_defaults(a, (int)c->regs, c->static_smem, true);
    OccStatus status = occ_active_blocks(a, &k, (int)c->threads, c->dynamic_smem, &out->result);
    if (status != OCC_OK)
        return status;
    out->figures = occ_figures_nvidia(&out->result);
    /* A cluster's CTAs are resident together on one GPC, each on an SM
     * that has room: none resident per SM is none resident at all. */
    if (out->result.active_blocks == 0)
        out->reason = c->cluster > 1 ? OCC_PRUNE_CLUSTER_NOT_RESIDENT : OCC_PRUNE_NO_CTA_RESIDENT;
    return OCC_OK;
}
