/* internal.h: helpers shared by the engine's files, not part of its API. */
#ifndef SILK_OCCUPANCY_INTERNAL_H
#define SILK_OCCUPANCY_INTERNAL_H

#include "occupancy.h"

/* The shared memory per SM the kernel's carveout preference asks for, in
 * bytes: a percentage of the maximum, rounded up to a supported carveout. */
OccStatus occ_preferred_smem_per_sm(const ArchLimits *arch, int carveout, uint64_t *bytes);

/* The smallest supported carveout that holds `bytes`; false when none does. */
bool occ_align_to_carveout(const ArchLimits *arch, uint64_t bytes, uint64_t *carveout);

/* Resident CTAs that shared memory alone allows (*blocks) and the carveout
 * they are placed in (*per_sm), for a kernel occ_active_blocks accepts. */
OccStatus occ_smem_blocks(const ArchLimits *arch, const KernelResources *k,
                          uint64_t dynamic_smem, int *blocks, uint64_t *per_sm);

/* What a kernel needs whatever its block size (calc.c): the kernel's share
 * of the calculation, done once and then evaluated for many block sizes. */
typedef struct OccPlan {
    const ArchLimits *arch;
    const KernelResources *kernel; /* the plan reads it: it must outlive the plan */
    OccPartitionedGc gc;           /* as requested, where the SM supports it */
    uint64_t regs_per_warp;
    int warps_per_partition;       /* warps whose registers fit a sub-partition */
    int max_warps;
    int smem_blocks;
    uint64_t smem_allocated, smem_per_sm;
    int barrier_blocks, virtual_blocks;
} OccPlan;

/* The registers and warps limits of an architecture for kernels without
 * partitioned caching, by registers per thread (0 .. n_regs-1) and warps
 * per CTA (1 .. n_warps): calc_plan.h says why.  reg_blocks NULL: not
 * built (a row whose register limits are too large to tabulate). */
typedef struct OccArchTables {
    int n_regs, n_warps, max_threads;
    int max_warps;    /* the SM's warp slots */
    int *reg_blocks;  /* [regs * n_warps + warps - 1] */
    int *warp_blocks; /* [warps - 1] */
} OccArchTables;

/* Builds the tables from the engine's own functions; false (and *t empty)
 * when the row is unusable or memory runs out. */
bool occ_arch_tables_build(const ArchLimits *arch, OccArchTables *t);
void occ_arch_tables_free(OccArchTables *t);

/* Plans `k` on `arch` with `dynamic_smem` bytes per CTA; OCC_ERR_INVALID_INPUT
 * for arguments occ_active_blocks refuses. */
OccStatus occ_plan_kernel(const ArchLimits *arch, const KernelResources *k, uint64_t dynamic_smem,
                          OccPlan *p);
/* Re-plans only the shared-memory part, for another dynamic size. */
OccStatus occ_plan_dynamic_smem(OccPlan *p, uint64_t dynamic_smem);
/* occ_active_blocks's answer for a planned kernel; block_size > 0. */
void occ_plan_evaluate(const OccPlan *p, int block_size, OccResult *out);

#endif
