/*
 * amd_lookup.c: finding rows of the AMD tables by name, and the AMD tables
 * built into the binary.
 */
#include "amd.h"

#include <string.h>
#include <strings.h>

/* The CSV text of arch-tables/amd-*.csv, embedded at build time. */
extern const char silk_builtin_amd_targets_csv[];
extern const char silk_builtin_amd_products_csv[];

int amd_table_load_builtin(AmdTable *table, OccError *err)
{
    *table = (AmdTable){0};
    if (amd_table_load_text(table, silk_builtin_amd_targets_csv,
                            strlen(silk_builtin_amd_targets_csv), "<built-in amd-targets.csv>",
                            err) != 0 ||
        amd_table_load_text(table, silk_builtin_amd_products_csv,
                            strlen(silk_builtin_amd_products_csv), "<built-in amd-products.csv>",
                            err) != 0) {
        amd_table_free(table);
        return -1;
    }
    return 0;
}

/* Whether `name` is `key` or one of the ';'-separated aliases. */
static bool names(const char *key, const char *aliases, const char *name)
{
    if (strcasecmp(key, name) == 0)
        return true;
    size_t len = strlen(name);
    for (const char *p = aliases; *p;) {
        size_t n = strcspn(p, ";");
        if (n == len && strncasecmp(p, name, n) == 0)
            return true;
        p += n + (p[n] == ';');
    }
    return false;
}

const AmdTarget *amd_table_find(const AmdTable *table, const char *name)
{
    for (size_t i = 0; i < table->n_targets; i++)
        if (names(table->targets[i].gfx, table->targets[i].aliases, name))
            return &table->targets[i];
    return NULL;
}

const AmdProduct *amd_table_find_product(const AmdTable *table, const char *name)
{
    for (size_t i = 0; i < table->n_products; i++)
        if (names(table->products[i].id, table->products[i].aliases, name))
            return &table->products[i];
    return NULL;
}

const AmdTarget *amd_table_product_target(const AmdTable *table, const AmdProduct *gpu)
{
    return amd_table_find(table, gpu->gfx);
}

/* A WGP holds two CUs: a 96-CU RX 7900 XTX has 48 WGPs. */
int amd_product_units(const AmdTarget *target, const AmdProduct *gpu)
{
    return gpu->compute_units / target->cus_per_unit;
}
