/*
 * exec_cpu.c: `silkc exec --backend cpu` (the default): the program built
 * for the CPU backend, its C compiled into a module in a temporary
 * directory and loaded (cpu.h), the kernel launched on this machine's
 * cores with every global access checked against the --buf buffers.
 * ctx.sms is --sms (default SILK_EMULATED_SMS, the SM count of the
 * products table's h100-sxm row); a @persistent kernel gets
 * min(logical CTAs, --sms) CTAs.
 */
#include "exec.h"
#include "common/emulated_device.h"
#include "escape.h"

#include "cpu/cpu.h"
#include "tempdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ExecKernel describe(const SilkCpuKernel *k)
{
    return (ExecKernel){.name = k->name, .n_params = k->n_params, .param_names = k->param_names,
                        .param_types = k->param_types,
                        .param_source_types = k->param_source_types,
                        .fixed_threads = k->fixed_threads, .dynamic_shared = k->dynamic_shared,
                        .persistent = k->persistent != 0};
}

/* The kernel run: parameters bound, launched, buffers shown. */
static int run_kernel(const SilkcRequest *r, const SilkCpuKernel *kernel)
{
    ExecKernel k = describe(kernel);
    uint32_t sms = r->sms ? r->sms : SILK_EMULATED_SMS;
    ExecPlan plan = {0};
    ExecArgs a = {0};
    int rc = exec_plan(r, &k, &plan);
    if (rc == EXIT_OK)
        rc = exec_bind(r, &k, &plan, &a);
    exec_cap_persistent(&plan, sms);
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
                        .n_buffers = ranges ? (uint32_t)a.n_buffers : 0, .workers = r->workers};
    char error[1024];
    if (rc == EXIT_OK && !cpu_launch(kernel, &launch, error, sizeof error)) {
        diag_line(r->diag, error);
        rc = EXIT_FINDINGS;
    }
    if (rc == EXIT_OK)
        rc = exec_show(r, &a);
    free(ranges);
    exec_args_free(&a);
    return rc;
}

/* The module built and loaded from the build's C, then the kernel run. */
static int run_module(const Build *b, const SilkcRequest *r)
{
    const char *base;
    char *dir = tempdir_make("silkc-exec", &base);
    if (!dir) {
        silkc_error(r->diag, "cannot make a temporary directory in %s: %s", base,
                    strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    char error[4096];
    int rc = EXIT_OK;
    CpuModule *m = cpu_module_build(b->targets[0].code, b->targets[0].code_len, dir, error,
                                    sizeof error, &rc);
    const SilkCpuKernel *k = m ? cpu_module_kernel(m, r->kernel) : NULL;
    if (!m) {
        silkc_error(r->diag, "%s", error);
    } else if (!k) {
        rc = exec_error(r, "--kernel %s: no such kernel in the program", QUOTED(r->kernel));
    } else {
        rc = run_kernel(r, k);
    }
    cpu_module_close(m);
    tempdir_remove(dir, 0);
    return rc;
}

int exec_run_cpu(Compilation *c, const SilkcRequest *r)
{
    static const char *const arch[] = {"cpu"};
    BuildOptions options;
    exec_build_options(r, arch, &options);
    Build b;
    BuildStatus status = build_run(c, &options, &b);
    int rc = status == BUILD_OK ? run_module(&b, r) : EXIT_FINDINGS;
    build_finish(&b);
    return rc;
}
