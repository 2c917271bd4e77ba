/*
 * amd_load.c: reads the AMD tables (arch-tables/amd-targets.csv and
 * amd-products.csv) through libcsv, by the rules of the NVIDIA tables
 * (arch_load.c, silk-arch-tables(5)): the header names the columns, in any
 * order; rows starting with '#' are comments; a known key (gfx, or id)
 * overrides its row and may leave cells empty; a new row gives every column
 * but the text ones; every error names origin, line and field, and leaves
 * the table as it was.
 */
#include "amd.h"

#include "read_file.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { KIND_TEXT, KIND_INT, KIND_AGPR_FILE, KIND_SGPR_STEPS } ColumnKind;

typedef struct Column {
    const char *name;
    ColumnKind kind;
    size_t offset;
    size_t size; /* of a text field */
    long min, max;
} Column;

#define SIZE_TEXT(T, f) sizeof(((T *)0)->f)
#define SIZE_INT(T, f) 0
#define SIZE_AGPR_FILE(T, f) 0
#define SIZE_SGPR_STEPS(T, f) 0

static const Column target_columns[] = {
#define AMD_TARGET_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, offsetof(AmdTarget, name), SIZE_##kind(AmdTarget, name), lo, hi},
#include "amd_target_columns.def"
#undef AMD_TARGET_COLUMN
};

static const Column product_columns[] = {
#define AMD_PRODUCT_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, offsetof(AmdProduct, name), SIZE_##kind(AmdProduct, name), lo, hi},
#include "amd_product_columns.def"
#undef AMD_PRODUCT_COLUMN
};

enum { N_TARGET_COLUMNS = sizeof target_columns / sizeof *target_columns,
       N_PRODUCT_COLUMNS = sizeof product_columns / sizeof *product_columns,
       MAX_COLUMNS = 32, MAX_FIELD = 256, MAX_ROWS = 1024 };

typedef struct Loader {
    AmdTable *table; /* the staging copy */
    const char *origin;
    OccError *err;
    bool failed;
    long line, row_line;
    bool have_header, products;
    const Column *columns;
    int n_columns;
    int column_of[MAX_COLUMNS];
    int n_header;
    char fields[MAX_COLUMNS][MAX_FIELD];
    int n_fields;
    char seen[MAX_ROWS][OCC_NAME_MAX]; /* keys this file gave */
    long seen_line[MAX_ROWS];
    int n_seen;
} Loader;

static void fail(Loader *ld, const char *fmt, ...)
{
    if (ld->failed)
        return;
    ld->failed = true;
    int n = snprintf(ld->err->message, sizeof ld->err->message, "%s:%ld: ", ld->origin,
                     ld->row_line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ld->err->message + n, sizeof ld->err->message - (size_t)n, fmt, ap);
    va_end(ap);
}

static bool is_blank(const char *s)
{
    return s[strspn(s, " \t\r")] == '\0';
}

/* ---- cells ------------------------------------------------------------------ */

static bool parse_int(const char *text, long *value)
{
    if (!isdigit((unsigned char)text[text[0] == '-']))
        return false;
    char *end;
    errno = 0;
    *value = strtol(text, &end, 10);
    return *end == '\0' && errno != ERANGE;
}

/* "80:10;88:9;100:8;*:7": SGPR counts ascending, waves falling; '*' last. */
static bool parse_steps(Loader *ld, const char *text, AmdTarget *t)
{
    t->n_sgpr_waves = 0;
    const char *p = text;
    while (*p) {
        if (t->n_sgpr_waves == AMD_MAX_SGPR_STEPS) {
            fail(ld, "field 'sgpr_waves': more than %d steps", AMD_MAX_SGPR_STEPS);
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
            fail(ld, "field 'sgpr_waves': steps must rise in SGPRs and fall in waves");
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
        fail(ld, "field 'sgpr_waves': '%s' is not 'SGPRS:WAVES;...;*:WAVES'", text);
        return false;
    }
    return true;
}

static bool store_cell(Loader *ld, const Column *col, const char *text, void *row)
{
    char *base = row;
    long v;
    switch (col->kind) {
    case KIND_TEXT:
        if (strlen(text) >= col->size) {
            fail(ld, "field '%s': longer than %zu characters", col->name, col->size - 1);
            return false;
        }
        for (const unsigned char *p = (const unsigned char *)text; *p; p++)
            if (*p < 0x20 || *p == 0x7f) {
                fail(ld, "field '%s': holds a control character", col->name);
                return false;
            }
        strcpy(base + col->offset, text);
        return true;
    case KIND_INT:
        if (!parse_int(text, &v)) {
            fail(ld, "field '%s': '%s' is not an integer", col->name, text);
            return false;
        }
        if (v < col->min || v > col->max) {
            fail(ld, "field '%s': %ld is outside %ld..%ld", col->name, v, col->min, col->max);
            return false;
        }
        *(int *)(void *)(base + col->offset) = (int)v;
        return true;
    case KIND_AGPR_FILE: {
        static const char *const words[] = {"none", "separate", "unified"};
        for (int i = 0; i < 3; i++)
            if (strcmp(text, words[i]) == 0) {
                *(AmdAgprFile *)(void *)(base + col->offset) = (AmdAgprFile)i;
                return true;
            }
        fail(ld, "field '%s': '%s' is not none, separate or unified", col->name, text);
        return false;
    }
    case KIND_SGPR_STEPS:
        return parse_steps(ld, text, row);
    }
    return false;
}

/* ---- rows ------------------------------------------------------------------- */

static void read_header(Loader *ld)
{
    ld->products = false;
    for (int i = 0; i < ld->n_fields; i++)
        ld->products = ld->products || strcmp(ld->fields[i], "id") == 0;
    ld->columns = ld->products ? product_columns : target_columns;
    ld->n_columns = ld->products ? N_PRODUCT_COLUMNS : N_TARGET_COLUMNS;
    bool has_key = false;
    const char *key = ld->products ? "id" : "gfx";
    for (int i = 0; i < ld->n_fields && !ld->failed; i++) {
        int c = -1;
        for (int j = 0; j < ld->n_columns; j++)
            if (strcmp(ld->columns[j].name, ld->fields[i]) == 0)
                c = j;
        if (c < 0)
            fail(ld, "field '%s': not a column of the AMD %s table", ld->fields[i],
                 ld->products ? "product" : "target");
        for (int j = 0; j < i && !ld->failed; j++)
            if (ld->column_of[j] == c)
                fail(ld, "field '%s': named twice in the header", ld->fields[i]);
        ld->column_of[i] = c;
        has_key = has_key || strcmp(ld->fields[i], key) == 0;
    }
    if (!has_key)
        fail(ld, "field '%s': the header has no '%s' column", key, key);
    ld->n_header = ld->n_fields;
    ld->have_header = true;
}

/* The row of `key`, an existing one or a new zeroed one; NULL (said) when
 * the file gave it before or there is no room. */
static void *row_for_key(Loader *ld, const char *key, bool *is_new)
{
    for (int i = 0; i < ld->n_seen; i++)
        if (strcmp(ld->seen[i], key) == 0) {
            fail(ld, "field '%s': '%s' is given twice in the file (lines %ld and %ld)",
                 ld->products ? "id" : "gfx", key, ld->seen_line[i], ld->row_line);
            return NULL;
        }
    if (ld->n_seen == MAX_ROWS || strlen(key) >= OCC_NAME_MAX) {
        fail(ld, "field '%s': too many rows, or a key too long", ld->products ? "id" : "gfx");
        return NULL;
    }
    memmove(ld->seen[ld->n_seen], key, strlen(key) + 1); /* key lies in *ld too */
    ld->seen_line[ld->n_seen++] = ld->row_line;
    AmdTable *t = ld->table;
    size_t size = ld->products ? sizeof(AmdProduct) : sizeof(AmdTarget);
    void **rows = ld->products ? (void **)&t->products : (void **)&t->targets;
    size_t *n = ld->products ? &t->n_products : &t->n_targets;
    for (size_t i = 0; i < *n; i++) {
        char *row = (char *)*rows + i * size; /* the key is the first field of both */
        if (strcmp(row, key) == 0) {
            *is_new = false;
            return row;
        }
    }
    char *grown = realloc(*rows, (*n + 1) * size);
    if (!grown) {
        fail(ld, "out of memory");
        return NULL;
    }
    memset(grown + *n * size, 0, size);
    *rows = grown;
    *is_new = true;
    return grown + (*n)++ * size;
}

static void check_target(Loader *ld, const AmdTarget *t)
{
    if (strcmp(t->occupancy_unit, "CU") != 0 && strcmp(t->occupancy_unit, "WGP") != 0)
        fail(ld, "field 'occupancy_unit': '%s' is not CU or WGP", t->occupancy_unit);
    else if (t->max_workgroup_size % t->wave_size != 0)
        fail(ld, "field 'max_workgroup_size': %d is not a whole number of %d-lane waves",
             t->max_workgroup_size, t->wave_size);
    else if (t->lds_per_workgroup > t->lds_per_unit)
        fail(ld, "field 'lds_per_workgroup': %d exceeds lds_per_unit (%d)",
             t->lds_per_workgroup, t->lds_per_unit);
    else if (t->addressable_vgprs > t->vgprs_per_simd)
        fail(ld, "field 'addressable_vgprs': %d exceeds vgprs_per_simd (%d)",
             t->addressable_vgprs, t->vgprs_per_simd);
    else if (t->agpr_file == AMD_AGPR_UNIFIED && t->agpr_align < 1)
        fail(ld, "field 'agpr_align': a unified file needs an alignment of at least 1");
    else if (t->n_sgpr_waves > 0 && t->sgpr_alloc_granule < 1)
        fail(ld, "field 'sgpr_alloc_granule': SGPRs that limit need a granule of at least 1");
    else if (t->n_sgpr_waves > 0 && t->sgpr_waves[t->n_sgpr_waves - 1].max_sgprs != INT_MAX)
        fail(ld, "field 'sgpr_waves': the last step must be '*:WAVES'");
}

static void check_product(Loader *ld, const AmdProduct *p)
{
    if (!amd_table_find(ld->table, p->gfx))
        fail(ld, "field 'gfx': '%s' is not in the AMD target table", p->gfx);
}

static const char *key_of_row(Loader *ld)
{
    const char *key = ld->products ? "id" : "gfx";
    for (int i = 0; i < ld->n_header; i++)
        if (strcmp(ld->columns[ld->column_of[i]].name, key) == 0)
            return ld->fields[i];
    return "";
}

static void read_row(Loader *ld)
{
    if (ld->n_fields == 0 || (ld->n_fields == 1 && is_blank(ld->fields[0])) ||
        ld->fields[0][0] == '#')
        return;
    if (!ld->have_header) {
        read_header(ld);
        return;
    }
    if (ld->n_fields != ld->n_header) {
        fail(ld, "the row has %d fields, the header %d", ld->n_fields, ld->n_header);
        return;
    }
    const char *key = key_of_row(ld);
    if (is_blank(key)) {
        fail(ld, "field '%s': empty (every row needs one)", ld->products ? "id" : "gfx");
        return;
    }
    bool is_new;
    void *row = row_for_key(ld, key, &is_new);
    if (!row)
        return;
    bool given[MAX_COLUMNS] = {false};
    for (int i = 0; i < ld->n_header && !ld->failed; i++)
        if (!is_blank(ld->fields[i])) {
            given[ld->column_of[i]] = true;
            store_cell(ld, &ld->columns[ld->column_of[i]], ld->fields[i], row);
        }
    for (int c = 0; c < ld->n_columns && is_new && !ld->failed; c++) {
        ColumnKind kind = ld->columns[c].kind;
        if (!given[c] && kind != KIND_TEXT && kind != KIND_SGPR_STEPS)
            fail(ld, "field '%s': missing (a new row must give every column)", ld->columns[c].name);
    }
    if (!ld->failed && ld->products)
        check_product(ld, row);
    else if (!ld->failed)
        check_target(ld, row);
}

/* ---- libcsv ------------------------------------------------------------------- */

static void on_field(void *data, size_t len, void *user)
{
    Loader *ld = user;
    if (ld->failed)
        return;
    if (ld->n_fields == 0)
        ld->row_line = ld->line;
    if (ld->n_fields == MAX_COLUMNS || len >= MAX_FIELD || memchr(data, '\0', len)) {
        fail(ld, "field %d: too many fields, too long, or a NUL byte", ld->n_fields + 1);
        return;
    }
    memcpy(ld->fields[ld->n_fields], data, len);
    ld->fields[ld->n_fields++][len] = '\0';
}

static void on_row(int terminator, void *user)
{
    (void)terminator;
    Loader *ld = user;
    if (!ld->failed)
        read_row(ld);
    ld->n_fields = 0;
}

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

static void parse_text(Loader *ld, const char *text, size_t len)
{
    struct csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fail(ld, "out of memory");
        return;
    }
    size_t pos = 0;
    bool at_row_start = true;
    while (pos < len && !ld->failed) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t chunk = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;
        ld->line++;
        if (!(at_row_start && text[pos] == '#') &&
            csv_parse(&parser, text + pos, chunk, on_field, on_row, ld) != chunk) {
            ld->row_line = ld->line;
            fail(ld, "malformed CSV: a quote inside a field, or text after a closing quote");
        }
        at_row_start = ld->n_fields == 0;
        pos += chunk;
    }
    if (!ld->failed && csv_fini(&parser, on_field, on_row, ld) != 0)
        fail(ld, "malformed CSV: a quoted field that never closes");
    csv_free(&parser);
    if (!ld->failed && !ld->have_header) {
        ld->row_line = ld->line > 0 ? ld->line : 1;
        fail(ld, "the file has no header row");
    }
}

int amd_table_load_text(AmdTable *table, const char *text, size_t len, const char *origin,
                        OccError *err)
{
    AmdTable staging = {.n_targets = table->n_targets, .n_products = table->n_products};
    Loader *ld = calloc(1, sizeof *ld);
    if (!ld || !copy_rows((void **)&staging.targets, table->targets, table->n_targets,
                          sizeof(AmdTarget)) ||
        !copy_rows((void **)&staging.products, table->products, table->n_products,
                   sizeof(AmdProduct))) {
        free(ld);
        amd_table_free(&staging);
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    *ld = (Loader){.table = &staging, .origin = origin, .err = err};
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    parse_text(ld, text, len);
    bool failed = ld->failed;
    free(ld);
    if (failed) {
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
    char *text = read_file(path, READ_FILE_DATA_LIMIT_MIB, &len);
    if (!text) {
        snprintf(err->message, sizeof err->message, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = amd_table_load_text(table, text, len, path, err);
    free(text);
    return rc;
}

/* The first line that is neither a comment nor blank names the columns. */
bool amd_table_text_is_amd(const char *text, size_t len)
{
    size_t pos = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (text[pos] != '#' && end > pos && !is_blank((char[2]){text[pos], 0})) {
            for (size_t i = pos; i + 3 <= end; i++)
                if (memcmp(text + i, "gfx", 3) == 0 && (i == pos || text[i - 1] == ',') &&
                    (i + 3 == end || text[i + 3] == ',' || text[i + 3] == '\r'))
                    return true;
            return false;
        }
        pos = end + 1;
    }
    return false;
}

void amd_table_free(AmdTable *table)
{
    free(table->targets);
    free(table->products);
    *table = (AmdTable){0};
}
