/*
 * arch_text.c: `silk-occ arch list` and `arch show` for people, over both
 * vendors' tables.  The list is a table of each vendor's architectures
 * and one of its products, NVIDIA's first; show is one line per limit of
 * an architecture, in words, after a line on the product when one was
 * named.  The columns and the limits are each table's own.
 */
#include "arch_writers.h"

#include <limits.h>
#include <string.h>

static const char *const AGPR_FILES[] = {"none", "separate", "unified"};

/* ---- list ----------------------------------------------------------------- */

static void list_nvidia(const ArchTable *t, FILE *out)
{
    char sm[16], smem[32], optin[32], cc[16];
    fprintf(out, "%-5s %-8s %-13s %8s %8s %7s %10s %10s  %s\n", "cc", "arch", "family", "threads",
            "CTAs/SM", "regs", "smem/SM", "smem/CTA", "aliases");
    for (size_t i = 0; i < t->n_archs; i++) {
        const ArchLimits *a = &t->archs[i];
        snprintf(cc, sizeof cc, "%d.%d", a->major, a->minor);
        fprintf(out, "%-5s %-8s %-13s %8d %8d %7d %10s %10s  %s\n", cc,
                arch_sm_name(a, sm, sizeof sm), a->family, a->max_threads_per_sm,
                a->max_blocks_per_sm, a->regs_per_sm,
                format_bytes((uint64_t)a->smem_per_sm, smem, sizeof smem),
                format_bytes((uint64_t)a->smem_per_block_optin, optin, sizeof optin), a->aliases);
    }
    fprintf(out, "\n%-20s %-30s %5s %5s %6s  %s\n", "gpu", "name", "cc", "SMs", "GiB", "aliases");
    for (size_t i = 0; i < t->n_products; i++) {
        const GpuProduct *g = &t->products[i];
        snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
        fprintf(out, "%-20s %-30s %5s %5d %6d  %s\n", g->id, g->name, cc, g->sm_count,
                g->memory_gib, g->aliases);
    }
}

/* The width of the gfx column: the longest name ("gfx1100+wave64+cumode"). */
static int gfx_width(const AmdTable *t)
{
    int width = 8;
    for (size_t i = 0; i < t->n_targets; i++) {
        int n = (int)strlen(t->targets[i].gfx);
        width = n > width ? n : width;
    }
    return width;
}

static void list_amd(const AmdTable *t, FILE *out)
{
    char lds[32];
    int w = gfx_width(t);
    fprintf(out, "\n%-*s %-7s %5s %-4s %6s %10s %6s %-9s %10s  %s\n", w, "gfx", "family", "wave",
            "unit", "waves", "VGPRs", "gran.", "AGPRs", "LDS/unit", "aliases");
    for (size_t i = 0; i < t->n_targets; i++) {
        const AmdTarget *a = &t->targets[i];
        fprintf(out, "%-*s %-7s %5d %-4s %6d %10d %6d %-9s %10s  %s\n", w, a->gfx, a->family,
                a->wave_size, a->occupancy_unit, a->max_waves_per_simd, a->vgprs_per_simd,
                a->vgpr_alloc_granule, AGPR_FILES[a->agpr_file],
                format_bytes((uint64_t)a->lds_per_unit, lds, sizeof lds), a->aliases);
    }
    fprintf(out, "\n%-20s %-30s %-8s %5s %6s  %s\n", "gpu", "name", "gfx", "CUs", "GiB", "aliases");
    for (size_t i = 0; i < t->n_products; i++) {
        const AmdProduct *g = &t->products[i];
        fprintf(out, "%-20s %-30s %-8s %5d %6d  %s\n", g->id, g->name, g->gfx, g->compute_units,
                g->memory_gib, g->aliases);
    }
}

/* ---- show ----------------------------------------------------------------- */

static void show_nvidia(const ArchLimits *a, const GpuProduct *g, FILE *out)
{
    char sm[16], b[32];
    if (g)
        fprintf(out, "%s (%s): compute capability %d.%d, %d SMs, %d GiB\n\n", g->name, g->id,
                g->major, g->minor, g->sm_count, g->memory_gib);
    fprintf(out, "%s: %s, compute capability %d.%d\n", arch_sm_name(a, sm, sizeof sm), a->family,
            a->major, a->minor);
    fprintf(out, "  names                      %d.%d sm_%d%d compute_%d%d ", a->major, a->minor,
            a->major, a->minor, a->major, a->minor);
    for (const char *p = a->aliases; *p; p++)
        fputc(*p == ';' ? ' ' : *p, out);
    fputc('\n', out);
    fprintf(out, "  warp size                  %d threads\n", a->warp_size);
    fprintf(out, "  threads per CTA            %d\n", a->max_threads_per_block);
    fprintf(out, "  threads per SM             %d (%d warps)\n", a->max_threads_per_sm,
            arch_max_warps_per_sm(a));
    fprintf(out, "  CTAs per SM                %d\n", a->max_blocks_per_sm);
    fprintf(out, "  registers per SM           %d (%d sub-partitions)\n", a->regs_per_sm,
            a->sub_partitions);
    fprintf(out, "  registers per CTA          %d\n", a->regs_per_block);
    fprintf(out, "  registers per thread       %d (the launch check allows up to %d)\n",
            a->max_regs_per_thread, a->reg_alloc_limit_per_thread);
    fprintf(out, "  register allocation        %d per warp; warps counted in groups of %d\n",
            a->reg_alloc_unit, a->warp_alloc_granularity);
    fprintf(out, "  shared memory per SM       %s\n",
            format_bytes((uint64_t)a->smem_per_sm, b, sizeof b));
    fprintf(out, "  shared memory per CTA      %s",
            format_bytes((uint64_t)a->smem_per_block, b, sizeof b));
    fprintf(out, ", %s with opt-in\n", format_bytes((uint64_t)a->smem_per_block_optin, b, sizeof b));
    fprintf(out, "  reserved per CTA           %s\n",
            format_bytes((uint64_t)a->reserved_smem_per_block, b, sizeof b));
    fprintf(out, "  shared allocation unit     %d B\n", a->smem_alloc_unit);
    fprintf(out, "  carveouts                  ");
    for (int i = 0; i < a->n_smem_configs; i++)
        fprintf(out, "%s%d", i ? ", " : "", a->smem_configs[i] / 1024);
    fputs(a->n_smem_configs ? " KiB\n" : "fixed\n", out);
    if (a->barriers_per_cta_slot)
        fprintf(out, "  barriers per SM            %d (%d per CTA slot)\n", arch_barriers_per_sm(a),
                a->barriers_per_cta_slot);
    else
        fputs("  barriers per SM            not a limit\n", out);
    if (a->virtual_resources_per_sm)
        fprintf(out, "  virtual resources per SM   %d\n", a->virtual_resources_per_sm);
    else
        fputs("  virtual resources per SM   not a limit\n", out);
    fprintf(out, "  partitioned global caching %s\n", a->partitioned_gc ? "supported" : "no");
    fprintf(out, "  grid limits                %d x %d x %d\n", a->max_grid_x, a->max_grid_y,
            a->max_grid_z);
}

static void show_sgpr_steps(const AmdTarget *a, FILE *out)
{
    fputs("  SGPRs                      ", out);
    for (int i = 0; i < a->n_sgpr_waves; i++) {
        if (a->sgpr_waves[i].max_sgprs == INT_MAX)
            fprintf(out, "%smore: %d waves", i ? ", " : "", a->sgpr_waves[i].waves);
        else
            fprintf(out, "%s<= %d: %d waves", i ? ", " : "", a->sgpr_waves[i].max_sgprs,
                    a->sgpr_waves[i].waves);
    }
    fprintf(out, "%s (%d addressable)\n", a->n_sgpr_waves ? "" : "not a limit", a->addressable_sgprs);
}

static void show_amd(const AmdTarget *a, const AmdProduct *g, int units, FILE *out)
{
    char b[32];
    if (g)
        fprintf(out, "%s (%s): %s, %d CUs (%d %ss), %d GiB\n\n", g->name, g->id, g->gfx,
                g->compute_units, units, a->occupancy_unit, g->memory_gib);
    fprintf(out, "%s: %s\n", a->gfx, a->family);
    fprintf(out, "  wave size                  %d lanes\n", a->wave_size);
    fprintf(out, "  occupancy unit             %s (%d CU%s, %d SIMDs)\n", a->occupancy_unit,
            a->cus_per_unit, a->cus_per_unit == 1 ? "" : "s", a->simds_per_unit);
    fprintf(out, "  waves per SIMD             %d\n", a->max_waves_per_simd);
    fprintf(out, "  work-items per workgroup   %d\n", a->max_workgroup_size);
    fprintf(out, "  workgroups with barriers   %d per %s\n", a->max_workgroup_barriers,
            a->occupancy_unit);
    fprintf(out, "  VGPRs per SIMD lane        %d, allocated by %d, %d addressable\n",
            a->vgprs_per_simd, a->vgpr_alloc_granule, a->addressable_vgprs);
    fprintf(out, "  AGPRs                      %s", AGPR_FILES[a->agpr_file]);
    if (a->agpr_file == AMD_AGPR_UNIFIED)
        fprintf(out, " (after the VGPRs aligned to %d)", a->agpr_align);
    fputc('\n', out);
    show_sgpr_steps(a, out);
    fprintf(out, "  LDS per %-18s %s", a->occupancy_unit,
            format_bytes((uint64_t)a->lds_per_unit, b, sizeof b));
    fprintf(out, ", %s per workgroup\n", format_bytes((uint64_t)a->lds_per_workgroup, b, sizeof b));
}

int arch_write_text(const ArchView *v, FILE *out)
{
    const Target *t = v->shown;
    if (!t) {
        list_nvidia(v->nvidia, out);
        list_amd(v->amd, out);
    } else if (t->vendor == OCC_AMD) {
        show_amd(t->amd, t->amd_gpu, t->sm_count, out);
    } else {
        show_nvidia(t->arch, t->gpu, out);
    }
    return EXIT_OK;
}
