/*
 * amd.h: the AMD half of libsilkocc: waves per SIMD of an AMDGPU kernel,
 * exactly as LLVM 19's AMDGPU backend computes its "Occupancy [waves/SIMD]"
 * remark (-pass-remarks-analysis=kernel-resource-usage), with each limit
 * named, the workgroups resident per CU (per WGP on RDNA), the next step,
 * and a launch's waves on a product.
 *
 * The rules follow LLVM's GCNSubtarget::computeOccupancy and the
 * AMDGPU::IsaInfo functions it calls (AMDGPUBaseInfo.cpp); every number
 * they use that differs between targets is a column of
 * arch-tables/amd-targets.csv, not code.  docs/amd-occupancy.md gives the
 * rules in words.
 */
#ifndef SILK_OCCUPANCY_AMD_H
#define SILK_OCCUPANCY_AMD_H

#include "occupancy.h"

/* ---- tables --------------------------------------------------------------- */

/* AMD_MAX_ARCH_VGPRS: IsaInfo::getAddressableNumArchVGPRs (256 on every
 * target); the same bound holds for AGPRs. */
enum { AMD_MAX_SGPR_STEPS = 8, AMD_MAX_ARCH_VGPRS = 256 };

typedef enum AmdAgprFile { AMD_AGPR_NONE, AMD_AGPR_SEPARATE, AMD_AGPR_UNIFIED } AmdAgprFile;

/* One step of the SGPR rule: up to max_sgprs SGPRs (INT_MAX: any), waves. */
typedef struct AmdSgprStep {
    int max_sgprs, waves;
} AmdSgprStep;

/* One target: the columns of amd-targets.csv (amd_target_columns.def). */
typedef struct AmdTarget {
    char gfx[OCC_NAME_MAX];
    char family[OCC_NAME_MAX];
    char aliases[OCC_ALIASES_MAX];
    int wave_size;
    char occupancy_unit[16]; /* "CU" or "WGP" */
    int cus_per_unit;
    int simds_per_unit;
    int max_waves_per_simd;
    int max_workgroup_size;
    int max_workgroup_barriers;
    int vgprs_per_simd;
    int vgpr_alloc_granule;
    int addressable_vgprs;
    AmdAgprFile agpr_file;
    int agpr_align;
    AmdSgprStep sgpr_waves[AMD_MAX_SGPR_STEPS];
    int n_sgpr_waves; /* 0: SGPRs do not limit */
    int sgprs_per_simd;
    int sgpr_alloc_granule;
    int addressable_sgprs;
    int trap_sgprs;
    int lds_per_unit;
    int lds_per_workgroup;
} AmdTarget;

typedef struct AmdProduct {
    char id[OCC_NAME_MAX];
    char name[OCC_NAME_MAX];
    char aliases[OCC_ALIASES_MAX];
    char gfx[OCC_NAME_MAX];
    int compute_units;
    int memory_gib;
} AmdProduct;

typedef struct AmdTable {
    AmdTarget *targets;
    size_t n_targets;
    AmdProduct *products;
    size_t n_products;
} AmdTable;

/* The tables compiled into the library.  0, or -1 with *err. */
int amd_table_load_builtin(AmdTable *table, OccError *err);

/* Add or override rows from CSV text (either table: a header with an "id"
 * column is the product table).  A known key overrides its row and may
 * leave cells empty; a new row gives every column but the text ones.
 * Errors name origin, line and field; the table is unchanged on error. */
int amd_table_load_text(AmdTable *table, const char *text, size_t len, const char *origin,
                        OccError *err);
int amd_table_load_file(AmdTable *table, const char *path, OccError *err);

void amd_table_free(AmdTable *table);

/* By gfx name or alias, case-insensitive ("gfx942", "cdna3"); NULL if unknown. */
const AmdTarget *amd_table_find(const AmdTable *table, const char *name);
const AmdProduct *amd_table_find_product(const AmdTable *table, const char *name);
const AmdTarget *amd_table_product_target(const AmdTable *table, const AmdProduct *gpu);

/* Occupancy units (CUs, or WGPs) of a product on its target. */
int amd_product_units(const AmdTarget *target, const AmdProduct *gpu);

/* ---- the calculation ------------------------------------------------------ */

typedef enum AmdLimiter {
#define AMD_LIMITER(e, json, what) AMD_LIMITER_##e,
#include "amd_limiters.def"
#undef AMD_LIMITER
    AMD_N_LIMITERS
} AmdLimiter;

const char *amd_limiter_name(AmdLimiter limiter); /* "vgprs" */
const char *amd_limiter_what(AmdLimiter limiter); /* "VGPRs" */

/* What a compiled kernel uses, as LLVM reports it (the remark, or the code
 * object's .vgpr_count, .agpr_count, .sgpr_count, .group_segment_fixed_size),
 * and its attributes. */
typedef struct AmdKernel {
    int vgprs;     /* architected VGPRs */
    int agprs;     /* accumulation VGPRs (0 on targets without them) */
    int sgprs;     /* SGPRs, with VCC, FLAT_SCRATCH and XNACK_MASK counted */
    uint64_t lds;  /* bytes per workgroup */
    int flat_workgroup_max; /* amdgpu-flat-work-group-size's maximum; 0: the target's */
    int waves_per_eu_min;   /* amdgpu-waves-per-eu; 0: not given */
    int waves_per_eu_max;   /* 0: not given (or only the minimum) */
} AmdKernel;

typedef struct AmdResult {
    int waves_per_simd;            /* LLVM's Occupancy [waves/SIMD] */
    int max_waves_per_simd;
    int limit[AMD_N_LIMITERS];     /* waves per SIMD each allows; INT_MAX: none */
    unsigned limited_by;           /* bit (1u << AmdLimiter) per binding limit */
    int waves_per_workgroup;
    int workgroups_per_unit;       /* resident workgroups per CU (WGP on RDNA) */
    int allocated_vgprs;           /* per lane: VGPRs and AGPRs at the granule */
    int waves_per_eu_max;          /* the attribute's maximum as LLVM takes it */
} AmdResult;

static inline double amd_occupancy(const AmdResult *r)
{
    return r->max_waves_per_simd ? (double)r->waves_per_simd / r->max_waves_per_simd : 0.0;
}

/* The VGPRs a wave allocates from the per-lane register file before the
 * granule: VGPRs and AGPRs combined as the target's file does. */
int amd_combined_vgprs(const AmdTarget *t, int vgprs, int agprs);

/* Whether LLVM takes a kernel's amdgpu-waves-per-eu, or why it ignores it
 * (AMDGPUSubtarget::getWavesPerEU: then the target's 1 to
 * max_waves_per_simd apply); *implied_min is the waves per SIMD that the
 * largest workgroup (flat_workgroup_max) needs. */
typedef enum AmdWavesPerEu {
    AMD_WPE_NOT_GIVEN,
    AMD_WPE_TAKEN,
    AMD_WPE_MIN_ABOVE_MAX,
    AMD_WPE_MAX_ABOVE_SLOTS,
    AMD_WPE_MIN_BELOW_WORKGROUP,
} AmdWavesPerEu;

AmdWavesPerEu amd_waves_per_eu(const AmdTarget *t, const AmdKernel *k, int *implied_min);

/* Waves per SIMD for workgroups of `threads` work-items.  OCC_ERR_INVALID_INPUT
 * for a size or count the target cannot run (threads above the workgroup
 * limit or the kernel's flat-work-group-size, registers above the
 * addressable ones); OCC_ERR_DOES_NOT_FIT when the LDS is above the
 * workgroup limit.  *out is meaningful only on OCC_OK. */
OccStatus amd_occupancy_calc(const AmdTarget *t, const AmdKernel *k, int threads,
                             AmdResult *out);

/* How far a kernel is from one more wave per SIMD.  -1: no such change. */
typedef struct AmdNextStep {
    int vgprs_to_cut;      /* VGPRs (or AGPRs) per lane to drop */
    int vgprs_gained_waves; /* waves per SIMD after that cut */
    int vgprs_slack;       /* VGPRs that may be added without losing a wave */
    int sgprs_to_cut;
    int sgprs_gained_waves;
    int64_t lds_to_cut;    /* bytes per workgroup */
    int lds_gained_waves;
    int64_t lds_slack;
} AmdNextStep;

OccStatus amd_next_step(const AmdTarget *t, const AmdKernel *k, int threads, AmdNextStep *out);

/* The AMD engine's answer in the one shape of occupancy.h. */
OccFigures occ_figures_amd(const AmdResult *r);

#endif
