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
    BUILD_TOOL_FAILED,   /* the assembler failed: each target's failure says how */
    BUILD_ENVIRONMENT,   /* a temporary file could not be made (reported) */
    BUILD_UNREADABLE,    /* build_file: the file does not read (reported) */
} BuildStatus;

typedef struct BuildOptions {
    const char *const *archs; /* the targets ("sm_90"), each known to a backend */
    int n_archs;
    BuildStage last;
    bool optimize;            /* false: -O0, the IR as lowered */
    bool measure_caps;        /* measure again at -Wocc-limit's register caps */
    const char *program;      /* "silkc": the name the compilation's diagnostics
                               * give messages with no place in the source */
} BuildOptions;

/* ---- failures: one vocabulary for every tool, one status for each event ----------------- */

/* How a tool failed, whatever the tool (ptxas; llc and ld.lld; the C
 * compiler of silkc build; nvcc) and whichever program ran it. */
typedef enum ToolFailure {
    TOOL_OK,
    TOOL_MISSING,     /* none is installed, and nothing stands in for it */
    TOOL_NOT_STARTED, /* one was found, but it could not be started */
    TOOL_KILLED,      /* a signal or a file-size limit ended it (jobs_failure_cause) */
    TOOL_SILENT,      /* it failed without a word: a broken tool, not a refusal */
    TOOL_NO_OUTPUT,   /* it exited 0 without its output (SILK_PTXAS=/bin/true) */
    TOOL_BAD_OUTPUT,  /* what it wrote does not read */
    TOOL_REJECTED,    /* it refused its input, in its own words */
} ToolFailure;

/* Whose input a tool was given. */
typedef enum ToolInput {
    TOOL_INPUT_OURS,  /* code the compiler made: PTX, LLVM IR, a program's C */
    TOOL_INPUT_USERS, /* a file the user gave (silk-occ report's .ptx or .cu) */
} ToolInput;

/* One failed run of a tool, as a backend or a program saw it. */
typedef struct ToolReport {
    ToolFailure failure;
    ToolInput input;
    const char *tool;    /* as run: a path, or a name on $PATH */
    const char *target;  /* "sm_90"; NULL when the run had none */
    const char *words;   /* its own output (TOOL_REJECTED, TOOL_KILLED), or why
                          * (TOOL_NOT_STARTED, TOOL_NO_OUTPUT, TOOL_BAD_OUTPUT) */
    int exit_status;     /* TOOL_SILENT: the status it exited with */
    int signal;          /* TOOL_KILLED: the signal, or 0 for a file-size limit */
    const char *code;    /* TOOL_REJECTED: what it refused ("the PTX", "k.ptx") */
    const char *missing; /* TOOL_MISSING: who needs it ("AMD targets need llc-19") */
    const char *hint;    /* TOOL_MISSING: how to get it; TOOL_REJECTED of our
                          * code: how to get that code, when the user has no
                          * file of it ("silkc compile --emit=ptx writes that PTX") */
} ToolReport;

/* A run that ended with `exit_status` (128 + N after signal N = `signo`)
 * and printed `words`, in the vocabulary above: TOOL_OK, TOOL_KILLED,
 * TOOL_SILENT or TOOL_REJECTED.  A driver's own statuses (not started, no
 * output) are its backend's to map. */
ToolFailure build_tool_failure(int exit_status, int signo, const char *words);

/* The exit status (exit_status.h) of a tool's failure, by the one rule
 * both programs document (silkc(1) and silk-occ(1), EXIT STATUS):
 * TOOL_REJECTED is its input's fault, EXIT_FINDINGS for code the compiler
 * made (a compiler bug, as code the generator cannot lower is) and
 * EXIT_USAGE for a file the user gave (unusable input); every other
 * failure is a tool missing or broken, EXIT_ENVIRONMENT.  EXIT_OK for
 * TOOL_OK. */
int build_failure_status(ToolFailure failure, ToolInput input);

/* Says `r` through `d` in the one wording of its event, and returns its
 * status (build_failure_status).  Nothing else says a tool's failure. */
int build_report_tool(Diag *d, const ToolReport *r);

/* That wording, for a caller with no Diag that passes the message on
 * (cpu_module_build): malloc'd, NULL when there is no memory for it. */
char *build_tool_message(const ToolReport *r);

/* The report of a tool run through jobs.h that failed (its status,
 * signal, output and errno) on code the compiler made, `code` naming it
 * ("the program's C"): what both C compiler drivers say, by the rule. */
struct JobRun;
ToolReport build_job_report(const struct JobRun *run, const char *tool, const char *code);

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
    const char *tool;        /* the tool that measured it (the one that failed) */
    ToolFailure failure;     /* BUILD_TOOL_FAILED: how, by its backend's mapping */
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

/* Load, then build: `path` read as the root package (`text`, `len`: its
 * text, given rather than read: standard input) and build_run's stages.
 * A file that does not read is BUILD_UNREADABLE, said once in one
 * wording for every program ("PATH: cannot read: REASON", or "larger than
 * the 256 MiB limit").  The caller ends with build_finish and
 * compile_free, whatever the status. */
BuildStatus build_file(Compilation *c, const char *path, const char *text, size_t len,
                       const BuildOptions *o, Build *b);

/* The stage after lowering on its own (build_run runs it on the lowered
 * module): every function of `m` verified, and each that fails summed up
 * as a compiler bug at its kernel's name (after the verifier's own
 * messages).  False when one failed. */
bool build_verify_lowered(Compilation *c, const IrModule *m);

/* The exit status of a build that returned `status`, by the rule of
 * build_failure_status: EXIT_OK; EXIT_FINDINGS for errors in the source
 * or a compiler bug (reported already); for BUILD_TOOL_FAILED, each
 * target's failure said (build_report_tool, a tool that is missing or
 * cannot start said once) and the highest of their statuses, a broken tool
 * over a compiler bug; EXIT_ENVIRONMENT for BUILD_ENVIRONMENT.  `kept`,
 * when not NULL, names for each target the file the user asked its code
 * to be written to (NULL: none), which a rejection then points at. */
int build_exit_status(const Build *b, BuildStatus status, const char *const kept[]);

/* One target's failure (t->failure not TOOL_OK), said as
 * build_exit_status says each; its status. */
int build_report_target(const Build *b, const BuildTarget *t, const char *kept);

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
