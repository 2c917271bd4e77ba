/*
 * calc_csv.c: `silk-occ calc --format csv`: a header row and one row per
 * result (one, or one per sweep point).  Text fields are written with
 * libcsv, which quotes them as CSV requires; numbers need no quoting.
 */
#include "calc_model.h"

#include <csv.h>
#include <limits.h>
#include <string.h>

static const char *const base_columns[] = {
    "arch", "gpu", "threads", "regs_per_thread", "static_smem", "dynamic_smem",
    "active_blocks_per_sm", "active_warps_per_sm", "max_warps_per_sm", "occupancy", "limited_by",
};
static const char *const tail_columns[] = {"allocated_regs_per_block", "allocated_smem_per_block"};
/* With --work, the launch (empty where the SM count is unknown). */
static const char *const launch_columns[] = {"work", "ctas", "waves", "last_wave_fill",
                                             "persistent_grid"};

static void field(FILE *out, bool *first, const char *text)
{
    if (!*first)
        fputc(',', out);
    *first = false;
    csv_fwrite(out, text, strlen(text));
}

/* Numbers need no quoting. */
static void number_field(FILE *out, bool *first, unsigned long long value)
{
    fprintf(out, "%s%llu", *first ? "" : ",", value);
    *first = false;
}

static void write_header(FILE *out, bool launch)
{
    bool first = true;
    char name[48];
    for (size_t i = 0; i < sizeof base_columns / sizeof *base_columns; i++)
        field(out, &first, base_columns[i]);
    for (int i = 0; i < OCC_N_LIMITERS; i++) {
        snprintf(name, sizeof name, "limit_%s", occ_limiter_name((OccLimiter)i));
        field(out, &first, name);
    }
    for (size_t i = 0; i < sizeof tail_columns / sizeof *tail_columns; i++)
        field(out, &first, tail_columns[i]);
    for (size_t i = 0; launch && i < sizeof launch_columns / sizeof *launch_columns; i++)
        field(out, &first, launch_columns[i]);
    fputc('\n', out);
}

static void write_launch(FILE *out, const CalcModel *m)
{
    const OccWaves *w = &m->waves;
    fprintf(out, ",%llu,%llu", (unsigned long long)m->work, (unsigned long long)w->ctas);
    if (m->have_waves)
        fprintf(out, ",%.6f,%.6f,%llu", w->waves, w->last_wave_fill,
                (unsigned long long)w->persistent_grid);
    else
        fputs(",,,", out);
}

static void write_row(FILE *out, const CalcModel *m, int threads, int regs, uint64_t st,
                      uint64_t dyn, const OccResult *r)
{
    bool first = true;
    char buf[160];
    field(out, &first, m->target.sm_name);
    field(out, &first, m->target.gpu ? m->target.gpu->id : "");
    number_field(out, &first, (unsigned long long)threads);
    number_field(out, &first, (unsigned long long)regs);
    number_field(out, &first, st);
    number_field(out, &first, dyn);
    number_field(out, &first, (unsigned long long)r->active_blocks);
    number_field(out, &first, (unsigned long long)r->active_warps);
    number_field(out, &first, (unsigned long long)r->max_warps);
    fprintf(out, ",%.6f", occ_occupancy(r));
    buf[0] = '\0';
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (r->limited_by & (1u << i)) {
            if (buf[0])
                strcat(buf, ";");
            strcat(buf, occ_limiter_name((OccLimiter)i));
        }
    field(out, &first, buf);
    for (int i = 0; i < OCC_N_LIMITERS; i++) {
        if (r->limit[i] == INT_MAX)
            field(out, &first, "");
        else
            number_field(out, &first, (unsigned long long)r->limit[i]);
    }
    number_field(out, &first, (unsigned long long)r->allocated_regs_per_block);
    number_field(out, &first, r->allocated_smem_per_block);
}

int calc_write_csv(const CalcModel *m, FILE *out)
{
    bool launch = m->have_work && m->sweep == SWEEP_NONE;
    write_header(out, launch);
    if (m->sweep == SWEEP_NONE) {
        write_row(out, m, m->threads, m->kernel.regs_per_thread, m->kernel.static_smem,
                  m->dynamic_smem, &m->result);
        if (launch)
            write_launch(out, m);
        fputc('\n', out);
        return EXIT_OK;
    }
    for (size_t i = 0; i < m->n_rows; i++) {
        const SweepRow *r = &m->rows[i];
        write_row(out, m, r->threads, r->regs, r->static_smem, r->dynamic_smem, &r->result);
        fputc('\n', out);
    }
    return EXIT_OK;
}
