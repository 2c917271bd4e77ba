/*
 * calc_amd_text.c: `silk-occ calc` on an AMD target, for people: the
 * target, the kernel, the waves per SIMD with what limits them, each
 * limit, the next step and the launch's waves on a product.
 */
#include "calc_amd.h"

#include <limits.h>

static void print_header(const CalcAmdModel *m, FILE *out)
{
    const AmdTarget *t = m->target;
    char lds[32];
    fprintf(out, "%s (%s)", t->gfx, t->family);
    if (m->gpu)
        fprintf(out, ", %s: %d CUs%s", m->gpu->name, m->gpu->compute_units,
                t->cus_per_unit > 1 ? "" : "\n");
    if (m->gpu && t->cus_per_unit > 1)
        fprintf(out, " = %d %ss\n", m->units, t->occupancy_unit);
    if (!m->gpu)
        fputc('\n', out);
    fprintf(out, "workgroup: %d work-items = %d wave%s of %d\n", m->threads,
            m->result.waves_per_workgroup, m->result.waves_per_workgroup == 1 ? "" : "s",
            t->wave_size);
    fprintf(out, "kernel: %d VGPRs", m->kernel.vgprs);
    if (t->agpr_file != AMD_AGPR_NONE)
        fprintf(out, " + %d AGPRs", m->kernel.agprs);
    fprintf(out, " (%d allocated), %d SGPRs, %s LDS\n", m->result.allocated_vgprs,
            m->kernel.sgprs, format_bytes(m->kernel.lds, lds, sizeof lds));
}

static void print_result(const CalcAmdModel *m, FILE *out)
{
    const AmdResult *r = &m->result;
    fprintf(out, "\nOccupancy: %d of %d waves per SIMD (%.0f%%), %d workgroup%s per %s\n",
            r->waves_per_simd, r->max_waves_per_simd, 100.0 * amd_occupancy(r),
            r->workgroups_per_unit, r->workgroups_per_unit == 1 ? "" : "s",
            m->target->occupancy_unit);
    fputs("Limited by:", out);
    const char *sep = " ";
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        if (r->limited_by & (1u << i)) {
            fprintf(out, "%s%s", sep, amd_limiter_what((AmdLimiter)i));
            sep = ", ";
        }
    fputs("\n\n  limit           waves/SIMD\n", out);
    for (int i = 0; i < AMD_N_LIMITERS; i++) {
        fprintf(out, "  %-15s ", amd_limiter_name((AmdLimiter)i));
        if (r->limit[i] == INT_MAX)
            fputs("-\n", out);
        else
            fprintf(out, "%d%s\n", r->limit[i], r->limited_by & (1u << i) ? "  <" : "");
    }
}

static void print_next_step(const CalcAmdModel *m, FILE *out)
{
    const AmdNextStep *s = &m->next;
    char bytes[32];
    bool any = false;
    fputc('\n', out);
    if (s->vgprs_to_cut > 0 && m->kernel.agprs > 0) {
        fprintf(out, "Next step: cut %d of the %d VGPRs and AGPRs together (%s) for %d waves "
                     "per SIMD\n",
                s->vgprs_to_cut, amd_combined_vgprs(m->target, m->kernel.vgprs, m->kernel.agprs),
                m->target->agpr_file == AMD_AGPR_UNIFIED ? "the AGPRs start after the VGPRs, "
                                                           "rounded up to 4"
                                                         : "the larger of the two counts",
                s->vgprs_gained_waves);
        any = true;
    } else if (s->vgprs_to_cut > 0) {
        fprintf(out, "Next step: cut %d VGPR%s for %d waves per SIMD\n", s->vgprs_to_cut,
                s->vgprs_to_cut == 1 ? "" : "s", s->vgprs_gained_waves);
        any = true;
    }
    if (s->sgprs_to_cut > 0) {
        fprintf(out, "Next step: cut %d SGPR%s for %d waves per SIMD\n", s->sgprs_to_cut,
                s->sgprs_to_cut == 1 ? "" : "s", s->sgprs_gained_waves);
        any = true;
    }
    if (s->lds_to_cut > 0) {
        fprintf(out, "Next step: cut %s of LDS for %d waves per SIMD\n",
                format_bytes((uint64_t)s->lds_to_cut, bytes, sizeof bytes), s->lds_gained_waves);
        any = true;
    }
    if (!any)
        fputs("Next step: no single resource cut gains a wave per SIMD\n", out);
    fprintf(out, "Slack: %d VGPRs%s, %s of LDS may be added without losing a wave\n",
            s->vgprs_slack, m->kernel.agprs > 0 ? " (with the AGPRs)" : "",
            format_bytes((uint64_t)s->lds_slack, bytes, sizeof bytes));
}

static void print_launch(const CalcAmdModel *m, FILE *out)
{
    const OccWaves *w = &m->waves;
    const char *unit = m->target->occupancy_unit;
    if (m->have_waves)
        fprintf(out, "\nWork of %llu items: %llu workgroups. On %d %ss at %d each, a wave is "
                     "%llu workgroups: %.2f waves, %llu full, the last %.0f%% full.\n",
                (unsigned long long)m->work, (unsigned long long)w->ctas, m->units, unit,
                m->result.workgroups_per_unit, (unsigned long long)w->ctas_per_wave, w->waves,
                (unsigned long long)w->full_waves, 100.0 * w->last_wave_fill);
    else if (m->have_work)
        fprintf(out, "\nWork of %llu items: %llu workgroups. Give --gpu for waves and the "
                     "persistent grid.\n",
                (unsigned long long)m->work, (unsigned long long)w->ctas);
    if (m->units > 0)
        fprintf(out, "%sPersistent grid: %d workgroups (%d %ss x %d).\n", m->have_waves ? "" : "\n",
                m->units * m->result.workgroups_per_unit, m->units, unit,
                m->result.workgroups_per_unit);
}

int calc_amd_write_text(const CalcAmdModel *m, FILE *out)
{
    print_header(m, out);
    print_result(m, out);
    print_next_step(m, out);
    print_launch(m, out);
    return EXIT_OK;
}
