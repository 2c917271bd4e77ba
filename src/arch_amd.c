/*
 * arch_amd.c: the AMD targets and products in `silk-occ arch list` and
 * `arch show`, from arch-tables/amd-targets.csv and amd-products.csv.
 */
#include "arch_amd.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const AGPR_FILES[] = {"none", "separate", "unified"};

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

void arch_amd_list_text(const AmdTable *t, FILE *out)
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

static cJSON *target_json(const AmdTarget *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "gfx", a->gfx);
    cJSON_AddStringToObject(o, "family", a->family);
    cJSON_AddStringToObject(o, "aliases", a->aliases);
    cJSON_AddNumberToObject(o, "wave_size", a->wave_size);
    cJSON_AddStringToObject(o, "occupancy_unit", a->occupancy_unit);
    cJSON_AddNumberToObject(o, "cus_per_unit", a->cus_per_unit);
    cJSON_AddNumberToObject(o, "simds_per_unit", a->simds_per_unit);
    cJSON_AddNumberToObject(o, "max_waves_per_simd", a->max_waves_per_simd);
    cJSON_AddNumberToObject(o, "max_workgroup_size", a->max_workgroup_size);
    cJSON_AddNumberToObject(o, "max_workgroup_barriers", a->max_workgroup_barriers);
    cJSON_AddNumberToObject(o, "vgprs_per_simd", a->vgprs_per_simd);
    cJSON_AddNumberToObject(o, "vgpr_alloc_granule", a->vgpr_alloc_granule);
    cJSON_AddNumberToObject(o, "addressable_vgprs", a->addressable_vgprs);
    cJSON_AddStringToObject(o, "agpr_file", AGPR_FILES[a->agpr_file]);
    cJSON_AddNumberToObject(o, "agpr_align", a->agpr_align);
    cJSON *steps = cJSON_AddArrayToObject(o, "sgpr_waves");
    for (int i = 0; i < a->n_sgpr_waves; i++) {
        cJSON *s = cJSON_CreateObject();
        cli_json_number_or_null(s, "max_sgprs", a->sgpr_waves[i].max_sgprs != INT_MAX,
                                a->sgpr_waves[i].max_sgprs);
        cJSON_AddNumberToObject(s, "waves", a->sgpr_waves[i].waves);
        cJSON_AddItemToArray(steps, s);
    }
    cJSON_AddNumberToObject(o, "addressable_sgprs", a->addressable_sgprs);
    cJSON_AddNumberToObject(o, "lds_per_unit", a->lds_per_unit);
    cJSON_AddNumberToObject(o, "lds_per_workgroup", a->lds_per_workgroup);
    return o;
}

static cJSON *product_json(const AmdProduct *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddStringToObject(o, "name", g->name);
    cJSON_AddStringToObject(o, "aliases", g->aliases);
    cJSON_AddStringToObject(o, "gfx", g->gfx);
    cJSON_AddNumberToObject(o, "compute_units", g->compute_units);
    cJSON_AddNumberToObject(o, "memory_gib", g->memory_gib);
    return o;
}

void arch_amd_list_json(cJSON *o, const AmdTable *t)
{
    cJSON *targets = cJSON_AddArrayToObject(o, "amd_targets");
    for (size_t i = 0; i < t->n_targets; i++)
        cJSON_AddItemToArray(targets, target_json(&t->targets[i]));
    cJSON *gpus = cJSON_AddArrayToObject(o, "amd_gpus");
    for (size_t i = 0; i < t->n_products; i++)
        cJSON_AddItemToArray(gpus, product_json(&t->products[i]));
}

static void show_text(const AmdTarget *a, const AmdProduct *g)
{
    char b[32];
    if (g)
        printf("%s (%s): %s, %d CUs (%d %ss), %d GiB\n\n", g->name, g->id, g->gfx,
               g->compute_units, amd_product_units(a, g), a->occupancy_unit, g->memory_gib);
    printf("%s: %s\n", a->gfx, a->family);
    printf("  wave size                  %d lanes\n", a->wave_size);
    printf("  occupancy unit             %s (%d CU%s, %d SIMDs)\n", a->occupancy_unit,
           a->cus_per_unit, a->cus_per_unit == 1 ? "" : "s", a->simds_per_unit);
    printf("  waves per SIMD             %d\n", a->max_waves_per_simd);
    printf("  work-items per workgroup   %d\n", a->max_workgroup_size);
    printf("  workgroups with barriers   %d per %s\n", a->max_workgroup_barriers, a->occupancy_unit);
    printf("  VGPRs per SIMD lane        %d, allocated by %d, %d addressable\n", a->vgprs_per_simd,
           a->vgpr_alloc_granule, a->addressable_vgprs);
    printf("  AGPRs                      %s", AGPR_FILES[a->agpr_file]);
    if (a->agpr_file == AMD_AGPR_UNIFIED)
        printf(" (after the VGPRs aligned to %d)", a->agpr_align);
    printf("\n  SGPRs                      ");
    for (int i = 0; i < a->n_sgpr_waves; i++) {
        if (a->sgpr_waves[i].max_sgprs == INT_MAX)
            printf("%smore: %d waves", i ? ", " : "", a->sgpr_waves[i].waves);
        else
            printf("%s<= %d: %d waves", i ? ", " : "", a->sgpr_waves[i].max_sgprs,
                   a->sgpr_waves[i].waves);
    }
    printf("%s (%d addressable)\n", a->n_sgpr_waves ? "" : "not a limit", a->addressable_sgprs);
    printf("  LDS per %-18s %s", a->occupancy_unit,
           format_bytes((uint64_t)a->lds_per_unit, b, sizeof b));
    printf(", %s per workgroup\n", format_bytes((uint64_t)a->lds_per_workgroup, b, sizeof b));
}

int arch_amd_show(const AmdTable *t, const char *name, OutputFormat format)
{
    const AmdProduct *g = amd_table_find_product(t, name);
    const AmdTarget *a = g ? amd_table_product_target(t, g) : amd_table_find(t, name);
    if (!a)
        return -1;
    if (format == FORMAT_TEXT) {
        show_text(a, g);
        return EXIT_OK;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "silk-occ/arch/1");
    cJSON_AddItemToObject(o, "amd_target", target_json(a));
    if (g)
        cJSON_AddItemToObject(o, "amd_gpu", product_json(g));
    return cli_print_json("arch", o, stdout);
}
