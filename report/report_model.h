/*
 * report_model.h: libsilkreport, the model of `silk-occ report`:
 * everything the report computes, per kernel and target, in plain structs
 * that the program's writers (src/report_writers.h) print without
 * computing anything.  The seven sections of the launch configuration
 * guide are the fields of ReportEntry, in its order:
 * occupancy table, selection and its reasons, tail, launch-bounds advice,
 * host code, grid validity, the verification snippet (rendered from the
 * numbers here, by report_host.c).
 *
 * The library prints nothing: what goes wrong comes back as one line in
 * the caller's buffer, for the program to print.
 */
#ifndef SILK_REPORT_MODEL_H
#define SILK_REPORT_MODEL_H

#include "amd.h"
#include "occupancy.h"
#include "usage.h"
#include "size_expr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { REPORT_MAX_SIZES = 16, REPORT_MAX_REASONS = 8, REPORT_MAX_PRODUCTS = 32 };

/* Why the selection is what it is: a code and the numbers its sentence
 * needs.  reasons.def lists the codes with their JSON names and texts. */
typedef enum ReasonCode {
#define REASON(e, json, text) REASON_##e,
#include "report_reasons.def"
#undef REASON
    REASON_COUNT
} ReasonCode;

typedef struct Reason {
    ReasonCode code;
    int threads;   /* a block size */
    int blocks;    /* CTAs per SM, or a count */
    double value;  /* an occupancy (0..1), a byte count or a fraction */
} Reason;

typedef struct ReportRow {
    int threads;
    uint64_t dynamic_smem; /* at this block size (--dyn-smem may depend on it) */
    OccFigures fig;        /* the engine's answer in the one shape writers read */
    OccResult result;      /* NVIDIA: the whole answer (allocation units, carveout) */
    AmdResult amd;         /* AMD: the whole answer */
} ReportRow;

/* A launch of the work size on one product. */
/* A product of the target, either vendor's. */
typedef struct ReportGpu {
    const char *id, *name;
    int sm_count;          /* SMs, or CUs (WGPs) */
} ReportGpu;

typedef struct TailRow {
    ReportGpu gpu;
    int sm_count;
    OccWaves waves;        /* at the selected block size */
    bool undersubscribed;  /* less than one wave: SMs left idle whatever the size */
    bool bad;              /* at least one full wave, the last under half full,
                            * fewer than 4 waves in all */
    int better_threads;    /* a permitted size that idles less; 0 none */
    OccWaves better_waves;
} TailRow;

/* One product of the target's architecture: its persistent grid. */
typedef struct PersistentRow {
    ReportGpu gpu;
    int grid;              /* sm_count x resident CTAs at the selected size */
} PersistentRow;

/* The form a register cap takes in the kernel's own language: a CUDA
 * kernel that caps registers with __maxnreg__ gets a new __maxnreg__
 * (nvcc rejects __launch_bounds__ beside it: "The __launch_bounds__ and
 * __maxnreg__ qualifiers cannot be applied to the same kernel", CUDA
 * 13.0), any other CUDA kernel __launch_bounds__, a Silk kernel @launch. */
typedef enum CapForm { CAP_FORM_LAUNCH_BOUNDS, CAP_FORM_MAXNREG, CAP_FORM_LAUNCH } CapForm;

/* @launch / __launch_bounds__ advice: the register cap that would reach
 * the next occupancy step and what ptxas did at it. */
typedef struct CapAdvice {
    bool applies;          /* registers limit and a cut gains a CTA */
    int cap;               /* registers per thread */
    int min_blocks;        /* the CTAs per SM it gives: __launch_bounds__'s 2nd
                            * (AMD: workgroups per CU) */
    int waves;             /* AMD: waves per SIMD at the cap, amdgpu_waves_per_eu's */
    double occupancy;
    bool checked;          /* ptxas compiled the kernel at the cap */
    bool over_budget;      /* not compiled: more caps than a run checks */
    int cap_registers;     /* what ptxas used there */
    int cap_spill_stores, cap_spill_loads;
    CapForm form;          /* how the advice is written (also when !applies) */
} CapAdvice;

/* What the kernel's own bound costs when it spills under it: ptxas's
 * figures with the bound (the kernel's) and without it (its PTX compiled
 * again without .maxntid, .minnctapersm and .maxnreg), and the CTAs per
 * SM of each at the selected size. */
typedef struct BoundCost {
    bool applies;          /* NVIDIA, spills, a bound of its own, a size runs,
                            * PTX to compile again */
    bool checked;          /* ptxas compiled it without the bound */
    bool over_budget;      /* not compiled: more kernels than a run checks */
    int registers, spill_stores, spill_loads; /* without the bound */
    int blocks, bound_blocks;          /* CTAs per SM without / with it */
    double occupancy, bound_occupancy;
    bool forces_spills;    /* checked, and it spills less without the bound */
} BoundCost;

typedef struct ReportEntry {
    MeasuredKernel kernel;
    Target target;
    int file_index, target_index; /* where the measuring gave it (report_build.c) */
    KernelResources resources; /* NVIDIA: what the engine reads of the kernel */
    AmdKernel amd_kernel;      /* AMD: the same, its LDS without the dynamic part */
    uint64_t dynamic_smem; /* at the selected size (0 when none runs) */
    bool dynamic_smem_unsized; /* the kernel declares dynamic shared memory
                                * and no --dyn-smem sized it: the rows, at 0,
                                * are an upper bound */
    bool rows_sized;       /* --dyn-smem sized the rows */
    ReportRow rows[REPORT_MAX_SIZES];
    int n_rows;
    int selected;          /* index into rows; -1: no permitted size runs */
    Reason reasons[REPORT_MAX_REASONS];
    int n_reasons;
    OccNextStep next;      /* NVIDIA */
    AmdNextStep amd_next;  /* AMD */
    bool have_work;
    uint64_t work;
    bool work_from_launch; /* the work is kernel.launch_work, not --work */
    uint64_t ctas;         /* of the work at the selected size */
    uint64_t tail_threads;
    TailRow tails[REPORT_MAX_PRODUCTS];
    int n_tails;
    PersistentRow persistent[REPORT_MAX_PRODUCTS];
    int n_persistent;
    CapAdvice cap;
    uint64_t work_rows;    /* a 2-D work of `work` columns by these rows; 0: 1-D */
    int block_x, block_y;  /* the block's shape (block_y 1 for 1-D work) */
    uint64_t grid_x, grid_y; /* the grid (grid_y 0 for a 1-D launch) */
    uint64_t max_grid_x, max_grid_y; /* the launch's limits: the architecture's, or
                            * HIP's gridDim x blockDim below 2^32 */
    bool grid_valid;       /* within max_grid_x and max_grid_y (true without work) */
    bool min_ignored;      /* ptxas warned that it ignores the .minnctapersm */
    BoundCost bound_cost;
} ReportEntry;

typedef struct ReportModel {
    ReportEntry *entries;
    int n_entries;
} ReportModel;

/* The candidate block sizes and the kernels' share of the computation. */
typedef struct ReportSettings {
    int sizes[REPORT_MAX_SIZES];
    int n_sizes;
    bool have_work;
    uint64_t work;
    uint64_t work_rows;         /* --work COLSxROWS: the rows; 0: 1-D */
    const SizeExpr *dyn_smem;   /* --dyn-smem; NULL: the kernel's own (0 for CUDA) */
    const char *dyn_smem_text;  /* as the user wrote it, for errors */
    const ArchTable *table;
    const AmdTable *amd_table;
} ReportSettings;

/* What a report is built from: the measured files on the run's targets
 * (usage.h), the kernels asked for (--kernel; NULL: all), the settings. */
typedef struct ReportBuild {
    const MeasuredFile *files;
    int n_files;
    const Target *targets;
    int n_targets;
    const char *kernel_glob;
    const ReportSettings *settings;
} ReportBuild;

/* One entry per kernel and target that compiles it, kernel by kernel
 * (report_build.c).  False, with one line in `error`, as
 * report_entry_compute; free the model with report_model_free. */
bool report_model_build(ReportModel *m, const ReportBuild *b, char *error, size_t size);
void report_model_free(ReportModel *m);

/* Every kernel's launch name, "saxpy, sgemm", in buf, and whether any is
 * one --kernel asks for. */
void report_kernel_names(const ReportBuild *b, bool *any_wanted, char *buf, size_t size);

/* Fills every field of `e` but cap.checked and its ptxas figures from
 * e->kernel, e->target and the settings.  False, with one line in `error`
 * (`size` bytes), when the tables' row cannot be used or --dyn-smem has
 * no value at one of the kernel's block sizes. */
bool report_entry_compute(ReportEntry *e, const ReportSettings *s, char *error, size_t size);

/* ptxas's figures for e's kernel compiled without its bound (e->bound_cost
 * applies): the CTAs per SM with and without it at the selected size. */
void report_bound_cost_measured(ReportEntry *e, int registers, int spill_stores, int spill_loads);

/* "launch_bounds", "maxnreg", "launch": the JSON name of a CapForm. */
const char *report_cap_form_name(CapForm form);

const char *report_reason_name(ReasonCode code);
const char *report_reason_text(ReasonCode code);

/* The target's warp (or wave) size and largest block (workgroup). */
int report_warp_size(const ReportEntry *e);
int report_max_block(const ReportEntry *e);

/* The product the target names (--gpu, or this machine's device): false
 * for a bare architecture. */
bool report_named_gpu(const ReportEntry *e, ReportGpu *out);

/* The selected row, or NULL. */
static inline const ReportRow *report_selected(const ReportEntry *e)
{
    return e->selected >= 0 ? &e->rows[e->selected] : NULL;
}

/* The host code for the selected configuration (report_host.c), as every
 * writer prints it (buf of `size` bytes): Silk's launch block, the CUDA
 * launch, and the occupancy call that checks the figures on a device. */
void report_silk_launch(const ReportEntry *e, char *buf, size_t size);
void report_cuda_launch(const ReportEntry *e, char *buf, size_t size); /* HIP's on AMD */
void report_verify_snippet(const ReportEntry *e, char *buf, size_t size);

#endif
