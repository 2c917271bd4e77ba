/*
 * verify.h: what the program's files of `silk-occ verify` share, beside
 * the engine they drive (verify_engine.h, libsilkverify).
 *
 *   cmd_verify.c      options, the run, the exit status
 *   verify_kernels.c  the built-in kernels, compiled from Silk
 *   verify_output.c   the text and JSON reports
 */
#ifndef SILK_VERIFY_H
#define SILK_VERIFY_H

#include "cli.h"
#include "verify_engine.h"

#include <stdio.h>

/* ---- the built-in kernels (verify_kernels.c) -------------------------- */

/* The built-in kernels as one PTX module for `arch_name` ("sm_90"),
 * malloc'ed; NULL with `error` when they cannot be compiled. */
char *verify_builtin_ptx(const char *arch_name, char *error, size_t size);

/* The Silk file `path` (or, when `text` is not NULL, `len` bytes of text
 * named `path`) through the build pipeline (build.h) to PTX for `arch`
 * ("sm_90"): malloc'd, or NULL with the diagnostics printed. */
char *verify_silk_ptx(const char *path, const char *text, size_t len, const char *arch);

/* ---- output (verify_output.c) ------------------------------------------ */

/* One disagreement, kept for the report; also the shape of each cluster
 * answer, which the report lists whether or not it agrees. */
typedef struct VerifyDisagreement {
    int kernel;
    VerifyQuery query;
    VerifyAnswer runtime, engine;
} VerifyDisagreement;

typedef struct VerifyReport {
    const DeviceProps *props;
    int device;
    const char *row_name;          /* "9.0"; NULL when the tables lack it */
    const PropCheck *props_checked;
    int n_props;
    const VerifyKernel *kernels;
    int n_kernels;
    const int *checked_per_kernel;
    const int *disagree_per_kernel;
    const VerifyDisagreement *disagreements;
    int n_disagreements;
    long checked, disagree;        /* properties and answers together */
    /* Every VQ_ACTIVE_CLUSTERS answer, in the order asked, and the product
     * whose GPC layout the engine's were counted on (NULL: none known, so
     * each engine answer is only a bound); whether the device's name
     * found it, or its compute capability and SM count. */
    const VerifyDisagreement *clusters;
    int n_clusters;
    const GpuProduct *cluster_product;
    bool cluster_by_name;
} VerifyReport;

void verify_print_text(const VerifyReport *r, FILE *out);
/* EXIT_OK, or EXIT_ENVIRONMENT when the text cannot be made. */
int verify_print_json(const VerifyReport *r, FILE *out);

#endif
