/*
 * report_model.h: everything `silk-occ report` computed, per kernel and
 * target, in plain structs that the writers (report_text.c, report_json.c,
 * report_csv.c, report_markdown.c) print without computing anything.  The
 * seven sections of the launch configuration guide are the fields of
 * ReportEntry, in its order:
 * occupancy table, selection and its reasons, tail, launch-bounds advice,
 * host code, grid validity, the verification snippet (rendered by the
 * writers from the numbers here).
 */
#ifndef SILK_REPORT_MODEL_H
#define SILK_REPORT_MODEL_H

#include "cli.h"
#include "usage.h"
#include "size_expr.h"

enum { REPORT_MAX_SIZES = 16, REPORT_MAX_REASONS = 8, REPORT_MAX_PRODUCTS = 32 };

/* What kind of file a kernel came from: it decides what is known (a
 * cubin records no spills) and the language of the advice (Silk's
 * @launch and launch blocks only for Silk). */
typedef enum ReportInputKind { INPUT_SILK, INPUT_PTX, INPUT_CUDA, INPUT_CUBIN } ReportInputKind;

/* A kernel as the input gave it, on one target: ptxas's figures (or the
 * compiler's estimate) and the launch bounds written in the source. */
typedef struct ReportKernel {
    const char *name;      /* the symbol, as ptxas prints it: mangled for C++ */
    const char *title;     /* for people: demangled with its parameters, or the name */
    const char *cxx_name;  /* for host code: demangled without parameters, or the name */
    const char *file;
    ReportInputKind input;
    KernelUsage usage;     /* usage.estimated: from the IR, not ptxas;
                            * spills -1: unknown (a cubin) */
    int reqntid;           /* .reqntid / @launch: the only block size; 0 none */
    int maxntid;           /* .maxntid: the largest block size; 0 none */
    int minnctapersm;      /* 0: not given; -1: not recorded (a cubin) */
    int maxnreg;           /* 0: not given */
    uint64_t dynamic_smem; /* @smem; 0 for PTX (the launch gives it) */
    bool extern_smem;      /* declares dynamic shared memory (extern __shared__,
                            * an .extern .shared array): the launch sizes it */
    bool extern_smem_unknown; /* the input does not say (an executable cubin) */
    bool calls_out;        /* a relocatable cubin's kernel that calls another
                            * file's function: linking may raise its registers */
    uint64_t launch_work;  /* the constant grid of the first Silk launch
                            * block that targets it; 0: none */
    int launch_line;       /* that block's line */
    const char *absent_on; /* the targets whose compile of the file lacks
                            * this kernel ("sm_80, sm_86"); NULL: none */
} ReportKernel;

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
    OccResult result;
} ReportRow;

/* A launch of the work size on one product. */
typedef struct TailRow {
    const GpuProduct *gpu;
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
    const GpuProduct *gpu;
    int grid;              /* sm_count x resident CTAs at the selected size */
} PersistentRow;

/* @launch / __launch_bounds__ advice: the register cap that would reach
 * the next occupancy step and what ptxas did at it. */
typedef struct CapAdvice {
    bool applies;          /* registers limit and a cut gains a CTA */
    int cap;               /* registers per thread */
    int min_blocks;        /* the CTAs per SM it gives: __launch_bounds__'s 2nd */
    double occupancy;
    bool checked;          /* ptxas compiled the kernel at the cap */
    bool over_budget;      /* not compiled: more caps than a run checks */
    int cap_registers;     /* what ptxas used there */
    int cap_spill_stores, cap_spill_loads;
} CapAdvice;

typedef struct ReportEntry {
    ReportKernel kernel;
    Target target;
    KernelResources resources;
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
    OccNextStep next;
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
    bool grid_valid;       /* within max_grid_x and max_grid_y (true without work) */
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
} ReportSettings;

/* Fills every field of `e` but cap.checked and its ptxas figures from
 * e->kernel, e->target and the settings.  False, with one line in `error`
 * (`size` bytes), when the tables' row cannot be used or --dyn-smem has
 * no value at one of the kernel's block sizes. */
bool report_entry_compute(ReportEntry *e, const ReportSettings *s, char *error, size_t size);

const char *report_reason_name(ReasonCode code);
const char *report_reason_text(ReasonCode code);

/* The selected row, or NULL. */
static inline const ReportRow *report_selected(const ReportEntry *e)
{
    return e->selected >= 0 ? &e->rows[e->selected] : NULL;
}

/* Names in people's formats: the demangled title, its template arguments
 * shortened with "…" when it is wider than REPORT_TITLE_WIDTH columns
 * (JSON keeps it whole). */
enum { REPORT_TITLE_WIDTH = 100 };
void report_short_title(const ReportKernel *k, char *buf, size_t size);

/* Host code, as the writers print it (buf of `size` bytes). */
void report_silk_launch(const ReportEntry *e, char *buf, size_t size);
void report_cuda_launch(const ReportEntry *e, char *buf, size_t size);
void report_verify_snippet(const ReportEntry *e, char *buf, size_t size);

/* The sentences both people's formats print (report_words.c): lower case
 * first, no final stop, code between backticks (report_print_plain prints
 * one without them).  The bool ones return false when there
 * is nothing to say (then buf is untouched). */
void report_reason_sentence(const Reason *r, char *buf, size_t size);
void report_limiter_names(unsigned set, char *buf, size_t size);
bool report_tail_note(const TailRow *t, char *buf, size_t size);
/* Section 4: the advice and, when a cap is advised, what ptxas made of it
 * (check empty otherwise).  False when no block size runs. */
bool report_bounds_advice(const ReportEntry *e, char *advice, char *check, size_t size);
void report_grid_sentence(const ReportEntry *e, char *buf, size_t size);
bool report_spill_sentence(const ReportEntry *e, const ReportRow *r, char *buf, size_t size);
void report_next_step_sentence(const ReportEntry *e, char *buf, size_t size);
/* Where the figures come from and what they are: registers, shared
 * memory, barriers, spills. */
void report_usage_sentence(const ReportEntry *e, char *buf, size_t size);
/* The launch bounds the kernel was compiled with, or "none". */
void report_bounds_sentence(const ReportKernel *k, char *buf, size_t size);
/* The work, the grid that covers it and its last CTA (or, for 2-D work,
 * the threads past its edges); only with work and a selected size. */
void report_work_sentence(const ReportEntry *e, char *buf, size_t size);
/* A kernel with dynamic shared memory that no --dyn-smem sized: the rows
 * are an upper bound.  False when there is nothing to say. */
bool report_dynamic_smem_note(const ReportEntry *e, char *buf, size_t size);
/* A relocatable cubin's kernel that calls another file: its registers may
 * rise at link time.  False when there is nothing to say. */
bool report_link_note(const ReportEntry *e, char *buf, size_t size);
void report_print_plain(FILE *out, const char *sentence);

int report_write_text(const ReportModel *m, FILE *out);
int report_write_json(const ReportModel *m, FILE *out);
int report_write_csv(const ReportModel *m, FILE *out);
int report_write_markdown(const ReportModel *m, FILE *out);

#endif
