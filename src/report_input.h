/*
 * report_input.h: the files `silk-occ report` analyses, each as PTX per
 * target and the kernels in it with their launch bounds: a .silk file
 * through the compiler (report_input.c), a .ptx file as it is, a .cu file
 * through nvcc -ptx for each target (report_cuda.c); or a .cubin file
 * (report_cubin.c), measured already.  Each target has its own list of
 * kernels: CUDA code compiles a different set per architecture when it
 * tests __CUDA_ARCH__.
 */
#ifndef SILK_REPORT_INPUT_H
#define SILK_REPORT_INPUT_H

#include "cli.h"
#include "report_model.h"
#include "ptx/ptx_scan.h"

typedef struct ReportSource {
    const char *path;
    InputKind kind;
    /* Per target (arrays of the n targets): */
    MeasuredKernel **kernels;    /* that target's kernels: launch bounds, and the
                                * usage when `measured` (else ptxas's comes) */
    int *n_kernels;
    const char **ptx_paths;    /* the file ptxas reads; NULL for a cubin */
    const char **ptx_texts;
    size_t *ptx_lens;
    PtxEntry **entries;        /* the scan of that text */
    int *n_entries;
    bool measured;             /* a .cubin: its kernels' usage is the file's */
    bool *skipped;             /* per target: a cubin that does not run
                                * there; NULL when every target is reported */
} ReportSource;

/* How the compiled inputs are read. */
typedef struct ReportLoadOptions {
    const char *nvcc_flags; /* --nvcc-flags, for .cu files; NULL: none */
    const AmdTable *amd_table; /* the AMD targets' rows (.hsaco files' wave sizes) */
    bool targets_from_cubins; /* the targets are the objects' own
                               * (report_object_archs): skips go unsaid */
} ReportLoadOptions;

/* Reads `path` for the n targets, writing Silk's PTX under `tmpdir`, with
 * `options` for .cubin and .cu files.  Returns EXIT_OK,
 * EXIT_USAGE (unreadable, unknown kind, a cubin no target runs; said on
 * stderr; a .cu file nvcc rejects, with nvcc's words), EXIT_FINDINGS
 * (the compiler's diagnostics were printed) or EXIT_ENVIRONMENT (no nvcc
 * for a .cu file; said). */
int report_load(const char *path, const ReportLoadOptions *options, const Target *targets, int n,
                const char *tmpdir, Arena *arena, ReportSource *out);

/* report_load for a .cubin file: kernels from the ELF, every target
 * measured by it, those it cannot run on skipped (with a warning unless
 * `quiet`). */
int report_load_cubin(const char *path, bool quiet, const Target *targets, int n, Arena *arena,
                      ReportSource *s);

/* A cubin's architecture ("sm_80") in `buf`; false, saying nothing, when
 * it does not read (report_load says why). */
bool report_cubin_arch(const char *path, char *buf, size_t size);

/* When every one of the n files is a .cubin or .hsaco that reads, their
 * targets, each once, as "sm_80,gfx942" in `buf` (the targets of a report
 * given no other): 1; 0 when one is another kind or does not read (saying
 * nothing); -1 after an error was said. */
int report_object_archs(char *const files[], int n, const AmdTable *amd, char *buf, size_t size);

/* report_load for a .hsaco file (report_hsaco.c): its kernels on the AMD
 * targets of its processor, each on its wave size's row; the others
 * skipped. */
int report_load_hsaco(const char *path, const AmdTable *table, const Target *targets, int n,
                      Arena *arena, ReportSource *s);

/* A code object's own target ("gfx942") in `buf`: 1; 0 when it does not
 * read (report_load says why); -1 when it reads but names no row of the
 * table (said). */
int report_hsaco_arch(const char *path, const AmdTable *table, char *buf, size_t size);

/* A figure of an AMD kernel that no wave of target row `t` can have:
 * false after one line naming the metadata field, the limit and the row. */
bool report_amd_kernel_fits(const char *file, const KernelUsage *ku, const AmdTarget *t);

/* report_load for a .cu file (report_cuda.c): nvcc -ptx per target into `tmpdir`, each
 * target's PTX then read as a .ptx file's (report_use_ptx). */
int report_load_cuda(const char *path, const char *nvcc_flags, const Target *targets, int n,
                     const char *tmpdir, Arena *arena, ReportSource *s);

/* Target i of `s` reads the PTX `text` (`len` bytes) at `ptx_path`: its
 * entries scanned, its kernels those entries. */
void report_use_ptx(ReportSource *s, int i, const char *ptx_path, const char *text, size_t len,
                    Arena *arena);

/* Target i reads what target j read (the same PTX: a .ptx file's every
 * target, a .cu file's targets of one architecture). */
void report_share_target(ReportSource *s, int i, int j);

/* The file at `path`, NUL-terminated, in the arena, read by read_file up
 * to READ_FILE_CODE_LIMIT_MIB; NULL with errno set (EFBIG: larger). */
char *report_read_file(const char *path, Arena *arena, size_t *len);

/* The constant grid (work items) of the first launch block of `kernel` in
 * a checked compilation's own package; 0: none (the AMD report's work). */
struct Compilation;
uint64_t report_launch_work(const struct Compilation *c, const char *kernel);

/* The kernel of target i named `name` (the symbol); NULL if absent. */
const MeasuredKernel *report_source_kernel(const ReportSource *s, int target, const char *name);

/* Whether the kernels of `s` are reported for target i. */
static inline bool report_source_runs_on(const ReportSource *s, int target)
{
    return !s->skipped || !s->skipped[target];
}

/* The PtxEntry of `name` for target i; NULL if absent. */
const PtxEntry *report_source_entry(const ReportSource *s, int target, const char *name);

/* ptxas failed on `path` for `arch` (`run` says how): one line, in
 * ptxas's words when it rejected the PTX (the compiler's own PTX is a
 * compiler bug).  Returns the exit code: EXIT_ENVIRONMENT for a broken
 * ptxas, EXIT_FINDINGS for Silk, EXIT_USAGE for the user's PTX. */
int report_ptxas_failed(const char *ptxas, const char *path, InputKind kind,
                        const UsageReport *run, const char *arch);

/* Writes `len` bytes to a new file `dir/stem.ext`; the path, or NULL with
 * the reason printed. */
const char *report_write_temp(const char *dir, const char *stem, const char *text, size_t len,
                              Arena *arena);

#endif
