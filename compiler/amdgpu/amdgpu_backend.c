/*
 * amdgpu_backend.c: the AMD GPU target behind backend.h.  Code is LLVM IR
 * (amdgpu.c); llc and ld.lld make each target's code object in the
 * build's temporary directory, and its metadata note gives the figures
 * (llc.h, hsaco.h).  Without llc or ld.lld there are no figures: AMD's
 * register allocation is not estimated, so the build fails naming the
 * missing tool (AMDGPU_TOOL_NOT_STARTED, ENOENT, b->tool the tool's
 * name).  Register caps are not measured: the occupancy warnings that
 * would advise them are NVIDIA's (occ_warn.c skips AMD targets).
 */
#include "build.h"

#include "amd.h"
#include "amdgpu.h"
#include "llc.h"

#include <errno.h>
#include <stdio.h>

static bool amdgpu_knows(const char *arch) { return amdgpu_wave_size(arch) != 0; }

/* The static LDS of a workgroup: the target row's lds_per_workgroup (64 KiB
 * on every target LLVM 19 has, where llc refuses more); for arch NULL the
 * lowest over the rows of the targets amdgpu_knows. */
static uint64_t amdgpu_shared_limit(const char *arch)
{
    AmdTable table;
    OccError err;
    if (amd_table_load_builtin(&table, &err) != 0) /* the built-in tables are tested */
        return 0;
    const AmdTarget *only = arch ? amd_table_find(&table, arch) : NULL;
    uint64_t lowest = 0;
    for (size_t i = 0; i < table.n_targets; i++) {
        const AmdTarget *t = &table.targets[i];
        bool row = arch ? t == only : amdgpu_knows(t->gfx);
        if (row && (!lowest || (uint64_t)t->lds_per_workgroup < lowest))
            lowest = (uint64_t)t->lds_per_workgroup;
    }
    amd_table_free(&table);
    return lowest;
}

/* No tool: every target's report says which is missing. */
static BuildStatus missing_tool(Build *b, BuildTarget *const targets[], int n, const char *tool)
{
    for (int i = 0; i < n; i++) {
        targets[i]->usage = (UsageReport){.arch = targets[i]->arch,
                                          .exit_status = AMDGPU_TOOL_NOT_STARTED};
        targets[i]->tool = tool;
        targets[i]->failure = TOOL_MISSING;
    }
    b->tool = tool;
    b->tool_status = AMDGPU_TOOL_NOT_STARTED;
    b->tool_errno = ENOENT;
    return BUILD_TOOL_FAILED;
}

/* Each target's LLVM IR, object and code object: ARCH.ll, ARCH.o and
 * ARCH.hsaco in the build's temporary directory. */
static bool temp_files(Build *b, BuildTarget *const targets[], int n, const char **ll,
                       const char **archs, const char **objs, const char **hsacos)
{
    for (int i = 0; i < n; i++) {
        BuildTarget *t = targets[i];
        char name[64];
        snprintf(name, sizeof name, "%s.ll", t->arch);
        t->code_path = build_temp_file(b, name, t->code, t->code_len);
        snprintf(name, sizeof name, "%s.o", t->arch);
        objs[i] = t->code_path ? build_temp_path(b, name) : NULL;
        snprintf(name, sizeof name, "%s.hsaco", t->arch);
        if (!objs[i] || !(hsacos[i] = build_temp_path(b, name)))
            return false;
        ll[i] = t->code_path;
        archs[i] = t->arch;
    }
    return true;
}

/* llc's or ld.lld's result for one target (llc.h) in the build's words
 * (ToolFailure). */
static ToolFailure llc_failure(const UsageReport *u)
{
    switch (u->exit_status) {
    case AMDGPU_TOOL_NOT_STARTED: return TOOL_NOT_STARTED;
    case AMDGPU_BAD_CODE_OBJECT: return TOOL_BAD_OUTPUT;
    case AMDGPU_NO_OUTPUT: return TOOL_NO_OUTPUT;
    default: return build_tool_failure(u->exit_status, u->signal, u->errors);
    }
}

static BuildStatus amdgpu_measure(Build *b, BuildTarget *const targets[], int n)
{
    const char *llc = amdgpu_llc_find(), *lld = amdgpu_lld_find();
    if (!llc)
        return missing_tool(b, targets, n, "llc-19");
    if (!lld)
        return missing_tool(b, targets, n, "ld.lld-19");
    Arena *arena = b->c->arena;
    const char **ll = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **archs = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **objs = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **hsacos = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    const char **tools = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    if (!temp_files(b, targets, n, ll, archs, objs, hsacos))
        return BUILD_ENVIRONMENT;
    const IrModule *m = b->module;
    const char **kernels = ARENA_ARRAY(arena, const char *, m->n_funcs + 1);
    int n_kernels = 0;
    for (uint32_t k = 0; k < m->n_funcs; k++)
        if (m->funcs[k]->kernel)
            kernels[n_kernels++] = m->funcs[k]->name;
    UsageReport *got = ARENA_ARRAY(arena, UsageReport, (size_t)n + 1);
    int status = amdgpu_compile_targets(llc, lld, ll, archs, objs, hsacos, n, kernels, n_kernels, arena,
                                        got, tools);
    b->tool_status = status;
    b->tool_errno = errno;
    b->tool = NULL;
    for (int i = 0; i < n; i++) {
        targets[i]->usage = got[i];
        targets[i]->binary_path = got[i].exit_status == 0 ? hsacos[i] : NULL;
        targets[i]->tool = tools[i] ? tools[i] : llc;
        targets[i]->failure = llc_failure(&got[i]);
        if (got[i].exit_status != 0 && !b->tool) /* the first failure's tool */
            b->tool = targets[i]->tool;
    }
    if (!b->tool)
        b->tool = llc;
    return status == 0 ? BUILD_OK : BUILD_TOOL_FAILED;
}

static void amdgpu_measure_at_caps(Build *b, BuildTarget *const targets[], int *const caps[], int n)
{
    (void)b, (void)targets, (void)caps, (void)n; /* no caps are advised for AMD (see the top) */
}

const Backend backend_amdgpu = {
    .name = "amdgpu",
    .target_range = "gfx90a, gfx942, gfx1100, gfx1201",
    .hip_code_object = true, /* the .hsaco ld.lld links, which programs carry for HIP */
    .code_name = "LLVM IR",
    .emit_name = "llvm",
    .vendor = "AMD",
    .tools_from = "LLVM 19",
    .tools_help = "install llvm-19 and lld-19, or set SILK_LLC and SILK_LLD",
    .knows = amdgpu_knows,
    .shared_limit = amdgpu_shared_limit,
    .assembler = amdgpu_llc_find,
    .emit = amdgpu_emit_module,
    .measure = amdgpu_measure,
    .measure_at_caps = amdgpu_measure_at_caps,
};
