/*
 * run.c: one kernel run (run.h), the part both backends share before
 * the launch: the build's options (the one target, to its code,
 * optimised unless -O0), the launch's geometry from the grid and the
 * workspace, and the backend chosen.
 *
 * The grid counts work items, as a launch block's does: ceil(N / W) CTAs
 * of W threads.  A @persistent kernel gets its hidden logical-CTA count
 * and as many CTAs as are resident at once, at most the logical ones:
 * min(logical, S) on the CPU backend, min(logical, SMs x resident CTAs
 * per SM) on a GPU; each backend caps them (run_cap_persistent) once it
 * knows its figure.  The checks here are the launch rules, the same for
 * both backends, so a request fails the same way on either.
 */
#include "run_internal.h"

#include <inttypes.h>
#include <stdarg.h>

int run_error(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_ERROR, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int run_fail(Diag *d, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_ERROR, fmt, ap);
    va_end(ap);
    return status;
}

void run_build_options(const RunRequest *q, const char *const *arch, BuildOptions *o)
{
    *o = (BuildOptions){.archs = arch, .n_archs = 1, .last = BUILD_CODE,
                        .optimize = q->optimize, .program = "silkc"};
}

int run_plan(Diag *d, const RunRequest *q, const RunKernel *k, RunPlan *plan)
{
    uint64_t threads = q->workspace ? q->workspace : k->fixed_threads;
    if (!threads)
        return run_error(d, "--kernel %s has no fixed CTA size: give --workspace", k->name);
    if (k->fixed_threads && threads != k->fixed_threads)
        return run_error(d, "--workspace %" PRIu64 ": kernel %s runs CTAs of %" PRIu32 " threads "
                            "(@launch)", threads, k->name, k->fixed_threads);
    /* grid + threads - 1 wrapped near 2^64 to a grid of 0 CTAs. */
    uint64_t ctas = q->grid / threads + (q->grid % threads != 0);
    if (ctas > UINT32_MAX)
        return run_error(d, "--grid %" PRIu64 ": more than 2^32 - 1 CTAs of %" PRIu64 " threads",
                            q->grid, threads);
    *plan = (RunPlan){.ctas = ctas, .threads = (uint32_t)threads,
                      .logical = k->persistent ? ctas : 0};
    return EXIT_OK;
}

void run_cap_persistent(RunPlan *plan, uint64_t resident)
{
    if (plan->logical && plan->ctas > resident)
        plan->ctas = resident ? resident : 1;
}

int run_kernel(Compilation *c, const RunRequest *q, RunBuffers *out)
{
    *out = (RunBuffers){0};
    return q->backend == RUN_BACKEND_CUDA ? run_on_cuda(c, q, out) : run_on_cpu(c, q, out);
}
