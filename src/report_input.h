/*
 * report_input.h: the files `silk-occ report` analyses, each as PTX per
 * target and the kernels in it with their launch bounds: a .silk file
 * through the compiler (report_input.c), a .ptx file as it is; or, for a
 * .cubin file and a .cu file (report_cubin.c), measured already.
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
    /* .cubin and .cu: no PTX; the figures per target (spills -1, unknown),
     * NULL for .silk and .ptx, which ptxas measures. */
    PtxasReport *measured;
    bool *skipped;             /* per target: a cubin that does not run
                                * there; NULL when every target is reported */
} ReportSource;

/* How the compiled inputs are read. */
typedef struct ReportLoadOptions {
    const char *nvcc_flags; /* --nvcc-flags, for .cu files; NULL: none */
    bool targets_from_cubins; /* the targets are the cubins' own
                               * (report_cubin_archs): skips go unsaid */
} ReportLoadOptions;

/* Reads `path` for the n targets, writing Silk's PTX under `tmpdir`, with
 * `options` for .cubin and .cu files.  Returns EXIT_OK,
 * EXIT_USAGE (unreadable, unknown kind, a cubin no target runs; said on
 * stderr), EXIT_FINDINGS (the compiler's or nvcc's diagnostics were
 * printed) or EXIT_ENVIRONMENT (no nvcc for a .cu file; said). */
int report_load(const char *path, const ReportLoadOptions *options, const Target *targets, int n,
                const char *tmpdir, Arena *arena, ReportSource *out);

/* report_load for a .cubin file: kernels from the ELF, every target
 * measured by it, those it cannot run on skipped (with a warning unless
 * `quiet`). */
int report_load_cubin(const char *path, bool quiet, const Target *targets, int n, Arena *arena,
                      ReportSource *s);

/* When every one of the n files is a .cubin that reads, their
 * architectures, each once, as "sm_80,sm_86" in `buf` (the targets of a
 * report given no other), and true; else false, saying nothing. */
bool report_cubin_archs(char *const files[], int n, char *buf, size_t size);

/* report_load for a .cu file: nvcc -cubin per target, read back. */
int report_load_cuda(const char *path, const char *nvcc_flags, const Target *targets, int n,
                     Arena *arena, ReportSource *s);

/* Whether the kernels of `s` are reported for target i. */
static inline bool report_source_runs_on(const ReportSource *s, int target)
{
    return !s->skipped || !s->skipped[target];
}

/* The PtxEntry of `name` for target i; NULL if absent. */
const PtxEntry *report_source_entry(const ReportSource *s, int target, const char *name);

/* Writes `len` bytes to a new file `dir/stem.ext`; the path, or NULL with
 * the reason printed. */
const char *report_write_temp(const char *dir, const char *stem, const char *text, size_t len,
                              Arena *arena);

#endif
