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
#include "format_bytes.h"

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
enum { GRID_TEXT = 96, BLOCK_TEXT = 48 };

static void cuda_dims(const ReportEntry *e, const ReportRow *r, char grid[GRID_TEXT],
                      char block[BLOCK_TEXT])
{
    if (e->block_y > 1)
        snprintf(block, BLOCK_TEXT, "dim3(%d, %d)", e->block_x, e->block_y);
    else
        snprintf(block, BLOCK_TEXT, "%d", r->threads);
    int cx = e->cluster.size ? e->cluster.dims[0] : 1;
    if (!e->have_work && cx > 1) /* whole clusters */
        snprintf(grid, GRID_TEXT, "((n + %d) / %d + %d) / %d * %d", r->threads - 1, r->threads, cx - 1,
                 cx, cx);
    else if (!e->have_work)
        snprintf(grid, GRID_TEXT, "(n + %d) / %d", r->threads - 1, r->threads);
    else if (e->grid_y)
        snprintf(grid, GRID_TEXT, "dim3(%llu, %llu)", (unsigned long long)e->grid_x,
                 (unsigned long long)e->grid_y);
    else
        snprintf(grid, GRID_TEXT, "%llu", (unsigned long long)e->ctas);
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

/* The dynamic shared memory argument of a launch: the bytes, or
 * dyn_smem_bytes for a kernel that declares extern __shared__ and that no
 * --dyn-smem sized (its size is the caller's, never a silent 0). */
static void smem_argument(const ReportEntry *e, char *buf, size_t size)
{
    if (e->dynamic_smem_unsized)
        snprintf(buf, size, "dyn_smem_bytes");
    else
        snprintf(buf, size, "%llu", (unsigned long long)e->dynamic_smem);
}

/* What must come before a CUDA launch or occupancy query: the opt-in to
 * shared memory above 48 KiB, which without it fails the launch and makes
 * the query answer 0, and the opt-in to a non-portable cluster size; the
 * dyn_smem_bytes comment.  Appends to buf at *used. */
static void cuda_prelude(const ReportEntry *e, const char *name, char *buf, size_t size,
                         size_t *used)
{
    char bytes[32];
    if (e->dynamic_smem_unsized && *used < size)
        *used += (size_t)snprintf(buf + *used, size - *used,
                                  "// %s declares extern __shared__: dyn_smem_bytes is its size "
                                  "per CTA (--dyn-smem gives it to the report)\n", name);
    if (e->smem_needs_optin && *used < size)
        *used += (size_t)snprintf(buf + *used, size - *used,
                                  "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                                  "%llu);  // above the %s default: opt in\n", name,
                                  (unsigned long long)e->dynamic_smem,
                                  format_bytes((uint64_t)e->target.arch->smem_per_block, bytes,
                                               sizeof bytes));
    if (e->cluster.nonportable && *used < size)
        *used += (size_t)snprintf(buf + *used, size - *used,
                                  "cudaFuncSetAttribute(%s, cudaFuncAttributeNonPortableClusterSizeAllowed, "
                                  "1);  // %d CTAs per cluster: above the portable %d\n", name,
                                  e->cluster.size, e->cluster.portable_limit);
}

/* A launch config for cudaLaunchKernelEx or cudaOccupancyMaxActiveClusters
 * named `var`: the grid, the block, the shared memory and, when the
 * kernel does not carry its cluster, the cluster dimension attribute. */
static void cluster_config(const ReportEntry *e, const char *var, const char *grid,
                           const char *block, char *buf, size_t size, size_t *used)
{
    char smem[32];
    smem_argument(e, smem, sizeof smem);
    /* A 2-D grid or block is already written as a dim3. */
    const char *gx = strncmp(grid, "dim3(", 5) ? "dim3(" : "", *gy = gx[0] ? ")" : "";
    const char *bx = strncmp(block, "dim3(", 5) ? "dim3(" : "", *by = bx[0] ? ")" : "";
    if (*used < size)
        *used += (size_t)snprintf(buf + *used, size - *used,
                                  "cudaLaunchConfig_t %s = {};\n%s.gridDim = %s%s%s;\n"
                                  "%s.blockDim = %s%s%s;\n%s.dynamicSmemBytes = %s;\n",
                                  var, var, gx, grid, gy, var, bx, block, by, var, smem);
    if (e->cluster.compiled || *used >= size)
        return;
    const int *d = e->cluster.dims;
    *used += (size_t)snprintf(buf + *used, size - *used,
                              "cudaLaunchAttribute %s_cluster;\n"
                              "%s_cluster.id = cudaLaunchAttributeClusterDimension;\n"
                              "%s_cluster.val.clusterDim.x = %d;\n"
                              "%s_cluster.val.clusterDim.y = %d;\n"
                              "%s_cluster.val.clusterDim.z = %d;\n"
                              "%s.attrs = &%s_cluster;\n%s.numAttrs = 1;\n",
                              var, var, var, d[0], var, d[1], var, d[2], var, var, var);
}

/* Where the launch's cluster comes from, for the launch's comment. */
static void cluster_words(const ReportEntry *e, char *buf, size_t size)
{
    const int *d = e->cluster.dims;
    if (e->cluster.compiled)
        snprintf(buf, size, "whole clusters of %d CTA%s (the kernel's __cluster_dims__(%d, %d, %d))",
                 e->cluster.size, e->cluster.size == 1 ? "" : "s", d[0], d[1], d[2]);
    else
        snprintf(buf, size, "whole clusters of %d CTA%s (--cluster %d,%d,%d)", e->cluster.size,
                 e->cluster.size == 1 ? "" : "s", d[0], d[1], d[2]);
}

void report_cuda_launch(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    char grid[GRID_TEXT], block[BLOCK_TEXT], escaped[256];
    const char *name = escape_if_needed(e->kernel.cxx_name, escaped, sizeof escaped);
    if (!r) {
        snprintf(buf, size, "// %s cannot run on %s", name, e->target.sm_name);
        return;
    }
    cuda_dims(e, r, grid, block);
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
        snprintf(grid, sizeof grid, "%llu", (unsigned long long)e->grid_x);
        fold = "  // a grid-stride loop: the work needs more CTAs than gridDim.x x gridDim.y";
    }
    size_t used = 0;
    char smem[32];
    smem_argument(e, smem, sizeof smem);
    if (e->target.vendor == OCC_NVIDIA)
        cuda_prelude(e, name, buf, size, &used);
    if (e->cluster.size && !e->cluster.compiled) {
        /* A cluster the kernel does not carry is a launch attribute. */
        cluster_config(e, "config", grid, block, buf, size, &used);
        if (used < size)
            snprintf(buf + used, size - used, "cudaLaunchKernelEx(&config, %s, ...);%s%s", name,
                     fold, instance_note(e));
        return;
    }
    char clusters[160] = "", words[128];
    if (e->cluster.size) {
        cluster_words(e, words, sizeof words);
        snprintf(clusters, sizeof clusters, "  // %s", words);
    }
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, "%s<<<%s, %s, %s>>>(...);%s%s%s", name,
                                 grid, block, smem, clusters, fold, instance_note(e));
    if (e->target.vendor == OCC_AMD && used < size)
        hip_module_launch(e, r, buf + used, size - used);
}

/* The clusters the device should hold: the named GPU's estimate, else
 * the first product's whose GPC layout is public, else an upper bound. */
static void expected_clusters(const ReportEntry *e, char *buf, size_t size)
{
    const char *named = named_gpu(e);
    const PersistentRow *known = NULL, *any = NULL;
    for (int i = 0; i < e->n_persistent; i++) {
        const PersistentRow *p = &e->persistent[i];
        if (named && strcmp(p->gpu.id, named) != 0)
            continue;
        any = any ? any : p;
        if (p->clusters >= 0 && !known)
            known = p;
    }
    const ReportRow *r = report_selected(e);
    if (known)
        snprintf(buf, size, "// expect clusters == %d on %s (an estimate from its %d GPCs)",
                 known->clusters, known->gpu.id, known->gpu.gpcs);
    else if (any)
        snprintf(buf, size, "// expect clusters <= %d on %s (its GPC layout is not public)",
                 any->gpu.sm_count * r->fig.groups / e->cluster.size, any->gpu.id);
    else
        snprintf(buf, size, "// expect clusters <= SMs x %d / %d", r->fig.groups, e->cluster.size);
}

/* cudaOccupancyMaxActiveClusters for a cluster launch. */
static void verify_clusters(const ReportEntry *e, const ReportRow *r, const char *name, char *buf,
                            size_t size, size_t *used)
{
    char grid[GRID_TEXT], block[BLOCK_TEXT], expect[160];
    cuda_dims(e, r, grid, block);
    if (*used < size)
        *used += (size_t)snprintf(buf + *used, size - *used, "\n");
    cluster_config(e, "occupancy_config", grid, block, buf, size, used);
    expected_clusters(e, expect, sizeof expect);
    if (*used < size)
        *used += (size_t)snprintf(buf + *used, size - *used,
                                  "int clusters = 0;\n"
                                  "cudaOccupancyMaxActiveClusters(&clusters, %s, &occupancy_config);\n%s",
                                  name, expect);
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
    const char *name = escape_if_needed(e->kernel.cxx_name, escaped, sizeof escaped);
    size_t used = 0;
    char smem[32];
    smem_argument(e, smem, sizeof smem);
    if (!amd)
        cuda_prelude(e, name, buf, size, &used);
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used,
                                 "int blocks = 0;\n"
                                 "%sOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, %s, %d, %s);\n"
                                 "// expect blocks == %d on %s (%.1f%% theoretical occupancy)",
                                 amd ? "hip" : "cuda", name, r->threads, smem, r->fig.groups,
                                 e->target.sm_name, 100.0 * occ_figures_occupancy(&r->fig));
    if (e->cluster.size && e->cluster.problem == CLUSTER_OK && used < size)
        verify_clusters(e, r, name, buf, size, &used);
}
