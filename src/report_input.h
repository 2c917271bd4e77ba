/*
 * report_input.h: the files `silk-occ report` analyses, each as PTX per
 * target and the kernels in it with their launch bounds: a .silk file
 * through the compiler (report_input.c), a .ptx file as it is.
 */
#ifndef SILK_REPORT_INPUT_H
#define SILK_REPORT_INPUT_H

#include "report_model.h"
#include "report_ptx.h"

typedef struct ReportSource {
    const char *path;
    bool silk;
    ReportKernel *kernels;     /* launch bounds; usage: the estimate (Silk) */
    int n_kernels;
    /* Per target: */
    const char **ptx_paths;    /* the file ptxas reads */
    const char **ptx_texts;
    size_t *ptx_lens;
    PtxEntry **entries;        /* the scan of that text */
    int *n_entries;
} ReportSource;

/* Reads `path` for the n targets, writing Silk's PTX under `tmpdir`.
 * Returns EXIT_OK, EXIT_USAGE (unreadable, unknown kind; said on stderr)
 * or EXIT_FINDINGS (the compiler's diagnostics were printed). */
int report_load(const char *path, const Target *targets, int n, const char *tmpdir, Arena *arena,
                ReportSource *out);

/* The PtxEntry of `name` for target i; NULL if absent. */
const PtxEntry *report_source_entry(const ReportSource *s, int target, const char *name);

/* Writes `len` bytes to a new file `dir/stem.ext`; the path, or NULL with
 * the reason printed. */
const char *report_write_temp(const char *dir, const char *stem, const char *text, size_t len,
                              Arena *arena);

#endif
