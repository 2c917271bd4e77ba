/*
 * prune_model.h: `silk-occ prune`, a tuning space (parameters, each with
 * its list of values, and the kernel's figures as numbers or formulas of
 * them) and the verdict on each of its configurations for one target, as
 * cmd_prune.c computes them and the writers print them.  The space is
 * read and checked in prune_space.c; a configuration is its index, its
 * parameter values the index's digits in the mixed radix of the lists
 * (the last parameter varying fastest, as itertools.product does).
 */
#ifndef SILK_PRUNE_MODEL_H
#define SILK_PRUNE_MODEL_H

#include "cli.h"

enum {
    PRUNE_MAX_PARAMS = 32,           /* parameters in a space */
    PRUNE_MAX_CONFIGS = 1000000,     /* configurations a space may have */
    PRUNE_SPACE_LIMIT_MIB = 16       /* a space's file, at most */
};

/* The kernel's figures a space gives, each a number or a formula. */
typedef enum PruneKey { PRUNE_THREADS, PRUNE_REGS, PRUNE_SMEM, PRUNE_DYN_SMEM, PRUNE_CLUSTER,
                        PRUNE_N_KEYS } PruneKey;

typedef struct PruneParam {
    char name[SIZE_EXPR_MAX_NAME + 1];
    uint64_t *values;
    size_t n;
} PruneParam;

typedef struct PruneSpace {
    PruneParam params[PRUNE_MAX_PARAMS];
    const char *names[PRUNE_MAX_PARAMS]; /* params[i].name, as SizeNames takes them */
    size_t n_params;
    SizeExpr *formula[PRUNE_N_KEYS];     /* NULL: the key is absent (0, none) */
    const char *text[PRUNE_N_KEYS];      /* as written, for messages */
    char text_store[PRUNE_N_KEYS][32];   /* a number's text */
    size_t n_configs;
} PruneSpace;

/* One configuration's verdict on one target. */
typedef struct PruneRecord {
    uint32_t index;
    OccPruneConfig config;
    OccPruneVerdict verdict;
} PruneRecord;

typedef struct PruneTarget {
    Target target;
    PruneRecord *records;      /* feasible first, by occupancy, then dropped,
                                * each in the space's order */
    size_t n_feasible, n_records;
} PruneTarget;

/* The JSON key of a figure ("dyn_smem"). */
const char *prune_key_name(PruneKey key);
/* The space in the file at path, checked, into *s; false after one line
 * naming the file (and the key, the parameter, the column). */
bool prune_space_read(const char *path, PruneSpace *s);
void prune_space_free(PruneSpace *s);
/* Configuration index's parameter values, into values[n_params]. */
void prune_space_values(const PruneSpace *s, size_t index, uint64_t *values);
/* Configuration index's figures for a target of warp_size; false after
 * one line naming the file, the key and the parameter values. */
bool prune_space_config(const char *path, const PruneSpace *s, size_t index, int warp_size,
                        OccPruneConfig *out);

/* What a dropped configuration breaks, in words, into buf. */
void prune_why(const Target *t, const PruneRecord *r, char *buf, size_t size);

/* The output (text or JSON) a target at a time, so that a target's
 * verdicts are freed before the next one's are made: begin, each target
 * (i counting from 0), end.  False, or not EXIT_OK, after one line. */
bool prune_write_begin(const PruneSpace *s, OutputFormat format, FILE *out);
bool prune_write_target(const PruneSpace *s, const PruneTarget *t, size_t i, OutputFormat format,
                        FILE *out);
int prune_write_end(OutputFormat format, FILE *out);

#endif
