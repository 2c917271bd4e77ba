/*
 * report_writers.h: how `silk-occ report` prints the model
 * (report_model.h, libsilkreport): one writer per format, and the
 * sentences the people's formats share (report_words.c).  The model
 * computes; these only word and lay out what it computed.
 */
#ifndef SILK_REPORT_WRITERS_H
#define SILK_REPORT_WRITERS_H

#include "cli.h"
#include "report_model.h"

#include <stdio.h>

/* Names in people's formats (report_titles.c): each entry's demangled
 * title, its template arguments shortened with "…" when it is wider than
 * REPORT_TITLE_WIDTH columns, and where two kernels' titles would read
 * alike, each followed by "[…]", the argument where its name differs
 * (JSON keeps names whole).  Escaped for a terminal.  One string per entry
 * of m, in one block that report_titles_free frees; NULL when out of
 * memory. */
enum { REPORT_TITLE_WIDTH = 100, REPORT_TITLE_SIZE = 1024 };
char **report_titles_make(const ReportModel *m);

/* Room for a host launch or verification snippet: a kernel's C++ name
 * may be DEMANGLE_MAX_LENGTH (32 KiB) of a GEMM library's templates, and
 * the snippet must hold it whole to compile (report_titles.c checks). */
enum { REPORT_CODE_SIZE = 36 * 1024 };
void report_titles_free(char **titles);

/* The sentences both people's formats print (report_words.c): lower case
 * first, no final stop, code between backticks (report_print_plain prints
 * one without them).  The bool ones return false when there
 * is nothing to say (then buf is untouched). */
void report_reason_sentence(const ReportEntry *e, const Reason *r, char *buf, size_t size);
void report_limiter_names(const OccFigures *f, char *buf, size_t size);
bool report_tail_note(const ReportEntry *e, const TailRow *t, char *buf, size_t size);
/* Section 4: the advice and, when a cap is advised, what ptxas made of it
 * (check empty otherwise).  False when no block size runs. */
bool report_bounds_advice(const ReportEntry *e, char *advice, char *check, size_t size);
void report_grid_sentence(const ReportEntry *e, char *buf, size_t size);
/* Section 6's further rules: the launch's thread-block cluster (its size
 * against the architecture's limits, the grid in whole clusters, the
 * resident clusters), and shared memory above the per-CTA default. */
bool report_cluster_sentence(const ReportEntry *e, char *buf, size_t size);
bool report_smem_optin_sentence(const ReportEntry *e, char *buf, size_t size);
bool report_spill_sentence(const ReportEntry *e, const ReportRow *r, char *buf, size_t size);
void report_next_step_sentence(const ReportEntry *e, char *buf, size_t size);
/* Where the figures come from and what they are: registers, shared
 * memory, barriers, spills. */
void report_usage_sentence(const ReportEntry *e, char *buf, size_t size);
/* The launch bounds the kernel was compiled with, or "none". */
void report_bounds_sentence(const ReportEntry *e, char *buf, size_t size);
/* The work, the grid that covers it and its last CTA (or, for 2-D work,
 * the threads past its edges); only with work and a selected size. */
void report_work_sentence(const ReportEntry *e, char *buf, size_t size);
/* A kernel with dynamic shared memory that no --dyn-smem sized: the rows
 * are an upper bound.  False when there is nothing to say. */
bool report_dynamic_smem_note(const ReportEntry *e, char *buf, size_t size);
/* A relocatable cubin's kernel that calls another file: its registers may
 * rise at link time.  False when there is nothing to say. */
bool report_link_note(const ReportEntry *e, char *buf, size_t size);
/* ptxas's warning i about the kernel, escaped, "ptxas: warning: ...";
 * false past the last. */
bool report_warning_sentence(const ReportEntry *e, int i, char *buf, size_t size);
/* What the kernel's own bound costs when it spills under it (ptxas
 * without the bound); false when there is nothing to say. */
bool report_bound_cost_sentence(const ReportEntry *e, char *buf, size_t size);
void report_print_plain(FILE *out, const char *sentence);

/* The words of a target's vendor, so that one writer serves both: NVIDIA
 * counts CTAs per SM, AMD workgroups per CU (or WGP) and waves per SIMD. */
typedef struct ReportTerms {
    const char *group, *groups;   /* "CTA", "CTAs"; "workgroup", "workgroups" */
    const char *unit, *units;     /* "SM", "SMs"; "CU", "CUs" (or "WGP", "WGPs") */
    const char *per_unit;         /* "CTAs/SM"; "WGs/CU" */
    const char *limits;           /* what the limit columns count */
    int columns[4];               /* the limiters the tables show, in order */
    const char *column_names[4];  /* for the text's narrow columns */
    const char *column_titles[4]; /* for markdown's */
    const char *assembler;        /* "ptxas"; "llc" */
} ReportTerms;

ReportTerms report_terms(const ReportEntry *e);

/* "Hopper, compute capability 9.0" or "CDNA3, wave64": the target's
 * family and its kind, for headers. */
void report_target_words(const ReportEntry *e, char *buf, size_t size);

int report_write_text(const ReportModel *m, FILE *out);
/* `tools`: the versions of the tools that measured (NULL: none known). */
struct JsonTools;
int report_write_json(const ReportModel *m, const struct JsonTools *tools, FILE *out);
/* The JSON report_write_json writes, for a caller to add to (the AMD
 * targets' "amd" array) before printing it. */
struct cJSON *report_json_root(const ReportModel *m, const struct JsonTools *tools);
int report_write_csv(const ReportModel *m, FILE *out);
int report_write_markdown(const ReportModel *m, FILE *out);

#endif
