/*
 * run_cpu.c: a kernel run on the CPU backend (`silkc exec --backend cpu`,
 * the default): the program built for the CPU backend, its C compiled
 * into a module in a temporary directory and loaded (cpu.h), the kernel
 * launched on this machine's cores with every global access checked
 * against the --buf buffers.
 * ctx.sms is the request's (default SILK_EMULATED_SMS, the SM count of
 * the products table's h100-sxm row); a @persistent kernel gets
 * min(logical CTAs, SMs) CTAs.  A fault is the CPU backend's line (its
 * place in the source, the CTA and thread), said as it is.
 */
#include "run_internal.h"

#include "common/emulated_device.h"
#include "cpu/cpu.h"
#include "escape.h"
#include "tempdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static RunKernel describe(const SilkCpuKernel *k)
{
    return (RunKernel){.name = k->name, .n_params = k->n_params, .param_names = k->param_names,
                       .param_types = k->param_types,
                       .param_source_types = k->param_source_types,
                       .fixed_threads = k->fixed_threads, .dynamic_shared = k->dynamic_shared,
                       .persistent = k->persistent != 0};
}

/* The kernel run: parameters bound, launched, buffers kept in *out. */
static int launch_kernel(Diag *d, const RunRequest *q, const SilkCpuKernel *kernel,
                         RunBuffers *out)
{
    RunKernel k = describe(kernel);
    uint32_t sms = q->sms ? q->sms : SILK_EMULATED_SMS;
    RunPlan plan = {0};
    RunArgs a = {0};
    int rc = run_plan(d, q, &k, &plan);
    if (rc == EXIT_OK)
        rc = run_bind(d, q, &k, &plan, &a);
    run_cap_persistent(&plan, sms);
    uint64_t (*ranges)[2] = calloc((size_t)a.n_buffers + 1, sizeof *ranges);
    for (uint32_t i = 0; rc == EXIT_OK && i < k.n_params; i++)
        if (a.param_buffer[i] >= 0)
            a.params[i] = (uint64_t)(uintptr_t)a.buffers[a.param_buffer[i]].data;
    for (int b = 0; ranges && b < a.n_buffers; b++) {
        ranges[b][0] = (uint64_t)(uintptr_t)a.buffers[b].data;
        ranges[b][1] = a.buffers[b].count * (uint64_t)a.buffers[b].type->bytes;
    }
    CpuLaunch launch = {.ctas = plan.ctas, .threads = plan.threads, .sms = sms,
                        .dynamic_shared = k.dynamic_shared, .params = a.params,
                        .buffers = (const uint64_t(*)[2])ranges, /* every global access checked */
                        .n_buffers = ranges ? (uint32_t)a.n_buffers : 0, .workers = q->workers};
    char error[1024];
    if (rc == EXIT_OK && !cpu_launch(kernel, &launch, error, sizeof error)) {
        diag_line(d, error);
        rc = EXIT_FINDINGS;
    }
    if (rc == EXIT_OK)
        run_args_take_buffers(&a, out);
    free(ranges);
    run_args_free(&a);
    return rc;
}

/* The module built and loaded from the build's C, then the kernel run. */
static int run_module(const Build *b, const RunRequest *q, RunBuffers *out)
{
    Diag *d = &b->c->diag;
    const char *base;
    char *dir = tempdir_make("silkc-exec", &base);
    if (!dir)
        return run_fail(d, EXIT_ENVIRONMENT, "cannot make a temporary directory in %s: %s", base,
                        strerror(errno));
    char error[4096];
    int rc = EXIT_OK;
    CpuModule *m = cpu_module_build(b->targets[0].code, b->targets[0].code_len, dir, error,
                                    sizeof error, &rc);
    const SilkCpuKernel *k = m ? cpu_module_kernel(m, q->kernel) : NULL;
    if (!m)
        run_fail(d, rc, "%s", error);
    else if (!k)
        rc = run_error(d, "--kernel %s: no such kernel in the program", QUOTED(q->kernel));
    else
        rc = launch_kernel(d, q, k, out);
    cpu_module_close(m);
    tempdir_remove(dir, 0);
    return rc;
}

int run_on_cpu(Compilation *c, const RunRequest *q, RunBuffers *out)
{
    static const char *const arch[] = {"cpu"};
    BuildOptions options;
    run_build_options(q, arch, &options);
    Build b;
    BuildStatus status = build_run(c, &options, &b);
    int rc = status == BUILD_OK ? run_module(&b, q, out) : EXIT_FINDINGS;
    build_finish(&b);
    return rc;
}
