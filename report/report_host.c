/*
 * report_host.c: the code a report hands the user for its selected
 * configuration: the Silk launch block (for Silk kernels), the CUDA
 * launch with the kernel's C++ name, and the
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor call that checks the
 * estimate on a device.  With a work size the grid is a number; without
 * one it is written over `n`, the work the caller has.  A Silk
 * @persistent kernel is launched as the runtime launches it: the launch
 * block's grid is still the work (its logical CTAs), and the CUDA launch
 * starts at most the persistent grid of CTAs (SMs x resident CTAs) and
 * passes the logical CTA count as the hidden last argument,
 * __silk_logical_ctas.  A symbol with a
 * newline or an escape sequence in it (no C++ source can spell one) is
 * escaped, so it cannot split a line of the code or reach the terminal.
 */
#include "report_model.h"

#include "escape.h"

#include <stdio.h>
#include <string.h>

/* A Silk launch block's grid counts work items and must be a multiple of
 * the workspace, so it is the CTAs times the block size. */
/* The persistent grid on the target: its product's, else the first
 * product's of its architecture; 0 when the tables have none. */
static const char *named_gpu(const ReportEntry *e)
{
    const Target *t = &e->target;
    return t->gpu ? t->gpu->id : t->amd_gpu ? t->amd_gpu->id : NULL;
}

/* "SMs", or the AMD target's "CUs" or "WGPs". */
static const char *units(const ReportEntry *e)
{
    if (e->target.vendor != OCC_AMD)
        return "SMs";
    return strcmp(e->target.amd->occupancy_unit, "WGP") == 0 ? "WGPs" : "CUs";
}

static int persistent_grid(const ReportEntry *e)
{
    const char *named = named_gpu(e);
    for (int i = 0; i < e->n_persistent; i++)
        if (named && strcmp(e->persistent[i].gpu.id, named) == 0)
            return e->persistent[i].grid;
    return e->n_persistent ? e->persistent[0].grid : 0;
}

/* A @persistent kernel's logical CTAs ("3907", "(n + 255) / 256") and the
 * CTAs its launch starts ("1056", "min((n + 255) / 256, 1056)"). */
enum { LOGICAL_SIZE = 64, CTAS_SIZE = 2 * LOGICAL_SIZE + 48, NOTE_SIZE = 512 };

static void persistent_ctas(const ReportEntry *e, const ReportRow *r, char logical[LOGICAL_SIZE],
                            char ctas[CTAS_SIZE])
{
    int grid = persistent_grid(e);
    char most[LOGICAL_SIZE];
    if (grid)
        snprintf(most, sizeof most, "%d", grid);
    else
        snprintf(most, sizeof most, "%s * %d", e->target.vendor == OCC_AMD ? "units" : "sms",
                 r->fig.groups);
    if (e->have_work)
        snprintf(logical, LOGICAL_SIZE, "%llu", (unsigned long long)e->ctas);
    else
        snprintf(logical, LOGICAL_SIZE, "(n + %d) / %d", r->threads - 1, r->threads);
    if (e->have_work && grid)
        snprintf(ctas, CTAS_SIZE, "%llu",
                 (unsigned long long)(e->ctas < (uint64_t)grid ? e->ctas : (uint64_t)grid));
    else
        snprintf(ctas, CTAS_SIZE, "min(%s, %s)", logical, most);
}

/* "132 SMs x 8 resident on h100-sxm", or "SMs x 8 resident" without a
 * product in the tables. */
static void persistent_grid_words(const ReportEntry *e, const ReportRow *r, char *buf, size_t size)
{
    const char *named = named_gpu(e);
    const ReportGpu *gpu = NULL;
    for (int i = 0; i < e->n_persistent && !gpu; i++)
        if (!named || strcmp(e->persistent[i].gpu.id, named) == 0)
            gpu = &e->persistent[i].gpu;
    if (gpu)
        snprintf(buf, size, "%d %s x %d resident on %s", gpu->sm_count, units(e), r->fig.groups,
                 gpu->id);
    else
        snprintf(buf, size, "%s x %d resident", units(e), r->fig.groups);
}

/* What the runtime does with a @persistent launch block, as a comment. */
static void persistent_note(const ReportEntry *e, const ReportRow *r, char *buf, size_t size)
{
    char logical[LOGICAL_SIZE], ctas[CTAS_SIZE], grid[OCC_NAME_MAX + 64];
    persistent_ctas(e, r, logical, ctas);
    persistent_grid_words(e, r, grid, sizeof grid);
    snprintf(buf, size,
             "\n// @persistent: the runtime starts %s CTAs (at most %s) and passes __silk_logical_ctas = %s",
             ctas, grid, logical);
}

void report_silk_launch(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    char escaped[256];
    const char *name = escape_if_needed(e->kernel.name, escaped, sizeof escaped);
    if (!r) {
        snprintf(buf, size, "// %s cannot run on %s", name, e->target.sm_name);
        return;
    }
    char note[NOTE_SIZE] = "";
    if (e->kernel.persistent)
        persistent_note(e, r, note, sizeof note);
    if (e->have_work)
        snprintf(buf, size, "gpu (grid=%llu, workspace=%d) {\n  %s(...);\n}%s",
                 (unsigned long long)(e->ctas * (uint64_t)r->threads), r->threads, name, note);
    else
        snprintf(buf, size, "gpu (grid=(n + %d) / %d * %d, workspace=%d) {\n  %s(...);\n}%s",
                 r->threads - 1, r->threads, r->threads, r->threads, name, note);
}

/* The grid and block of the CUDA launch: numbers for 1-D, dim3 for 2-D
 * work, or over `n` without a work size. */
static void cuda_dims(const ReportEntry *e, const ReportRow *r, char *grid, char *block, size_t size)
{
    if (e->block_y > 1)
        snprintf(block, size, "dim3(%d, %d)", e->block_x, e->block_y);
    else
        snprintf(block, size, "%d", r->threads);
    if (!e->have_work)
        snprintf(grid, size, "(n + %d) / %d", r->threads - 1, r->threads);
    else if (e->grid_y)
        snprintf(grid, size, "dim3(%llu, %llu)", (unsigned long long)e->grid_x,
                 (unsigned long long)e->grid_y);
    else
        snprintf(grid, size, "%llu", (unsigned long long)e->ctas);
}

/* A template instance is named with its arguments, which C++ code that
 * includes the template can write; other code launches it by address. */
static const char *instance_note(const ReportEntry *e)
{
    return strchr(e->kernel.cxx_name, '<')
               ? "\n// a template instance: launch it from code that includes the template, "
                 "or through cudaLaunchKernelEx with its address (or wrap it in an extern \"C\" "
                 "kernel)"
               : "";
}

/* The same launch through a code object loaded with hipModuleLoad. */
static void hip_module_launch(const ReportEntry *e, const ReportRow *r, char *buf, size_t size)
{
    char grid_x[LOGICAL_SIZE], grid_y[24];
    if (e->have_work)
        snprintf(grid_x, sizeof grid_x, "%llu",
                 (unsigned long long)(e->grid_y || e->work_rows ? e->grid_x : e->ctas));
    else
        snprintf(grid_x, sizeof grid_x, "(n + %d) / %d", r->threads - 1, r->threads);
    snprintf(grid_y, sizeof grid_y, "%llu", (unsigned long long)(e->grid_y ? e->grid_y : 1));
    snprintf(buf, size,
             "\n// from a code object (hipModuleGetFunction):\n"
             "hipModuleLaunchKernel(f, %s, %s, 1, %d, %d, 1, %llu, stream, args, NULL);",
             grid_x, grid_y, e->block_x, e->block_y, (unsigned long long)e->dynamic_smem);
}

void report_cuda_launch(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    char grid[96], block[48], escaped[256];
    const char *name = escape_if_needed(e->kernel.cxx_name, escaped, sizeof escaped);
    if (!r) {
        snprintf(buf, size, "// %s cannot run on %s", name, e->target.sm_name);
        return;
    }
    cuda_dims(e, r, grid, block, sizeof block);
    if (e->kernel.persistent) { /* the persistent grid, the logical count last */
        char logical[LOGICAL_SIZE], ctas[CTAS_SIZE], words[OCC_NAME_MAX + 64];
        persistent_ctas(e, r, logical, ctas);
        persistent_grid_words(e, r, words, sizeof words);
        snprintf(buf, size, "%s<<<%s, %s, %llu>>>(..., %s);  // at most %s; the last argument is "
                 "__silk_logical_ctas", name, ctas, block, (unsigned long long)e->dynamic_smem,
                 logical, words);
        return;
    }
    bool folded = e->grid_y && e->work_rows == 0;
    const char *fold = folded ? "  // 2-D: index = blockIdx.y * gridDim.x + blockIdx.x" : "";
    if (folded && e->grid_y > e->max_grid_y) {
        /* More CTAs than a 2-D grid holds: the widest grid, striding. */
        snprintf(grid, sizeof grid, "%llu", (unsigned long long)e->max_grid_x);
        fold = "  // a grid-stride loop: the work needs more CTAs than gridDim.x x gridDim.y";
    }
    size_t used = (size_t)snprintf(buf, size, "%s<<<%s, %s, %llu>>>(...);%s%s", name, grid, block,
                                   (unsigned long long)e->dynamic_smem, fold, instance_note(e));
    if (e->target.vendor == OCC_AMD && used < size)
        hip_module_launch(e, r, buf + used, size - used);
}

void report_verify_snippet(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    char escaped[256];
    if (!r) {
        buf[0] = '\0';
        return;
    }
    bool amd = e->target.vendor == OCC_AMD;
    snprintf(buf, size,
             "int blocks = 0;\n"
             "%sOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, %s, %d, %llu);\n"
             "// expect blocks == %d on %s (%.1f%% theoretical occupancy)",
             amd ? "hip" : "cuda", escape_if_needed(e->kernel.cxx_name, escaped, sizeof escaped),
             r->threads, (unsigned long long)e->dynamic_smem, r->fig.groups, e->target.sm_name,
             100.0 * occ_figures_occupancy(&r->fig));
}
