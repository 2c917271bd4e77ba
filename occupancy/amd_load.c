/*
 * amd_load.c: the AMD tables (arch-tables/amd-targets.csv and
 * amd-products.csv) as schemas for the one table reader (table_load.c),
 * which gives them the rules and messages of the NVIDIA tables
 * (silk-arch-tables(5)): the header names the columns, in any order; a known
 * key (gfx, or id) overrides its row and may leave cells empty; a new row
 * gives every column but the text ones and sgpr_waves.  What is AMD's own:
 * the agpr_file and sgpr_waves cells and the checks across a row.
 */
#include "amd.h"

#include "read_file.h"
#include "table_load.h"
#include "tables.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_TEXT = TABLE_KIND_TEXT, KIND_INT = TABLE_KIND_INT, KIND_AGPR_FILE = TABLE_KIND_VENDOR,
       KIND_SGPR_STEPS };

#define SIZE_TEXT(T, f) sizeof(((T *)0)->f)
#define SIZE_INT(T, f) 0
#define SIZE_AGPR_FILE(T, f) 0
#define SIZE_SGPR_STEPS(T, f) 0
#define OPTIONAL(kind) (KIND_##kind == KIND_TEXT || KIND_##kind == KIND_SGPR_STEPS)

static const TableColumn target_columns[] = {
#define AMD_TARGET_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, offsetof(AmdTarget, name), SIZE_##kind(AmdTarget, name), lo, hi, \
     OPTIONAL(kind)},
#include "amd_target_columns.def"
#undef AMD_TARGET_COLUMN
};

static const TableColumn product_columns[] = {
#define AMD_PRODUCT_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, offsetof(AmdProduct, name), SIZE_##kind(AmdProduct, name), lo, hi, \
     OPTIONAL(kind)},
#include "amd_product_columns.def"
#undef AMD_PRODUCT_COLUMN
};

/* ---- cells ------------------------------------------------------------------ */

/* "80:10;88:9;100:8;*:7": SGPR counts ascending, waves falling; '*' last. */
static bool parse_steps(TableLoad *ld, const char *text, AmdTarget *t)
{
    t->n_sgpr_waves = 0;
    const char *p = text;
    while (*p) {
        if (t->n_sgpr_waves == AMD_MAX_SGPR_STEPS) {
            occ_table_fail(ld, "field 'sgpr_waves': more than %d steps", AMD_MAX_SGPR_STEPS);
            return false;
        }
        AmdSgprStep s;
        char *end = (char *)p;
        if (*p == '*') {
            s.max_sgprs = INT_MAX;
            end++;
        } else {
            s.max_sgprs = isdigit((unsigned char)*p) ? (int)strtol(p, &end, 10) : -1;
        }
        if (s.max_sgprs < 1 || *end != ':' || !isdigit((unsigned char)end[1]))
            break;
        s.waves = (int)strtol(end + 1, &end, 10);
        const AmdSgprStep *prev = t->n_sgpr_waves ? &t->sgpr_waves[t->n_sgpr_waves - 1] : NULL;
        if (s.waves < 1 || (prev && (s.max_sgprs <= prev->max_sgprs || s.waves >= prev->waves))) {
            occ_table_fail(ld, "field 'sgpr_waves': steps must rise in SGPRs and fall in waves");
            return false;
        }
        t->sgpr_waves[t->n_sgpr_waves++] = s;
        if (*end != ';' && *end != '\0')
            break;
        p = *end ? end + 1 : end;
        if (s.max_sgprs == INT_MAX && *p)
            break;
    }
    if (*p) {
        occ_table_fail(ld, "field 'sgpr_waves': '%s' is not 'SGPRS:WAVES;...;*:WAVES'", text);
        return false;
    }
    return true;
}

/* Stores one non-empty cell of an AMD kind into the row. */
static bool store_cell(TableLoad *ld, const TableColumn *col, const char *text, void *row)
{
    char *base = row;
    switch (col->kind) {
    case KIND_AGPR_FILE: {
        static const char *const words[] = {"none", "separate", "unified"};
        for (int i = 0; i < 3; i++)
            if (strcmp(text, words[i]) == 0) {
                *(AmdAgprFile *)(void *)(base + col->offset) = (AmdAgprFile)i;
                return true;
            }
        occ_table_fail(ld, "field '%s': '%s' is not none, separate or unified", col->name, text);
        return false;
    }
    case KIND_SGPR_STEPS:
        return parse_steps(ld, text, row);
    }
    return false;
}

/* ---- rows ------------------------------------------------------------------- */

/* The key is the first field of both rows. */
static bool has_key(const void *row, const char *key)
{
    return strcmp(row, key) == 0;
}

static void **target_rows(void *context, size_t **n)
{
    AmdTable *t = ((OccTables *)context)->amd;
    *n = &t->n_targets;
    return (void **)&t->targets;
}

static void **product_rows(void *context, size_t **n)
{
    AmdTable *t = ((OccTables *)context)->amd;
    *n = &t->n_products;
    return (void **)&t->products;
}

static void check_target(TableLoad *ld, const void *row)
{
    const AmdTarget *t = row;
    if (strcmp(t->occupancy_unit, "CU") != 0 && strcmp(t->occupancy_unit, "WGP") != 0)
        occ_table_fail(ld, "field 'occupancy_unit': '%s' is not CU or WGP", t->occupancy_unit);
    else if (t->max_workgroup_size % t->wave_size != 0)
        occ_table_fail(ld, "field 'max_workgroup_size': %d is not a whole number of %d-lane waves",
                   t->max_workgroup_size, t->wave_size);
    else if (t->lds_per_workgroup > t->lds_per_unit)
        occ_table_fail(ld, "field 'lds_per_workgroup': %d exceeds lds_per_unit (%d)",
                   t->lds_per_workgroup, t->lds_per_unit);
    else if (t->addressable_vgprs > t->vgprs_per_simd)
        occ_table_fail(ld, "field 'addressable_vgprs': %d exceeds vgprs_per_simd (%d)",
                   t->addressable_vgprs, t->vgprs_per_simd);
    else if (t->agpr_file == AMD_AGPR_UNIFIED && t->agpr_align < 1)
        occ_table_fail(ld, "field 'agpr_align': a unified file needs an alignment of at least 1");
    else if (t->n_sgpr_waves > 0 && t->sgpr_alloc_granule < 1)
        occ_table_fail(ld, "field 'sgpr_alloc_granule': SGPRs that limit need a granule of at least 1");
    else if (t->n_sgpr_waves > 0 && t->sgpr_waves[t->n_sgpr_waves - 1].max_sgprs != INT_MAX)
        occ_table_fail(ld, "field 'sgpr_waves': the last step must be '*:WAVES'");
}

static void check_product(TableLoad *ld, const void *row)
{
    const AmdProduct *p = row;
    if (!amd_table_find(((OccTables *)occ_table_context(ld))->amd, p->gfx))
        occ_table_fail(ld, "field 'gfx': '%s' is not in the AMD target table", p->gfx);
}

const TableSchema amd_target_schema = {
    "AMD target table", "gfx", "AMD targets", target_columns,
    sizeof target_columns / sizeof *target_columns, sizeof(AmdTarget), target_rows, has_key,
    NULL, store_cell, check_target,
};

const TableSchema amd_product_schema = {
    "AMD product table", "id", "AMD products", product_columns,
    sizeof product_columns / sizeof *product_columns, sizeof(AmdProduct), product_rows, has_key,
    NULL, store_cell, check_product,
};

/* ---- loading ---------------------------------------------------------------- */

static bool copy_rows(void **dst, const void *src, size_t n, size_t size)
{
    *dst = NULL;
    if (n == 0)
        return true;
    *dst = malloc(n * size);
    if (*dst)
        memcpy(*dst, src, n * size);
    return *dst != NULL;
}

bool amd_table_copy(AmdTable *dst, const AmdTable *src)
{
    *dst = (AmdTable){.n_targets = src->n_targets, .n_products = src->n_products};
    if (copy_rows((void **)&dst->targets, src->targets, src->n_targets, sizeof(AmdTarget)) &&
        copy_rows((void **)&dst->products, src->products, src->n_products, sizeof(AmdProduct)))
        return true;
    amd_table_free(dst);
    return false;
}

int amd_table_load_text(AmdTable *table, const char *text, size_t len, const char *origin,
                        OccError *err)
{
    static const TableSchema *const schemas[] = {&amd_product_schema, &amd_target_schema};
    AmdTable staging;
    if (!amd_table_copy(&staging, table)) {
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    OccTables tables = {.amd = &staging};
    if (occ_table_load_text(schemas, 2, &tables, text, len, origin, err, NULL) != 0) {
        amd_table_free(&staging);
        return -1;
    }
    amd_table_free(table);
    *table = staging;
    return 0;
}

int amd_table_load_file(AmdTable *table, const char *path, OccError *err)
{
    size_t len;
    char *text = occ_table_read_file(path, &len, err);
    if (!text)
        return -1;
    int rc = amd_table_load_text(table, text, len, path, err);
    free(text);
    return rc;
}

void amd_table_free(AmdTable *table)
{
    free(table->targets);
    free(table->products);
    *table = (AmdTable){0};
}
