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
 * This file is the command: which options go together, the request
 * handed to the library (compiler/run/run.h: the build, the binding of
 * the arguments, the geometry and the run on either backend), and what
 * a person reads of it: --dump's buffers, --out's file, and --list, which
 * prints for each kernel what an exec line needs, one line a kernel, in
 * the program's order:
 *
 *   saxpy --workspace 256 --arg n:u64 --buf a:f32[1] --buf x:f32[n] --buf y:f32[n]
 *
 * the kernel's name, its CTA size (the @launch threads; 256 for a kernel
 * without @launch; "any" for an attr(device=gpu) fn without it, whose
 * launch chooses, so that exec needs a --workspace), then each parameter
 * in order as the option that binds it: --arg NAME:TYPE for a scalar,
 * --buf NAME:ELEMENT[EXTENTS] for a tensor, its extents (numbers, or the
 * names of earlier parameters) separated by commas, so that its --buf
 * count is their product.  A @persistent kernel's hidden logical-CTA
 * count, which exec sets, is not listed.  The words hold no space: a
 * script reads them with the shell's splitting (tests/cpu/differential.sh,
 * tests/difftest/reduce.sh do).  --race builds the kernel with the race
 * checks (CompileOptions.race_checks): the CPU backend's.
 */
#include "silkc.h"

#include <stdio.h>
#include <string.h>

/* "tensor<f32>[m, k]" as "f32[m,k]": the element type and the extents,
 * without the spaces. */
static void print_tensor(const char *source)
{
    for (const char *s = source + strlen("tensor<"); *s; s++)
        if (*s != '>' && *s != ' ')
            putchar(*s);
}

static void print_kernel(const RunKernel *k)
{
    if (k->fixed_threads)
        printf("%s --workspace %u", k->name, (unsigned)k->fixed_threads);
    else
        printf("%s --workspace any", k->name);
    uint32_t user_params = k->n_params - (k->persistent ? 1 : 0);
    for (uint32_t p = 0; p < user_params; p++) {
        const char *source = k->param_source_types[p];
        bool tensor = strncmp(source, "tensor<", 7) == 0;
        printf(" %s %s:", tensor ? "--buf" : "--arg", k->param_names[p]);
        if (tensor)
            print_tensor(source);
        else
            fputs(source, stdout);
    }
    putchar('\n');
}

/* The options that run a kernel, which --list does not: the first given. */
static const char *run_option(const SilkcRequest *r)
{
    return r->kernel ? "--kernel" : r->grid ? "--grid" : r->workspace ? "--workspace"
         : r->n_bindings ? (r->bindings[0].buffer ? "--buf" : "--arg")
         : r->dump ? "--dump" : r->output ? "--out" : r->race ? "--race"
         : r->backend_given ? "--backend" : r->workers ? "--workers" : r->sms_given ? "--sms"
         : NULL;
}

static int list(Compilation *c, const SilkcRequest *r)
{
    const char *extra = run_option(r);
    if (extra) {
        silkc_error(r->diag, "--list prints the kernels and runs none: %s has no use with it",
                    extra);
        return EXIT_USAGE;
    }
    const RunKernel *kernels;
    uint32_t n;
    int rc = run_kernels(c, !r->no_optimize, &kernels, &n);
    for (uint32_t i = 0; i < n; i++)
        print_kernel(&kernels[i]);
    return rc;
}

/* Which options go together, before anything is built: a usage error
 * names the first that does not; NULL when they do. */
static const char *misfit(const SilkcRequest *r)
{
    if (!r->kernel)
        return "--kernel: give the kernel to run, as --kernel saxpy";
    if (!r->grid)
        return "--grid: give the work items, as --grid 1024";
    if (r->backend != RUN_BACKEND_CUDA)
        return NULL;
    if (r->sms_given)
        return "--sms: with --backend cuda, ctx.sms is the device's";
    if (r->workers)
        return "--workers: only --backend cpu runs CTAs on worker threads";
    if (r->race)
        return "--race: only --backend cpu checks races (a GPU gives no such check)";
    return NULL;
}

int silkc_exec(Compilation *c, const SilkcRequest *r)
{
    if (r->list)
        return list(c, r);
    const char *problem = misfit(r);
    if (problem) {
        silkc_error(r->diag, "%s", problem);
        return EXIT_USAGE;
    }
    RunRequest q = {.backend = r->backend, .kernel = r->kernel, .grid = r->grid,
                    .workspace = r->workspace, .seed = r->seed, .sms = r->sms,
                    .workers = r->workers, .bindings = r->bindings, .n_bindings = r->n_bindings,
                    .optimize = !r->no_optimize};
    RunBuffers buffers;
    int rc = run_kernel(c, &q, &buffers);
    if (rc == EXIT_OK && r->dump)
        run_buffers_dump(&buffers, stdout);
    if (rc == EXIT_OK && r->output)
        rc = run_buffers_write(r->diag, &buffers, r->output, r->inputs, r->n_inputs);
    run_buffers_free(&buffers);
    return rc;
}
