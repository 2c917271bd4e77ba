/*
 * run_kernels.c: the kernels of a program as a run binds them, read from
 * the IR: run_describe (which the GPU run launches from), and
 * run_kernels, every kernel in the program's order, which `silkc exec
 * --list` prints.  Each gives its name, its parameters with the IR's type
 * and Silk's (a tensor's element type and extents, which its --buf must
 * match), its fixed CTA size (@launch, 0 for none), its @smem bytes, and
 * whether it is @persistent, whose hidden last parameter (the logical
 * CTAs) the run sets itself.
 */
#include "run_internal.h"

#include "lower.h"

RunKernel run_describe(const IrFunc *f, Arena *arena)
{
    const char **names = ARENA_ARRAY(arena, const char *, f->n_params + 1);
    const char **types = ARENA_ARRAY(arena, const char *, f->n_params + 1);
    const char **sources = ARENA_ARRAY(arena, const char *, f->n_params + 1);
    for (uint32_t p = 0; p < f->n_params; p++) {
        names[p] = f->params[p].name ? f->params[p].name : "";
        types[p] = ir_type_name(f->params[p].type);
        sources[p] = f->params[p].source_type ? f->params[p].source_type : types[p];
    }
    return (RunKernel){.name = f->name, .n_params = f->n_params, .param_names = names,
                       .param_types = types, .param_source_types = sources,
                       .fixed_threads = (uint32_t)f->reqntid, .dynamic_shared = f->dynamic_smem,
                       .persistent = lower_is_persistent(f)};
}

int run_kernels(Compilation *c, bool optimize, const RunKernel **kernels, uint32_t *n)
{
    static const char *const arch[] = {"cpu"};
    RunRequest q = {.optimize = optimize};
    BuildOptions options;
    run_build_options(&q, arch, &options);
    options.last = BUILD_IR;
    Build b;
    *kernels = NULL;
    *n = 0;
    int rc = build_run(c, &options, &b) == BUILD_OK ? EXIT_OK : EXIT_FINDINGS;
    if (rc == EXIT_OK) {
        RunKernel *list = ARENA_ARRAY(c->arena, RunKernel, b.module->n_funcs + 1);
        for (uint32_t i = 0; i < b.module->n_funcs; i++)
            if (b.module->funcs[i]->kernel)
                list[(*n)++] = run_describe(b.module->funcs[i], c->arena);
        *kernels = list;
    }
    build_finish(&b);
    return rc;
}
