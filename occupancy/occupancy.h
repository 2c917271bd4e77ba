/*
 * occupancy.h: libsilkocc, the occupancy engine of silk-occ.
 *
 * Given a GPU's limits (a row of the architecture tables, or properties read
 * from a device) and a kernel's resources, it computes how many CTAs of a
 * given size are resident on one SM, which resource limits them, and what a
 * launch of a given work size does on a product: waves, the fill of the last
 * wave, the persistent grid.  It gives the same answers as NVIDIA's
 * cuda_occupancy.h for every input that header accepts; the rules that
 * differ between architectures are columns of the tables, not code.
 *
 * The library does no I/O beyond reading table files, and knows nothing of
 * the Silk compiler.
 */
#ifndef SILK_OCCUPANCY_H
#define SILK_OCCUPANCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- architecture tables ------------------------------------------------ */

enum { OCC_MAX_SMEM_CONFIGS = 16, OCC_NAME_MAX = 64, OCC_ALIASES_MAX = 192 };

/* One compute capability: every limit the calculation needs.  Field names are
 * the CSV column names (occupancy/arch_columns.def); sizes are in bytes. */
typedef struct ArchLimits {
    int major, minor; /* the "cc" column */
    char family[OCC_NAME_MAX];
    char aliases[OCC_ALIASES_MAX];
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int regs_per_block;
    int max_regs_per_thread;
    int reg_alloc_limit_per_thread;
    int reg_alloc_unit;
    int warp_alloc_granularity;
    int sub_partitions;
    int compat_sub_partitions;
    int smem_per_sm;
    int smem_per_block;
    int smem_per_block_optin;
    int reserved_smem_per_block;
    int smem_alloc_unit;
    int smem_configs[OCC_MAX_SMEM_CONFIGS]; /* bytes, ascending */
    int n_smem_configs;                     /* 0: the SM's shared memory is fixed */
    int barriers_per_cta_slot; /* barriers per SM = this x max_blocks_per_sm */
    int virtual_resources_per_sm;
    int partitioned_gc;
    int max_grid_x, max_grid_y, max_grid_z;
    int max_cluster_size;             /* portable; 0: no thread-block clusters */
    int max_cluster_size_nonportable; /* 0: no larger size than the portable one */
} ArchLimits;

/* One named GPU product. */
typedef struct GpuProduct {
    char id[OCC_NAME_MAX];
    char name[OCC_NAME_MAX];
    char aliases[OCC_ALIASES_MAX];
    int major, minor;
    int sm_count;
    int memory_gib;
    int gpcs;         /* GPCs, where public; 0: not public */
} GpuProduct;

typedef struct ArchTable {
    ArchLimits *archs;
    size_t n_archs;
    GpuProduct *products;
    size_t n_products;
} ArchTable;

/* A table error: "FILE:LINE: field 'NAME': what is wrong". */
typedef struct OccError {
    char message[512];
} OccError;

/* Load the tables compiled into the library.  Returns 0, or -1 with *err. */
int arch_table_load_builtin(ArchTable *table, OccError *err);

/* Add or override rows from a CSV file (either table; the header row tells
 * which).  A row whose cc (or id) is already known overrides that row, and
 * may give only the columns it changes.  Returns 0, or -1 with *err naming
 * file, line and field; the table is unchanged on error. */
int arch_table_load_file(ArchTable *table, const char *path, OccError *err);

/* The same, from text in memory; `origin` names it in errors. */
int arch_table_load_text(ArchTable *table, const char *text, size_t len,
                         const char *origin, OccError *err);

void arch_table_free(ArchTable *table);

/* Look up a compute capability by any of its names ("9.0", "sm_90",
 * "sm_90a", "compute_90", "hopper"; case-insensitive). NULL if unknown. */
const ArchLimits *arch_table_find(const ArchTable *table, const char *name);

/* Look up a product by id or alias ("h100-sxm", "H100"). NULL if unknown. */
const GpuProduct *arch_table_find_product(const ArchTable *table, const char *name);

/* The row of a product's compute capability. NULL if the table lacks it. */
const ArchLimits *arch_table_product_arch(const ArchTable *table, const GpuProduct *gpu);

/* Which names arch_table_suggest considers. */
enum { OCC_SUGGEST_ARCHS = 1, OCC_SUGGEST_PRODUCTS = 2 };

/* The known name of the given kinds closest to `name`, for "did you mean",
 * written to buf; NULL when nothing is close. */
const char *arch_table_suggest(const ArchTable *table, const char *name, int kinds, char *buf,
                               size_t size);

/* "sm_90" for 9.0, written to buf (at least 16 bytes). */
const char *arch_sm_name(const ArchLimits *arch, char *buf, size_t size);

/* A GPU that a command analyses, as the tables name it: an architecture,
 * and a product when one is named (its SM count then comes with it).  The
 * programs resolve --arch and --gpu to one; the report model computes for
 * one. */
typedef enum OccVendor { OCC_NVIDIA, OCC_AMD } OccVendor;
struct AmdTarget;
struct AmdProduct;

typedef struct Target {
    OccVendor vendor;
    const ArchLimits *arch; /* NVIDIA: the compute capability's row */
    const GpuProduct *gpu;  /* NVIDIA: the product; NULL for a bare architecture */
    const struct AmdTarget *amd;      /* AMD: the target's row (amd.h) */
    const struct AmdProduct *amd_gpu; /* AMD: the product; NULL for a bare target */
    int sm_count;           /* SMs, or the AMD product's CUs (WGPs); 0 when unknown */
    char sm_name[OCC_NAME_MAX]; /* "sm_90" as arch_sm_name writes it, or "gfx942" */
    char gpu_asked[OCC_ALIASES_MAX]; /* the product as the user named it ("a100" for
                             * a100-40gb), to echo beside the id; "" when unnamed */
} Target;

/* The architecture's warp-slot count per SM. */
int arch_max_warps_per_sm(const ArchLimits *arch);

/* Named barriers per SM for the resident CTAs to share; 0: not a limit. */
int arch_barriers_per_sm(const ArchLimits *arch);

/* ---- the calculation ---------------------------------------------------- */

typedef enum OccLimiter {
#define LIMITER(e, json, what) OCC_LIMITER_##e,
#include "limiters.def"
#undef LIMITER
    OCC_N_LIMITERS
} OccLimiter;

const char *occ_limiter_name(OccLimiter limiter); /* "shared_memory" */
const char *occ_limiter_what(OccLimiter limiter); /* "shared memory" */

enum { OCC_CARVEOUT_DEFAULT = -1 }; /* else a percentage, 0..100 */

/* Partitioned global caching (cc 5.2, 5.3, 6.1, 6.2): a CTA then lives in
 * half an SM.  ON falls back to OFF when the CTA does not fit; STRICT not. */
typedef enum OccPartitionedGc { OCC_GC_OFF, OCC_GC_ON, OCC_GC_ON_STRICT } OccPartitionedGc;

/* What a compiled kernel uses and how it is configured. */
typedef struct KernelResources {
    int regs_per_thread;
    uint64_t static_smem;       /* bytes */
    int barriers;               /* named barriers used (1 when it syncs) */
    int virtual_resources;
    int max_threads_per_block;  /* .maxntid / __launch_bounds__; 0: none */
    bool smem_optin;            /* opted in to the large per-CTA limit */
    uint64_t max_dynamic_smem;  /* the kernel's dynamic shared-memory limit */
    int carveout;               /* OCC_CARVEOUT_DEFAULT or 0..100 % */
    OccPartitionedGc partitioned_gc;
} KernelResources;

/* Resources of a kernel that uses `regs` registers and `static_smem` bytes
 * and has opted in (or not) to the large shared-memory limit, with the
 * largest dynamic size that allows and every other field at its default. */
KernelResources occ_kernel_defaults(const ArchLimits *arch, int regs, uint64_t static_smem,
                                    bool optin);

typedef enum OccStatus {
    OCC_OK = 0,
    OCC_ERR_INVALID_INPUT,  /* an argument or a table value the rules cannot use */
    OCC_ERR_DOES_NOT_FIT,   /* (available dynamic smem) fewer CTAs fit than asked */
} OccStatus;

typedef struct OccResult {
    int active_blocks;               /* resident CTAs per SM */
    int limit[OCC_N_LIMITERS];       /* CTAs each resource allows; INT_MAX: no limit */
    unsigned limited_by;             /* bit (1u << OccLimiter) per binding limiter */
    int warps_per_block;
    int active_warps;                /* per SM */
    int max_warps;                   /* per SM */
    int allocated_regs_per_block;
    uint64_t allocated_smem_per_block; /* including the reserved part */
    uint64_t smem_per_sm;            /* the carveout the CTAs are placed in */
    OccPartitionedGc partitioned_gc; /* whether partitioned caching stays on */
} OccResult;

/* Resident CTAs per SM for CTAs of `block_size` threads with `dynamic_smem`
 * bytes of dynamic shared memory each.  *out is meaningful only on OCC_OK. */
OccStatus occ_active_blocks(const ArchLimits *arch, const KernelResources *kernel,
                            int block_size, uint64_t dynamic_smem, OccResult *out);

/* The same for several block sizes of one kernel at once (out[i] for
 * block_sizes[i]): the kernel's share of the work is done once, so a sweep
 * over block sizes costs a fraction of as many single calls. */
OccStatus occ_active_blocks_sizes(const ArchLimits *arch, const KernelResources *kernel,
                                  uint64_t dynamic_smem, const int *block_sizes, size_t n,
                                  OccResult *out);

/* Theoretical occupancy, 0..1: active warps over the SM's warp slots.  A
 * function rather than a field, so that sweeps need not pay a division. */
static inline double occ_occupancy(const OccResult *r)
{
    return r->max_warps ? (double)r->active_warps / r->max_warps : 0.0;
}

/* Dynamic shared memory per CTA as a function of the block size. */
typedef uint64_t (*OccDynSmemFn)(int block_size, void *context);

typedef struct OccBlockSizeChoice {
    int block_size;      /* 0: the kernel cannot run on this architecture */
    int blocks_per_sm;
    int min_grid;        /* blocks_per_sm * sm_count: the smallest full grid */
} OccBlockSizeChoice;

/* The block size of maximum occupancy, largest first among equals, and the
 * smallest grid that achieves it, as cudaOccMaxPotentialOccupancyBlockSize:
 * the runtime's answer, shown beside the advice (occ_advise_block_size_all).
 * `dyn_fn` (may be NULL) gives dynamic smem per block size; otherwise
 * `dynamic_smem` is used for every size. */
OccStatus occ_best_block_size(const ArchLimits *arch, const KernelResources *kernel,
                              OccDynSmemFn dyn_fn, void *context, uint64_t dynamic_smem,
                              int sm_count, OccBlockSizeChoice *out);

/* The dynamic shared memory a CTA may use so that `num_blocks` CTAs of
 * `block_size` threads stay resident, as cudaOccAvailableDynamicSMemPerBlock. */
OccStatus occ_available_dynamic_smem(const ArchLimits *arch, const KernelResources *kernel,
                                     int num_blocks, int block_size, uint64_t *bytes);

/* ---- advice --------------------------------------------------------------- */

/* How far a kernel is from one more (or one fewer) resident CTA.  -1 in a
 * field means "no such change exists". */
typedef struct OccNextStep {
    int regs_to_cut;        /* registers per thread to drop to gain a CTA */
    int regs_gained_blocks; /* CTAs per SM after that cut */
    int regs_slack;         /* registers per thread that may be added without losing a CTA */
    int64_t smem_to_cut;    /* shared-memory bytes per CTA to drop to gain a CTA */
    int smem_gained_blocks;
    int64_t smem_slack;     /* bytes per CTA that may be added without losing a CTA */
} OccNextStep;

OccStatus occ_next_step(const ArchLimits *arch, const KernelResources *kernel, int block_size,
                        uint64_t dynamic_smem, OccNextStep *out);

/* ---- the advice policy (policy.c) ---------------------------------------- */

/* One block size a caller considers, with the engine's answer for it. */
typedef struct OccCandidate {
    int threads;
    int active_blocks;     /* resident CTAs per SM */
    int active_warps;      /* per SM: the occupancy, compared exactly */
    double idle_fraction;  /* its tail: CTA slots its waves leave idle
                            * (OccWaves.idle_fraction); 0: unknown */
} OccCandidate;

/* The block size to advise, as an index into candidates; -1 when none
 * runs.  The most active warps; among equals 256 or 128 first, then the
 * smaller tail (idle_fraction), then 256 before 128 and the smaller size
 * before the larger.  The rule of `silk-occ report`, `calc` and
 * -Wocc-limit. */
int occ_advise_block_size(const OccCandidate *candidates, size_t n);

/* One target's candidates for the advice across targets: the same sizes
 * in the same order on every target (a size that does not run on one has
 * active_warps 0 there). */
typedef struct OccTargetCandidates {
    const OccCandidate *candidates;
    int max_warps; /* the SM's warp slots: occupancy = active_warps / max_warps */
} OccTargetCandidates;

/* The one block size to advise for every target at once, as an index into
 * the n_sizes candidates; -1 when none runs on all.  The highest lowest
 * occupancy over the targets (compared exactly), then the tie rule of
 * occ_advise_block_size on the worst tail.  With one target it is
 * occ_advise_block_size's choice. */
int occ_advise_block_size_across(const OccTargetCandidates *targets, size_t n_targets,
                                 size_t n_sizes);

/* Candidate i's lowest occupancy over the targets, 0..1; 0 when it does
 * not run on one. */
double occ_lowest_occupancy(const OccTargetCandidates *targets, size_t n_targets, size_t i);

/* The same policy over every whole-warp block size the kernel permits (the
 * sizes occ_best_block_size tries), weighing the tail of `work` items on
 * `sm_count` SMs when both are nonzero: what `silk-occ calc` advises.
 * block_size 0 when no size runs. */
OccStatus occ_advise_block_size_all(const ArchLimits *arch, const KernelResources *kernel,
                                    uint64_t dynamic_smem, uint64_t work, int sm_count,
                                    OccBlockSizeChoice *out);

enum { OCC_MIN_REGISTER_CAP = 16 }; /* the least .maxnreg / maxrregcount */

/* A register cap worth advising, and what it gives. */
typedef struct OccCapAdvice {
    int cap;          /* registers per thread */
    int min_blocks;   /* resident CTAs per SM at the cap: __launch_bounds__'s 2nd */
    double occupancy; /* at the cap, 0..1 */
} OccCapAdvice;

/* The cap to advise at `block_size`: registers limit the kernel there and
 * cutting to the cap gains a CTA, at no fewer than OCC_MIN_REGISTER_CAP.
 * False, with *out zero, when there is none. */
bool occ_advise_register_cap(const ArchLimits *arch, const KernelResources *kernel,
                             int block_size, uint64_t dynamic_smem, OccCapAdvice *out);

/* Whether the assembler's figures at a cap make it a safe gain: within the
 * cap and without spills. */
bool occ_cap_is_safe(int cap, int registers_at_cap, int spill_stores, int spill_loads);

/* The persistent grid: one CTA per resident slot of a GPU of `sm_count`
 * SMs; 0 when either is zero. */
uint64_t occ_persistent_grid(int sm_count, int active_blocks);

/* ---- thread-block clusters (cluster.c) ---------------------------------- */

/* The most CTAs a cluster may hold on the architecture: the portable
 * limit, or with nonportable (cudaFuncAttributeNonPortableClusterSizeAllowed)
 * the larger one where it has one; 0 when it has no clusters. */
int occ_cluster_limit(const ArchLimits *arch, bool nonportable);

/* The clusters of `cluster_size` CTAs resident at once on a product of
 * sm_count SMs in `gpcs` GPCs when ctas_per_sm CTAs fit an SM: an
 * estimate (cluster.c says how it is made); -1 when gpcs is 0 (the
 * product's layout is not public). */
int occ_cluster_resident(int sm_count, int gpcs, int ctas_per_sm, int cluster_size);

/* ---- a launch on a product ------------------------------------------------ */

typedef struct OccWaves {
    uint64_t ctas;            /* ceil(work / block_size) */
    uint64_t tail_threads;    /* work items in the last CTA */
    uint64_t ctas_per_wave;   /* sm_count * active_blocks */
    uint64_t full_waves;
    double waves;             /* ctas / ctas_per_wave */
    double last_wave_fill;    /* CTAs of the last wave / ctas_per_wave (1 when whole) */
    double idle_fraction;     /* CTA slots left idle over all waves */
    uint64_t persistent_grid; /* = ctas_per_wave: one resident CTA per slot */
} OccWaves;

/* Returns false when work, block size, active blocks or SM count is zero;
 * *out is then zero but for ctas and tail_threads, which need only the work
 * and the block size. */
bool occ_waves(uint64_t work, int block_size, int active_blocks, int sm_count, OccWaves *out);

/* The waves of a grid of `ctas` CTAs, however they were counted (a 2-D
 * grid: gridDim.x x gridDim.y); tail_threads is left 0.  False, with *out
 * zero but for ctas, when any argument is zero. */
bool occ_waves_ctas(uint64_t ctas, int active_blocks, int sm_count, OccWaves *out);

/* ---- one face for both vendors (figures.c) -------------------------------- */

/* The engine's answer for one block size in the shape every writer reads,
 * whichever vendor's engine gave it (occ_figures_nvidia, occ_figures_amd):
 * what is resident, the occupancy, and the limiters with what each allows. */
enum { OCC_MAX_LIMITERS = 8 };

typedef struct OccFigures {
    OccVendor vendor;
    int groups;           /* resident CTAs per SM, or workgroups per CU (WGP) */
    int active;           /* warps per SM, or waves per SIMD */
    int max_active;       /* the SM's warp slots, or the SIMD's wave slots */
    int resident;         /* warps (waves) of the resident groups per SM (CU): what
                           * the advice policy compares; on AMD it can be below
                           * active x SIMDs, LLVM's count not being in whole
                           * workgroups */
    int n_limiters;
    int limit[OCC_MAX_LIMITERS]; /* what each allows, in occ_limit_unit; INT_MAX: none */
    unsigned limited_by;  /* bit i: limiter i binds */
} OccFigures;

/* Inline, so that a caller that copies the figures on (the installed API's
 * result) does not pay for the copy in between. */
static inline OccFigures occ_figures_nvidia(const OccResult *r)
{
    OccFigures f = {.vendor = OCC_NVIDIA, .groups = r->active_blocks, .active = r->active_warps,
                    .max_active = r->max_warps, .resident = r->active_warps,
                    .n_limiters = OCC_N_LIMITERS, .limited_by = r->limited_by};
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        f.limit[i] = r->limit[i];
    return f;
}

static inline double occ_figures_occupancy(const OccFigures *f)
{
    return f->max_active ? (double)f->active / f->max_active : 0.0;
}

/* Limiter i of a vendor: its JSON name ("registers", "vgprs") and what it
 * is for people ("registers", "VGPRs"). */
const char *occ_vendor_limiter_name(OccVendor vendor, int i);
const char *occ_vendor_limiter_what(OccVendor vendor, int i);
/* What a limit counts: "ctas_per_sm" or "waves_per_simd". */
const char *occ_limit_unit(OccVendor vendor);

/* ---- pruning a tuning space (prune.c) ------------------------------------ */

/* Why a configuration cannot run, in the order a launch meets the limits
 * (the first one broken is the one given); occ_prune_reason_name names
 * each for JSON ("smem_over_optin"). */
typedef enum OccPruneReason {
    OCC_PRUNE_FEASIBLE,               /* it runs: the verdict's figures say how */
    OCC_PRUNE_EMPTY_BLOCK,            /* a block of 0 threads */
    OCC_PRUNE_BLOCK_TOO_LARGE,        /* threads over max_threads_per_block */
    OCC_PRUNE_REGS_OVER_MAX,          /* registers over max_regs_per_thread */
    OCC_PRUNE_STATIC_SMEM_OVER_LIMIT, /* static shared memory over smem_per_block */
    OCC_PRUNE_SMEM_OVER_OPTIN,        /* static + dynamic over smem_per_block_optin */
    OCC_PRUNE_CLUSTER_NOT_RESIDENT,   /* a cluster over the architecture's limit
                                       * (nonportable), or none on it, or its
                                       * CTAs not resident */
    OCC_PRUNE_NO_CTA_RESIDENT,        /* within every per-block limit, yet no CTA
                                       * fits an SM (registers x threads, ...) */
    OCC_PRUNE_N_REASONS
} OccPruneReason;

/* One configuration's figures, as a tuning space's formulas give them:
 * 64-bit, so that a formula's large value is a verdict, not an overflow.
 * cluster: CTAs per cluster, 0 or 1 for none.  The kernel has opted in to
 * the large shared-memory limit (as every tuner's kernels do) and uses
 * one barrier. */
typedef struct OccPruneConfig {
    uint64_t threads, regs, static_smem, dynamic_smem, cluster;
} OccPruneConfig;

typedef struct OccPruneVerdict {
    OccPruneReason reason;
    OccResult result;   /* the engine's answer, when the limits let it be asked */
    OccFigures figures; /* the same in the one shape: groups, occupancy */
} OccPruneVerdict;

/* The verdict on c for architecture a, in *out: feasible with its CTAs
 * per SM, or the first reason it cannot run.  OCC_OK, or the engine's
 * error when the table's row cannot be used.  No I/O, no allocation. */
OccStatus occ_prune_config(const ArchLimits *a, const OccPruneConfig *c, OccPruneVerdict *out);
const char *occ_prune_reason_name(OccPruneReason reason);

#endif
