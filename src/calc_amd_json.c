/*
 * calc_amd_json.c: `silk-occ calc --format json` on an AMD target, schema
 * "silk-occ/calc-amd/1" (silk-occ(1)).  The vendor's units are named
 * (waves_per_simd, workgroups_per_cu or workgroups_per_wgp); the keys
 * `occupancy` and `limited_by` mean what they mean for NVIDIA.
 */
#include "calc_amd.h"

#include <cjson/cJSON.h>
#include <limits.h>

static void add_target(cJSON *o, const CalcAmdModel *m)
{
    const AmdTarget *t = m->target;
    cJSON_AddStringToObject(o, "schema", "silk-occ/calc-amd/1");
    cJSON_AddStringToObject(o, "vendor", "amd");
    cJSON_AddStringToObject(o, "arch", t->gfx);
    cJSON_AddStringToObject(o, "family", t->family);
    if (m->gpu)
        cJSON_AddStringToObject(o, "gpu", m->gpu->id);
    else
        cJSON_AddNullToObject(o, "gpu");
    cJSON_AddStringToObject(o, "occupancy_unit", t->occupancy_unit);
    cli_json_number_or_null(o, "compute_units", m->gpu != NULL, m->gpu ? m->gpu->compute_units : 0);
    cli_json_number_or_null(o, "units", m->units > 0, m->units);
}

static void add_kernel(cJSON *o, const CalcAmdModel *m)
{
    const AmdKernel *k = &m->kernel;
    cJSON_AddNumberToObject(o, "threads", m->threads);
    cJSON_AddNumberToObject(o, "wave_size", m->target->wave_size);
    cJSON_AddNumberToObject(o, "waves_per_workgroup", m->result.waves_per_workgroup);
    cJSON_AddNumberToObject(o, "vgprs", k->vgprs);
    cJSON_AddNumberToObject(o, "agprs", k->agprs);
    cJSON_AddNumberToObject(o, "sgprs", k->sgprs);
    cJSON_AddNumberToObject(o, "lds", (double)k->lds);
    cJSON_AddNumberToObject(o, "allocated_vgprs", m->result.allocated_vgprs);
    cJSON_AddNumberToObject(o, "waves_per_eu_max", m->result.waves_per_eu_max);
}

static void add_result(cJSON *o, const CalcAmdModel *m)
{
    const AmdResult *r = &m->result;
    cJSON_AddNumberToObject(o, "waves_per_simd", r->waves_per_simd);
    cJSON_AddNumberToObject(o, "max_waves_per_simd", r->max_waves_per_simd);
    cJSON_AddNumberToObject(o, calc_amd_workgroups_key(m->target), r->workgroups_per_unit);
    cJSON_AddNumberToObject(o, "occupancy", amd_occupancy(r));
    cJSON *limited_by = cJSON_AddArrayToObject(o, "limited_by");
    cJSON *limits = cJSON_AddObjectToObject(o, "limits");
    for (int i = 0; i < AMD_N_LIMITERS; i++) {
        const char *name = amd_limiter_name((AmdLimiter)i);
        if (r->limited_by & (1u << i))
            cJSON_AddItemToArray(limited_by, cJSON_CreateString(name));
        if (r->limit[i] == INT_MAX)
            cJSON_AddNullToObject(limits, name);
        else
            cJSON_AddNumberToObject(limits, name, r->limit[i]);
    }
}

static void add_next_step(cJSON *o, const CalcAmdModel *m)
{
    const AmdNextStep *s = &m->next;
    cJSON *next = cJSON_AddObjectToObject(o, "next_step");
    cli_json_number_or_null(next, "vgprs_to_cut", s->vgprs_to_cut >= 0, s->vgprs_to_cut);
    cli_json_number_or_null(next, "vgprs_cut_waves_per_simd", s->vgprs_gained_waves >= 0,
                            s->vgprs_gained_waves);
    cli_json_number_or_null(next, "sgprs_to_cut", s->sgprs_to_cut >= 0, s->sgprs_to_cut);
    cli_json_number_or_null(next, "sgprs_cut_waves_per_simd", s->sgprs_gained_waves >= 0,
                            s->sgprs_gained_waves);
    cli_json_number_or_null(next, "lds_to_cut", s->lds_to_cut >= 0, (double)s->lds_to_cut);
    cli_json_number_or_null(next, "lds_cut_waves_per_simd", s->lds_gained_waves >= 0,
                            s->lds_gained_waves);
    cJSON_AddNumberToObject(next, "vgprs_slack", s->vgprs_slack);
    cJSON_AddNumberToObject(next, "lds_slack", (double)s->lds_slack);
}

/* The keys of NVIDIA's launch, with workgroups for CTAs. */
static void add_launch(cJSON *o, const CalcAmdModel *m)
{
    const OccWaves *w = &m->waves;
    cli_json_number_or_null(o, "persistent_grid", m->units > 0,
                            (double)m->units * m->result.workgroups_per_unit);
    if (!m->have_work)
        return;
    cli_json_add_count(o, "work", m->work);
    cli_json_add_count(o, "workgroups", w->ctas);
    cli_json_number_or_null(o, "waves", m->have_waves, w->waves);
    cli_json_number_or_null(o, "full_waves", m->have_waves, (double)w->full_waves);
    cli_json_number_or_null(o, "last_wave_fill", m->have_waves, w->last_wave_fill);
    cli_json_number_or_null(o, "idle_fraction", m->have_waves, w->idle_fraction);
    cli_json_add_count(o, "tail_threads", w->tail_threads);
}

int calc_amd_write_json(const CalcAmdModel *m, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    add_target(o, m);
    add_kernel(o, m);
    add_result(o, m);
    add_next_step(o, m);
    add_launch(o, m);
    return cli_print_json("calc", o, out);
}
