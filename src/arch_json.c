/*
 * arch_json.c: `silk-occ arch list --format json` and `arch show`, one
 * object (schema "silk-occ/arch/2", silk-occ(1)) over both vendors'
 * tables: list has the arrays "architectures" and "gpus", NVIDIA's rows
 * then AMD's, and show the objects "architecture" and, for a product,
 * "gpu".  Every element starts with its "vendor" and names itself by
 * "arch" (sm_90, gfx942), as calc and report do; the rest are its table's
 * columns (silk-arch-tables(5)), and a product's "sm_count" counts SMs,
 * or CUs (WGPs on RDNA).
 */
#include "arch_writers.h"
#include "json_figures.h"

#include <cjson/cJSON.h>
#include <limits.h>

static const char *const AGPR_FILES[] = {"none", "separate", "unified"};

static cJSON *nvidia_arch(const ArchLimits *a)
{
    char buf[32];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "vendor", "nvidia");
    snprintf(buf, sizeof buf, "%d.%d", a->major, a->minor);
    cJSON_AddStringToObject(o, "cc", buf);
    cJSON_AddStringToObject(o, "arch", arch_sm_name(a, buf, sizeof buf));
    cJSON_AddStringToObject(o, "family", a->family);
    cJSON_AddStringToObject(o, "aliases", a->aliases);
#define INT_FIELD(f) cJSON_AddNumberToObject(o, #f, a->f)
    INT_FIELD(warp_size);
    INT_FIELD(max_threads_per_block);
    INT_FIELD(max_threads_per_sm);
    cJSON_AddNumberToObject(o, "max_warps_per_sm", arch_max_warps_per_sm(a));
    INT_FIELD(max_blocks_per_sm);
    INT_FIELD(regs_per_sm);
    INT_FIELD(regs_per_block);
    INT_FIELD(max_regs_per_thread);
    INT_FIELD(reg_alloc_limit_per_thread);
    INT_FIELD(reg_alloc_unit);
    cJSON_AddStringToObject(o, "reg_alloc_granularity", "warp");
    INT_FIELD(warp_alloc_granularity);
    INT_FIELD(sub_partitions);
    INT_FIELD(compat_sub_partitions);
    INT_FIELD(smem_per_sm);
    INT_FIELD(smem_per_block);
    INT_FIELD(smem_per_block_optin);
    INT_FIELD(reserved_smem_per_block);
    INT_FIELD(smem_alloc_unit);
    cJSON *configs = cJSON_AddArrayToObject(o, "smem_configs");
    for (int i = 0; i < a->n_smem_configs; i++)
        cJSON_AddItemToArray(configs, cJSON_CreateNumber(a->smem_configs[i]));
    INT_FIELD(barriers_per_cta_slot);
    cJSON_AddNumberToObject(o, "barriers_per_sm", arch_barriers_per_sm(a));
    INT_FIELD(virtual_resources_per_sm);
    INT_FIELD(partitioned_gc);
    INT_FIELD(max_grid_x);
    INT_FIELD(max_grid_y);
    INT_FIELD(max_grid_z);
#undef INT_FIELD
    return o;
}

static cJSON *amd_arch(const AmdTarget *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "vendor", "amd");
    cJSON_AddStringToObject(o, "arch", a->gfx);
    cJSON_AddStringToObject(o, "family", a->family);
    cJSON_AddStringToObject(o, "aliases", a->aliases);
#define INT_FIELD(f) cJSON_AddNumberToObject(o, #f, a->f)
    INT_FIELD(wave_size);
    cJSON_AddStringToObject(o, "occupancy_unit", a->occupancy_unit);
    INT_FIELD(cus_per_unit);
    INT_FIELD(simds_per_unit);
    INT_FIELD(max_waves_per_simd);
    INT_FIELD(max_workgroup_size);
    INT_FIELD(max_workgroup_barriers);
    INT_FIELD(vgprs_per_simd);
    INT_FIELD(vgpr_alloc_granule);
    INT_FIELD(addressable_vgprs);
    cJSON_AddStringToObject(o, "agpr_file", AGPR_FILES[a->agpr_file]);
    INT_FIELD(agpr_align);
    cJSON *steps = cJSON_AddArrayToObject(o, "sgpr_waves");
    for (int i = 0; i < a->n_sgpr_waves; i++) {
        cJSON *s = cJSON_CreateObject();
        cli_json_number_or_null(s, "max_sgprs", a->sgpr_waves[i].max_sgprs != INT_MAX,
                                a->sgpr_waves[i].max_sgprs);
        cJSON_AddNumberToObject(s, "waves", a->sgpr_waves[i].waves);
        cJSON_AddItemToArray(steps, s);
    }
    INT_FIELD(addressable_sgprs);
    INT_FIELD(lds_per_unit);
    INT_FIELD(lds_per_workgroup);
#undef INT_FIELD
    return o;
}

/* A product: the keys both vendors' have, and its vendor's own. */
static cJSON *product(const char *vendor, const char *id, const char *name, const char *aliases,
                      const char *arch, int sm_count, int memory_gib)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "vendor", vendor);
    cJSON_AddStringToObject(o, "id", id);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "aliases", aliases);
    if (arch)
        cJSON_AddStringToObject(o, "arch", arch);
    else
        cJSON_AddNullToObject(o, "arch");
    cJSON_AddNumberToObject(o, "sm_count", sm_count);
    cJSON_AddNumberToObject(o, "memory_gib", memory_gib);
    return o;
}

static cJSON *nvidia_product(const GpuProduct *g, const ArchLimits *a)
{
    char cc[16], sm[16];
    cJSON *o = product("nvidia", g->id, g->name, g->aliases, a ? arch_sm_name(a, sm, sizeof sm) : NULL,
                       g->sm_count, g->memory_gib);
    snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
    cJSON_AddStringToObject(o, "cc", cc);
    return o;
}

static cJSON *amd_product(const AmdProduct *g, const AmdTarget *t)
{
    cJSON *o = product("amd", g->id, g->name, g->aliases, g->gfx,
                       t ? amd_product_units(t, g) : g->compute_units, g->memory_gib);
    cJSON_AddNumberToObject(o, "compute_units", g->compute_units);
    return o;
}

static void add_list(cJSON *o, const ArchView *v)
{
    cJSON *archs = cJSON_AddArrayToObject(o, "architectures");
    for (size_t i = 0; i < v->nvidia->n_archs; i++)
        cJSON_AddItemToArray(archs, nvidia_arch(&v->nvidia->archs[i]));
    for (size_t i = 0; i < v->amd->n_targets; i++)
        cJSON_AddItemToArray(archs, amd_arch(&v->amd->targets[i]));
    cJSON *gpus = cJSON_AddArrayToObject(o, "gpus");
    for (size_t i = 0; i < v->nvidia->n_products; i++) {
        const GpuProduct *g = &v->nvidia->products[i];
        cJSON_AddItemToArray(gpus, nvidia_product(g, arch_table_product_arch(v->nvidia, g)));
    }
    for (size_t i = 0; i < v->amd->n_products; i++) {
        const AmdProduct *g = &v->amd->products[i];
        cJSON_AddItemToArray(gpus, amd_product(g, amd_table_product_target(v->amd, g)));
    }
}

static void add_shown(cJSON *o, const Target *t)
{
    bool amd = t->vendor == OCC_AMD;
    cJSON_AddItemToObject(o, "architecture", amd ? amd_arch(t->amd) : nvidia_arch(t->arch));
    if (t->gpu)
        cJSON_AddItemToObject(o, "gpu", nvidia_product(t->gpu, t->arch));
    if (t->amd_gpu)
        cJSON_AddItemToObject(o, "gpu", amd_product(t->amd_gpu, t->amd));
}

int arch_write_json(const ArchView *v, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "silk-occ/arch/2");
    json_add_tool(o, NULL); /* the tables alone */
    if (v->shown)
        add_shown(o, v->shown);
    else
        add_list(o, v);
    return cli_print_json("arch", o, out);
}
