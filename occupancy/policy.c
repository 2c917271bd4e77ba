/*
 * policy.c: the one advice policy of silk-occ.  `silk-occ report`,
 * `silk-occ calc` and silkc's -Wocc-limit all ask these functions which
 * block size to advise and which register cap, so that a warning and a
 * report can never disagree about the same kernel.
 *
 * The block size follows the launch-configuration guide: the highest
 * occupancy; among sizes of equal occupancy prefer 128 or 256 ("fewer
 * blocks to schedule, simpler grid math"), then the one with the smaller
 * tail: the share of CTA slots its waves leave idle on the GPU (known only
 * with the work and the GPU's SM count).  What is still tied goes to 256
 * before 128, and otherwise to the smaller size, which keeps more CTAs
 * resident to hide latency.  (Sizes of equal occupancy hold the same
 * threads per wave, so the tail parts them only through the rounding of
 * the last CTA: between 256 and 128 it never favours 128.)
 *
 * Across several targets (one kernel built for sm_80 and sm_90) the size
 * is the one whose lowest occupancy over the targets is highest, the same
 * tie rule after it on the worst of the targets' tails: one piece of
 * advice that a build for every target can follow, where each target's
 * own optimum may differ (occ_advise_block_size_across).
 *
 * The register cap is the one that gains a resident CTA at the advised
 * size (occ_next_step), never below the 16 registers that .maxnreg and
 * __launch_bounds__ can ask of ptxas.  Whether ptxas spills at that cap is
 * the caller's to measure: the engine knows no compiler.
 */
#include "occupancy.h"

/* 0 for 256, 1 for 128, 2 for every other size: the guide's defaults
 * first, and 256 before 128 as both programs have always advised. */
static int default_rank(int threads)
{
    return threads == 256 ? 0 : threads == 128 ? 1 : 2;
}

/* Whether candidate a is better advice than b at equal occupancy: the
 * guide's tie rule, shared by the advice on one target and across several. */
static bool better_tie(const OccCandidate *a, const OccCandidate *b)
{
    bool a_default = default_rank(a->threads) < 2, b_default = default_rank(b->threads) < 2;
    if (a_default != b_default)
        return a_default;
    /* Exact: each fraction is one correctly rounded division of integers. */
    if (a->idle_fraction != b->idle_fraction)
        return a->idle_fraction < b->idle_fraction;
    if (default_rank(a->threads) != default_rank(b->threads))
        return default_rank(a->threads) < default_rank(b->threads);
    return a->threads < b->threads;
}

/* Whether candidate a is better advice than b. */
static bool better(const OccCandidate *a, const OccCandidate *b)
{
    if (a->active_warps != b->active_warps)
        return a->active_warps > b->active_warps;
    return better_tie(a, b);
}

int occ_advise_block_size(const OccCandidate *candidates, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        const OccCandidate *c = &candidates[i];
        if (c->active_warps > 0 && (best < 0 || better(c, &candidates[best])))
            best = (int)i;
    }
    return best;
}

/* Size i over all targets: the lowest occupancy as a fraction
 * warps/max_warps, the worst tail, and whether it runs on every target. */
typedef struct Across {
    OccCandidate worst; /* threads, the worst tail; active_warps unused */
    int64_t warps, max_warps;
    bool runs;
} Across;

static Across across_size(const OccTargetCandidates *targets, size_t n_targets, size_t i)
{
    Across a = {.worst = targets[0].candidates[i], .warps = 0, .max_warps = 1, .runs = true};
    for (size_t t = 0; t < n_targets; t++) {
        const OccCandidate *c = &targets[t].candidates[i];
        int64_t w = c->active_warps, m = targets[t].max_warps;
        if (w <= 0 || m <= 0) {
            a.runs = false;
            return a;
        }
        /* exact: w/m < a.warps/a.max_warps without a division */
        if (t == 0 || w * a.max_warps < a.warps * m) {
            a.warps = w;
            a.max_warps = m;
        }
        if (c->idle_fraction > a.worst.idle_fraction)
            a.worst.idle_fraction = c->idle_fraction;
    }
    return a;
}

/* The highest lowest occupancy first; the guide's tie rule after it, on
 * the worst tail over the targets. */
static bool better_across(const Across *a, const Across *b)
{
    int64_t left = a->warps * b->max_warps, right = b->warps * a->max_warps;
    if (left != right)
        return left > right;
    return better_tie(&a->worst, &b->worst);
}

int occ_advise_block_size_across(const OccTargetCandidates *targets, size_t n_targets,
                                 size_t n_sizes)
{
    int best = -1;
    Across best_a = {0};
    for (size_t i = 0; n_targets > 0 && i < n_sizes; i++) {
        Across a = across_size(targets, n_targets, i);
        if (a.runs && (best < 0 || better_across(&a, &best_a))) {
            best = (int)i;
            best_a = a;
        }
    }
    return best;
}

double occ_lowest_occupancy(const OccTargetCandidates *targets, size_t n_targets, size_t i)
{
    if (n_targets == 0)
        return 0;
    Across a = across_size(targets, n_targets, i);
    return a.runs ? (double)a.warps / (double)a.max_warps : 0;
}

bool occ_advise_register_cap(const ArchLimits *arch, const KernelResources *kernel,
                             int block_size, uint64_t dynamic_smem, OccCapAdvice *out)
{
    OccResult now;
    OccNextStep step;
    *out = (OccCapAdvice){0};
    if (occ_active_blocks(arch, kernel, block_size, dynamic_smem, &now) != OCC_OK ||
        now.active_blocks == 0 || !(now.limited_by & (1u << OCC_LIMITER_REGISTERS)) ||
        occ_next_step(arch, kernel, block_size, dynamic_smem, &step) != OCC_OK ||
        step.regs_to_cut <= 0 || step.regs_gained_blocks <= now.active_blocks)
        return false;
    int cap = kernel->regs_per_thread - step.regs_to_cut;
    if (cap < OCC_MIN_REGISTER_CAP)
        return false;
    out->cap = cap;
    out->min_blocks = step.regs_gained_blocks;
    out->occupancy = (double)out->min_blocks * now.warps_per_block / now.max_warps;
    return true;
}

bool occ_cap_is_safe(int cap, int registers_at_cap, int spill_stores, int spill_loads)
{
    return registers_at_cap <= cap && spill_stores == 0 && spill_loads == 0;
}

uint64_t occ_persistent_grid(int sm_count, int active_blocks)
{
    if (sm_count <= 0 || active_blocks <= 0)
        return 0;
    return (uint64_t)sm_count * (uint64_t)active_blocks;
}

/* Every whole-warp size up to the kernel's and the architecture's limit,
 * as the runtime's search tries them, one at a time: a hostile table (a
 * warp of one thread) may make a thousand sizes. */
OccStatus occ_advise_block_size_all(const ArchLimits *arch, const KernelResources *kernel,
                                    uint64_t dynamic_smem, uint64_t work, int sm_count,
                                    OccBlockSizeChoice *out)
{
    if (!arch || !kernel || !out || arch->warp_size <= 0)
        return OCC_ERR_INVALID_INPUT;
    int limit = arch->max_threads_per_block;
    if (kernel->max_threads_per_block > 0 && kernel->max_threads_per_block < limit)
        limit = kernel->max_threads_per_block;
    OccCandidate best = {0};
    *out = (OccBlockSizeChoice){0};
    for (int size = arch->warp_size; size <= limit; size += arch->warp_size) {
        OccResult r;
        OccWaves w;
        OccStatus status = occ_active_blocks(arch, kernel, size, dynamic_smem, &r);
        if (status != OCC_OK)
            return status;
        bool waves = occ_waves(work, size, r.active_blocks, sm_count, &w);
        OccCandidate c = {size, r.active_blocks, r.active_warps, waves ? w.idle_fraction : 0};
        if (c.active_warps > 0 && (best.threads == 0 || better(&c, &best)))
            best = c;
    }
    out->block_size = best.threads;
    out->blocks_per_sm = best.active_blocks;
    out->min_grid = best.active_blocks * (sm_count > 0 ? sm_count : 1);
    return OCC_OK;
}
