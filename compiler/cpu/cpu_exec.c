/*
 * cpu_exec.c: the CPU backend's modules (cpu.h): build one with the C
 * compiler, load it, find its kernels.  Running a launch is
 * cpu_launch.c's, which libsilkrt carries without the compiler.
 */
#define _GNU_SOURCE /* dlopen's RTLD_ flags are POSIX */
#include "cpu/cpu.h"

#include "arena.h"
#include "build.h"
#include "cleanup.h"
#include "exit_status.h"
#include "jobs.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CpuModule {
    void *handle;
    const SilkCpuModule *module;
};

/* ---- modules ------------------------------------------------------------------------- */

CpuModule *cpu_module_open(const char *path, char *error, size_t size)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, size, "cannot load %s: %s", path, dlerror());
        return NULL;
    }
    const SilkCpuModule *m = dlsym(handle, SILK_CPU_MODULE_SYMBOL);
    if (!m || m->abi_version != SILK_CPU_ABI_VERSION) {
        snprintf(error, size, "%s: not a module of this silkc's CPU backend", path);
        dlclose(handle);
        return NULL;
    }
    CpuModule *module = malloc(sizeof *module);
    if (!module) {
        snprintf(error, size, "out of memory");
        dlclose(handle);
        return NULL;
    }
    *module = (CpuModule){handle, m};
    return module;
}

void cpu_module_close(CpuModule *module)
{
    if (module)
        dlclose(module->handle);
    free(module);
}

const SilkCpuKernel *cpu_module_kernels(const CpuModule *module, uint32_t *n)
{
    *n = module->module->n_kernels;
    return module->module->kernels;
}

const SilkCpuKernel *cpu_module_kernel(const CpuModule *module, const char *name)
{
    for (uint32_t i = 0; i < module->module->n_kernels; i++)
        if (strcmp(module->module->kernels[i].name, name) == 0)
            return &module->module->kernels[i];
    return NULL;
}

/* `text` to PATH; false with the reason in `error`. */
static bool write_source(const char *path, const char *text, size_t len, char *error, size_t size)
{
    FILE *f = fopen(path, "w");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(error, size, "%s: cannot write: %s", path, strerror(errno));
    return ok;
}

/* The C compiler's failed run in the words and by the rule of every
 * tool's failure (build.h): its message in `error`, its exit status. */
static int compiler_failed(const JobRun *run, const char *cc, char *error, size_t size)
{
    ToolReport r = build_job_report(run, cc, "the CPU backend's C");
    char *text = build_tool_message(&r);
    snprintf(error, size, "%s", text ? text : "out of memory");
    free(text);
    return build_failure_status(r.failure, TOOL_INPUT_OURS);
}

CpuModule *cpu_module_build(const char *c_text, size_t len, const char *dir, char *error,
                            size_t size, int *status)
{
    *status = EXIT_ENVIRONMENT; /* unless the C compiler says it is ours */
    Arena *arena = arena_new();
    enum { CC_WORDS = 16 };
    char *argv[CC_WORDS + 16];
    int n_cc = jobs_find_cc(arena, argv, CC_WORDS, error, size);
    if (n_cc == 0) {
        if (!error[0])
            snprintf(error, size, "the CPU backend needs a C compiler, and none was found "
                                  "(install gcc, or set CC)");
        arena_free(arena);
        return NULL;
    }
    size_t n = strlen(dir) + 16;
    char *source = arena_alloc(arena, n, 1), *object = arena_alloc(arena, n, 1);
    snprintf(source, n, "%s/module.c", dir);
    snprintf(object, n, "%s/module.so", dir);
    CpuModule *module = NULL;
    /* Known to cleanup.h before they exist, as tempdir.h asks, so that a
     * signal during the build or the run removes them with DIR. */
    bool registered = cleanup_add_file(source) && cleanup_add_file(object);
    if (!registered)
        snprintf(error, size, "out of memory");
    if (registered && write_source(source, c_text, len, error, size)) {
        const char *flags[] = {"-O2", "-std=gnu11", "-fPIC", "-shared", "-ffp-contract=off",
                               "-fno-strict-aliasing", "-w", "-o", jobs_operand(object, arena),
                               jobs_operand(source, arena), "-lm"};
        int words = n_cc;
        for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
            argv[words++] = (char *)flags[i];
        argv[words] = NULL;
        const char *cc = argv[0];
        JobRun run = {.path = jobs_resolve_command(cc, arena), .argv = argv};
        jobs_run(&run, 1, arena);
        if (run.status != 0)
            *status = compiler_failed(&run, cc, error, size);
        else
            module = cpu_module_open(object, error, size);
    }
    arena_free(arena);
    if (module)
        *status = EXIT_OK;
    return module;
}
