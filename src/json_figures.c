/*
 * json_figures.c: the engine's answer as calc and report both write it
 * (json_figures.h).
 */
#include <config.h>

#include "json_figures.h"

#include "cli.h"

#include <cjson/cJSON.h>
#include <limits.h>

void json_add_figures(cJSON *o, const JsonFigures *r)
{
    const OccFigures *f = r->fig;
    bool nv = f->vendor == OCC_NVIDIA;
    cJSON_AddNumberToObject(o, "threads", r->threads);
    cJSON_AddNumberToObject(o, "regs_per_thread", r->regs);
    cJSON_AddNumberToObject(o, "static_smem", (double)r->static_smem);
    cJSON_AddNumberToObject(o, "dynamic_smem", (double)r->dynamic_smem);
    cJSON_AddNumberToObject(o, "warps_per_block", r->warps_per_block);
    cJSON_AddNumberToObject(o, "active_blocks_per_sm", f->groups);
    cli_json_number_or_null(o, "active_warps_per_sm", nv, f->active);
    cli_json_number_or_null(o, "max_warps_per_sm", nv, f->max_active);
    cli_json_number_or_null(o, "waves_per_simd", !nv, f->active);
    cli_json_number_or_null(o, "max_waves_per_simd", !nv, f->max_active);
    cJSON_AddNumberToObject(o, "occupancy", occ_figures_occupancy(f));
    cJSON *limited_by = cJSON_AddArrayToObject(o, "limited_by");
    cJSON *limits = cJSON_AddObjectToObject(o, "limits");
    for (int i = 0; i < f->n_limiters; i++) {
        const char *name = occ_vendor_limiter_name(f->vendor, i);
        if (f->limited_by & (1u << i))
            cJSON_AddItemToArray(limited_by, cJSON_CreateString(name));
        cli_json_number_or_null(limits, name, f->limit[i] != INT_MAX, f->limit[i]);
    }
    cJSON_AddStringToObject(o, "limits_unit", occ_limit_unit(f->vendor));
    cli_json_number_or_null(o, "allocated_regs_per_block", nv, r->nvidia->allocated_regs_per_block);
    cli_json_number_or_null(o, "allocated_smem_per_block", nv,
                            (double)r->nvidia->allocated_smem_per_block);
    cli_json_number_or_null(o, "allocated_vgprs", !nv, r->amd->allocated_vgprs);
}

static void write_nvidia_next_step(cJSON *next, const OccNextStep *s, bool resident)
{
    cli_json_number_or_null(next, "regs_to_cut", s->regs_to_cut >= 0, s->regs_to_cut);
    cli_json_number_or_null(next, "regs_cut_blocks_per_sm", s->regs_gained_blocks >= 0,
                            s->regs_gained_blocks);
    cJSON_AddNullToObject(next, "regs_cut_waves_per_simd");
    cJSON_AddNullToObject(next, "sgprs_to_cut");
    cJSON_AddNullToObject(next, "sgprs_cut_waves_per_simd");
    cli_json_number_or_null(next, "smem_to_cut", s->smem_to_cut >= 0, (double)s->smem_to_cut);
    cli_json_number_or_null(next, "smem_cut_blocks_per_sm", s->smem_gained_blocks >= 0,
                            s->smem_gained_blocks);
    cJSON_AddNullToObject(next, "smem_cut_waves_per_simd");
    cli_json_number_or_null(next, "regs_slack", resident, s->regs_slack);
    cli_json_number_or_null(next, "smem_slack", resident, (double)s->smem_slack);
}

/* AMD: VGPRs are its registers, LDS its shared memory. */
static void write_amd_next_step(cJSON *next, const AmdNextStep *s, bool resident)
{
    cli_json_number_or_null(next, "regs_to_cut", s->vgprs_to_cut >= 0, s->vgprs_to_cut);
    cJSON_AddNullToObject(next, "regs_cut_blocks_per_sm");
    cli_json_number_or_null(next, "regs_cut_waves_per_simd", s->vgprs_gained_waves >= 0,
                            s->vgprs_gained_waves);
    cli_json_number_or_null(next, "sgprs_to_cut", s->sgprs_to_cut >= 0, s->sgprs_to_cut);
    cli_json_number_or_null(next, "sgprs_cut_waves_per_simd", s->sgprs_gained_waves >= 0,
                            s->sgprs_gained_waves);
    cli_json_number_or_null(next, "smem_to_cut", s->lds_to_cut >= 0, (double)s->lds_to_cut);
    cJSON_AddNullToObject(next, "smem_cut_blocks_per_sm");
    cli_json_number_or_null(next, "smem_cut_waves_per_simd", s->lds_gained_waves >= 0,
                            s->lds_gained_waves);
    cli_json_number_or_null(next, "regs_slack", resident && s->vgprs_slack >= 0, s->vgprs_slack);
    cli_json_number_or_null(next, "smem_slack", resident && s->lds_slack >= 0, (double)s->lds_slack);
}

void json_add_next_step(cJSON *o, OccVendor vendor, const OccNextStep *nvidia,
                        const AmdNextStep *amd, bool resident)
{
    cJSON *next = cJSON_AddObjectToObject(o, "next_step");
    if (vendor == OCC_AMD)
        write_amd_next_step(next, amd, resident);
    else
        write_nvidia_next_step(next, nvidia, resident);
}

static void add_string_or_null(cJSON *o, const char *key, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

void json_add_tool(cJSON *o, const JsonTools *tools)
{
    static const JsonTools none = {0};
    const JsonTools *t = tools ? tools : &none;
    cJSON *tool = cJSON_AddObjectToObject(o, "tool");
    cJSON_AddStringToObject(tool, "name", PACKAGE_NAME);
    cJSON_AddStringToObject(tool, "version", PACKAGE_VERSION);
    add_string_or_null(tool, "ptxas", t->ptxas);
    add_string_or_null(tool, "nvcc", t->nvcc);
    add_string_or_null(tool, "llc", t->llc);
}

struct cJSON *json_add_cluster(struct cJSON *o, const int dims[3], int size, int portable_limit,
                               int limit)
{
    if (size == 0) {
        cJSON_AddNullToObject(o, "cluster");
        return NULL;
    }
    cJSON *j = cJSON_AddObjectToObject(o, "cluster");
    cJSON_AddItemToObject(j, "dims", cJSON_CreateIntArray(dims, 3));
    cJSON_AddNumberToObject(j, "size", size);
    cJSON_AddNumberToObject(j, "portable_limit", portable_limit);
    cJSON_AddNumberToObject(j, "limit", limit);
    cJSON_AddBoolToObject(j, "nonportable", size > portable_limit && size <= limit);
    return j;
}
