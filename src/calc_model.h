/*
 * calc_model.h: everything `silk-occ calc` computed, in one struct that the
 * three writers (text, JSON, CSV) print.  Writers compute nothing.
 */
#ifndef SILK_CALC_MODEL_H
#define SILK_CALC_MODEL_H

#include "cli.h"

typedef enum SweepKind { SWEEP_NONE, SWEEP_THREADS, SWEEP_REGS, SWEEP_SMEM } SweepKind;

/* One point of a sweep: the varied configuration and its result. */
typedef struct SweepRow {
    int threads;
    int regs;
    uint64_t static_smem, dynamic_smem;
    OccResult result;
} SweepRow;

typedef struct CalcModel {
    Target target;
    int threads;
    KernelResources kernel;
    uint64_t dynamic_smem;
    OccResult result;
    OccNextStep next;
    OccBlockSizeChoice best;   /* the engine's advice (occ_advise_block_size_all) */
    OccBlockSizeChoice runtime_best; /* cudaOccupancyMaxPotentialBlockSize's answer:
                                      * the largest size of maximum occupancy */
    bool have_work;
    uint64_t work;
    bool have_waves;           /* work given, SM count known, a CTA resident */
    OccWaves waves;            /* with work, ctas and tail_threads always */
    SweepKind sweep;
    SweepRow *rows;
    size_t n_rows;
} CalcModel;

const char *calc_sweep_name(SweepKind kind);

int calc_write_text(const CalcModel *m, FILE *out);
int calc_write_json(const CalcModel *m, FILE *out);

/* The keys of one occupancy result (threads .. allocated_smem_per_block),
 * added to a cJSON object: shared with report_json.c. */
struct cJSON;
void calc_json_add_result(struct cJSON *o, int threads, int regs, uint64_t static_smem,
                          uint64_t dynamic_smem, const OccResult *r);
int calc_write_csv(const CalcModel *m, FILE *out);

#endif
