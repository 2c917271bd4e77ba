/*
 * run_internal.h: what the files of a kernel run share (run.h lists
 * them): the launch's geometry and the parameters bound, the same for
 * both backends, and each backend's run.  Nothing here leaves the
 * library: the programs see run.h.
 */
#ifndef SILK_RUN_INTERNAL_H
#define SILK_RUN_INTERNAL_H

#include "run/run.h"

#include "exit_status.h"

/* The launch's geometry, the same for both backends but for the CTAs a
 * @persistent kernel gets, which each backend caps (run_cap_persistent). */
typedef struct RunPlan {
    uint64_t ctas;      /* ceil(grid / threads), or for @persistent the logical CTAs */
    uint32_t threads;
    uint64_t logical;   /* @persistent: the logical CTAs, its hidden parameter; else 0 */
} RunPlan;

/* The parameters bound: one 64-bit slot each (a scalar's bits, low bytes
 * first; a tensor's slot holds its buffer's address once the backend has
 * set it), and the buffers made. */
typedef struct RunArgs {
    uint64_t *params;
    int *param_buffer;  /* the buffer of each tensor parameter; -1: a scalar */
    RunBuffer *buffers;
    int n_buffers;
} RunArgs;

/* One message, "silkc: error: ..." through `d` (diag_vplain); returns
 * EXIT_USAGE: the request does not fit the program. */
int run_error(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same, for a failure whose exit status is `status` (EXIT_FINDINGS,
 * EXIT_ENVIRONMENT); returns it. */
int run_fail(Diag *d, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The options of a run's build for the one target *arch ("cpu", "sm_90"):
 * to the code, optimised unless -O0.  The build keeps their address. */
void run_build_options(const RunRequest *q, const char *const *arch, BuildOptions *o);

/* The geometry of the launch from the grid and the workspace, checked as
 * the seed's launch rules say; an exit status. */
int run_plan(Diag *d, const RunRequest *q, const RunKernel *k, RunPlan *plan);

/* A @persistent kernel's CTAs: at most `resident` (at least 1). */
void run_cap_persistent(RunPlan *plan, uint64_t resident);

/* The parameters of `k` bound from the request in order, their buffers
 * made (and a @persistent kernel's hidden count set from `plan`); an
 * exit status, `a` to be freed with run_args_free in any case. */
int run_bind(Diag *d, const RunRequest *q, const RunKernel *k, const RunPlan *plan, RunArgs *a);
void run_args_free(RunArgs *a);

/* The buffers of `a` handed to *out, which then owns them. */
void run_args_take_buffers(RunArgs *a, RunBuffers *out);

/* Kernel `f` as a run binds it, from its IR (the arrays in `arena`). */
RunKernel run_describe(const IrFunc *f, Arena *arena);

/* The runs, each from the request to an exit status (run_kernel's). */
int run_on_cpu(Compilation *c, const RunRequest *q, RunBuffers *out);
int run_on_cuda(Compilation *c, const RunRequest *q, RunBuffers *out);

#endif
