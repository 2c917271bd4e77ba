/*
 * calc_amd.c: `silk-occ calc` on an AMD target: check the options against
 * the target (each wrong value one line naming the option), compute the
 * engine's answer (amd.h) and hand it to a writer.
 */
#include "calc_amd.h"

#include <string.h>

static const char *const COMMAND = "calc";

bool calc_is_amd(const AmdTable *table, const char *arch, const char *gpu)
{
    return (arch && amd_table_find(table, arch)) || (gpu && amd_table_find_product(table, gpu));
}

const char *calc_amd_workgroups_key(const AmdTarget *t)
{
    return strcmp(t->occupancy_unit, "WGP") == 0 ? "workgroups_per_wgp" : "workgroups_per_cu";
}

/* The arithmetic LLVM does not bound (a 300-VGPR kernel cannot exist):
 * one line naming the option and the target's limit. */
static bool check_options(const CalcAmdOptions *o, const AmdTarget *t)
{
    if (o->nvidia_option) {
        cli_error(COMMAND, "%s: is for NVIDIA targets; %s takes --vgprs, --agprs, --sgprs and --lds",
                  o->nvidia_option, t->gfx);
        return false;
    }
    if (!o->have_threads) {
        cli_error(COMMAND, "--threads: required (work-items per workgroup)");
        return false;
    }
    if (!o->have_vgprs) {
        cli_error(COMMAND, "--vgprs: required (VGPRs per lane, from the kernel-resource-usage "
                           "remark or the code object's .vgpr_count)");
        return false;
    }
    if (o->threads > t->max_workgroup_size) {
        cli_error(COMMAND, "--threads: %lld is above the workgroup limit of %d work-items on %s",
                  o->threads, t->max_workgroup_size, t->gfx);
        return false;
    }
    if (o->vgprs > AMD_MAX_ARCH_VGPRS) {
        cli_error(COMMAND, "--vgprs: %lld is above the %d VGPRs a wave may address on %s",
                  o->vgprs, AMD_MAX_ARCH_VGPRS, t->gfx);
        return false;
    }
    if (o->agprs > 0 && t->agpr_file == AMD_AGPR_NONE) {
        cli_error(COMMAND, "--agprs: %s (%s) has no accumulation registers", t->gfx, t->family);
        return false;
    }
    if (o->agprs > AMD_MAX_ARCH_VGPRS) {
        cli_error(COMMAND, "--agprs: %lld is above the %d AGPRs a wave may address on %s",
                  o->agprs, AMD_MAX_ARCH_VGPRS, t->gfx);
        return false;
    }
    if (o->sgprs > t->addressable_sgprs) {
        cli_error(COMMAND, "--sgprs: %lld is above the %d SGPRs a wave may address on %s",
                  o->sgprs, t->addressable_sgprs, t->gfx);
        return false;
    }
    if (o->lds > (uint64_t)t->lds_per_workgroup) {
        char asked[32], limit[32];
        format_bytes_pair(o->lds, asked, (uint64_t)t->lds_per_workgroup, limit, sizeof asked);
        cli_error(COMMAND, "--lds: %s is above the %s of LDS a workgroup may allocate on %s",
                  asked, limit, t->gfx);
        return false;
    }
    return true;
}

/* LLVM compiles a kernel whose amdgpu-waves-per-eu it ignores, and keeps
 * the target's default: so does calc, saying why. */
static void warn_ignored_waves_per_eu(const CalcAmdModel *m)
{
    const AmdTarget *t = m->target;
    const AmdKernel *k = &m->kernel;
    int implied_min;
    char given[32];
    snprintf(given, sizeof given, k->waves_per_eu_max ? "%d,%d" : "%d", k->waves_per_eu_min,
             k->waves_per_eu_max);
    switch (amd_waves_per_eu(t, k, &implied_min)) {
    case AMD_WPE_MIN_ABOVE_MAX:
        if (k->waves_per_eu_max)
            cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the minimum %d "
                                 "is above the maximum %d", given, k->waves_per_eu_min, k->waves_per_eu_max);
        else
            cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the minimum %d "
                                 "is above the %d waves a SIMD holds on %s",
                        given, k->waves_per_eu_min, t->max_waves_per_simd, t->gfx);
        break;
    case AMD_WPE_MAX_ABOVE_SLOTS:
        cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the maximum %d is "
                             "above the %d waves a SIMD holds on %s",
                    given, k->waves_per_eu_max, t->max_waves_per_simd, t->gfx);
        break;
    case AMD_WPE_MIN_BELOW_WORKGROUP:
        cli_warning(COMMAND, "--waves-per-eu: %s is ignored, as LLVM ignores it: the minimum %d is "
                             "below the %d waves per SIMD a workgroup of %d work-items needs",
                    given, k->waves_per_eu_min, implied_min, m->threads);
        break;
    case AMD_WPE_NOT_GIVEN:
    case AMD_WPE_TAKEN:
        break;
    }
}

static bool resolve(const CalcAmdOptions *o, const AmdTable *table, CalcAmdModel *m)
{
    if (o->gpu) {
        m->gpu = amd_table_find_product(table, o->gpu);
        m->target = amd_table_product_target(table, m->gpu);
        m->units = amd_product_units(m->target, m->gpu);
    } else {
        m->target = amd_table_find(table, o->arch);
    }
    return check_options(o, m->target);
}

static bool build_model(const CalcAmdOptions *o, CalcAmdModel *m)
{
    const AmdTarget *t = m->target;
    m->threads = (int)o->threads;
    m->kernel = (AmdKernel){.vgprs = (int)o->vgprs, .agprs = (int)o->agprs,
                            .sgprs = (int)o->sgprs, .lds = o->lds,
                            .flat_workgroup_max = m->threads,
                            .waves_per_eu_min = o->waves_per_eu_min,
                            .waves_per_eu_max = o->waves_per_eu_max};
    if (amd_occupancy_calc(t, &m->kernel, m->threads, &m->result) != OCC_OK ||
        amd_next_step(t, &m->kernel, m->threads, &m->next) != OCC_OK) {
        cli_error(COMMAND, "the tables' row for %s cannot be used for this calculation", t->gfx);
        return false;
    }
    warn_ignored_waves_per_eu(m);
    m->have_work = o->have_work;
    m->work = o->work;
    if (o->have_work)
        m->have_waves = occ_waves(o->work, m->threads, m->result.workgroups_per_unit, m->units,
                                  &m->waves);
    return true;
}

int calc_amd(const CalcAmdOptions *o, const AmdTable *table)
{
    CalcAmdModel m = {0};
    if (o->format == FORMAT_CSV) {
        cli_error(COMMAND, "--format: csv is not written for AMD targets (text or json)");
        return EXIT_USAGE;
    }
    if (!resolve(o, table, &m) || !build_model(o, &m))
        return EXIT_USAGE;
    if (o->format == FORMAT_JSON)
        return calc_amd_write_json(&m, stdout);
    return calc_amd_write_text(&m, stdout);
}
