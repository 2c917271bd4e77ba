/*
 * ptx_backend.c: the NVIDIA target behind backend.h.  Code is PTX
 * (ptx.c); ptxas measures it and assembles the cubin in the same run
 * (ptxas.c), in the build's temporary directory; without ptxas the figures
 * are the estimate from the IR (regest.c).  A register cap is measured by
 * setting .maxnreg on the capped entries of the PTX text (ptx_scan.c), the
 * same rewrite `silk-occ report` uses for any PTX.
 */
#include "build.h"

#include "occupancy.h"
#include "ptx.h"
#include "ptx_scan.h"
#include "ptxas.h"
#include "regest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool ptx_knows(const char *arch) { return ptx_isa_version(arch) != NULL; }

/* The static shared memory of a CTA: the architecture row's shared memory
 * per CTA without opt-in (smem_per_block, 48 KiB on every row today); for
 * arch NULL the lowest over the rows of the targets ptx_knows. */
static uint64_t ptx_shared_limit(const char *arch)
{
    ArchTable table;
    OccError err;
    if (arch_table_load_builtin(&table, &err) != 0) /* the built-in tables are tested */
        return 0;
    uint64_t lowest = 0;
    for (size_t i = 0; i < table.n_archs; i++) {
        const ArchLimits *a = &table.archs[i];
        char name[24];
        snprintf(name, sizeof name, "sm_%d%d", a->major, a->minor);
        bool row = arch ? a == arch_table_find(&table, arch) : ptx_knows(name);
        if (row && (!lowest || (uint64_t)a->smem_per_block < lowest))
            lowest = (uint64_t)a->smem_per_block;
    }
    arch_table_free(&table);
    return lowest;
}

/* Without ptxas: each kernel's estimate, the same on every target (the
 * IR is). */
static void estimate(Build *b, BuildTarget *const targets[], int n)
{
    const IrModule *m = b->module;
    KernelUsage *kernels = ARENA_ARRAY(b->c->arena, KernelUsage, m->n_funcs + 1);
    int n_kernels = 0;
    for (uint32_t k = 0; k < m->n_funcs; k++)
        if (m->funcs[k]->kernel)
            kernels[n_kernels++] = regest_kernel(m, m->funcs[k], b->c->arena);
    for (int i = 0; i < n; i++)
        targets[i]->usage = (UsageReport){.arch = targets[i]->arch, .kernels = kernels,
                                          .n_kernels = n_kernels, .source = USAGE_ESTIMATE};
}

/* Each target's PTX where ptxas reads it, and where its cubin goes:
 * private files (ARCH.ptx, ARCH.cubin), never the user's output, which may
 * be a pipe, /dev/stdout or /dev/null. */
static bool temp_files(Build *b, BuildTarget *const targets[], int n, const char **ptx,
                       const char **archs, const char **cubins)
{
    for (int i = 0; i < n; i++) {
        BuildTarget *t = targets[i];
        char name[64];
        snprintf(name, sizeof name, "%s.ptx", t->arch);
        t->code_path = build_temp_file(b, name, t->code, t->code_len);
        snprintf(name, sizeof name, "%s.cubin", t->arch);
        if (!t->code_path || !(cubins[i] = build_temp_path(b, name)))
            return false;
        ptx[i] = t->code_path;
        archs[i] = t->arch;
    }
    return true;
}

/* ptxas's result for one target (ptxas.h) in the build's words
 * (ToolFailure). */
static ToolFailure ptxas_failure(const UsageReport *u)
{
    switch (u->exit_status) {
    case PTXAS_NOT_STARTED: return TOOL_NOT_STARTED;
    case PTXAS_BAD_OUTPUT: return TOOL_BAD_OUTPUT;
    case PTXAS_NO_RESULT: return TOOL_NO_OUTPUT;
    default: return build_tool_failure(u->exit_status, u->signal, u->errors);
    }
}

/* One ptxas run per target gives both the figures (-v) and the cubin. */
static BuildStatus ptx_measure(Build *b, BuildTarget *const targets[], int n)
{
    const char *ptxas = ptxas_find();
    if (!ptxas) {
        estimate(b, targets, n);
        return BUILD_OK;
    }
    Arena *arena = b->c->arena;
    const char **ptx = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **archs = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **cubins = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    if (!temp_files(b, targets, n, ptx, archs, cubins))
        return BUILD_ENVIRONMENT;
    UsageReport *got = ARENA_ARRAY(arena, UsageReport, (size_t)n + 1);
    int status = ptxas_assemble_targets(ptxas, ptx, archs, cubins, n, arena, got);
    b->tool = ptxas;
    b->tool_status = status;
    b->tool_errno = errno;
    for (int i = 0; i < n; i++) {
        targets[i]->usage = got[i];
        targets[i]->binary_path = status == 0 ? cubins[i] : NULL;
        targets[i]->tool = ptxas;
        targets[i]->failure = ptxas_failure(&got[i]);
        if (got[i].exit_status == PTXAS_NOT_STARTED) /* the driver leaves why in errno */
            targets[i]->usage.errors = strerror(b->tool_errno);
    }
    return status == 0 ? BUILD_OK : BUILD_TOOL_FAILED;
}

/* Target t's PTX with each capped kernel at its cap and the others left
 * out (ptx_with_register_caps), written for ptxas; NULL when it cannot
 * be written (reported). */
static const char *capped_ptx(Build *b, const BuildTarget *t, const int *caps)
{
    Arena *arena = b->c->arena;
    PtxEntry *entries;
    int n = ptx_scan_entries(t->code, t->code_len, arena, &entries);
    int *entry_caps = ARENA_ARRAY(arena, int, (size_t)n + 1);
    for (int e = 0; e < n; e++) {
        entry_caps[e] = -1;
        for (uint32_t k = 0; k < b->module->n_funcs; k++)
            if (caps[k] && strcmp(b->module->funcs[k]->name, entries[e].name) == 0)
                entry_caps[e] = caps[k];
    }
    size_t len;
    char *text = ptx_with_register_caps(t->code, t->code_len, entries, n, entry_caps, arena, &len);
    char name[64];
    snprintf(name, sizeof name, "%s.caps.ptx", t->arch);
    return build_temp_file(b, name, text, len);
}

static void ptx_measure_at_caps(Build *b, BuildTarget *const targets[], int *const caps[], int n)
{
    const char *ptxas = ptxas_find();
    Arena *arena = b->c->arena;
    const char **paths = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **archs = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    for (int i = 0; i < n; i++) {
        archs[i] = targets[i]->arch;
        if (!ptxas || !(paths[i] = capped_ptx(b, targets[i], caps[i])))
            return;
    }
    UsageReport *got = ARENA_ARRAY(arena, UsageReport, (size_t)n + 1);
    if (ptxas_run_targets(ptxas, paths, archs, n, arena, got) != 0)
        return;
    for (int i = 0; i < n; i++)
        targets[i]->at_caps = got[i];
}

const Backend backend_ptx = {
    .name = "ptx",
    .target_range = "sm_75 to sm_121",
    .code_name = "PTX",
    .emit_name = "ptx",
    .vendor = "NVIDIA",
    .tools_from = "the CUDA toolkit",
    .tools_help = "install the CUDA toolkit, or set SILK_PTXAS",
    .knows = ptx_knows,
    .shared_limit = ptx_shared_limit,
    .assembler = ptxas_find,
    .emit = ptx_emit_module,
    .measure = ptx_measure,
    .measure_at_caps = ptx_measure_at_caps,
};
