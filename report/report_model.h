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
    OccNextStep next;      /* NVIDIA: one more CTA at this size (the entry's next
                            * at the selected row) */
    AmdNextStep amd_next;  /* AMD: one more wave per SIMD at this size */
    uint64_t ctas;         /* of the work at this size; 0 without work */
    bool has_waves;        /* work given and a CTA resident: waves is set */
    OccWaves *waves;       /* the work at this size on the entry's tails[i].gpu,
                            * for each of its n_tails products, so a script
                            * compares sizes without recomputing; NULL unless
                            * has_waves.  In the entry's row_waves, which owns
                            * it: allocated only with work, so that an entry
                            * without it stays small */
} ReportRow;

/* A launch of the work size on one product. */
/* A product of the target, either vendor's. */
typedef struct ReportGpu {
    const char *id, *name;
    int sm_count;          /* SMs, or CUs (WGPs) */
    int gpcs;              /* NVIDIA: GPCs where public; 0: not public */
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
    int grid;              /* sm_count x resident CTAs at the selected size;
                            * a cluster kernel's: whole clusters that fit */
    int clusters;          /* a cluster kernel's resident clusters (an
                            * estimate, cluster.c); -1: the GPC layout is not
                            * public; 0 without a cluster */
} PersistentRow;

/* What can be wrong with a cluster launch (report_cluster.c). */
typedef enum ClusterProblem {
    CLUSTER_OK,
    CLUSTER_UNSUPPORTED,  /* the architecture has no clusters (before 9.0) */
    CLUSTER_TOO_LARGE,    /* more CTAs than the architecture's limit */
    CLUSTER_ABOVE_RANK,   /* more CTAs than the kernel's .maxclusterrank */
    CLUSTER_SHAPE,        /* a y or z extent the launch's grid does not have */
    CLUSTER_NOT_RESIDENT, /* more CTAs than the SM slots of a GPU hold */
} ClusterProblem;

/* The thread-block cluster a launch uses: the kernel's __cluster_dims__
 * (.reqnctapercluster), else --cluster; size 0 when none. */
typedef struct ReportCluster {
    int dims[3];           /* CTAs along x, y, z */
    int size;              /* their product; 0: no cluster */
    bool compiled;         /* the kernel's own: a <<<>>> launch gives it */
    bool option_ignored;   /* --cluster differs from the compiled cluster */
    int max_rank;          /* the kernel's .maxclusterrank; 0 none */
    int portable_limit;    /* the architecture's portable size (8); 0 none */
    int limit;             /* with cudaFuncAttributeNonPortableClusterSizeAllowed */
    bool nonportable;      /* larger than portable_limit: needs the attribute */
    uint64_t padding_ctas; /* CTAs the grid gained to end in whole clusters */
    ClusterProblem problem;
} ReportCluster;

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

/* What fixes a kernel's block size besides its own .reqntid: the user's
 * --fixed-block-size, or a library whose launch is its API's contract
 * (seed 001, "Do not use this when"); and whether its bound is a template
 * argument of the instance, which the text points out. */
typedef enum ReportPinBy {
    REPORT_PIN_NONE,
    REPORT_PIN_OPTION,          /* --fixed-block-size: .maxntid is the size */
    REPORT_PIN_LIBRARY,         /* a library's kernel: its bound is the size */
    REPORT_PIN_LIBRARY_UNBOUND, /* a library's kernel with no bound: the library
                                 * decides at run time; rows for information */
} ReportPinBy;

enum { REPORT_MAX_NAMESPACES = 16, REPORT_NAMESPACE_MAX = 128 };

typedef struct ReportPin {
    ReportPinBy by;
    int threads;           /* the fixed size (REPORT_PIN_OPTION, _LIBRARY); 0 none */
    char library[REPORT_NAMESPACE_MAX]; /* the namespace matched: "cub", "mylib::detail" */
    int template_bound;    /* .maxntid when it equals a template argument of
                            * the instance (scale<512>, __launch_bounds__(TPB)); 0 not */
} ReportPin;

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
    OccWaves *row_waves;   /* the rows' waves, one block (report_entry_free) */
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
    TailRow *tails;        /* REPORT_MAX_PRODUCTS of them, allocated only with
                            * work (report_entry_free), so that an entry
                            * without it stays small */
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
    ReportCluster cluster; /* the launch's cluster; size 0: none */
    uint64_t smem_optin_limit; /* NVIDIA: static + dynamic shared memory above
                            * smem_per_block needs cudaFuncSetAttribute, up to
                            * this; 0 on AMD */
    uint64_t smem_bytes;   /* static + dynamic shared memory of the launch (of the
                            * smallest row when none is selected) */
    bool smem_needs_optin; /* the selected launch is above smem_per_block */
    bool smem_over_optin;  /* above even the opt-in limit: it cannot launch */
    ReportPin pin;         /* who fixes the block size besides .reqntid (report_pins.c) */

    bool min_ignored;      /* ptxas warned that it ignores the .minnctapersm */
    BoundCost bound_cost;

    /* A kernel that several files define (a template or inline kernel of
     * a project's units; report_units.c): the files whose figures on this
     * target are this entry's, in the files' order, the entry's own first
     * (malloc'd); NULL when no other file defines it for this target. */
    const char **units;
    int n_units;
    char *other_units;     /* the files where it has other figures, reported
                            * apart ("c.cu, d.cu", malloc'd); NULL: none */
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
    int cluster[3];             /* --cluster X[,Y[,Z]]; all 0: none */
    bool only_sizes;            /* --only-block-sizes: `sizes` is the whole list,
                                 * without the kernel's bound added */
    bool fixed_block_size;      /* --fixed-block-size: every .maxntid is the size */
    const char *fixed_namespaces[REPORT_MAX_NAMESPACES]; /* --fixed-namespace, as
                                 * given (identifiers and ::), besides the libraries
                                 * report_pins.c knows */
    int n_fixed_namespaces;
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

/* Frees what report_entry_compute allocated in `e` (tails, the rows' waves); a
 * copy of the entry shares it, so only one of them is freed. */
void report_entry_free(ReportEntry *e);

/* Fills e->pin from the kernel's names, bounds and the settings
 * (report_pins.c), before the rows are computed. */
void report_pin_find(ReportEntry *e, const ReportSettings *s);

/* The namespace check of --fixed-namespace: identifiers joined by "::",
 * a trailing "::" allowed, at most REPORT_NAMESPACE_MAX - 1 bytes. */
bool report_namespace_valid(const char *ns);

/* ptxas's figures for e's kernel compiled without its bound (e->bound_cost
 * applies): the CTAs per SM with and without it at the selected size. */
void report_bound_cost_measured(ReportEntry *e, int registers, int spill_stores, int spill_loads);

/* "launch_bounds", "maxnreg", "launch": the JSON name of a CapForm. */
const char *report_cap_form_name(CapForm form);

/* The summaries across targets of every kernel with two or more NVIDIA
 * entries (report_across.c; report_model_build calls it).  False when
 * out of memory. */
bool report_across_build(ReportModel *m);

/* One entry per kernel, target and distinct figures over the files
 * (report_units.c): an entry whose symbol, target and measured figures
 * (usage, bounds, cluster) an earlier file's entry has is dropped, its
 * file added to that entry's units; entries of different figures stay,
 * each naming its units and the others.  False when out of memory. */
bool report_units_join(ReportModel *m);
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

/* The cluster of e's launch (report_cluster.c): from the kernel and
 * --cluster, before the rows are computed; checked against the
 * architecture and the selected row after them. */
void report_cluster_choose(ReportEntry *e, const ReportSettings *s);
void report_cluster_check(ReportEntry *e);
/* The resident clusters on `gpu` at the selected row (-1 unknown, 0 when
 * the entry has no cluster) and the persistent grid in whole clusters. */
int report_cluster_resident(const ReportEntry *e, const ReportGpu *gpu, int ctas_per_sm);
/* `ctas` rounded up to whole clusters along x (the grid's x extent). */
uint64_t report_cluster_round(const ReportEntry *e, uint64_t ctas, int dim);
/* What is wrong with the cluster, as a sentence; "" when nothing. */
const char *report_cluster_problem_text(ClusterProblem p);

#endif
