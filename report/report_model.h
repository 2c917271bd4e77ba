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
} CapAdvice;

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
} ReportEntry;

/* One kernel's summary across the NVIDIA targets of a report
 * (report_across.c): the one block size best over all of them, as silkc's
 * -Wocc-limit advises it, beside each target's own selection. */
enum { REPORT_MAX_ACROSS = 32 };
typedef struct ReportAcrossTarget {
    const char *target;   /* "sm_90": the entry's own sm_name */
    int threads;          /* the target's own selection; 0: none runs */
    double occupancy;     /* there, 0..1 */
} ReportAcrossTarget;

typedef struct ReportAcross {
    int first;            /* the kernel's first entry; its n_targets follow */
    int n_targets;
    int threads;          /* 0: no size runs on every target */
    double min_occupancy; /* the lowest over the targets at `threads` */
    ReportAcrossTarget per_target[REPORT_MAX_ACROSS];
} ReportAcross;

typedef struct ReportModel {
    ReportEntry *entries;
    int n_entries;
    ReportAcross *across; /* report_across_build's, kernel by kernel */
    int n_across;
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

/* The summaries across targets of every kernel with two or more NVIDIA
 * entries (report_across.c; report_model_build calls it).  False when
 * out of memory. */
bool report_across_build(ReportModel *m);
/* The summary whose kernel's last entry is `entry`, or NULL: writers
 * print it after that kernel's sections. */
const ReportAcross *report_across_after(const ReportModel *m, int entry);

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
