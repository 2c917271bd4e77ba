/*
 * calc_model.h: everything `silk-occ calc` computed for one kernel on one
 * target of either vendor, in one struct that the three writers (text,
 * JSON, CSV) print.  The engine's answer is in the one shape of
 * occupancy.h (OccFigures), beside the vendor engine's whole answer for
 * the figures only that vendor has (allocated registers, AGPRs, ...).
 * The model is computed in cmd_calc.c; writers compute nothing.
 */
#ifndef SILK_CALC_MODEL_H
#define SILK_CALC_MODEL_H

#include "amd.h"
#include "cli.h"

typedef enum SweepKind { SWEEP_NONE, SWEEP_THREADS, SWEEP_REGS, SWEEP_SMEM } SweepKind;

/* One configuration and the engine's answer for it: the one asked, or a
 * point of a sweep.  On AMD, regs counts VGPRs per lane and static_smem
 * the workgroup's LDS (as in the report's rows). */
typedef struct CalcRow {
    int threads;          /* per CTA, or work-items per workgroup */
    int regs;
    uint64_t static_smem, dynamic_smem;
    int warps;            /* warps per CTA, or waves per workgroup */
    OccFigures fig;       /* what every writer reads */
    OccResult nvidia;     /* NVIDIA: the engine's whole answer */
    AmdResult amd;        /* AMD: the engine's whole answer */
} CalcRow;

/* --cluster: a cluster of the kernel's CTAs and how many fit at once. */
typedef struct CalcCluster {
    int dims[3];
    int size;                  /* CTAs; 0: no --cluster */
    int portable_limit, limit; /* the architecture's (occ_cluster_limit) */
    int resident;              /* clusters resident on the product (an estimate,
                                * cluster.c); -1 unknown: no product or no
                                * public GPC count */
} CalcCluster;

typedef struct CalcModel {
    Target target;             /* either vendor's, with its SM (CU, WGP) count */
    CalcRow row;               /* the configuration asked */
    KernelResources kernel;    /* NVIDIA: the kernel as the engine takes it */
    AmdKernel amd_kernel;      /* AMD */
    OccNextStep next;          /* NVIDIA: one more CTA per SM */
    AmdNextStep amd_next;      /* AMD: one more wave per SIMD */
    bool have_best;            /* the block-size advice below (NVIDIA) */
    OccBlockSizeChoice best;   /* the engine's advice (occ_advise_block_size_all) */
    OccBlockSizeChoice runtime_best; /* cudaOccupancyMaxPotentialBlockSize's answer:
                                      * the largest size of maximum occupancy */
    bool have_work;
    uint64_t work;
    bool have_waves;           /* work given, SM count known, a group resident */
    OccWaves waves;            /* with work, ctas and tail_threads always */
    CalcCluster cluster;       /* NVIDIA: --cluster; size 0 when not given */
    SweepKind sweep;
    CalcRow *rows;
    size_t n_rows;
} CalcModel;

enum { MAX_BARRIERS = 16 };

/* calc's options, from the command line or a --batch line. */
typedef struct CalcOptions {
    const char *arch, *gpu;
    long long threads, regs, barriers, sms;
    uint64_t smem, dyn_smem, work;
    bool have_threads, have_regs, have_work, have_sms;
    bool optin;
    int carveout;
    int cluster[3];            /* --cluster; all 0: none */
    OutputFormat format;
    SweepKind sweep;
    char *tables[MAX_TABLE_FILES];
    int n_tables;
    /* AMD targets' */
    long long vgprs, agprs, sgprs;
    uint64_t lds;
    bool have_vgprs;
    int waves_per_eu_min, waves_per_eu_max;
    const char *smem_text, *dyn_smem_text; /* sizes or expressions, valued once the
                                            * target (its warp size) is known */
    CliParams *params;         /* --param: the names those expressions may use (the
                                * command's; outside, as --batch's lines start
                                * from a zeroed struct each) */
    const char *nvidia_option; /* an NVIDIA-only option given, for the error on AMD */
    const char *amd_option;    /* an AMD-only option given, for the error on NVIDIA */
    /* calc --batch: the checks' messages go to error (error_size bytes)
     * rather than stderr, warnings are not given, and the model has the
     * figures only (no next step, no block-size advice). */
    char *error;
    size_t error_size;
    bool batch;                /* --batch given */
    int other_option;          /* an option other than --batch and --arch-table */
} CalcOptions;

/* The checks of o against the target t (resolved, of either vendor) and
 * the model, into *m (free m->rows); false after one message, to stderr
 * or o->error. */
bool calc_prepare(CalcOptions *o, Target *t, CalcModel *m);

/* calc --batch (calc_batch.c): JSON Lines in, one answer per line out;
 * EXIT_OK, EXIT_FINDINGS when a line was bad, EXIT_USAGE when the tables
 * did not load. */
int calc_batch(char **tables, int n_tables, FILE *in, FILE *out);

int calc_write_text(const CalcModel *m, FILE *out);
int calc_write_json(const CalcModel *m, FILE *out);
int calc_write_csv(const CalcModel *m, FILE *out);

#endif
