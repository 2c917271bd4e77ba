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

int calc_write_text(const CalcModel *m, FILE *out);
int calc_write_json(const CalcModel *m, FILE *out);
int calc_write_csv(const CalcModel *m, FILE *out);

#endif
