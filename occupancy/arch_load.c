/*
 * arch_load.c: reads the architecture tables (CSV, through libcsv).
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

#include "escape.h"
#include "read_file.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { KIND_CC, KIND_TEXT, KIND_INT, KIND_KIB_LIST, KIND_GRANULARITY } ColumnKind;

typedef struct Column {
    const char *name;
    ColumnKind kind;
    size_t offset; /* of the field in ArchLimits or GpuProduct */
    size_t size;   /* of a text field */
    long min, max;
} Column;

#define FIELD_CC(T, f) offsetof(T, major)
#define FIELD_TEXT(T, f) offsetof(T, f)
#define FIELD_INT(T, f) offsetof(T, f)
#define FIELD_KIB_LIST(T, f) offsetof(T, smem_configs)
#define FIELD_GRANULARITY(T, f) 0
#define SIZE_CC(T, f) 0
#define SIZE_TEXT(T, f) sizeof(((T *)0)->f)
#define SIZE_INT(T, f) 0
#define SIZE_KIB_LIST(T, f) 0
#define SIZE_GRANULARITY(T, f) 0

static const Column arch_columns[] = {
#define ARCH_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, FIELD_##kind(ArchLimits, name), SIZE_##kind(ArchLimits, name), lo, hi},
#include "arch_columns.def"
#undef ARCH_COLUMN
};

static const Column product_columns[] = {
#define PRODUCT_COLUMN(name, kind, lo, hi, meaning) \
    {#name, KIND_##kind, FIELD_##kind(GpuProduct, name), SIZE_##kind(GpuProduct, name), lo, hi},
#include "product_columns.def"
#undef PRODUCT_COLUMN
};

/* MAX_ROWS bounds each table (real ones have a few dozen rows), and so
 * the linear search for a row's key. */
enum { N_ARCH_COLUMNS = sizeof arch_columns / sizeof *arch_columns,
       N_PRODUCT_COLUMNS = sizeof product_columns / sizeof *product_columns,
       MAX_COLUMNS = 64, MAX_FIELD = 256, MAX_ROWS = 4096 };

typedef struct Loader {
    ArchTable *table; /* the staging copy being changed */
    const char *origin;
    OccError *err;
    bool failed;
    long line;         /* line being fed to the parser */
    long row_line;     /* line the current row started on */
    bool have_header;
    bool at_row_start; /* the parser holds no part of a row */
    long row_start_line; /* the line the row being parsed began on */
    bool products;     /* which table the file holds */
    const Column *columns;
    int n_columns;
    int column_of[MAX_COLUMNS]; /* header position -> column index */
    int n_header;
    char fields[MAX_COLUMNS][MAX_FIELD];
    int n_fields;
    long *row_lines;   /* per row of the table: the line of this file that
                        * gave it, 0 when none did (MAX_ROWS entries) */
} Loader;

static void fail(Loader *ld, const char *fmt, ...)
{
    if (ld->failed)
        return;
    ld->failed = true;
    char what[sizeof ld->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* A cell or header quoted back is the file's bytes: escaped, so that a
     * newline or an escape sequence in it cannot forge or hide a line. */
    int n = snprintf(ld->err->message, sizeof ld->err->message, "%s:%ld: ", ld->origin,
                     ld->row_line);
    escape_text(what, ld->err->message + n, sizeof ld->err->message - (size_t)n);
}

static bool is_blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r')
            return false;
    return true;
}

/* ---- cell parsers ----------------------------------------------------------- */

/* A decimal integer and nothing else: an optional sign, then digits to
 * the end (no spaces, no base prefix; a NUL inside a cell never gets this
 * far: on_field refuses it). */
static bool parse_long(const char *text, long *value)
{
    const char *digits = text + (*text == '-' || *text == '+');
    if (!isdigit((unsigned char)*digits))
        return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return false;
    *value = v;
    return true;
}

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

static bool parse_kib_list(Loader *ld, const Column *col, const char *text, ArchLimits *a)
{
    a->n_smem_configs = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long kib = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
        if (kib < 0 || kib > 1048576 || errno == ERANGE) {
            fail(ld, "field '%s': '%s' is not a ';'-separated list of KiB sizes", col->name, text);
            return false;
        }
        if (a->n_smem_configs == OCC_MAX_SMEM_CONFIGS) {
            fail(ld, "field '%s': more than %d carveouts", col->name, OCC_MAX_SMEM_CONFIGS);
            return false;
        }
        int bytes = (int)kib * 1024;
        if (a->n_smem_configs > 0 && bytes <= a->smem_configs[a->n_smem_configs - 1]) {
            fail(ld, "field '%s': carveouts must be in ascending order", col->name);
            return false;
        }
        a->smem_configs[a->n_smem_configs++] = bytes;
        p = *end == ';' ? end + 1 : end;
        if (*end && *end != ';') {
            fail(ld, "field '%s': '%s' is not a ';'-separated list of KiB sizes", col->name, text);
            return false;
        }
    }
    return true;
}

/* Whether text holds a C0 control character or DEL (a newline, an escape
 * sequence), which a name printed on a terminal must not. */
static bool has_control(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

/* Store one non-empty cell into the row. */
static bool store_cell(Loader *ld, const Column *col, const char *text, void *row)
{
    char *base = row;
    switch (col->kind) {
    case KIND_CC: {
        int major, minor;
        if (!parse_cc(text, &major, &minor)) {
            fail(ld, "field '%s': '%s' is not a compute capability (MAJOR.MINOR)", col->name, text);
            return false;
        }
        memcpy(base + col->offset, &major, sizeof major);
        memcpy(base + col->offset + sizeof(int), &minor, sizeof minor);
        return true;
    }
    case KIND_TEXT:
        if (strlen(text) >= col->size) {
            fail(ld, "field '%s': longer than %zu characters", col->name, col->size - 1);
            return false;
        }
        if (has_control(text)) { /* a name printed as it is: no line breaks, no escapes */
            fail(ld, "field '%s': holds a control character", col->name);
            return false;
        }
        strcpy(base + col->offset, text);
        return true;
    case KIND_INT: {
        long v;
        if (!parse_long(text, &v)) {
            fail(ld, "field '%s': '%s' is not an integer", col->name, text);
            return false;
        }
        if (v < col->min || v > col->max) {
            fail(ld, "field '%s': %ld is outside %ld..%ld", col->name, v, col->min, col->max);
            return false;
        }
        int iv = (int)v;
        memcpy(base + col->offset, &iv, sizeof iv);
        return true;
    }
    case KIND_KIB_LIST:
        return parse_kib_list(ld, col, text, (ArchLimits *)row);
    case KIND_GRANULARITY:
        if (strcmp(text, "warp") != 0) {
            fail(ld, "field '%s': '%s' is not supported (registers are allocated per warp)",
                 col->name, text);
            return false;
        }
        return true;
    }
    return false;
}

/* ---- rows ------------------------------------------------------------------- */

static int find_column(const Column *cols, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(cols[i].name, name) == 0)
            return i;
    return -1;
}

static void read_header(Loader *ld)
{
    bool has_id = false;
    for (int i = 0; i < ld->n_fields; i++)
        if (strcmp(ld->fields[i], "id") == 0)
            has_id = true;
    ld->products = has_id;
    ld->columns = has_id ? product_columns : arch_columns;
    ld->n_columns = has_id ? N_PRODUCT_COLUMNS : N_ARCH_COLUMNS;
    for (int i = 0; i < ld->n_fields; i++) {
        int c = find_column(ld->columns, ld->n_columns, ld->fields[i]);
        if (c < 0) {
            fail(ld, "field '%s': not a column of the %s table", ld->fields[i],
                 has_id ? "product" : "compute-capability");
            return;
        }
        for (int j = 0; j < i; j++)
            if (ld->column_of[j] == c) {
                fail(ld, "field '%s': named twice in the header", ld->fields[i]);
                return;
            }
        ld->column_of[i] = c;
    }
    ld->n_header = ld->n_fields;
    const char *key = has_id ? "id" : "cc";
    bool found = false;
    for (int i = 0; i < ld->n_fields; i++)
        found = found || strcmp(ld->fields[i], key) == 0;
    if (!found)
        fail(ld, "field '%s': the header has no '%s' column", key, key);
    ld->have_header = true;
}

static const char *key_text(Loader *ld)
{
    const char *key = ld->products ? "id" : "cc";
    for (int i = 0; i < ld->n_header; i++)
        if (strcmp(ld->columns[ld->column_of[i]].name, key) == 0)
            return ld->fields[i];
    return "";
}

static bool same_cc(const ArchLimits *a, int major, int minor)
{
    return a->major == major && a->minor == minor;
}

/* The index of the row the key names in rows of `size` bytes (n of them),
 * or n when there is none. */
static size_t find_row(Loader *ld, const char *key, const void *rows, size_t n, size_t size)
{
    int major = 0, minor = 0;
    if (!ld->products)
        parse_cc(key, &major, &minor);
    for (size_t i = 0; i < n; i++) {
        const void *row = (const char *)rows + i * size;
        if (ld->products ? strcmp(((const GpuProduct *)row)->id, key) == 0
                         : same_cc(row, major, minor))
            return i;
    }
    return n;
}

/* Appends a zeroed row to *rows (n of `size` bytes); false when the table
 * is full or memory is not there (said). */
static bool append_row(Loader *ld, void **rows, size_t *n, size_t size)
{
    if (*n == MAX_ROWS) {
        fail(ld, "more than %d %s", MAX_ROWS, ld->products ? "products" : "compute capabilities");
        return false;
    }
    char *grown = realloc(*rows, (*n + 1) * size);
    if (!grown) {
        fail(ld, "out of memory");
        return false;
    }
    memset(grown + *n * size, 0, size);
    *rows = grown;
    (*n)++;
    return true;
}

/* The row the key names: an existing one, or a new zeroed one at the end;
 * NULL (said) for a key this file gave already, or no room. */
static void *row_for_key(Loader *ld, const char *key, bool *is_new)
{
    ArchTable *t = ld->table;
    void **rows = ld->products ? (void **)&t->products : (void **)&t->archs;
    size_t *n = ld->products ? &t->n_products : &t->n_archs;
    size_t size = ld->products ? sizeof *t->products : sizeof *t->archs;
    size_t i = find_row(ld, key, *rows, *n, size);
    *is_new = i == *n;
    if (!*is_new && ld->row_lines[i]) {
        fail(ld, "field '%s': '%s' is given twice in the file (lines %ld and %ld)",
             ld->products ? "id" : "cc", key, ld->row_lines[i], ld->row_line);
        return NULL;
    }
    if (*is_new && !append_row(ld, rows, n, size))
        return NULL;
    ld->row_lines[i] = ld->row_line;
    return (char *)*rows + i * size;
}

static void check_arch_row(Loader *ld, const ArchLimits *a)
{
    if (a->max_threads_per_sm % a->warp_size != 0)
        fail(ld, "field 'max_threads_per_sm': %d is not a whole number of %d-thread warps",
             a->max_threads_per_sm, a->warp_size);
    else if (a->max_threads_per_block > a->max_threads_per_sm)
        fail(ld, "field 'max_threads_per_block': %d exceeds max_threads_per_sm (%d)",
             a->max_threads_per_block, a->max_threads_per_sm);
    else if (a->smem_per_block > a->smem_per_block_optin)
        fail(ld, "field 'smem_per_block_optin': %d is below smem_per_block (%d)",
             a->smem_per_block_optin, a->smem_per_block);
    else if (a->smem_per_block_optin > a->smem_per_sm)
        fail(ld, "field 'smem_per_block_optin': %d exceeds smem_per_sm (%d)",
             a->smem_per_block_optin, a->smem_per_sm);
    else if (a->n_smem_configs > 0 &&
             a->smem_configs[a->n_smem_configs - 1] < a->smem_per_sm)
        fail(ld, "field 'smem_configs_kib': the largest carveout is below smem_per_sm (%d)",
             a->smem_per_sm);
    else if (a->sub_partitions % 2 != 0 && a->partitioned_gc)
        fail(ld, "field 'partitioned_gc': needs an even number of sub_partitions");
}

static void check_product_row(Loader *ld, const GpuProduct *g)
{
    for (size_t i = 0; i < ld->table->n_archs; i++)
        if (same_cc(&ld->table->archs[i], g->major, g->minor))
            return;
    fail(ld, "field 'cc': %d.%d is not in the compute-capability table", g->major, g->minor);
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
        fail(ld, "field '%s': the row has %d fields, the header %d",
             ld->columns[ld->column_of[ld->n_fields < ld->n_header ? ld->n_fields : ld->n_header - 1]].name,
             ld->n_fields, ld->n_header);
        return;
    }
    bool is_new;
    const char *key = key_text(ld);
    const char *key_name = ld->products ? "id" : "cc";
    if (is_blank(key)) {
        fail(ld, "field '%s': empty (every row needs one)", key_name);
        return;
    }
    if (!ld->products) {
        int major, minor;
        if (!parse_cc(key, &major, &minor)) {
            fail(ld, "field 'cc': '%s' is not a compute capability (MAJOR.MINOR)", key);
            return;
        }
    }
    void *row = row_for_key(ld, key, &is_new);
    if (!row)
        return;
    bool given[MAX_COLUMNS] = {false};
    for (int i = 0; i < ld->n_header && !ld->failed; i++) {
        const Column *col = &ld->columns[ld->column_of[i]];
        if (is_blank(ld->fields[i]))
            continue;
        given[ld->column_of[i]] = true;
        store_cell(ld, col, ld->fields[i], row);
    }
    for (int c = 0; c < ld->n_columns && is_new && !ld->failed; c++) {
        ColumnKind kind = ld->columns[c].kind;
        if (!given[c] && kind != KIND_TEXT && kind != KIND_KIB_LIST)
            fail(ld, "field '%s': missing (a new row must give every column)", ld->columns[c].name);
    }
    if (ld->failed)
        return;
    if (ld->products)
        check_product_row(ld, row);
    else
        check_arch_row(ld, row);
}

/* ---- libcsv callbacks ------------------------------------------------------- */

static void on_field(void *data, size_t len, void *user)
{
    Loader *ld = user;
    if (ld->failed)
        return;
    if (ld->n_fields == 0)
        ld->row_line = ld->line;
    ld->at_row_start = false;
    if (ld->n_fields == MAX_COLUMNS) {
        fail(ld, "more than %d fields in a row", MAX_COLUMNS);
        return;
    }
    if (len >= MAX_FIELD) {
        fail(ld, "field %d: longer than %d characters", ld->n_fields + 1, MAX_FIELD - 1);
        return;
    }
    /* A cell is C text from here on: "1<NUL>6" would read as 1. */
    if (memchr(data, '\0', len)) {
        if (ld->have_header && ld->n_fields < ld->n_header)
            fail(ld, "field '%s': holds a NUL byte", ld->columns[ld->column_of[ld->n_fields]].name);
        else
            fail(ld, "field %d: holds a NUL byte", ld->n_fields + 1);
        return;
    }
    memcpy(ld->fields[ld->n_fields], data, len);
    ld->fields[ld->n_fields][len] = '\0';
    ld->n_fields++;
}

static void on_row(int terminator, void *user)
{
    (void)terminator;
    Loader *ld = user;
    if (!ld->failed)
        read_row(ld);
    ld->n_fields = 0;
    ld->at_row_start = true;
}

/* ---- staging ---------------------------------------------------------------- */

static bool copy_table(ArchTable *dst, const ArchTable *src)
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

/* Malformed quoting, reported where the row began and on the field the
 * parser was reading (the one after the last complete field). */
static void fail_quoting(Loader *ld, const char *what)
{
    ld->row_line = ld->row_start_line;
    if (ld->have_header && ld->n_fields < ld->n_header)
        fail(ld, "field '%s': malformed CSV: %s", ld->columns[ld->column_of[ld->n_fields]].name,
             what);
    else
        fail(ld, "field %d: malformed CSV: %s", ld->n_fields + 1, what);
}

static void parse_lines(Loader *ld, struct csv_parser *parser, const char *text, size_t len)
{
    size_t pos = 0;
    while (pos < len && !ld->failed) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t chunk = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;
        ld->line++;
        /* A comment line never reaches the parser, so any text may follow
         * the '#' (a quoted field running over lines is not a comment). */
        if (ld->at_row_start && text[pos] == '#') {
            pos += chunk;
            continue;
        }
        if (ld->at_row_start)
            ld->row_start_line = ld->line;
        if (csv_parse(parser, text + pos, chunk, on_field, on_row, ld) != chunk)
            fail_quoting(ld, "a quote inside a field, or text after a closing quote");
        pos += chunk;
    }
    if (!ld->failed && csv_fini(parser, on_field, on_row, ld) != 0)
        fail_quoting(ld, "a quoted field that never closes");
}

int arch_table_load_text(ArchTable *table, const char *text, size_t len, const char *origin,
                         OccError *err)
{
    ArchTable staging;
    if (!copy_table(&staging, table)) {
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    Loader ld = {.table = &staging, .origin = origin, .err = err, .at_row_start = true};
    /* One line number per row the file may add or change, of either table
     * (the header decides which); 0 for a row the file has not given. */
    ld.row_lines = calloc(MAX_ROWS, sizeof *ld.row_lines);
    struct csv_parser parser;
    if (!ld.row_lines || csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        free(ld.row_lines);
        arch_table_free(&staging);
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    /* Spreadsheets save CSV with a byte-order mark; it is no part of the
     * first column's name. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    parse_lines(&ld, &parser, text, len);
    csv_free(&parser);
    free(ld.row_lines);
    if (!ld.failed && !ld.have_header) {
        ld.row_line = ld.line > 0 ? ld.line : 1;
        fail(&ld, "the file has no header row");
    }
    if (ld.failed) {
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
    char *text = read_file(path, READ_FILE_DATA_LIMIT_MIB, &len);
    if (!text) {
        char reason[128];
        if (errno == EFBIG)
            read_file_error(errno, READ_FILE_DATA_LIMIT_MIB, reason, sizeof reason);
        else
            snprintf(reason, sizeof reason, "cannot open: %s", strerror(errno));
        snprintf(err->message, sizeof err->message, "%s: %s", path, reason);
        return -1;
    }
    int rc = arch_table_load_text(table, text, len, path, err);
    free(text);
    return rc;
}

void arch_table_free(ArchTable *table)
{
    free(table->archs);
    free(table->products);
    *table = (ArchTable){0};
}
