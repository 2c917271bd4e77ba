/*
 * calc_json.c: `silk-occ calc --format json`, one object with the keys
 * documented in silk-occ(1) (schema "silk-occ/calc/1"), written with cJSON.
 * A sweep adds "sweep": {"variable", "rows"}, each row with the keys of one
 * result (threads .. allocated_smem_per_block).
 */
#include "calc_model.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>

const char *calc_sweep_name(SweepKind kind)
{
    static const char *const names[] = {"none", "threads", "regs", "smem"};
    return names[kind];
}

/* The keys a calc result and a sweep row share (and report's rows). */
void calc_json_add_result(cJSON *o, int threads, int regs, uint64_t static_smem, uint64_t dyn,
                       const OccResult *r)
{
    cJSON_AddNumberToObject(o, "threads", threads);
    cJSON_AddNumberToObject(o, "regs_per_thread", regs);
    cJSON_AddNumberToObject(o, "static_smem", (double)static_smem);
    cJSON_AddNumberToObject(o, "dynamic_smem", (double)dyn);
    cJSON_AddNumberToObject(o, "warps_per_block", r->warps_per_block);
    cJSON_AddNumberToObject(o, "active_blocks_per_sm", r->active_blocks);
    cJSON_AddNumberToObject(o, "active_warps_per_sm", r->active_warps);
    cJSON_AddNumberToObject(o, "max_warps_per_sm", r->max_warps);
    cJSON_AddNumberToObject(o, "occupancy", occ_occupancy(r));
    cJSON *limited_by = cJSON_AddArrayToObject(o, "limited_by");
    cJSON *limits = cJSON_AddObjectToObject(o, "limits");
    for (int i = 0; i < OCC_N_LIMITERS; i++) {
        const char *name = occ_limiter_name((OccLimiter)i);
        if (r->limited_by & (1u << i))
            cJSON_AddItemToArray(limited_by, cJSON_CreateString(name));
        if (r->limit[i] == INT_MAX)
            cJSON_AddNullToObject(limits, name);
        else
            cJSON_AddNumberToObject(limits, name, r->limit[i]);
    }
    cJSON_AddNumberToObject(o, "allocated_regs_per_block", r->allocated_regs_per_block);
    cJSON_AddNumberToObject(o, "allocated_smem_per_block", (double)r->allocated_smem_per_block);
}

static void add_target(cJSON *o, const CalcModel *m)
{
    const Target *t = &m->target;
    cJSON_AddStringToObject(o, "schema", "silk-occ/calc/1");
    cJSON_AddStringToObject(o, "arch", t->sm_name);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", t->arch->major, t->arch->minor);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    if (t->gpu)
        cJSON_AddStringToObject(o, "gpu", t->gpu->id);
    else
        cJSON_AddNullToObject(o, "gpu");
    cli_json_number_or_null(o, "sm_count", t->sm_count > 0, t->sm_count);
}

static void add_settings(cJSON *o, const CalcModel *m)
{
    const KernelResources *k = &m->kernel;
    cJSON_AddNumberToObject(o, "barriers", k->barriers);
    cJSON_AddBoolToObject(o, "smem_optin", k->smem_optin);
    if (k->carveout == OCC_CARVEOUT_DEFAULT)
        cJSON_AddStringToObject(o, "carveout", "default");
    else
        cJSON_AddNumberToObject(o, "carveout", k->carveout);
    cJSON_AddNumberToObject(o, "smem_per_sm", (double)m->result.smem_per_sm);
}

static void add_advice(cJSON *o, const CalcModel *m)
{
    const OccNextStep *s = &m->next;
    cJSON *next = cJSON_AddObjectToObject(o, "next_step");
    cli_json_number_or_null(next, "regs_to_cut", s->regs_to_cut >= 0, s->regs_to_cut);
    cli_json_number_or_null(next, "regs_cut_blocks_per_sm", s->regs_gained_blocks >= 0, s->regs_gained_blocks);
    cli_json_number_or_null(next, "smem_to_cut", s->smem_to_cut >= 0, (double)s->smem_to_cut);
    cli_json_number_or_null(next, "smem_cut_blocks_per_sm", s->smem_gained_blocks >= 0, s->smem_gained_blocks);
    /* Slack means nothing when no CTA is resident to lose. */
    bool resident = m->result.active_blocks > 0;
    cli_json_number_or_null(next, "regs_slack", resident, s->regs_slack);
    cli_json_number_or_null(next, "smem_slack", resident, (double)s->smem_slack);

    cJSON *best = cJSON_AddObjectToObject(o, "best_block_size");
    cJSON_AddNumberToObject(best, "threads", m->best.block_size);
    cJSON_AddNumberToObject(best, "active_blocks_per_sm", m->best.blocks_per_sm);
    cli_json_number_or_null(best, "min_grid", m->target.sm_count > 0, m->best.min_grid);
    cJSON *runtime = cJSON_AddObjectToObject(o, "runtime_block_size");
    cJSON_AddNumberToObject(runtime, "threads", m->runtime_best.block_size);
    cJSON_AddNumberToObject(runtime, "active_blocks_per_sm", m->runtime_best.blocks_per_sm);
    cli_json_number_or_null(runtime, "min_grid", m->target.sm_count > 0, m->runtime_best.min_grid);
}

static void add_launch(cJSON *o, const CalcModel *m)
{
    const OccWaves *w = &m->waves;
    bool sms = m->target.sm_count > 0 && m->result.active_blocks > 0;
    cli_json_number_or_null(o, "persistent_grid", sms,
                       (double)m->target.sm_count * m->result.active_blocks);
    if (!m->have_work)
        return;
    cli_json_add_count(o, "work", m->work);
    cli_json_add_count(o, "ctas", w->ctas);
    cli_json_number_or_null(o, "waves", m->have_waves, w->waves);
    cli_json_number_or_null(o, "full_waves", m->have_waves, (double)w->full_waves);
    cli_json_number_or_null(o, "last_wave_fill", m->have_waves, w->last_wave_fill);
    cli_json_number_or_null(o, "idle_fraction", m->have_waves, w->idle_fraction);
    cli_json_add_count(o, "tail_threads", w->tail_threads);
}

static void add_sweep(cJSON *o, const CalcModel *m)
{
    cJSON *sweep = cJSON_AddObjectToObject(o, "sweep");
    cJSON_AddStringToObject(sweep, "variable", calc_sweep_name(m->sweep));
    cJSON *rows = cJSON_AddArrayToObject(sweep, "rows");
    for (size_t i = 0; i < m->n_rows; i++) {
        const SweepRow *r = &m->rows[i];
        cJSON *row = cJSON_CreateObject();
        calc_json_add_result(row, r->threads, r->regs, r->static_smem, r->dynamic_smem, &r->result);
        cJSON_AddItemToArray(rows, row);
    }
}

int calc_write_json(const CalcModel *m, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    add_target(o, m);
    calc_json_add_result(o, m->threads, m->kernel.regs_per_thread, m->kernel.static_smem, m->dynamic_smem,
               &m->result);
    add_settings(o, m);
    add_advice(o, m);
    add_launch(o, m);
    if (m->sweep != SWEEP_NONE)
        add_sweep(o, m);
    return cli_print_json("calc", o, out);
}
