/*
 * diff_model.h: `silk-occ diff`'s model: two silk-occ reports (JSON,
 * silk-occ/report/3) read, their kernels paired per kernel x target
 * (symbol, architecture and GPU; the file may differ), and a verdict for
 * each pair.  Nothing here prints: the writers (diff_text.c, diff_json.c,
 * diff_markdown.c) say it, and cmd_diff.c turns the verdicts into the exit
 * status.
 *
 * A regression is what a pull request must not do unseen: a lost CTA per
 * SM, an occupancy drop beyond the tolerance, new spills, or a kernel
 * that had a launchable size and has none.  The same tests the other way
 * make an improvement; a pair whose figures moved without either is
 * neutral.
 */
#ifndef SILK_DIFF_MODEL_H
#define SILK_DIFF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One side of a pair: the figures the diff compares. */
typedef struct DiffFigures {
    long long regs;        /* registers per thread */
    long long static_smem; /* bytes per CTA */
    long long spills;      /* spill stores + spill loads, bytes */
    bool selected;         /* the report selected a block size */
    long long threads;     /* the selected size; when selected */
    long long ctas;        /* CTAs per SM at it; when selected */
    double occupancy;      /* 0..1 at it; when selected */
} DiffFigures;

typedef enum DiffStatus {
    DIFF_UNCHANGED,
    DIFF_NEUTRAL,
    DIFF_IMPROVEMENT,
    DIFF_REGRESSION,
    DIFF_ADDED,
    DIFF_REMOVED,
} DiffStatus;

/* Why a pair is a regression or an improvement (a set of bits). */
enum {
    DIFF_LOST_CTA = 1u << 0,
    DIFF_OCCUPANCY_DROP = 1u << 1,
    DIFF_NEW_SPILLS = 1u << 2,
    DIFF_NO_SIZE = 1u << 3, /* had a selected size, has none */
    DIFF_GAINED_CTA = 1u << 4,
    DIFF_OCCUPANCY_RISE = 1u << 5,
    DIFF_FEWER_SPILLS = 1u << 6,
    DIFF_GAINED_SIZE = 1u << 7,
};
enum { DIFF_N_REASONS = 8 };

typedef struct DiffPair {
    /* Borrowed from the documents the model holds: outside text, to be
     * escaped at every sink. */
    const char *kernel, *symbol, *arch, *gpu; /* gpu: NULL when the report had none */
    DiffStatus status;
    unsigned reasons;
    bool has_old, has_new;
    DiffFigures old, new;
    size_t order; /* pairing's: the entry's index in its report */
    bool taken;   /* pairing's: an old entry already paired */
} DiffPair;

typedef struct DiffModel {
    const char *old_path, *new_path;
    double tolerance; /* percentage points */
    DiffPair *pairs;  /* paired first (in the new report's order), then added, then removed */
    size_t n_pairs;
    size_t count[DIFF_REMOVED + 1]; /* pairs per status */
    struct cJSON *old_doc, *new_doc; /* owned */
} DiffModel;

/* Reads both reports and pairs them.  False with a one-line reason in
 * `error` (naming the file, and the line and column of bad JSON, or the
 * entry and key of a report that is not one). */
bool diff_build(const char *old_path, const char *new_path, double tolerance, DiffModel *out,
                char *error, size_t size);
void diff_free(DiffModel *m);

/* Whether any pair is a regression. */
bool diff_has_regression(const DiffModel *m);

/* The name of a status ("regression") and of reason bit i ("lost_cta"),
 * as the JSON writes them. */
const char *diff_status_name(DiffStatus s);
const char *diff_reason_name(int bit);

/* (diff_text.c) "registers 12 -> 48, CTAs/SM 8 -> 5 (lost 3), occupancy 100.0% -> 62.5%":
 * what moved in a pair, numbers only (no outside text), into buf. */
void diff_describe(const DiffPair *p, char *buf, size_t size);

/* The writers; each returns an exit status (EXIT_OK, or
 * EXIT_ENVIRONMENT when out of memory). */
int diff_write_text(const DiffModel *m, FILE *out);
int diff_write_json(const DiffModel *m, FILE *out);
int diff_write_markdown(const DiffModel *m, FILE *out);

#endif
