/*
 * llc.c: llc, then ld.lld, then the code object's metadata (llc.h).
 * Each stage runs its targets in parallel (jobs_run); a target that
 * failed at one stage goes no further.
 */
#include "llc.h"

#include "hsaco.h"
#include "jobs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *const LLC_CANDIDATES[] = {"llc-19", "llc", NULL};
static const char *const LLD_CANDIDATES[] = {"ld.lld-19", "ld.lld", NULL};

const char *amdgpu_llc_find(void) { return jobs_find_tool("SILK_LLC", LLC_CANDIDATES); }

const char *amdgpu_lld_find(void) { return jobs_find_tool("SILK_LLD", LLD_CANDIDATES); }

/* A job running `tool` with the NULL-terminated `args` after argv[0]. */
static JobRun job(const char *tool, const char *const args[], int n_args, Arena *arena)
{
    const char *path = jobs_resolve_command(tool, arena);
    char **argv = ARENA_ARRAY(arena, char *, (size_t)n_args + 2);
    argv[0] = (char *)(path ? path : tool);
    for (int i = 0; i < n_args; i++)
        argv[i + 1] = (char *)args[i];
    return (JobRun){.path = path, .argv = argv};
}

/* Whether a tool that exited 0 wrote `path`: a file with bytes in it. */
static bool wrote(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > 0);
}

/* Target i's result from its job, which was to write `output`: 0, or the
 * job's failure recorded. */
static int record(const JobRun *run, const char *tool, const char *output, int i, Arena *arena,
                  UsageReport *out, const char **tools)
{
    if (run->status == 0 && wrote(output))
        return 0;
    tools[i] = tool;
    if (run->status == 0) {
        out[i].exit_status = AMDGPU_NO_OUTPUT;
        out[i].errors = "exited 0 without writing its output file";
        return AMDGPU_NO_OUTPUT;
    }
    if (run->status == JOBS_NOT_STARTED)
        errno = run->error; /* the last one's: each failed for the same missing tool */
    out[i].exit_status = run->status == JOBS_NOT_STARTED ? AMDGPU_TOOL_NOT_STARTED : run->status;
    out[i].signal = run->signal;
    out[i].errors = run->status == JOBS_NOT_STARTED ? strerror(run->error)
                                                    : arena_strndup(arena, run->output, run->len);
    return out[i].exit_status;
}

/* The usage of target i's code object, which must report every kernel. */
static void read_usage(const char *hsaco, const char *arch, const char *const kernels[], int n_kernels,
                       Arena *arena, UsageReport *out)
{
    if (amdgpu_code_object_usage(hsaco, arena, out) != 0) {
        out->exit_status = AMDGPU_BAD_CODE_OBJECT;
        return;
    }
    for (int k = 0; k < n_kernels; k++)
        if (!usage_kernel(out, kernels[k])) {
            const char *format = "its code object has no metadata for kernel '%s'";
            size_t size = strlen(format) + strlen(kernels[k]);
            char *text = arena_alloc(arena, size, 1);
            snprintf(text, size, format, kernels[k]);
            *out = (UsageReport){.exit_status = AMDGPU_BAD_CODE_OBJECT, .errors = text};
            return;
        }
    out->arch = arch;
    out->source = USAGE_ASSEMBLER;
}

int amdgpu_compile_targets(const char *llc, const char *lld, const char *const ll_paths[],
                           const char *const archs[], const char *const obj_paths[],
                           const char *const hsaco_paths[], int n, const char *const kernels[],
                           int n_kernels, Arena *arena, UsageReport *out, const char **tools)
{
    JobRun *runs = ARENA_ARRAY(arena, JobRun, (size_t)n + 1);
    int *failed = ARENA_ARRAY(arena, int, (size_t)n + 1);
    for (int i = 0; i < n; i++) {
        char *mcpu = arena_alloc(arena, strlen(archs[i]) + 8, 1);
        sprintf(mcpu, "-mcpu=%s", archs[i]);
        const char *args[] = {"-mtriple=amdgcn-amd-amdhsa", mcpu, "-filetype=obj", "-o",
                              jobs_operand(obj_paths[i], arena), jobs_operand(ll_paths[i], arena)};
        runs[i] = job(llc, args, 6, arena);
        out[i] = (UsageReport){.arch = archs[i]};
        tools[i] = NULL;
    }
    jobs_run(runs, n, arena);
    for (int i = 0; i < n; i++) {
        failed[i] = record(&runs[i], llc, obj_paths[i], i, arena, out, tools);
        const char *args[] = {"-shared", "-o", jobs_operand(hsaco_paths[i], arena),
                              jobs_operand(obj_paths[i], arena)};
        runs[i] = failed[i] ? (JobRun){0} : job(lld, args, 4, arena);
    }
    int n_linked = 0; /* the targets llc compiled, linked together */
    JobRun *links = ARENA_ARRAY(arena, JobRun, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        if (!failed[i])
            links[n_linked++] = runs[i];
    jobs_run(links, n_linked, arena);
    int first = 0;
    for (int i = 0, l = 0; i < n; i++) {
        if (!failed[i] && !(failed[i] = record(&links[l++], lld, hsaco_paths[i], i, arena, out, tools))) {
            read_usage(hsaco_paths[i], archs[i], kernels, n_kernels, arena, &out[i]);
            failed[i] = out[i].exit_status;
        }
        if (failed[i] && !first)
            first = failed[i];
    }
    return first;
}
