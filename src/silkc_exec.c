/*
 * silkc_exec.c: `silkc exec`, one kernel run with buffers made from the
 * command line, so that a kernel can be tried with no host code: on this
 * machine's cores by the CPU backend (--backend cpu, the default), or on
 * a GPU through the CUDA Driver API (--backend cuda).
 *
 *   silkc exec FILE... --kernel NAME --grid N [--workspace W] [--sms S]
 *              [--arg VALUE | --buf TYPE:COUNT:INIT]... [--seed S]
 *              [--backend cpu|cuda] [--workers N] [--race] [--dump] [--out FILE] [-O0]
 *   silkc exec FILE... --list
 *
 * The grid counts work items, as a launch block's does: ceil(N / W) CTAs
 * of W threads.  A @persistent kernel gets its hidden logical-CTA count
 * and as many CTAs as are resident at once, at most the logical ones:
 * min(logical, S) on the CPU backend, min(logical, SMs x resident CTAs
 * per SM) on a GPU.  The binding of the arguments and what is shown
 * after the run are the same on both (exec_buffers.c); each backend's run
 * is its own file (exec_cpu.c, exec_cuda.c).  --list prints each kernel
 * with what an exec line needs (exec_list.c).  --race builds the kernel
 * with the race checks (CompileOptions.race_checks): the CPU backend's.
 */
#include "exec.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One line naming the option or the kernel; exit status 2. */
int exec_error(const SilkcRequest *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(r->diag, DIAG_ERROR, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

void exec_build_options(const SilkcRequest *r, const char *const *arch, BuildOptions *o)
{
    *o = (BuildOptions){.archs = arch, .n_archs = 1, .last = BUILD_CODE,
                        .optimize = !r->no_optimize, .program = "silkc"};
}

int exec_plan(const SilkcRequest *r, const ExecKernel *k, ExecPlan *plan)
{
    uint64_t threads = r->workspace ? r->workspace : k->fixed_threads;
    if (!threads)
        return exec_error(r, "--kernel %s has no fixed CTA size: give --workspace", k->name);
    if (k->fixed_threads && threads != k->fixed_threads)
        return exec_error(r, "--workspace %" PRIu64 ": kernel %s runs CTAs of %" PRIu32 " threads "
                             "(@launch)", threads, k->name, k->fixed_threads);
    /* grid + threads - 1 wrapped near 2^64 to a grid of 0 CTAs. */
    uint64_t ctas = r->grid / threads + (r->grid % threads != 0);
    if (ctas > UINT32_MAX)
        return exec_error(r, "--grid %" PRIu64 ": more than 2^32 - 1 CTAs of %" PRIu64 " threads",
                             r->grid, threads);
    *plan = (ExecPlan){.ctas = ctas, .threads = (uint32_t)threads,
                       .logical = k->persistent ? ctas : 0};
    return EXIT_OK;
}

void exec_cap_persistent(ExecPlan *plan, uint64_t resident)
{
    if (plan->logical && plan->ctas > resident)
        plan->ctas = resident ? resident : 1;
}

int silkc_exec(Compilation *c, const SilkcRequest *r)
{
    if (r->list)
        return exec_list(c, r);
    if (!r->kernel)
        return exec_error(r, "%s", "--kernel: give the kernel to run, as --kernel saxpy");
    if (!r->grid)
        return exec_error(r, "%s", "--grid: give the work items, as --grid 1024");
    if (r->backend != EXEC_BACKEND_CUDA)
        return exec_run_cpu(c, r);
    if (r->sms_given)
        return exec_error(r, "%s", "--sms: with --backend cuda, ctx.sms is the device's");
    if (r->workers)
        return exec_error(r, "%s", "--workers: only --backend cpu runs CTAs on worker threads");
    if (r->race)
        return exec_error(r, "%s", "--race: only --backend cpu checks races (a GPU gives no such check)");
    return exec_run_cuda(c, r);
}
