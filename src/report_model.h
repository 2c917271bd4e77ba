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
#include "ptxas.h"

enum { REPORT_MAX_SIZES = 16, REPORT_MAX_REASONS = 8, REPORT_MAX_PRODUCTS = 32 };

/* A kernel as the input gave it, on one target: ptxas's figures (or the
 * compiler's estimate) and the launch bounds written in the source. */
typedef struct ReportKernel {
    const char *name;
    const char *file;
    KernelUsage usage;     /* usage.estimated: from the IR, not ptxas;
                            * spills -1: unknown (a cubin) */
    int reqntid;           /* .reqntid / @launch: the only block size; 0 none */
    int maxntid;           /* .maxntid: the largest block size; 0 none */
    int minnctapersm;      /* 0: not given; -1: not recorded (a cubin) */
    int maxnreg;           /* 0: not given */
    uint64_t dynamic_smem; /* @smem; 0 for PTX (the launch gives it) */
    uint64_t launch_work;  /* the constant grid of the first Silk launch
                            * block that targets it; 0: none */
    int launch_line;       /* that block's line */
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
    uint64_t dynamic_smem;
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
    bool grid_valid;       /* ctas within max_grid_x (true without work) */
    uint64_t grid_y;       /* a 2-D grid's y when x alone is too small; 0 */
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
    const ArchTable *table;
} ReportSettings;

/* Fills every field of `e` but cap.checked and its ptxas figures from
 * e->kernel, e->target and the settings.  False when the tables' row
 * cannot be used. */
bool report_entry_compute(ReportEntry *e, const ReportSettings *s);

const char *report_reason_name(ReasonCode code);
const char *report_reason_text(ReasonCode code);

/* The selected row, or NULL. */
static inline const ReportRow *report_selected(const ReportEntry *e)
{
    return e->selected >= 0 ? &e->rows[e->selected] : NULL;
}

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
void report_print_plain(FILE *out, const char *sentence);

int report_write_text(const ReportModel *m, FILE *out);
int report_write_json(const ReportModel *m, FILE *out);
int report_write_csv(const ReportModel *m, FILE *out);
int report_write_markdown(const ReportModel *m, FILE *out);

#endif
