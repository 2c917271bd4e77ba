/*
 * build.h: the one road from Silk source to measured kernels, taken by
 * every program that compiles Silk (silkc check and compile, silk-occ
 * report and verify, the fuzz target):
 *
 *   check -> lower -> verify -> static shared memory within its limit
 *         -> optimise (unless -O0) -> emit per target
 *         -> measure (the assembler, else the estimate)
 *         -> measure again at the register caps -Wocc-limit would advise
 *
 * The stages run in that order, each on what the one before accepted, up
 * to the last the caller asks for.  The verifier runs after lowering and,
 * in debug builds, after every pass; its faults are reported through the
 * compilation's diagnostics as compiler bugs, the same in every program.
 * Everything a build makes lives in the compilation's arena, and its
 * temporary files in a private directory that build_finish removes.
 */
#ifndef SILK_BUILD_H
#define SILK_BUILD_H

#include "backend.h"
#include "compile.h"
#include "ir.h"
#include "usage.h"

#include <stdbool.h>
#include <stddef.h>

/* The last stage a build runs. */
typedef enum BuildStage {
    BUILD_CHECK,   /* the front end only */
    BUILD_IR,      /* the IR, lowered, verified and optimised */
    BUILD_CODE,    /* each target's code */
    BUILD_MEASURE, /* each kernel's figures on each target */
} BuildStage;

typedef enum BuildStatus {
    BUILD_OK,
    BUILD_SOURCE_ERRORS, /* the program has errors (reported) */
    BUILD_COMPILER_BUG,  /* the verifier or a backend failed (reported) */
    BUILD_TOOL_FAILED,   /* the assembler failed: the targets' usage says how */
    BUILD_ENVIRONMENT,   /* a temporary file could not be made (reported) */
} BuildStatus;

typedef struct BuildOptions {
    const char *const *archs; /* the targets ("sm_90"), each known to a backend */
    int n_archs;
    BuildStage last;
    bool optimize;            /* false: -O0, the IR as lowered */
    bool measure_caps;        /* measure again at -Wocc-limit's register caps */
    const char *program;      /* "silkc": messages and the temporary directory */
} BuildOptions;

/* One target of a build: its code and what its kernels use. */
struct BuildTarget {
    const char *arch;
    const Backend *backend;
    const char *code;        /* the module for this target (PTX), NUL-terminated */
    size_t code_len;
    const char *code_path;   /* the private copy the assembler read; NULL: none */
    const char *binary_path; /* what the assembler made (a cubin); NULL: none */
    UsageReport usage;       /* every kernel's figures (BUILD_MEASURE) */
    UsageReport at_caps;     /* the capped kernels' figures; n_kernels 0: none */
};

struct Build {
    Compilation *c;
    const BuildOptions *options;
    IrModule *module;        /* from BUILD_IR on */
    BuildTarget *targets;    /* options->n_archs of them */
    int n_targets;
    const char *tool;        /* the assembler that ran, if one did */
    int tool_status;         /* BUILD_TOOL_FAILED: the first failed run's (the
                              * driver's status, as ptxas.h's PTXAS_NOT_STARTED) */
    int tool_errno;          /* errno, when the tool could not be started */
    char *tmpdir;            /* made on first use (build_temp_file) */
};

/* Runs the stages of `o` on the root files already loaded into `c`.
 * Returns BUILD_OK, or the status of the first stage that failed, whose
 * reasons were reported (or, for BUILD_TOOL_FAILED, are in the targets'
 * usage for the caller to show in its words). */
BuildStatus build_run(Compilation *c, const BuildOptions *o, Build *b);

/* The stage after lowering on its own (build_run runs it on the lowered
 * module): every function of `m` verified, and each that fails summed up
 * as a compiler bug at its kernel's name (after the verifier's own
 * messages).  False when one failed. */
bool build_verify_lowered(Compilation *c, const IrModule *m);

/* Removes the build's temporary files. */
void build_finish(Build *b);

/* NAME in the build's temporary directory, made on first use and
 * registered with cleanup.h before anything creates it; NULL (reported)
 * when it cannot be made. */
const char *build_temp_path(Build *b, const char *name);

/* `len` bytes of `text` written to build_temp_path(b, name); its path, or
 * NULL (reported). */
const char *build_temp_file(Build *b, const char *name, const char *text, size_t len);

#endif
