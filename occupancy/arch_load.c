/*
 * arch_load.c: the NVIDIA tables as schemas for the one table reader
 * (table_load.c, shared with the AMD tables), and the file that may hold
 * either vendor's rows (tables.h).
 *
 * A file is either the compute-capability table (its header has a "cc"
 * column and no "id") or the product table (it has "id").  Columns may come
 * in any order; the header names them.  Rows whose first field starts with
 * '#' are comments; a UTF-8 byte-order mark before the header is skipped.
 * A row whose key (cc or id) is already known from the built-in tables or
 * an earlier file overrides that row and may leave cells empty to keep
 * their values; a new row must fill every column but the text ones.  A key
 * given twice in one file is an error naming both lines: within a file it
 * is a mistake, not an override.  Every error names the origin, the line
 * and the field, and leaves the table as it was.
 */
#include "occupancy.h"

#include "read_file.h"
#include "table_load.h"
#include "tables.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_TEXT = TABLE_KIND_TEXT, KIND_INT = TABLE_KIND_INT, KIND_CC = TABLE_KIND_VENDOR,
       KIND_KIB_LIST, KIND_GRANULARITY };

#define FIELD_CC(T, f) offsetof(T, major)
#define FIELD_TEXT(T, f) offsetof(T, f)
#define FIELD_INT(T, f) offsetof(T, f)
#define FIELD_OPT_INT(T, f) offsetof(T, f)
#define FIELD_KIB_LIST(T, f) offsetof(T, smem_configs)
#define FIELD_GRANULARITY(T, f) 0
#define SIZE_CC(T, f) 0
#define SIZE_TEXT(T, f) sizeof(((T *)0)->f)
#define SIZE_INT(T, f) 0
#define SIZE_OPT_INT(T, f) 0
#define SIZE_KIB_LIST(T, f) 0
#define SIZE_GRANULARITY(T, f) 0
/* A new row may leave text, a carveout list and an OPT_INT empty: an
 * OPT_INT is an integer column added after user tables were written, whose
 * empty cell means 0 (the feature is absent or its value not public). */
#define KIND_OPT_INT KIND_INT
#define OPTIONAL_TEXT true
#define OPTIONAL_INT false
#define OPTIONAL_OPT_INT true
#define OPTIONAL_CC false
#define OPTIONAL_KIB_LIST true
#define OPTIONAL_GRANULARITY false
#define OPTIONAL(kind) OPTIONAL_##kind

static const TableColumn arch_columns[] = {
#define ARCH_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, FIELD_##kind(ArchLimits, name), SIZE_##kind(ArchLimits, name), lo, hi, \
     OPTIONAL(kind)},
#include "arch_columns.def"
#undef ARCH_COLUMN
};

static const TableColumn product_columns[] = {
#define PRODUCT_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, FIELD_##kind(GpuProduct, name), SIZE_##kind(GpuProduct, name), lo, hi, \
     OPTIONAL(kind)},
#include "product_columns.def"
#undef PRODUCT_COLUMN
};

/* ---- cells ------------------------------------------------------------------ */

/* MAJOR.MINOR exactly: one or two digits, a dot, one digit ("9.0", "12.1"). */
static bool parse_cc(const char *text, int *major, int *minor)
{
    size_t digits = strspn(text, "0123456789");
    if (digits < 1 || digits > 2 || text[0] == '0' || text[digits] != '.' ||
        !isdigit((unsigned char)text[digits + 1]) || text[digits + 2] != '\0')
        return false;
    *major = atoi(text);
    *minor = text[digits + 1] - '0';
    return true;
}

static bool parse_kib_list(TableLoad *ld, const TableColumn *col, const char *text, ArchLimits *a)
{
    a->n_smem_configs = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long kib = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
        if (kib < 0 || kib > 1048576 || errno == ERANGE) {
            occ_table_fail(ld, "field '%s': '%s' is not a ';'-separated list of KiB sizes", col->name,
                       text);
            return false;
        }
        if (a->n_smem_configs == OCC_MAX_SMEM_CONFIGS) {
            occ_table_fail(ld, "field '%s': more than %d carveouts", col->name, OCC_MAX_SMEM_CONFIGS);
            return false;
        }
        int bytes = (int)kib * 1024;
        if (a->n_smem_configs > 0 && bytes <= a->smem_configs[a->n_smem_configs - 1]) {
            occ_table_fail(ld, "field '%s': carveouts must be in ascending order", col->name);
            return false;
        }
        a->smem_configs[a->n_smem_configs++] = bytes;
        p = *end == ';' ? end + 1 : end;
        if (*end && *end != ';') {
            occ_table_fail(ld, "field '%s': '%s' is not a ';'-separated list of KiB sizes", col->name,
                       text);
            return false;
        }
    }
    return true;
}

static bool cc_is_valid(TableLoad *ld, const TableColumn *col, const char *text)
{
    int major, minor;
    if (parse_cc(text, &major, &minor))
        return true;
    occ_table_fail(ld, "field '%s': '%s' is not a compute capability (MAJOR.MINOR)", col->name, text);
    return false;
}

/* Stores one non-empty cell of an NVIDIA kind into the row. */
static bool store_cell(TableLoad *ld, const TableColumn *col, const char *text, void *row)
{
    char *base = row;
    switch (col->kind) {
    case KIND_CC: {
        int major, minor;
        if (!cc_is_valid(ld, col, text))
            return false;
        parse_cc(text, &major, &minor);
        memcpy(base + col->offset, &major, sizeof major);
        memcpy(base + col->offset + sizeof(int), &minor, sizeof minor);
        return true;
    }
    case KIND_KIB_LIST:
        return parse_kib_list(ld, col, text, (ArchLimits *)row);
    case KIND_GRANULARITY:
        if (strcmp(text, "warp") != 0) {
            occ_table_fail(ld, "field '%s': '%s' is not supported (registers are allocated per warp)",
                       col->name, text);
            return false;
        }
        return true;
    }
    return false;
}

/* ---- rows ------------------------------------------------------------------- */

static bool same_cc(const ArchLimits *a, int major, int minor)
{
    return a->major == major && a->minor == minor;
}

static bool check_cc_key(TableLoad *ld, const char *key)
{
    return cc_is_valid(ld, &arch_columns[0], key);
}

static bool arch_has_key(const void *row, const char *key)
{
    int major = 0, minor = 0;
    return parse_cc(key, &major, &minor) && same_cc(row, major, minor);
}

static bool product_has_key(const void *row, const char *key)
{
    return strcmp(((const GpuProduct *)row)->id, key) == 0;
}

static void **arch_rows(void *context, size_t **n)
{
    ArchTable *t = ((OccTables *)context)->nvidia;
    *n = &t->n_archs;
    return (void **)&t->archs;
}

static void **product_rows(void *context, size_t **n)
{
    ArchTable *t = ((OccTables *)context)->nvidia;
    *n = &t->n_products;
    return (void **)&t->products;
}

static void check_arch_row(TableLoad *ld, const void *row)
{
    const ArchLimits *a = row;
    if (a->max_threads_per_sm % a->warp_size != 0)
        occ_table_fail(ld, "field 'max_threads_per_sm': %d is not a whole number of %d-thread warps",
                   a->max_threads_per_sm, a->warp_size);
    else if (a->max_threads_per_block > a->max_threads_per_sm)
        occ_table_fail(ld, "field 'max_threads_per_block': %d exceeds max_threads_per_sm (%d)",
                   a->max_threads_per_block, a->max_threads_per_sm);
    else if (a->smem_per_block > a->smem_per_block_optin)
        occ_table_fail(ld, "field 'smem_per_block_optin': %d is below smem_per_block (%d)",
                   a->smem_per_block_optin, a->smem_per_block);
    else if (a->smem_per_block_optin > a->smem_per_sm)
        occ_table_fail(ld, "field 'smem_per_block_optin': %d exceeds smem_per_sm (%d)",
                   a->smem_per_block_optin, a->smem_per_sm);
    else if (a->n_smem_configs > 0 &&
             a->smem_configs[a->n_smem_configs - 1] < a->smem_per_sm)
        occ_table_fail(ld, "field 'smem_configs_kib': the largest carveout is below smem_per_sm (%d)",
                   a->smem_per_sm);
    else if (a->sub_partitions % 2 != 0 && a->partitioned_gc)
        occ_table_fail(ld, "field 'partitioned_gc': needs an even number of sub_partitions");
}

static void check_product_row(TableLoad *ld, const void *row)
{
    const GpuProduct *g = row;
    const ArchTable *t = ((OccTables *)occ_table_context(ld))->nvidia;
    for (size_t i = 0; i < t->n_archs; i++)
        if (same_cc(&t->archs[i], g->major, g->minor))
            return;
    occ_table_fail(ld, "field 'cc': %d.%d is not in the compute-capability table", g->major, g->minor);
}

const TableSchema arch_cc_schema = {
    "compute-capability table", "cc", "compute capabilities", arch_columns,
    sizeof arch_columns / sizeof *arch_columns, sizeof(ArchLimits), arch_rows, arch_has_key,
    check_cc_key, store_cell, check_arch_row,
};

const TableSchema arch_product_schema = {
    "product table", "id", "products", product_columns,
    sizeof product_columns / sizeof *product_columns, sizeof(GpuProduct), product_rows,
    product_has_key, NULL, store_cell, check_product_row,
};

/* ---- staging ---------------------------------------------------------------- */

bool arch_table_copy(ArchTable *dst, const ArchTable *src)
{
    *dst = (ArchTable){0};
    if (src->n_archs) {
        dst->archs = malloc(src->n_archs * sizeof *dst->archs);
        if (!dst->archs)
            return false;
        memcpy(dst->archs, src->archs, src->n_archs * sizeof *dst->archs);
        dst->n_archs = src->n_archs;
    }
    if (src->n_products) {
        dst->products = malloc(src->n_products * sizeof *dst->products);
        if (!dst->products) {
            arch_table_free(dst);
            return false;
        }
        memcpy(dst->products, src->products, src->n_products * sizeof *dst->products);
        dst->n_products = src->n_products;
    }
    return true;
}

int arch_table_load_text(ArchTable *table, const char *text, size_t len, const char *origin,
                         OccError *err)
{
    static const TableSchema *const schemas[] = {&arch_product_schema, &arch_cc_schema};
    ArchTable staging;
    if (!arch_table_copy(&staging, table)) {
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    OccTables tables = {.nvidia = &staging};
    if (occ_table_load_text(schemas, 2, &tables, text, len, origin, err, NULL) != 0) {
        arch_table_free(&staging);
        return -1;
    }
    arch_table_free(table);
    *table = staging;
    return 0;
}

int arch_table_load_file(ArchTable *table, const char *path, OccError *err)
{
    size_t len;
    char *text = occ_table_read_file(path, &len, err);
    if (!text)
        return -1;
    int rc = arch_table_load_text(table, text, len, path, err);
    free(text);
    return rc;
}

/* ---- either vendor's file ----------------------------------------------------- */

int occ_tables_load_text(OccTables *tables, const char *text, size_t len, const char *origin,
                         OccError *err)
{
    static const TableSchema *const schemas[] = {&arch_product_schema, &amd_product_schema,
                                                 &arch_cc_schema, &amd_target_schema};
    ArchTable nvidia;
    AmdTable amd;
    if (!arch_table_copy(&nvidia, tables->nvidia)) {
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    if (!amd_table_copy(&amd, tables->amd)) {
        arch_table_free(&nvidia);
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    OccTables staging = {&nvidia, &amd};
    if (occ_table_load_text(schemas, 4, &staging, text, len, origin, err, NULL) != 0) {
        arch_table_free(&nvidia);
        amd_table_free(&amd);
        return -1;
    }
    arch_table_free(tables->nvidia);
    amd_table_free(tables->amd);
    *tables->nvidia = nvidia;
    *tables->amd = amd;
    return 0;
}

int occ_tables_load_file(OccTables *tables, const char *path, OccError *err)
{
    size_t len;
    char *text = occ_table_read_file(path, &len, err);
    if (!text)
        return -1;
    int rc = occ_tables_load_text(tables, text, len, path, err);
    free(text);
    return rc;
}

void arch_table_free(ArchTable *table)
{
    free(table->archs);
    free(table->products);
    *table = (ArchTable){0};
}
