/*
 * report_host.c: the code a report hands the user for its selected
 * configuration: the Silk launch block, the CUDA launch, and the
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor call that checks the
 * estimate on a device.  With a work size the grid is a number; without
 * one it is written over `n`, the work the caller has.
 */
#include "report_model.h"

/* A Silk launch block's grid counts work items and must be a multiple of
 * the workspace, so it is the CTAs times the block size. */
void report_silk_launch(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    if (!r) {
        snprintf(buf, size, "// %s cannot run on %s", e->kernel.name, e->target.sm_name);
        return;
    }
    if (e->have_work)
        snprintf(buf, size, "gpu (grid=%llu, workspace=%d) {\n  %s(...);\n}",
                 (unsigned long long)(e->ctas * (uint64_t)r->threads), r->threads, e->kernel.name);
    else
        snprintf(buf, size, "gpu (grid=(n + %d) / %d * %d, workspace=%d) {\n  %s(...);\n}",
                 r->threads - 1, r->threads, r->threads, r->threads, e->kernel.name);
}

void report_cuda_launch(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    unsigned long long smem = (unsigned long long)e->dynamic_smem;
    if (!r) {
        snprintf(buf, size, "// %s cannot run on %s", e->kernel.name, e->target.sm_name);
        return;
    }
    if (!e->have_work)
        snprintf(buf, size, "%s<<<(n + %d) / %d, %d, %llu>>>(...);", e->kernel.name, r->threads - 1,
                 r->threads, r->threads, smem);
    else if (e->grid_y)
        snprintf(buf, size, "%s<<<dim3(%d, %llu), %d, %llu>>>(...);  // 2-D: index = blockIdx.y * gridDim.x + blockIdx.x",
                 e->kernel.name, e->target.arch->max_grid_x, (unsigned long long)e->grid_y,
                 r->threads, smem);
    else
        snprintf(buf, size, "%s<<<%llu, %d, %llu>>>(...);", e->kernel.name,
                 (unsigned long long)e->ctas, r->threads, smem);
}

void report_verify_snippet(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    if (!r) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, size,
             "int blocks = 0;\n"
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, %s, %d, %llu);\n"
             "// expect blocks == %d on %s (%.1f%% theoretical occupancy)",
             e->kernel.name, r->threads, (unsigned long long)e->dynamic_smem,
             r->result.active_blocks, e->target.sm_name, 100.0 * occ_occupancy(&r->result));
}
