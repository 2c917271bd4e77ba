/*
 * silkc.h: what the silkc driver's files share: the options of
 * `silkc compile`, `exec`, `build` and `run`, and the exit codes of
 * exit_status.h.
 */
#ifndef SILK_SILKC_H
#define SILK_SILKC_H

#include "compile.h"
#include "exit_status.h"
#include "ir.h"
#include "output.h"
#include "header.h"
#include "run/run.h"

#include <errno.h>
#include <stdbool.h>

/* EMIT_PTX is each target's default: PTX for NVIDIA, the code object
 * (.hsaco) for AMD; EMIT_LLVM an AMD target's LLVM IR. */
typedef enum EmitKind { EMIT_PTX, EMIT_IR, EMIT_CUBIN, EMIT_HEADER, EMIT_C, EMIT_LLVM } EmitKind;

/* The options only `silkc compile` (and exec) take. */
typedef struct SilkcRequest {
    bool compile;        /* the command is compile (else check) */
    bool exec;           /* the command is exec */
    bool build;          /* the command is build, or run */
    bool run;            /* the command is run */
    const char *const *program_args; /* run: what follows --, for the program */
    int n_program_args;
    const char *kernel;  /* exec: --kernel */
    uint64_t grid, workspace, seed; /* exec: --grid, --workspace (0: the kernel's), --seed */
    uint32_t sms;        /* exec: --sms, ctx.sms */
    bool sms_given;      /* exec: --sms was given */
    RunBackend backend;  /* exec: --backend cpu (the default) or cuda */
    const char *backend_given; /* exec: the --backend value, once given */
    int workers;         /* exec: --workers (0: one per core) */
    RunBinding *bindings; /* exec: --arg and --buf, in order */
    int n_bindings;
    bool dump;           /* exec: --dump */
    bool list;           /* exec: --list, the kernels and their parameters */
    bool race;           /* exec, build, run: --race (CompileOptions.race_checks) */
    const char *archs;   /* --arch: "sm_90,sm_80" (check takes it too) */
    const char *output;  /* -o */
    EmitKind emit;       /* --emit= */
    bool resource_usage; /* --resource-usage */
    bool json;           /* --format json */
    bool no_optimize;    /* -O0: no IR passes (pass.h) */
    const char *const *inputs; /* the root files, as given ("-": standard input) */
    int n_inputs;
    Diag *diag;          /* where the driver's messages go (silkc_error) */
} SilkcRequest;

/* The driver's messages, which have no place in the source: a missing
 * file, an option's value, a tool that failed.  "silkc: error: ..." in the
 * text form, a record with empty "locations" in the JSON array
 * (diag_vplain).  `d` is the compilation's Diag, or NULL before there is
 * one. */
void silkc_error(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void silkc_note(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Every file the compilation read, as given (the root files, then each
 * module's path), in c's arena: no output may be one of them (output.h). */
const char **silkc_input_files(Compilation *c, const SilkcRequest *r, int *n);

/* An output that could not be opened or committed, said through `d`; its
 * exit code: a target the user named wrongly is usage, a full disk the
 * environment. */
int silkc_output_failed(Diag *d, const Output *out);

/* At most this many --arch targets. */
enum { SILKC_MAX_TARGETS = 16 };

/* --arch's list split into `archs` (*n of them); a usage error, printed,
 * for an empty or unknown element, or "cpu" (`cpu` says why). */
int silkc_split_targets(Compilation *c, const char *list, const char *cpu, const char **archs,
                        int *n);

/* The back end on checked, loaded files: lower, verify, write; returns an
 * exit code. */
int silkc_compile(Compilation *c, const SilkcRequest *r);

/* `silkc check`: the front end; with --arch, then the occupancy warnings
 * (occ_warn.h) from each kernel's figures on each target, which needs the
 * back end and ptxas (or the estimate); writes nothing.  Returns an exit
 * code. */
int silkc_check(Compilation *c, const SilkcRequest *r);

/* `silkc build` and `silkc run` (silkc_build.c): the program's host code
 * as C with its kernels (compiler/c/c.h), compiled and linked with the
 * runtime into an executable, or with --emit=c that C; `run` runs the
 * executable from a private temporary directory and returns its exit
 * status.  Returns an exit code. */
int silkc_build(Compilation *c, const SilkcRequest *r);

/* The occupancy warnings (occ_warn.h) of a build measured to
 * BUILD_MEASURE, and --resource-usage's table. */
typedef struct Build Build;
void silkc_judge_usage(Compilation *c, const SilkcRequest *r, const Build *b);

/* `silkc exec`: the program built for the CPU backend (cpu.h), or with
 * --backend cuda for the GPU, and the kernel --kernel run with the
 * buffers and values of the request (compiler/run/run.h); exit 1 when the
 * kernel faults or its launch fails (one line on stderr), 3 when
 * --backend cuda finds no driver or no device. */
int silkc_exec(Compilation *c, const SilkcRequest *r);

#endif
