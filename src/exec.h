/*
 * exec.h: what the files of `silkc exec` share, one job each:
 *
 *   silkc_exec.c    the command: the backend chosen, the build, the
 *                   launch's geometry planned
 *   exec_buffers.c  the parameters bound from --arg and --buf, the buffers
 *                   made and, after the run, --dump and --out
 *   exec_cpu.c      the run on this machine's cores (compiler/cpu/cpu.h)
 *   exec_cuda.c     the run on a GPU, through the CUDA Driver API
 *                   (std/runtime/cuda_driver.h)
 *   exec_list.c     the kernels as exec binds them, from the IR, and
 *                   --list, which prints them
 *
 * Both backends bind the same arguments into the same host buffers (the
 * same --seed, the same bytes), launch the same geometry, and print and
 * write the buffers the same way, so that their results can be compared
 * byte for byte (tests/gpu/compare-cpu.sh).
 */
#ifndef SILK_EXEC_H
#define SILK_EXEC_H

#include "build.h"
#include "silkc.h"

#include <stdbool.h>
#include <stdint.h>

/* A kernel as exec binds and launches it, whichever backend built it. */
typedef struct ExecKernel {
    const char *name;
    uint32_t n_params;                      /* with a @persistent kernel's hidden last one */
    const char *const *param_names;
    const char *const *param_types;         /* the IR's: "i64" (a tensor's address), "f32" */
    const char *const *param_source_types;  /* Silk's: "tensor<f32>[n]", "u64" */
    uint32_t fixed_threads;                 /* the @launch CTA size; 0: any */
    uint64_t dynamic_shared;                /* @smem bytes */
    bool persistent;
} ExecKernel;

/* A --buf element type. */
typedef struct ExecElementType {
    const char *name;
    int bytes;
    char kind; /* 's' signed, 'u' unsigned, 'f' float */
} ExecElementType;

typedef struct ExecBuffer {
    const ExecElementType *type;
    uint64_t count;
    unsigned char *data; /* on the host: the initial values, then the results */
} ExecBuffer;

/* The launch's geometry, the same for both backends but for the CTAs a
 * @persistent kernel gets, which each backend caps (exec_cap_persistent). */
typedef struct ExecPlan {
    uint64_t ctas;      /* ceil(grid / threads), or for @persistent the logical CTAs */
    uint32_t threads;
    uint64_t logical;   /* @persistent: the logical CTAs, its hidden parameter; else 0 */
} ExecPlan;

/* The parameters bound: one 64-bit slot each (a scalar's bits, low bytes
 * first; a tensor's slot holds its buffer's address once the backend has
 * set it), and the buffers made. */
typedef struct ExecArgs {
    uint64_t *params;
    int *param_buffer;  /* the buffer of each tensor parameter; -1: a scalar */
    ExecBuffer *buffers;
    int n_buffers;
} ExecArgs;

/* One message, "silkc: error: ..." (silkc_error, to r->diag); returns EXIT_USAGE. */
int exec_error(const SilkcRequest *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The options of exec's build for the one target *arch ("cpu", "sm_90"):
 * to the code, optimised unless -O0.  The build keeps their address. */
void exec_build_options(const SilkcRequest *r, const char *const *arch, BuildOptions *o);

/* The geometry of the launch from --grid and --workspace, checked as the
 * seed's launch rules say; an exit status. */
int exec_plan(const SilkcRequest *r, const ExecKernel *k, ExecPlan *plan);

/* A @persistent kernel's CTAs: at most `resident` (at least 1). */
void exec_cap_persistent(ExecPlan *plan, uint64_t resident);

/* The parameters of `k` bound from the request in order, their buffers
 * made (and a @persistent kernel's hidden count set from `plan`); an
 * exit status, `a` to be freed with exec_args_free in any case. */
int exec_bind(const SilkcRequest *r, const ExecKernel *k, const ExecPlan *plan, ExecArgs *a);
void exec_args_free(ExecArgs *a);

/* After a run: --dump prints the buffers, --out writes their bytes; an
 * exit status. */
int exec_show(const SilkcRequest *r, const ExecArgs *a);

/* Kernel `f` as exec binds it, from its IR (the arrays in `arena`). */
ExecKernel exec_describe(const IrFunc *f, Arena *arena);

/* --list: each kernel of the program with what an exec line needs, a
 * line each on stdout (exec_list.c says how); an exit status. */
int exec_list(Compilation *c, const SilkcRequest *r);

/* The runs, each from the request to an exit status. */
int exec_run_cpu(Compilation *c, const SilkcRequest *r);
int exec_run_cuda(Compilation *c, const SilkcRequest *r);

#endif
