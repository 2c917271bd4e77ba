/*
 * report_vendor.c: the report model's questions answered by each vendor's
 * engine (report_vendor.h): NVIDIA's CTAs per SM from the compute
 * capability's row, AMD's waves per SIMD from the gfx target's row, both
 * returned in the one shape (OccFigures) the rest of the model reads.
 */
#include "report_vendor.h"

#include <limits.h>
#include <string.h>

static bool is_amd(const ReportEntry *e) { return e->target.vendor == OCC_AMD; }

int report_warp_size(const ReportEntry *e)
{
    return is_amd(e) ? e->target.amd->wave_size : e->target.arch->warp_size;
}

int report_max_block(const ReportEntry *e)
{
    return is_amd(e) ? e->target.amd->max_workgroup_size : e->target.arch->max_threads_per_block;
}

/* The block bound the kernel was compiled for: the fixed size, the bound,
 * or (AMD) the target's largest workgroup, LLVM's default. */
static int compiled_bound(const ReportEntry *e)
{
    const MeasuredKernel *k = &e->kernel;
    return k->reqntid ? k->reqntid : k->maxntid;
}

void report_vendor_kernel(ReportEntry *e)
{
    const KernelUsage *u = &e->kernel.usage;
    if (!is_amd(e)) {
        e->resources = usage_resources(u, e->target.arch, true);
        e->resources.max_threads_per_block = compiled_bound(e);
        return;
    }
    /* The code object's .vgpr_count is the unified file's total on gfx90a
     * and gfx942 (the AGPRs after the VGPRs), so it goes to the engine whole. */
    int bound = compiled_bound(e);
    e->amd_kernel = (AmdKernel){.vgprs = u->registers, .sgprs = u->sgprs,
                                .lds = (uint64_t)u->static_smem,
                                .flat_workgroup_max = bound ? bound : report_max_block(e)};
}

/* The AMD kernel with a row's dynamic LDS, which a launch adds. */
static AmdKernel amd_kernel_at(const ReportEntry *e, uint64_t dynamic_smem)
{
    AmdKernel k = e->amd_kernel;
    k.lds += dynamic_smem;
    return k;
}

/* More LDS than a workgroup may have: nothing resident, LDS the limit. */
static void amd_does_not_fit(const AmdTarget *t, AmdResult *r)
{
    *r = (AmdResult){.max_waves_per_simd = t->max_waves_per_simd, .limited_by = 1u << AMD_LIMITER_LDS};
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        r->limit[i] = i == AMD_LIMITER_LDS ? 0 : INT_MAX;
}

bool report_vendor_row(const ReportEntry *e, ReportRow *r)
{
    if (!is_amd(e)) {
        if (occ_active_blocks(e->target.arch, &e->resources, r->threads, r->dynamic_smem,
                              &r->result) != OCC_OK)
            return false;
        r->fig = occ_figures_nvidia(&r->result);
        return true;
    }
    AmdKernel k = amd_kernel_at(e, r->dynamic_smem);
    OccStatus status = amd_occupancy_calc(e->target.amd, &k, r->threads, &r->amd);
    if (status == OCC_ERR_DOES_NOT_FIT)
        amd_does_not_fit(e->target.amd, &r->amd);
    else if (status != OCC_OK)
        return false;
    r->fig = occ_figures_amd(&r->amd);
    return true;
}

bool report_vendor_next_step(ReportEntry *e)
{
    const ReportRow *r = report_selected(e);
    e->next = (OccNextStep){-1, -1, -1, -1, -1, -1};
    e->amd_next = (AmdNextStep){-1, -1, -1, -1, -1, -1, -1, -1};
    if (!r)
        return true;
    if (!is_amd(e))
        return occ_next_step(e->target.arch, &e->resources, r->threads, e->dynamic_smem,
                             &e->next) == OCC_OK;
    AmdKernel k = amd_kernel_at(e, e->dynamic_smem);
    return r->fig.groups == 0 ||
           amd_next_step(e->target.amd, &k, r->threads, &e->amd_next) == OCC_OK;
}

bool report_vendor_row_next_step(const ReportEntry *e, ReportRow *r)
{
    r->next = (OccNextStep){-1, -1, -1, -1, -1, -1};
    r->amd_next = (AmdNextStep){-1, -1, -1, -1, -1, -1, -1, -1};
    if (!is_amd(e))
        return occ_next_step(e->target.arch, &e->resources, r->threads, r->dynamic_smem,
                             &r->next) == OCC_OK;
    /* A workgroup that does not fit has no step, as at the selection. */
    AmdKernel k = amd_kernel_at(e, r->dynamic_smem);
    return r->fig.groups == 0 ||
           amd_next_step(e->target.amd, &k, r->threads, &r->amd_next) == OCC_OK;
}

/* AMD: VGPRs bind at the selected size and a cap that reaches the next
 * wave gains a workgroup; the cap is what amdgpu_num_vgpr (or the waves
 * amdgpu_waves_per_eu asks for) makes LLVM allocate within. */
static void amd_cap_advice(ReportEntry *e, const ReportRow *r)
{
    if (!(r->amd.limited_by & (1u << AMD_LIMITER_VGPRS)) || e->amd_next.vgprs_to_cut <= 0)
        return;
    AmdKernel k = amd_kernel_at(e, e->dynamic_smem);
    k.vgprs -= e->amd_next.vgprs_to_cut;
    AmdResult at_cap;
    if (k.vgprs < OCC_MIN_REGISTER_CAP ||
        amd_occupancy_calc(e->target.amd, &k, r->threads, &at_cap) != OCC_OK ||
        at_cap.workgroups_per_unit <= r->amd.workgroups_per_unit)
        return;
    e->cap = (CapAdvice){.applies = true, .cap = k.vgprs, .min_blocks = at_cap.workgroups_per_unit,
                         .waves = at_cap.waves_per_simd, .occupancy = amd_occupancy(&at_cap)};
}

void report_vendor_cap_advice(ReportEntry *e)
{
    const ReportRow *r = report_selected(e);
    OccCapAdvice advice;
    e->cap = (CapAdvice){0};
    if (!r)
        return;
    if (is_amd(e)) {
        amd_cap_advice(e, r);
        return;
    }
    if (!occ_advise_register_cap(e->target.arch, &e->resources, r->threads, r->dynamic_smem,
                                 &advice))
        return;
    e->cap = (CapAdvice){.applies = true, .cap = advice.cap, .min_blocks = advice.min_blocks,
                         .occupancy = advice.occupancy};
}

/* The length of the processor in a row's name: "gfx1100" of
 * "gfx1100+wave64+cumode"; a product is its processor's in every mode. */
static bool same_processor(const char *product_gfx, const char *row_gfx)
{
    size_t n = strcspn(row_gfx, "+");
    return strlen(product_gfx) == n && strncmp(product_gfx, row_gfx, n) == 0;
}

int report_vendor_products(const ReportEntry *e, const ReportSettings *s, ReportGpu *out, int max)
{
    int n = 0;
    if (is_amd(e)) {
        for (size_t i = 0; s->amd_table && i < s->amd_table->n_products && n < max; i++) {
            const AmdProduct *g = &s->amd_table->products[i];
            if (same_processor(g->gfx, e->target.amd->gfx))
                out[n++] = (ReportGpu){g->id, g->name, amd_product_units(e->target.amd, g), 0};
        }
        return n;
    }
    for (size_t i = 0; i < s->table->n_products && n < max; i++) {
        const GpuProduct *g = &s->table->products[i];
        if (arch_table_product_arch(s->table, g) == e->target.arch)
            out[n++] = (ReportGpu){g->id, g->name, g->sm_count, g->gpcs};
    }
    return n;
}

bool report_named_gpu(const ReportEntry *e, ReportGpu *out)
{
    const Target *t = &e->target;
    if (is_amd(e) && t->amd_gpu)
        *out = (ReportGpu){t->amd_gpu->id, t->amd_gpu->name, amd_product_units(t->amd, t->amd_gpu), 0};
    else if (!is_amd(e) && t->gpu)
        *out = (ReportGpu){t->gpu->id, t->gpu->name, t->gpu->sm_count, t->gpu->gpcs};
    else
        return false;
    return true;
}

/* HIP takes no launch whose gridDim x blockDim reaches 2^32 in a
 * dimension (the HIP API reference, hipModuleLaunchKernel). */
static uint64_t hip_grid_limit(int block)
{
    return block > 0 ? UINT32_MAX / (uint64_t)block : UINT32_MAX;
}

void report_vendor_grid_limits(ReportEntry *e)
{
    if (is_amd(e)) {
        e->max_grid_x = hip_grid_limit(e->block_x);
        e->max_grid_y = hip_grid_limit(e->block_y);
        return;
    }
    e->max_grid_x = (uint64_t)e->target.arch->max_grid_x;
    e->max_grid_y = (uint64_t)e->target.arch->max_grid_y;
}
