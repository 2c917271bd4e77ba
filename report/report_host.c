/*
 * report_host.c: the code a report hands the user for its selected
 * configuration: the Silk launch block (for Silk kernels), the CUDA
 * launch with the kernel's C++ name, and the
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor call that checks the
 * estimate on a device.  With a work size the grid is a number; without
 * one it is written over `n`, the work the caller has.  A symbol with a
 * newline or an escape sequence in it (no C++ source can spell one) is
 * escaped, so it cannot split a line of the code or reach the terminal.
 */
#include "report_model.h"

#include "escape.h"

#include <stdio.h>
#include <string.h>

/* A Silk launch block's grid counts work items and must be a multiple of
 * the workspace, so it is the CTAs times the block size. */
void report_silk_launch(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    char escaped[256];
    const char *name = escape_if_needed(e->kernel.name, escaped, sizeof escaped);
    if (!r) {
        snprintf(buf, size, "// %s cannot run on %s", name, e->target.sm_name);
        return;
    }
    if (e->have_work)
        snprintf(buf, size, "gpu (grid=%llu, workspace=%d) {\n  %s(...);\n}",
                 (unsigned long long)(e->ctas * (uint64_t)r->threads), r->threads, name);
    else
        snprintf(buf, size, "gpu (grid=(n + %d) / %d * %d, workspace=%d) {\n  %s(...);\n}",
                 r->threads - 1, r->threads, r->threads, r->threads, name);
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
    bool folded = e->grid_y && e->work_rows == 0;
    const char *fold = folded ? "  // 2-D: index = blockIdx.y * gridDim.x + blockIdx.x" : "";
    if (folded && e->grid_y > (uint64_t)e->target.arch->max_grid_y) {
        /* More CTAs than a 2-D grid holds: the widest grid, striding. */
        snprintf(grid, sizeof grid, "%d", e->target.arch->max_grid_x);
        fold = "  // a grid-stride loop: the work needs more CTAs than gridDim.x x gridDim.y";
    }
    snprintf(buf, size, "%s<<<%s, %s, %llu>>>(...);%s%s", name, grid, block,
             (unsigned long long)e->dynamic_smem, fold, instance_note(e));
}

void report_verify_snippet(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    char escaped[256];
    if (!r) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, size,
             "int blocks = 0;\n"
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, %s, %d, %llu);\n"
             "// expect blocks == %d on %s (%.1f%% theoretical occupancy)",
             escape_if_needed(e->kernel.cxx_name, escaped, sizeof escaped), r->threads,
             (unsigned long long)e->dynamic_smem,
             r->result.active_blocks, e->target.sm_name, 100.0 * occ_occupancy(&r->result));
}
