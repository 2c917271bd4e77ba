/*
 * measure.h: one door for every input.  Given files of any kind (.silk,
 * .ptx, .cu, .cubin, .hsaco, and built binaries: executables, shared
 * objects, objects, static archives and .fatbin files, told by their
 * first bytes, measure_binary.c) and targets of both vendors, it returns per
 * file and target what each kernel uses, its launch bounds and the launch
 * work its source knows (usage.h's MeasuredFile), and measures kernels
 * again at register caps.  A .silk file is compiled once for all its
 * targets; every file's PTX (a .ptx file's, or nvcc's for a .cu file) is
 * measured by one ptxas run for all files and targets; cubins and AMD code
 * objects come measured.  A file that cannot give a target (PTX for an AMD
 * target) keeps the other targets and says why for that one.
 *
 * The library prints nothing: each message goes to the caller's `say`,
 * which words it for its program (silk-occ report prefixes
 * "silk-occ report: error: "), and every failure comes back as an exit
 * status of exit_status.h's one rule: the input's fault EXIT_USAGE, a
 * missing or broken tool EXIT_ENVIRONMENT, Silk diagnostics
 * EXIT_FINDINGS.
 */
#ifndef SILK_MEASURE_H
#define SILK_MEASURE_H

#include "amd.h"
#include "arena.h"
#include "exit_status.h"
#include "usage.h"

#include <stdbool.h>

typedef enum MeasureSeverity { MEASURE_WARNING, MEASURE_ERROR } MeasureSeverity;

typedef struct MeasureOptions {
    const char *nvcc_flags;    /* more nvcc options for .cu files; NULL: none */
    const AmdTable *amd_table; /* the AMD rows (a code object's wave size picks one) */
    bool own_targets;          /* the targets are the objects' own
                                * (measure_object_targets): skips go unsaid */
    const char *program;       /* "silk-occ report", in the compiler's messages */
    /* One message, a line (or a tool's own lines after the first). */
    void (*say)(void *context, MeasureSeverity severity, const char *message);
    void *context;
} MeasureOptions;

/* The outside tools a run ran to get its figures: the paths (or names
 * on $PATH) as run, NULL for each it did not run. */
typedef struct MeasureTools {
    const char *ptxas, *nvcc, *llc;
} MeasureTools;

/* One run: its files on its targets. */
typedef struct Measure {
    const MeasureOptions *options;
    const Target *targets;
    int n_targets;
    MeasuredFile *files;
    int n_files;
    const char *ptxas;         /* the one found; NULL: Silk kernels are estimated */
    char *tmpdir;              /* the PTX ptxas reads, nvcc's files */
    Arena *arena;
    MeasureTools ran;          /* what measured the figures, for the outputs to name */
} Measure;

/* Starts a run in `arena`: finds ptxas, makes the temporary directory
 * (gone at measure_close, or when a signal ends the program first).
 * EXIT_OK, or EXIT_ENVIRONMENT after saying why. */
int measure_open(Measure *m, const MeasureOptions *o, const Target *targets, int n_targets,
                 Arena *arena);

/* Reads and measures the n files on every target of the run, into
 * m->files.  EXIT_OK, or the status of the first that failed, said. */
int measure_files(Measure *m, char *const paths[], int n);

/* One CUDA translation unit of a project (compdb.h reads them from a
 * compile database): measured as a .cu file given on the command line,
 * but compiled with its own flags, in its own directory. */
typedef struct MeasureUnit {
    const char *path;          /* the source, from the root or from here */
    const char *name;          /* the file as the report names it */
    const char *directory;     /* where its nvcc runs (its relative -I); NULL: here */
    const char *nvcc;          /* the build's nvcc; NULL: the one found (nvcc_find),
                                * which $SILK_NVCC, or a build's that cannot run
                                * here, also gives */
    char *const *flags;        /* its nvcc flags (no -o, -c or source) */
    int n_flags;
} MeasureUnit;

/* How measure_units runs the compiles: at most `jobs` at a time (0: one
 * per online core), and `progress` (when set) told as each ends: how
 * many have, of how many, the architectures compiled ("sm_80,sm_90")
 * and the unit's name. */
typedef struct MeasureBatch {
    int jobs;
    void (*progress)(void *context, int done, int total, const char *archs, const char *name);
    void *context;
} MeasureBatch;

/* Measures the n units on the run's NVIDIA targets, every nvcc compile
 * in one batch, into m->files (the units that compiled, in their order;
 * file->path is the unit's name).  A unit that fails is not the run's
 * failure: failures[i] (n slots) is then why, one line (nvcc's first
 * error line, raw: the caller escapes it), else NULL.  EXIT_OK, or the
 * status of what stopped the whole run (no nvcc, no ptxas, no NVIDIA
 * target), said. */
int measure_units(Measure *m, const MeasureUnit *units, int n, const MeasureBatch *batch,
                  const char **failures);

void measure_close(Measure *m);

/* The versions of the tools the run ran (m->ran), each asked once with
 * `TOOL --version` (a job, no shell): "13.0.88" from ptxas's and nvcc's
 * "release 13.0, V13.0.88", "19.1.7" from llc's "LLVM version 19.1.7".
 * In the run's arena; NULL for a tool not run, or whose answer does not
 * say (the figures stand; only their provenance is unknown). */
void measure_tool_versions(Measure *m, MeasureTools *versions);

/* The version in a tool's --version text (`len` bytes, no NUL needed),
 * as above, into buf; false when the text has none. */
bool measure_parse_version(const char *text, size_t len, char *buf, size_t size);

/* A kernel to compile again at a register cap (the advice's), and what
 * the assembler made of it there. */
typedef struct MeasureCap {
    int file, target;          /* indices into the run's files and targets */
    const char *kernel;        /* the symbol */
    int cap;                   /* registers per thread */
    bool checked;              /* ptxas compiled it at the cap */
    int registers, spill_stores, spill_loads;
    bool unbounded;            /* instead of a cap: compiled without the bound
                                * its source gives it (.maxntid, .minnctapersm,
                                * .maxnreg; ptx_with_register_caps), cap unused */
} MeasureCap;

/* Compiles each capped kernel at its cap (or, `unbounded`, without its
 * bound), one ptxas per file and target, all at once (NVIDIA PTX only:
 * the others stay unchecked); a kernel appears at most once per call.  The policy
 * both silk-occ report and the compiler follow: a run compiles at most
 * MEASURE_CAP_BUDGET caps unless `all`, and false (nothing compiled)
 * when there are more. */
enum { MEASURE_CAP_BUDGET = 64 };
bool measure_caps(Measure *m, MeasureCap *caps, int n, bool all);

/* When every one of the n files is a .cubin, .hsaco or built binary that
 * reads, their targets (a binary's cubin architectures), each once, as "sm_80,gfx942" in `buf` (the targets of a report
 * given no other): 1; 0 when one is another kind or does not read (saying
 * nothing); -1 after an error was said. */
int measure_object_targets(char *const paths[], int n, const MeasureOptions *o, char *buf,
                           size_t size);

#endif
