/*
 * run.h: running what the compiler builds, for the programs that ask:
 * one kernel run with buffers made from words (`silkc exec`), on this
 * machine's cores by the CPU backend or on a GPU through the CUDA Driver
 * API; and a whole program's C compiled against the runtime into an
 * executable, and run (`silkc build`, `silkc run`).
 *
 * This is library work, not a program's: it builds, runs a tool (the C
 * compiler), loads modules and drives a device, and the programs hold
 * options, target resolution and writers only.  So it lives here, beside
 * the pipeline it calls, and like every library it prints nothing on its
 * own: every failure goes through the compilation's diagnostics
 * (diag_vplain, "silkc: error: ..." as silkc's own messages), and every
 * call returns an exit status (exit_status.h) for the program to pass on.
 * What a person reads of a run's results (--dump, --list's lines) is
 * written to a stream the program gives, or by the program itself.
 *
 * The files, one job each:
 *
 *   run.c           one kernel run: the build's options, the launch's
 *                   geometry, the backend chosen
 *   run_kernels.c   the kernels as exec binds them, from the IR
 *   run_buffers.c   the parameters bound from --arg and --buf, the buffers
 *                   made and, after the run, dumped or written
 *   run_cpu.c       the run on this machine's cores (compiler/cpu/cpu.h)
 *   run_cuda.c      the run on a GPU, through the CUDA Driver API
 *                   (std/runtime/cuda_driver.h)
 *   run_toolchain.c the runtime and the C compiler found, and the C
 *                   compiler run on a program's C
 *   run_program.c   a program's C from a build (compiler/c/c.h), written
 *                   to a stream or compiled into an executable
 *   run_exec.c      a built program run in the foreground
 *
 * Both backends bind the same arguments into the same host buffers (the
 * same seed, the same bytes) and launch the same geometry, so that their
 * results can be compared byte for byte (tests/gpu/compare-cpu.sh).
 */
#ifndef SILK_RUN_H
#define SILK_RUN_H

#include "build.h"
#include "c/c.h"
#include "compile.h"
#include "diag.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- one kernel run ---------------------------------------------------------------------- */

/* A parameter as given: --arg VALUE (a scalar) or --buf TYPE:COUNT:INIT. */
typedef struct RunBinding {
    bool buffer;
    const char *text;
} RunBinding;

/* Where the kernel runs: the CPU backend, or GPU 0 through the CUDA Driver API. */
typedef enum RunBackend { RUN_BACKEND_CPU, RUN_BACKEND_CUDA } RunBackend;

/* What a run is asked. */
typedef struct RunRequest {
    RunBackend backend;
    const char *kernel;
    uint64_t grid;       /* work items: ceil(grid / threads) CTAs */
    uint64_t workspace;  /* the CTA size; 0: the kernel's @launch size */
    uint64_t seed;       /* of the `random` initial values */
    uint32_t sms;        /* the CPU backend's ctx.sms; 0: SILK_EMULATED_SMS */
    int workers;         /* the CPU backend's worker threads; 0: one per core */
    const RunBinding *bindings; /* one per parameter, in order */
    int n_bindings;
    bool optimize;       /* false: -O0 */
} RunRequest;

/* A kernel as a run binds and launches it, whichever backend built it. */
typedef struct RunKernel {
    const char *name;
    uint32_t n_params;                      /* with a @persistent kernel's hidden last one */
    const char *const *param_names;
    const char *const *param_types;         /* the IR's: "i64" (a tensor's address), "f32" */
    const char *const *param_source_types;  /* Silk's: "tensor<f32>[n]", "u64" */
    uint32_t fixed_threads;                 /* the @launch CTA size; 0: any */
    uint64_t dynamic_shared;                /* @smem bytes */
    bool persistent;
} RunKernel;

/* A --buf element type. */
typedef struct RunElementType {
    const char *name;
    int bytes;
    char kind; /* 's' signed, 'u' unsigned, 'f' float */
} RunElementType;

/* A buffer on the host: its initial values, and after the run its results. */
typedef struct RunBuffer {
    const RunElementType *type;
    uint64_t count;
    unsigned char *data;
} RunBuffer;

/* The buffers a run made, one per --buf in order (malloc'd). */
typedef struct RunBuffers {
    RunBuffer *buffers;
    int n;
} RunBuffers;

/* The program in `c` (loaded, not yet built) built for the request's
 * backend and its kernel run: its parameters bound, its buffers made,
 * launched, the buffers back in *out (to be freed with run_buffers_free
 * in any case).  An exit status: EXIT_USAGE for a request the program
 * cannot run (no such kernel, a parameter that does not fit), EXIT_FINDINGS
 * when the program has errors or the kernel faults or its launch fails,
 * EXIT_ENVIRONMENT when --backend cuda finds no driver or no device; each
 * said through c's diagnostics. */
int run_kernel(Compilation *c, const RunRequest *q, RunBuffers *out);

void run_buffers_free(RunBuffers *b);

/* --dump: each buffer to `out`, its name line, then eight elements a line. */
void run_buffers_dump(const RunBuffers *b, FILE *out);

/* --out PATH: the buffers' bytes, one after the other, whole or not at all
 * (output.h), never over one of the `inputs`; an exit status, the failure
 * said through `d`. */
int run_buffers_write(Diag *d, const RunBuffers *b, const char *path, const char *const *inputs,
                      int n_inputs);

/* The program in `c` built to its IR and each kernel described as a run
 * binds it, in the program's order, into *kernels (*n of them, in c's
 * arena); an exit status. */
int run_kernels(Compilation *c, bool optimize, const RunKernel **kernels, uint32_t *n);

/* ---- a whole program --------------------------------------------------------------------- */

/* Where configure put the runtime, and how it was built: the program
 * knows these (its build defines them), the library looks there. */
typedef struct RunInstall {
    const char *source_runtime_dir; /* std/runtime of the source tree: silkrt.h of
                                     * a build outside the source tree */
    const char *libdir;             /* the installed libsilkrt.a's directory */
    const char *includedir;         /* the installed silkrt.h's directory */
    const char *sanitizer_flags;    /* those the runtime was built with ("": none) */
} RunInstall;

/* The most words of $CC. */
enum { RUN_CC_WORDS = 16 };

/* What a program is compiled and linked with. */
typedef struct RunToolchain {
    const char *library;         /* .../libsilkrt.a */
    const char *include_dir;     /* holds silkrt.h */
    char **cc;                   /* the C compiler's words, NULL after them */
    const char *sanitizer_flags;
} RunToolchain;

/* The runtime, found as silkc(1) says: $SILK_RUNTIME_DIR (both files in
 * it), else the build tree silkc runs from (../std/runtime beside its
 * directory), else where `install` says; then the C compiler ($CC split
 * as make splits it, else cc).  EXIT_OK, or EXIT_ENVIRONMENT (said) when
 * either is missing. */
int run_find_toolchain(Compilation *c, const RunInstall *install, RunToolchain *t);

/* Compiles `source` (a program's C) with t's compiler and links it with
 * the runtime into `program`.  An exit status: by the rule of every
 * tool's failure (build_report_tool) when it fails, the compiler's output
 * shown. */
int run_compile(Build *b, const RunToolchain *t, const char *source, const char *program);

/* Whether a program carries target `arch` as a code object
 * (Backend.hip_code_object), which a build makes by measuring. */
bool run_carries_code_object(const char *arch);

/* The program of build `b` (its targets' code emitted, "cpu" among them)
 * into *cp: the PTX of every GPU target but those carried as code
 * objects, whose bytes are read here; `inputs` are the source files, for
 * the header comment.  An exit status. */
int run_program_prepare(Build *b, const char *const *inputs, int n_inputs, CProgram *cp);

/* The program's C to `out` (a @persistent kernel's resident CTAs measured
 * first); an exit status, EXIT_FINDINGS for a program the C target cannot
 * write (no fn main: said). */
int run_program_write(Build *b, CProgram *cp, FILE *out);

/* The program's C written into the build's temporary directory and
 * compiled there into the executable `name`, whose path is *program; an
 * exit status.  The executable goes with build_finish. */
int run_program_make(Build *b, CProgram *cp, const RunToolchain *t, const char *name,
                     const char **program);

/* Runs `program` in the foreground with argv[0] `name` and `args`, its
 * standard streams the caller's; its exit status, or 128 + N when signal
 * N ended it (EXIT_ENVIRONMENT, said through `d`, when it cannot start). */
int run_exec(Diag *d, const char *program, const char *name, const char *const *args, int n_args);

#endif
