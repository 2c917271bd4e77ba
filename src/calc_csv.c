/*
 * calc_csv.c: `silk-occ calc --format csv`: a header row and one row per
 * result (one, or one per sweep point), for a target of either vendor.
 * The columns are fixed, so that the rows of NVIDIA and AMD runs line up:
 * those of the report's CSV that a calculation has, a cell that does not
 * apply empty (limit_vgprs on NVIDIA), each meaning what the JSON key of
 * the same name means.  Text fields are written with libcsv, which quotes
 * them as CSV requires; numbers need no quoting.
 */
#include "calc_model.h"

#include <csv.h>
#include <limits.h>
#include <string.h>

static const char *const base_columns[] = {
    "vendor", "arch", "compute_capability", "gpu", "sm_count", "threads", "regs_per_thread",
    "static_smem", "dynamic_smem", "warps_per_block", "active_blocks_per_sm",
    "active_warps_per_sm", "max_warps_per_sm", "waves_per_simd", "max_waves_per_simd",
    "occupancy", "limited_by",
};
static const char *const tail_columns[] = {"allocated_regs_per_block", "allocated_smem_per_block"};
/* With --work, the launch (the waves empty where the SM count is unknown). */
static const char *const launch_columns[] = {"work", "ctas", "tail_threads", "waves", "full_waves",
                                             "last_wave_fill", "idle_fraction", "persistent_grid"};

#define N(a) (sizeof(a) / sizeof *(a))

static void field(FILE *out, bool *first, const char *text)
{
    if (!*first)
        fputc(',', out);
    *first = false;
    csv_fwrite(out, text, strlen(text));
}

/* Numbers need no quoting; an unknown one is an empty text cell, as in
 * the report's CSV. */
static void number_field(FILE *out, bool *first, bool known, unsigned long long value)
{
    if (!known) {
        field(out, first, "");
        return;
    }
    fprintf(out, "%s%llu", *first ? "" : ",", value);
    *first = false;
}

static void fraction_field(FILE *out, bool known, double value)
{
    bool first = false;
    if (known)
        fprintf(out, ",%.6f", value);
    else
        field(out, &first, "");
}

static void write_header(FILE *out, bool launch)
{
    bool first = true;
    char name[48];
    for (size_t i = 0; i < N(base_columns); i++)
        field(out, &first, base_columns[i]);
    for (int i = 0; i < OCC_N_LIMITERS; i++) {
        snprintf(name, sizeof name, "limit_%s", occ_vendor_limiter_name(OCC_NVIDIA, i));
        field(out, &first, name);
    }
    for (int i = 0; i < AMD_N_LIMITERS; i++) {
        snprintf(name, sizeof name, "limit_%s", occ_vendor_limiter_name(OCC_AMD, i));
        field(out, &first, name);
    }
    for (size_t i = 0; i < N(tail_columns); i++)
        field(out, &first, tail_columns[i]);
    for (size_t i = 0; launch && i < N(launch_columns); i++)
        field(out, &first, launch_columns[i]);
    fputc('\n', out);
}

static void write_target(FILE *out, bool *first, const Target *t)
{
    char cc[16] = "";
    if (t->vendor == OCC_NVIDIA)
        snprintf(cc, sizeof cc, "%d.%d", t->arch->major, t->arch->minor);
    field(out, first, t->vendor == OCC_AMD ? "amd" : "nvidia");
    field(out, first, t->sm_name);
    field(out, first, cc);
    field(out, first, t->gpu ? t->gpu->id : t->amd_gpu ? t->amd_gpu->id : "");
    number_field(out, first, t->sm_count > 0, (unsigned long long)t->sm_count);
}

/* One vendor's limits, each in its own column: empty on the other's. */
static void write_limits(FILE *out, bool *first, const OccFigures *f, OccVendor vendor, int n)
{
    for (int i = 0; i < n; i++)
        number_field(out, first, f->vendor == vendor && f->limit[i] != INT_MAX,
                     f->vendor == vendor ? (unsigned long long)f->limit[i] : 0);
}

static void write_row(FILE *out, const CalcModel *m, const CalcRow *row)
{
    const OccFigures *f = &row->fig;
    bool first = true, nv = f->vendor == OCC_NVIDIA;
    char buf[256];
    write_target(out, &first, &m->target);
    number_field(out, &first, true, (unsigned long long)row->threads);
    number_field(out, &first, true, (unsigned long long)row->regs);
    number_field(out, &first, true, row->static_smem);
    number_field(out, &first, true, row->dynamic_smem);
    number_field(out, &first, true, (unsigned long long)row->warps);
    number_field(out, &first, true, (unsigned long long)f->groups);
    number_field(out, &first, nv, (unsigned long long)f->active);
    number_field(out, &first, nv, (unsigned long long)f->max_active);
    number_field(out, &first, !nv, (unsigned long long)f->active);
    number_field(out, &first, !nv, (unsigned long long)f->max_active);
    fraction_field(out, true, occ_figures_occupancy(f));
    buf[0] = '\0';
    for (int i = 0; i < f->n_limiters; i++)
        if (f->limited_by & (1u << i)) {
            if (buf[0])
                strncat(buf, ";", sizeof buf - strlen(buf) - 1);
            strncat(buf, occ_vendor_limiter_name(f->vendor, i), sizeof buf - strlen(buf) - 1);
        }
    field(out, &first, buf);
    write_limits(out, &first, f, OCC_NVIDIA, OCC_N_LIMITERS);
    write_limits(out, &first, f, OCC_AMD, AMD_N_LIMITERS);
    number_field(out, &first, nv, (unsigned long long)row->nvidia.allocated_regs_per_block);
    number_field(out, &first, nv, row->nvidia.allocated_smem_per_block);
}

static void write_launch(FILE *out, const CalcModel *m)
{
    const OccWaves *w = &m->waves;
    bool first = false, waves = m->have_waves;
    int groups = m->row.fig.groups;
    number_field(out, &first, true, m->work);
    number_field(out, &first, true, w->ctas);
    number_field(out, &first, true, w->tail_threads);
    fraction_field(out, waves, w->waves);
    number_field(out, &first, waves, w->full_waves);
    fraction_field(out, waves, w->last_wave_fill);
    fraction_field(out, waves, w->idle_fraction);
    number_field(out, &first, m->target.sm_count > 0 && groups > 0,
                 (unsigned long long)m->target.sm_count * (unsigned long long)groups);
}

int calc_write_csv(const CalcModel *m, FILE *out)
{
    bool launch = m->have_work && m->sweep == SWEEP_NONE;
    write_header(out, launch);
    if (m->sweep == SWEEP_NONE) {
        write_row(out, m, &m->row);
        if (launch)
            write_launch(out, m);
        fputc('\n', out);
        return EXIT_OK;
    }
    for (size_t i = 0; i < m->n_rows; i++) {
        write_row(out, m, &m->rows[i]);
        fputc('\n', out);
    }
    return EXIT_OK;
}
