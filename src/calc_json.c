/*
 * calc_json.c: `silk-occ calc --format json`, one object with the keys
 * documented in silk-occ(1) (schema "silk-occ/calc/2"), written with cJSON,
 * for a target of either vendor.  Both vendors' objects have the same keys,
 * in the same order, named as in the report's JSON (docs/report-schema.md):
 * a figure only one vendor has is null on the other's (waves_per_simd on
 * NVIDIA, allocated_regs_per_block on AMD), and a shared one counts in the
 * vendor's units (active_blocks_per_sm: an AMD target's workgroups per CU
 * or WGP).  A sweep adds "sweep": {"variable", "rows"}, each row with the
 * keys of one result (threads .. allocated_vgprs).
 */
#include "calc_model.h"
#include "json_figures.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>

static const char *sweep_name(SweepKind kind)
{
    static const char *const names[] = {"none", "threads", "regs", "smem"};
    return names[kind];
}

/* The keys of one result, the same as a row of the report's occupancy
 * table (json_figures.h). */
static void add_result(cJSON *o, const CalcRow *row)
{
    json_add_figures(o, &(JsonFigures){row->threads, row->regs, row->warps, row->static_smem,
                                       row->dynamic_smem, &row->fig, &row->nvidia, &row->amd});
}

static void add_target(cJSON *o, const CalcModel *m)
{
    const Target *t = &m->target;
    bool amd = t->vendor == OCC_AMD;
    cJSON_AddStringToObject(o, "schema", "silk-occ/calc/2");
    json_add_tool(o, NULL); /* the tables' figures: no outside tool */
    cJSON_AddStringToObject(o, "vendor", amd ? "amd" : "nvidia");
    cJSON_AddStringToObject(o, "arch", t->sm_name);
    if (amd) {
        cJSON_AddNullToObject(o, "compute_capability");
    } else {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", t->arch->major, t->arch->minor);
        cJSON_AddStringToObject(o, "compute_capability", cc);
    }
    cJSON_AddStringToObject(o, "family", amd ? t->amd->family : t->arch->family);
    cJSON_AddNumberToObject(o, "warp_size", amd ? t->amd->wave_size : t->arch->warp_size);
    cJSON_AddStringToObject(o, "unit", amd ? t->amd->occupancy_unit : "SM");
    if (t->gpu || t->amd_gpu)
        cJSON_AddStringToObject(o, "gpu", t->gpu ? t->gpu->id : t->amd_gpu->id);
    else
        cJSON_AddNullToObject(o, "gpu");
    /* --gpu a100 is a100-40gb: what was asked, beside what it means. */
    if (t->gpu_asked[0])
        cJSON_AddStringToObject(o, "gpu_asked", t->gpu_asked);
    else
        cJSON_AddNullToObject(o, "gpu_asked");
    cli_json_number_or_null(o, "sm_count", t->sm_count > 0, t->sm_count);
}

/* The settings only one vendor's kernels have: null on the other's. */
static void add_settings(cJSON *o, const CalcModel *m)
{
    const KernelResources *k = &m->kernel;
    bool nv = m->target.vendor == OCC_NVIDIA;
    cli_json_number_or_null(o, "barriers", nv, k->barriers);
    if (nv)
        cJSON_AddBoolToObject(o, "smem_optin", k->smem_optin);
    else
        cJSON_AddNullToObject(o, "smem_optin");
    if (!nv)
        cJSON_AddNullToObject(o, "carveout");
    else if (k->carveout == OCC_CARVEOUT_DEFAULT)
        cJSON_AddStringToObject(o, "carveout", "default");
    else
        cJSON_AddNumberToObject(o, "carveout", k->carveout);
    cli_json_number_or_null(o, "smem_per_sm", nv, (double)m->row.nvidia.smem_per_sm);
    cli_json_number_or_null(o, "agprs", !nv, m->amd_kernel.agprs);
    cli_json_number_or_null(o, "sgprs", !nv, m->amd_kernel.sgprs);
    cli_json_number_or_null(o, "waves_per_eu_max", !nv, m->row.amd.waves_per_eu_max);
}

/* How far the kernel is from one more CTA per SM (NVIDIA) or wave per
 * SIMD (AMD: VGPRs are its registers, LDS its shared memory): the keys of
 * the report's next_step.  The slack means nothing when no group is
 * resident to lose. */
static void add_next_step(cJSON *o, const CalcModel *m)
{
    json_add_next_step(o, m->target.vendor, &m->next, &m->amd_next, m->row.fig.groups > 0);
}

/* A block-size choice, or null where the engine gives none (AMD). */
static void add_choice(cJSON *o, const char *key, const CalcModel *m, const OccBlockSizeChoice *c)
{
    if (!m->have_best) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    cJSON *choice = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(choice, "threads", c->block_size);
    cJSON_AddNumberToObject(choice, "active_blocks_per_sm", c->blocks_per_sm);
    cli_json_number_or_null(choice, "min_grid", m->target.sm_count > 0, c->min_grid);
}

static void add_launch(cJSON *o, const CalcModel *m)
{
    const OccWaves *w = &m->waves;
    int groups = m->row.fig.groups;
    cli_json_number_or_null(o, "persistent_grid", m->target.sm_count > 0 && groups > 0,
                            (double)m->target.sm_count * groups);
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
    cJSON_AddStringToObject(sweep, "variable", sweep_name(m->sweep));
    cJSON *rows = cJSON_AddArrayToObject(sweep, "rows");
    for (size_t i = 0; i < m->n_rows; i++) {
        cJSON *row = cJSON_CreateObject();
        add_result(row, &m->rows[i]);
        cJSON_AddItemToArray(rows, row);
    }
}

/* --cluster's figures, or null. */
static void add_cluster(cJSON *o, const CalcModel *m)
{
    const CalcCluster *c = &m->cluster;
    cJSON *j = json_add_cluster(o, c->dims, c->size, c->portable_limit, c->limit);
    if (!j)
        return;
    cJSON_AddBoolToObject(j, "valid", c->portable_limit > 0 && c->size <= c->limit);
    cli_json_number_or_null(j, "resident_clusters", c->resident >= 0, c->resident);
    cJSON_AddBoolToObject(j, "resident_estimated", c->resident >= 0);
}

int calc_write_json(const CalcModel *m, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    add_target(o, m);
    add_result(o, &m->row);
    add_settings(o, m);
    add_next_step(o, m);
    add_choice(o, "best_block_size", m, &m->best);
    add_choice(o, "runtime_block_size", m, &m->runtime_best);
    add_launch(o, m);
    add_cluster(o, m); /* null on AMD, as without --cluster */
    if (m->sweep != SWEEP_NONE)
        add_sweep(o, m);
    return cli_print_json("calc", o, out);
}
