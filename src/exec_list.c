/*
 * exec_list.c: the kernels of a program as `silkc exec` binds them, read
 * from the IR: exec_describe (which --backend cuda launches from), and
 * `silkc exec FILE --list`, which prints for each kernel what an exec
 * line needs, one line a kernel, in the program's order:
 *
 *   saxpy --workspace 256 --arg n:u64 --buf a:f32[1] --buf x:f32[n] --buf y:f32[n]
 *
 * the kernel's name, its CTA size (the @launch threads; 256 for a kernel
 * without @launch; "any" for an attr(device=gpu) fn without it, whose
 * launch chooses, so that exec needs a --workspace),
 * then each parameter in order as the option that binds it: --arg
 * NAME:TYPE for a scalar, --buf NAME:ELEMENT[EXTENTS] for a tensor, its
 * extents (numbers, or the names of earlier parameters) separated by
 * commas, so that its --buf count is their product.  A @persistent
 * kernel's hidden logical-CTA count, which exec sets, is not listed.  The
 * words hold no space: a script reads them with the shell's splitting
 * (tests/cpu/differential.sh, tests/difftest/reduce.sh do).
 */
#include "exec.h"

#include "lower.h"

#include <stdio.h>
#include <string.h>

ExecKernel exec_describe(const IrFunc *f, Arena *arena)
{
    const char **names = ARENA_ARRAY(arena, const char *, f->n_params + 1);
    const char **types = ARENA_ARRAY(arena, const char *, f->n_params + 1);
    const char **sources = ARENA_ARRAY(arena, const char *, f->n_params + 1);
    for (uint32_t p = 0; p < f->n_params; p++) {
        names[p] = f->params[p].name ? f->params[p].name : "";
        types[p] = ir_type_name(f->params[p].type);
        sources[p] = f->params[p].source_type ? f->params[p].source_type : types[p];
    }
    bool persistent = f->n_params > 0 && strcmp(names[f->n_params - 1], LOWER_LOGICAL_CTAS) == 0;
    return (ExecKernel){.name = f->name, .n_params = f->n_params, .param_names = names,
                        .param_types = types, .param_source_types = sources,
                        .fixed_threads = (uint32_t)f->reqntid, .dynamic_shared = f->dynamic_smem,
                        .persistent = persistent};
}

/* "tensor<f32>[m, k]" as "f32[m,k]": the element type and the extents,
 * without the spaces. */
static void print_tensor(const char *source)
{
    for (const char *s = source + strlen("tensor<"); *s; s++)
        if (*s != '>' && *s != ' ')
            putchar(*s);
}

static void print_kernel(const ExecKernel *k)
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

int exec_list(Compilation *c, const SilkcRequest *r)
{
    const char *extra = run_option(r);
    if (extra)
        return exec_error(r, "--list prints the kernels and runs none: %s has no use with it", extra);
    static const char *const arch[] = {"cpu"};
    BuildOptions options;
    exec_build_options(r, arch, &options);
    options.last = BUILD_IR;
    Build b;
    int rc = build_run(c, &options, &b) == BUILD_OK ? EXIT_OK : EXIT_FINDINGS;
    for (uint32_t i = 0; rc == EXIT_OK && i < b.module->n_funcs; i++)
        if (b.module->funcs[i]->kernel) {
            ExecKernel k = exec_describe(b.module->funcs[i], b.module->arena);
            print_kernel(&k);
        }
    build_finish(&b);
    return rc;
}
