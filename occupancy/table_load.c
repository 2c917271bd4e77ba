/*
 * table_load.c: the CSV table reader both vendors' loaders use (libcsv).
 *
 * Columns may come in any order; the header names them and picks the
 * schema (table_load.h).  Rows whose first field starts with '#' are
 * comments; a UTF-8 byte-order mark before the header is skipped.  A row
 * whose key is already known overrides that row and may leave cells empty;
 * a new row must give every column but the optional ones.  A key given
 * twice in one file is an error naming both lines.  Every error names the
 * origin, the line and the field.
 */
#include "table_load.h"

#include "escape.h"
#include "read_file.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MAX_ROWS bounds each table (real ones have a few dozen rows), and so
 * the linear search for a row's key. */
enum { MAX_COLUMNS = 64, MAX_FIELD = 256, MAX_ROWS = 4096 };

struct TableLoad {
    const TableSchema *const *schemas;
    int n_schemas;
    const TableSchema *schema; /* the one the header picked */
    int picked;
    void *context;
    const char *origin;
    OccError *err;
    bool failed;
    long line;           /* line being fed to the parser */
    long row_line;       /* line the current row started on */
    long row_start_line; /* the line the row being parsed began on */
    bool have_header;
    bool at_row_start;   /* the parser holds no part of a row */
    int column_of[MAX_COLUMNS]; /* header position -> column index */
    int n_header;
    char fields[MAX_COLUMNS][MAX_FIELD];
    int n_fields;
    long row_lines[MAX_ROWS]; /* per row: the line of this file that gave it, or 0 */
};

void occ_table_fail(TableLoad *ld, const char *fmt, ...)
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

void *occ_table_context(TableLoad *ld)
{
    return ld->context;
}

static bool is_blank(const char *s)
{
    return s[strspn(s, " \t\r")] == '\0';
}

/* ---- cells ------------------------------------------------------------------ */

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

/* Whether text holds a C0 control character or DEL (a newline, an escape
 * sequence), which a name printed on a terminal must not. */
static bool has_control(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

static bool store_cell(TableLoad *ld, const TableColumn *col, const char *text, void *row)
{
    char *base = row;
    long v;
    switch (col->kind) {
    case TABLE_KIND_TEXT:
        if (strlen(text) >= col->size) {
            occ_table_fail(ld, "field '%s': longer than %zu characters", col->name, col->size - 1);
            return false;
        }
        if (has_control(text)) { /* a name printed as it is: no line breaks, no escapes */
            occ_table_fail(ld, "field '%s': holds a control character", col->name);
            return false;
        }
        strcpy(base + col->offset, text);
        return true;
    case TABLE_KIND_INT:
        if (!parse_long(text, &v)) {
            occ_table_fail(ld, "field '%s': '%s' is not an integer", col->name, text);
            return false;
        }
        if (v < col->min || v > col->max) {
            occ_table_fail(ld, "field '%s': %ld is outside %ld..%ld", col->name, v, col->min, col->max);
            return false;
        }
        int iv = (int)v;
        memcpy(base + col->offset, &iv, sizeof iv);
        return true;
    default:
        return ld->schema->store(ld, col, text, row);
    }
}

/* ---- the header --------------------------------------------------------------- */

static int find_column(const TableSchema *s, const char *name)
{
    for (int i = 0; i < s->n_columns; i++)
        if (strcmp(s->columns[i].name, name) == 0)
            return i;
    return -1;
}

static bool header_names(TableLoad *ld, const char *name)
{
    for (int i = 0; i < ld->n_fields; i++)
        if (strcmp(ld->fields[i], name) == 0)
            return true;
    return false;
}

static bool covers_header(TableLoad *ld, const TableSchema *s)
{
    for (int i = 0; i < ld->n_fields; i++)
        if (find_column(s, ld->fields[i]) < 0)
            return false;
    return true;
}

/* The schema the header picks, by table_load.h's rule. */
static int pick_schema(TableLoad *ld)
{
    for (int i = 0; i < ld->n_schemas; i++)
        if (header_names(ld, ld->schemas[i]->key) && covers_header(ld, ld->schemas[i]))
            return i;
    for (int i = 0; i < ld->n_schemas; i++)
        if (header_names(ld, ld->schemas[i]->key))
            return i;
    for (int i = 0; i < ld->n_schemas; i++)
        if (covers_header(ld, ld->schemas[i]))
            return i;
    return -1;
}

/* A header that names no key and not only one table's columns: say the
 * keys that would pick a table, each once. */
static void fail_no_table(TableLoad *ld)
{
    char keys[128] = "";
    size_t used = 0;
    for (int i = 0; i < ld->n_schemas; i++) {
        const char *key = ld->schemas[i]->key;
        if (strstr(keys, key))
            continue;
        int n = snprintf(keys + used, sizeof keys - used, "%s'%s'", used ? ", " : "", key);
        used += n > 0 && (size_t)n < sizeof keys - used ? (size_t)n : 0;
    }
    occ_table_fail(ld, "the header names none of the key columns %s: not a table (see "
                   "silk-arch-tables(5))", keys);
}

static void read_header(TableLoad *ld)
{
    ld->picked = pick_schema(ld);
    if (ld->picked < 0) {
        fail_no_table(ld);
        ld->picked = 0;
        return;
    }
    const TableSchema *s = ld->schema = ld->schemas[ld->picked];
    for (int i = 0; i < ld->n_fields; i++) {
        int c = find_column(s, ld->fields[i]);
        if (c < 0) {
            occ_table_fail(ld, "field '%s': not a column of the %s", ld->fields[i], s->title);
            return;
        }
        for (int j = 0; j < i; j++)
            if (ld->column_of[j] == c) {
                occ_table_fail(ld, "field '%s': named twice in the header", ld->fields[i]);
                return;
            }
        ld->column_of[i] = c;
    }
    ld->n_header = ld->n_fields;
    if (!header_names(ld, s->key))
        occ_table_fail(ld, "field '%s': the header has no '%s' column", s->key, s->key);
    ld->have_header = true;
}

/* ---- rows ------------------------------------------------------------------- */

static const char *key_text(TableLoad *ld)
{
    for (int i = 0; i < ld->n_header; i++)
        if (strcmp(ld->schema->columns[ld->column_of[i]].name, ld->schema->key) == 0)
            return ld->fields[i];
    return "";
}

/* Appends a zeroed row; false (said) when the table is full or memory is
 * not there. */
static bool append_row(TableLoad *ld, void **rows, size_t *n)
{
    size_t size = ld->schema->row_size;
    if (*n == MAX_ROWS) {
        occ_table_fail(ld, "more than %d %s", MAX_ROWS, ld->schema->plural);
        return false;
    }
    char *grown = realloc(*rows, (*n + 1) * size);
    if (!grown) {
        occ_table_fail(ld, "out of memory");
        return false;
    }
    memset(grown + *n * size, 0, size);
    *rows = grown;
    (*n)++;
    return true;
}

/* The row the key names: an existing one, or a new zeroed one at the end;
 * NULL (said) for a key this file gave already, or no room. */
static void *row_for_key(TableLoad *ld, const char *key, bool *is_new)
{
    const TableSchema *s = ld->schema;
    size_t *n;
    void **rows = s->rows(ld->context, &n);
    size_t i = 0;
    while (i < *n && !s->has_key((const char *)*rows + i * s->row_size, key))
        i++;
    *is_new = i == *n;
    if (!*is_new && i < MAX_ROWS && ld->row_lines[i]) {
        occ_table_fail(ld, "field '%s': '%s' is given twice in the file (lines %ld and %ld)", s->key,
                   key, ld->row_lines[i], ld->row_line);
        return NULL;
    }
    if (*is_new && !append_row(ld, rows, n))
        return NULL;
    if (i < MAX_ROWS)
        ld->row_lines[i] = ld->row_line;
    return (char *)*rows + i * s->row_size;
}

static void store_row(TableLoad *ld, void *row, bool is_new)
{
    const TableSchema *s = ld->schema;
    bool given[MAX_COLUMNS] = {false};
    for (int i = 0; i < ld->n_header && !ld->failed; i++) {
        if (is_blank(ld->fields[i]))
            continue;
        given[ld->column_of[i]] = true;
        store_cell(ld, &s->columns[ld->column_of[i]], ld->fields[i], row);
    }
    for (int c = 0; c < s->n_columns && is_new && !ld->failed; c++)
        if (!given[c] && !s->columns[c].optional)
            occ_table_fail(ld, "field '%s': missing (a new row must give every column)",
                       s->columns[c].name);
    if (!ld->failed && s->check_row)
        s->check_row(ld, row);
}

static void read_row(TableLoad *ld)
{
    if (ld->n_fields == 0 || (ld->n_fields == 1 && is_blank(ld->fields[0])) ||
        ld->fields[0][0] == '#')
        return;
    if (!ld->have_header) {
        read_header(ld);
        return;
    }
    const TableSchema *s = ld->schema;
    if (ld->n_fields != ld->n_header) {
        int at = ld->n_fields < ld->n_header ? ld->n_fields : ld->n_header - 1;
        occ_table_fail(ld, "field '%s': the row has %d fields, the header %d",
                   s->columns[ld->column_of[at]].name, ld->n_fields, ld->n_header);
        return;
    }
    const char *key = key_text(ld);
    if (is_blank(key)) {
        occ_table_fail(ld, "field '%s': empty (every row needs one)", s->key);
        return;
    }
    if (s->check_key && !s->check_key(ld, key))
        return;
    bool is_new;
    void *row = row_for_key(ld, key, &is_new);
    if (row)
        store_row(ld, row, is_new);
}

/* ---- libcsv ------------------------------------------------------------------- */

/* The field the parser is at, by its column's name once the header is read. */
static void fail_at_field(TableLoad *ld, const char *what)
{
    if (ld->have_header && ld->n_fields < ld->n_header)
        occ_table_fail(ld, "field '%s': %s", ld->schema->columns[ld->column_of[ld->n_fields]].name,
                   what);
    else
        occ_table_fail(ld, "field %d: %s", ld->n_fields + 1, what);
}

static void on_field(void *data, size_t len, void *user)
{
    TableLoad *ld = user;
    if (ld->failed)
        return;
    if (ld->n_fields == 0)
        ld->row_line = ld->line;
    ld->at_row_start = false;
    if (ld->n_fields == MAX_COLUMNS) {
        occ_table_fail(ld, "more than %d fields in a row", MAX_COLUMNS);
        return;
    }
    if (len >= MAX_FIELD) {
        occ_table_fail(ld, "field %d: longer than %d characters", ld->n_fields + 1, MAX_FIELD - 1);
        return;
    }
    /* A cell is C text from here on: "1<NUL>6" would read as 1. */
    if (memchr(data, '\0', len)) {
        fail_at_field(ld, "holds a NUL byte");
        return;
    }
    memcpy(ld->fields[ld->n_fields], data, len);
    ld->fields[ld->n_fields][len] = '\0';
    ld->n_fields++;
}

static void on_row(int terminator, void *user)
{
    (void)terminator;
    TableLoad *ld = user;
    if (!ld->failed)
        read_row(ld);
    ld->n_fields = 0;
    ld->at_row_start = true;
}

/* Malformed quoting, reported where the row began and on the field the
 * parser was reading (the one after the last complete field). */
static void fail_quoting(TableLoad *ld, const char *what)
{
    char text[128];
    snprintf(text, sizeof text, "malformed CSV: %s", what);
    ld->row_line = ld->row_start_line;
    fail_at_field(ld, text);
}

static void parse_lines(TableLoad *ld, struct csv_parser *parser, const char *text, size_t len)
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

int occ_table_load_text(const TableSchema *const *schemas, int n_schemas, void *context,
                    const char *text, size_t len, const char *origin, OccError *err,
                    int *picked)
{
    TableLoad *ld = calloc(1, sizeof *ld);
    struct csv_parser parser;
    if (!ld || csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        free(ld);
        snprintf(err->message, sizeof err->message, "%s: out of memory", origin);
        return -1;
    }
    *ld = (TableLoad){.schemas = schemas, .n_schemas = n_schemas, .context = context,
                      .origin = origin, .err = err, .at_row_start = true};
    /* Spreadsheets save CSV with a byte-order mark; it is no part of the
     * first column's name. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    parse_lines(ld, &parser, text, len);
    csv_free(&parser);
    if (!ld->failed && !ld->have_header) {
        ld->row_line = ld->line > 0 ? ld->line : 1;
        occ_table_fail(ld, "the file has no header row");
    }
    bool failed = ld->failed;
    if (picked)
        *picked = ld->picked;
    free(ld);
    return failed ? -1 : 0;
}

char *occ_table_read_file(const char *path, size_t *len, OccError *err)
{
    char *text = read_file(path, READ_FILE_DATA_LIMIT_MIB, len);
    if (!text) {
        char reason[128];
        if (errno == EFBIG)
            read_file_error(errno, READ_FILE_DATA_LIMIT_MIB, reason, sizeof reason);
        else
            snprintf(reason, sizeof reason, "cannot open: %s", strerror(errno));
        snprintf(err->message, sizeof err->message, "%s: %s", path, reason);
    }
    return text;
}
