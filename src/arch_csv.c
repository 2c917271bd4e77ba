/*
 * arch_csv.c: `silk-occ arch list --format csv`: a header row, one row per
 * architecture, then one per product, NVIDIA's then AMD's: the form that
 * scripts iterate `silk-occ calc --gpu` over.  The columns are the same
 * for both vendors; a cell that does not apply to a row's vendor is empty
 * (an AMD target has no compute capability, and no fixed count of
 * resident workgroups or threads to give).  Text fields are written with
 * libcsv, which quotes them.
 */
#include "arch_writers.h"

#include <csv.h>
#include <string.h>

enum { N_COLUMNS = 10 };

static const char *const header[N_COLUMNS] = {
    "kind", "vendor", "name", "cc", "arch", "unit", "sm_count", "max_threads_per_sm",
    "max_blocks_per_sm", "smem_per_sm",
};

/* One row's cells as text; "" is an empty cell. */
typedef struct Row {
    char cell[N_COLUMNS][OCC_NAME_MAX];
} Row;

static void put_row(FILE *out, const char *const *fields)
{
    for (int i = 0; i < N_COLUMNS; i++) {
        if (i)
            fputc(',', out);
        csv_fwrite(out, fields[i], strlen(fields[i]));
    }
    fputc('\n', out);
}

static void put(FILE *out, const Row *r)
{
    const char *fields[N_COLUMNS];
    for (int i = 0; i < N_COLUMNS; i++)
        fields[i] = r->cell[i];
    put_row(out, fields);
}

/* kind, vendor, name: the same for every row. */
static Row row_of(const char *kind, const char *vendor, const char *name)
{
    Row r = {0};
    snprintf(r.cell[0], sizeof r.cell[0], "%s", kind);
    snprintf(r.cell[1], sizeof r.cell[1], "%s", vendor);
    snprintf(r.cell[2], sizeof r.cell[2], "%s", name);
    return r;
}

static void nvidia_cells(Row *r, const ArchLimits *a, int sm_count)
{
    snprintf(r->cell[3], sizeof r->cell[3], "%d.%d", a->major, a->minor);
    arch_sm_name(a, r->cell[4], sizeof r->cell[4]);
    snprintf(r->cell[5], sizeof r->cell[5], "SM");
    if (sm_count)
        snprintf(r->cell[6], sizeof r->cell[6], "%d", sm_count);
    snprintf(r->cell[7], sizeof r->cell[7], "%d", a->max_threads_per_sm);
    snprintf(r->cell[8], sizeof r->cell[8], "%d", a->max_blocks_per_sm);
    snprintf(r->cell[9], sizeof r->cell[9], "%d", a->smem_per_sm);
}

/* An AMD target's LDS per CU (WGP) is what it shares as an SM shares its
 * shared memory. */
static void amd_cells(Row *r, const AmdTarget *a, int units)
{
    snprintf(r->cell[4], sizeof r->cell[4], "%s", a->gfx);
    snprintf(r->cell[5], sizeof r->cell[5], "%s", a->occupancy_unit);
    if (units)
        snprintf(r->cell[6], sizeof r->cell[6], "%d", units);
    snprintf(r->cell[9], sizeof r->cell[9], "%d", a->lds_per_unit);
}

int arch_write_csv(const ArchView *v, FILE *out)
{
    const ArchTable *nv = v->nvidia;
    const AmdTable *amd = v->amd;
    char sm[16];
    put_row(out, header);
    for (size_t i = 0; i < nv->n_archs; i++) {
        Row r = row_of("arch", "nvidia", arch_sm_name(&nv->archs[i], sm, sizeof sm));
        nvidia_cells(&r, &nv->archs[i], 0);
        put(out, &r);
    }
    for (size_t i = 0; i < amd->n_targets; i++) {
        Row r = row_of("arch", "amd", amd->targets[i].gfx);
        amd_cells(&r, &amd->targets[i], 0);
        put(out, &r);
    }
    for (size_t i = 0; i < nv->n_products; i++) {
        const GpuProduct *g = &nv->products[i];
        const ArchLimits *a = arch_table_product_arch(nv, g);
        Row r = row_of("gpu", "nvidia", g->id);
        if (a)
            nvidia_cells(&r, a, g->sm_count);
        put(out, &r);
    }
    for (size_t i = 0; i < amd->n_products; i++) {
        const AmdProduct *g = &amd->products[i];
        const AmdTarget *t = amd_table_product_target(amd, g);
        Row r = row_of("gpu", "amd", g->id);
        if (t)
            amd_cells(&r, t, amd_product_units(t, g));
        put(out, &r);
    }
    return EXIT_OK;
}
