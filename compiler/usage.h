/*
 * usage.h: what a compiled kernel uses on one target, whoever measured it,
 * and the occupancy engine's view of it.
 *
 * The figures come from a target's assembler (ptxas -v), from a binary
 * already built (a cubin's ELF), or from the compiler's own estimate when
 * no assembler is installed; UsageReport says which.  Everything past the
 * measuring (the occupancy warnings, the report, --resource-usage) reads
 * only this record, so it works the same for every target.
 */
#ifndef SILK_USAGE_H
#define SILK_USAGE_H

#include "occupancy.h"

#include <stdbool.h>

/* Where a report's figures came from. */
typedef enum UsageSource {
    USAGE_ASSEMBLER, /* the target's assembler measured the code (ptxas -v) */
    USAGE_BINARY,    /* read from a compiled binary (a cubin) */
    USAGE_ESTIMATE,  /* estimated from the IR: no assembler was found */
} UsageSource;

/* One entry function's resources.  Sizes are bytes (per thread for the
 * stack frame and spills, per CTA for shared memory). */
typedef struct KernelUsage {
    const char *name;  /* as the tool prints it: mangled, or demangled by old ptxas */
    int registers;     /* per thread */
    int spill_stores;  /* -1: unknown (a binary records none) */
    int spill_loads;
    int stack_frame;   /* local memory: the frame, or "lmem" before frames were reported */
    int static_smem;
    int const_bank0;   /* cmem[0]: parameters and compiler constants */
    int barriers;      /* named barriers; -1: the tool does not report them */
    int max_threads;   /* .maxntid if recorded, else 0 */
    bool estimated;    /* the figures are the compiler's estimate (USAGE_ESTIMATE) */

    /* AMD GPUs only, from the code object's AMDHSA metadata (all 0 on
     * NVIDIA).  There `registers` is .vgpr_count (architectural VGPRs;
     * on gfx90a and gfx942 the unified file's total, the architectural
     * ones rounded up to 4 plus the AGPRs: 12 for v4 and a3, llc-19),
     * `static_smem` .group_segment_fixed_size (LDS), `stack_frame`
     * .private_segment_fixed_size (scratch) and `max_threads`
     * .max_flat_workgroup_size; spill_stores/spill_loads are -1 (AMD
     * counts spilled registers, not bytes: the two fields below). */
    int wavefront_size; /* .wavefront_size: 32 or 64; 0 on NVIDIA */
    int sgprs;          /* .sgpr_count */
    int agprs;          /* .agpr_count (gfx90a, gfx942; else 0) */
    int vgpr_spills;    /* .vgpr_spill_count */
    int sgpr_spills;    /* .sgpr_spill_count */
} KernelUsage;

/* What one measuring of one module for one target gave, kernels in the
 * tool's order. */
typedef struct UsageReport {
    const char *arch;     /* the target ("sm_90"); NULL if a parsed text names none */
    KernelUsage *kernels;
    int n_kernels;
    UsageSource source;
    int exit_status;      /* the tool's, or a negative status of the tool's driver */
    int signal;           /* N when signal N ended the tool (exit_status 128 + N), else 0 */
    const char *errors;   /* the tool's own error text, verbatim, when it rejected
                           * the input (or its output could not be read); else NULL */
} UsageReport;

/* The kernel named `name` in a report; NULL if it has none. */
const KernelUsage *usage_kernel(const UsageReport *report, const char *name);

/* The occupancy engine's record of a kernel: occ_kernel_defaults with its
 * registers and static shared memory, its barrier count when reported
 * (else the engine's default of 1) and its .maxntid when known. */
KernelResources usage_resources(const KernelUsage *u, const ArchLimits *arch, bool optin);

#endif
