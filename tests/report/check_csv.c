/*
 * check_csv.c: the test that `silk-occ report --format csv` says what the
 * JSON of the same run says.  The CSV is read back with libcsv; its data
 * rows must be the occupancy-table rows of the JSON reports, in order,
 * and each cell must equal the JSON value its column names:
 *
 *   file .. sm_count         the report's key; estimated: resources.estimated
 *   threads .. occupancy     the table row's key (calc's names)
 *   limited_by               the row's limited_by, joined with ';'
 *   limit_X                  the row's limits.X
 *   selected                 true on the row of selected.threads
 *   work, ctas, tail_threads tail.X, on the selected row only
 *   waves .. idle_fraction   tail.products[gpu].X, the target's product,
 *   better_threads           ... and its better.threads, on the selected row
 *   persistent_grid          persistent_grid[gpu].grid, on the selected row
 *
 * An empty cell stands for JSON null (or a value that does not apply); a
 * column the test does not know is a failure, so the docs, the writer and
 * this list change together.
 *
 *   check_csv                        self-test, then each
 *                                    tests/report/golden/CASE.csv against
 *                                    CASE.json (under $SILK_SRCDIR)
 *   check_csv REPORT.csv REPORT.json those two (tests/golden/run.sh)
 */
#include <cjson/cJSON.h>
#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_files.h"

enum { MAX_FIELDS = 64 };

typedef struct Row {
    char *field[MAX_FIELDS];
    int n;
} Row;

typedef struct Table {
    Row *rows;
    size_t n_rows, cap;
    Row current;
    bool too_many_fields;
} Table;

/* The disagreements found; quiet in the self-test, which expects them. */
typedef struct Tally {
    int failures;
    bool quiet;
} Tally;

static void fail(Tally *tally, size_t row, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(Tally *tally, size_t row, const char *fmt, ...)
{
    tally->failures++;
    if (tally->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: check_csv: CSV row %zu: ", row);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(99);
    }
    size_t cap = 1 << 16, used = 0, n;
    char *buf = malloc(cap + 1);
    while (buf && (n = fread(buf + used, 1, cap - used, f)) > 0)
        if ((used += n) == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    fclose(f);
    if (!buf)
        exit(99);
    buf[used] = '\0';
    *len = used;
    return buf;
}

/* ---- the CSV -------------------------------------------------------------- */

static void on_field(void *data, size_t len, void *user)
{
    Table *t = user;
    if (t->current.n == MAX_FIELDS) {
        t->too_many_fields = true;
        return;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        exit(99);
    memcpy(copy, data, len);
    copy[len] = '\0';
    t->current.field[t->current.n++] = copy;
}

static void on_row(int terminator, void *user)
{
    (void)terminator;
    Table *t = user;
    if (t->n_rows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
        if (!t->rows)
            exit(99);
    }
    t->rows[t->n_rows++] = t->current;
    t->current = (Row){0};
}

static bool parse_csv(const char *path, Table *t)
{
    size_t len;
    char *text = read_file(path, &len);
    struct csv_parser p;
    bool ok = csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) == 0 &&
              csv_parse(&p, text, len, on_field, on_row, t) == len &&
              csv_fini(&p, on_field, on_row, t) == 0;
    if (!ok)
        printf("FAIL: check_csv: %s does not parse as CSV: %s\n", path,
               csv_strerror(csv_error(&p)));
    csv_free(&p);
    free(text);
    if (ok && (t->too_many_fields || t->n_rows == 0)) {
        printf("FAIL: check_csv: %s: no header, or a row of more than %d fields\n", path,
               MAX_FIELDS);
        ok = false;
    }
    for (size_t i = 1; ok && i < t->n_rows; i++)
        if (t->rows[i].n != t->rows[0].n) {
            printf("FAIL: check_csv: %s: row %zu has %d fields, the header %d\n", path, i,
                   t->rows[i].n, t->rows[0].n);
            ok = false;
        }
    return ok;
}

/* ---- what a column says in the JSON ---------------------------------------- */

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The element of `array` whose "gpu" is the report's gpu, or NULL. */
static const cJSON *for_gpu(const cJSON *array, const cJSON *gpu)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, array)
        if (cJSON_IsString(gpu) && cJSON_IsString(get(x, "gpu")) &&
            strcmp(get(x, "gpu")->valuestring, gpu->valuestring) == 0)
            return x;
    return NULL;
}

typedef struct Context {
    const cJSON *report, *row;
    bool selected;
    cJSON *scratch; /* values made up here (selected, limited_by), freed after */
    Tally *tally;
} Context;

static const cJSON *made(Context *c, cJSON *value)
{
    cJSON_AddItemToArray(c->scratch, value);
    return value;
}

static const cJSON *tail_value(Context *c, const char *column)
{
    const cJSON *tail = get(c->report, "tail");
    if (!c->selected || !cJSON_IsObject(tail))
        return NULL;
    if (!strcmp(column, "work") || !strcmp(column, "ctas") || !strcmp(column, "tail_threads"))
        return get(tail, column);
    const cJSON *product = for_gpu(get(tail, "products"), get(c->report, "gpu"));
    if (!product)
        return NULL;
    if (strcmp(column, "better_threads") == 0)
        return get(get(product, "better"), "threads");
    return get(product, column);
}

/* The JSON value of `column` for this row; NULL when none applies (an
 * empty cell); `known` false for a column this test does not know. */
static const cJSON *expected(Context *c, const char *column, bool *known)
{
    static const char *const tail_columns[] = {"work",          "ctas",          "tail_threads",
                                               "waves",         "full_waves",    "last_wave_fill",
                                               "idle_fraction", "better_threads"};
    *known = true;
    for (size_t i = 0; i < sizeof tail_columns / sizeof *tail_columns; i++)
        if (strcmp(column, tail_columns[i]) == 0)
            return tail_value(c, column);
    if (strcmp(column, "persistent_grid") == 0) {
        const cJSON *gpu = get(c->report, "gpu");
        const cJSON *p = c->selected ? for_gpu(get(c->report, "persistent_grid"), gpu) : NULL;
        return p ? get(p, "grid") : NULL;
    }
    if (strcmp(column, "selected") == 0)
        return made(c, cJSON_CreateBool(c->selected));
    if (strcmp(column, "estimated") == 0)
        return get(get(c->report, "resources"), "estimated");
    if (strncmp(column, "limit_", 6) == 0)
        return get(get(c->row, "limits"), column + 6);
    if (strcmp(column, "limited_by") == 0) {
        char joined[256] = "";
        const cJSON *name;
        cJSON_ArrayForEach(name, get(c->row, "limited_by"))
            snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
                     joined[0] ? ";" : "", name->valuestring);
        return made(c, cJSON_CreateString(joined));
    }
    static const char *const report_columns[] = {"file", "kernel", "symbol", "vendor", "arch", "compute_capability",
                                                 "gpu", "sm_count"};
    for (size_t i = 0; i < sizeof report_columns / sizeof *report_columns; i++)
        if (strcmp(column, report_columns[i]) == 0)
            return get(c->report, column);
    const cJSON *v = get(c->row, column);
    *known = v != NULL && !cJSON_IsObject(v) && !cJSON_IsArray(v);
    return v;
}

static void check_cell(Context *c, const char *column, const char *cell, size_t row)
{
    bool known;
    const cJSON *v = expected(c, column, &known);
    char want[64];
    if (!known)
        fail(c->tally, row, "column %s is not a key of the JSON", column);
    else if (!v || cJSON_IsNull(v)) {
        if (cell[0])
            fail(c->tally, row, "%s is \"%s\", JSON null (or does not apply)", column, cell);
    } else if (cJSON_IsString(v)) {
        if (strcmp(cell, v->valuestring) != 0)
            fail(c->tally, row, "%s is \"%s\", JSON \"%s\"", column, cell, v->valuestring);
    } else if (cJSON_IsBool(v)) {
        if (strcmp(cell, cJSON_IsTrue(v) ? "true" : "false") != 0)
            fail(c->tally, row, "%s is \"%s\", JSON %s", column, cell,
                 cJSON_IsTrue(v) ? "true" : "false");
    } else {
        char *end;
        double got = strtod(cell, &end);
        snprintf(want, sizeof want, "%.17g", v->valuedouble);
        /* Fractions are written with 6 decimals. */
        if (!cell[0] || *end || fabs(got - v->valuedouble) > 5e-7)
            fail(c->tally, row, "%s is \"%s\", JSON %s", column, cell, want);
    }
}

/* ---- the comparison ---------------------------------------------------------- */

static void compare(const Table *t, const cJSON *root, Tally *tally)
{
    size_t row = 1;
    const cJSON *report, *table_row;
    cJSON_ArrayForEach(report, get(root, "reports")) {
        const cJSON *selected = get(get(report, "selected"), "threads");
        cJSON_ArrayForEach(table_row, get(report, "occupancy_table")) {
            if (row >= t->n_rows) {
                if (!tally->quiet)
                    printf("FAIL: check_csv: %zu CSV rows, fewer than the JSON's table rows\n",
                           t->n_rows - 1);
                tally->failures++;
                return;
            }
            Context c = {report, table_row, false, cJSON_CreateArray(), tally};
            c.selected = cJSON_IsNumber(selected) &&
                         get(table_row, "threads")->valuedouble == selected->valuedouble;
            for (int i = 0; i < t->rows[0].n; i++)
                check_cell(&c, t->rows[0].field[i], t->rows[row].field[i], row);
            cJSON_Delete(c.scratch);
            row++;
        }
    }
    if (row != t->n_rows) {
        if (!tally->quiet)
            printf("FAIL: check_csv: %zu CSV rows, the JSON has %zu table rows\n", t->n_rows - 1,
                   row - 1);
        tally->failures++;
    }
}

/* The disagreements of a parsed CSV with the JSON file. */
static int check_table(const Table *t, const char *json_path, bool quiet)
{
    size_t len;
    char *text = read_file(json_path, &len);
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        printf("FAIL: check_csv: %s is not JSON\n", json_path);
        return 1;
    }
    Tally tally = {0, quiet};
    compare(t, root, &tally);
    cJSON_Delete(root);
    return tally.failures;
}

static void free_table(Table *t)
{
    for (size_t i = 0; i < t->n_rows; i++)
        for (int j = 0; j < t->rows[i].n; j++)
            free(t->rows[i].field[j]);
    free(t->rows);
}

/* 0 when the two files agree; the failures otherwise. */
static int check_pair(const char *csv_path, const char *json_path)
{
    Table t = {0};
    if (!parse_csv(csv_path, &t))
        return 1;
    int failures = check_table(&t, json_path, false);
    free_table(&t);
    if (failures)
        printf("check_csv: %s and %s disagree in %d cells\n", csv_path, json_path, failures);
    return failures;
}

/* The test proves itself first, as check_schema does: the golden
 * estimated.csv with one number changed, and without its last row, must
 * each disagree with estimated.json. */
static int self_test(const char *srcdir)
{
    char csv_path[4096], json_path[4096];
    snprintf(csv_path, sizeof csv_path, "%s/tests/report/golden/estimated.csv", srcdir);
    snprintf(json_path, sizeof json_path, "%s/tests/report/golden/estimated.json", srcdir);
    Table t = {0};
    if (!parse_csv(csv_path, &t))
        return 1;
    int column = -1, failures = 0;
    for (int i = 0; i < t.rows[0].n; i++)
        if (strcmp(t.rows[0].field[i], "occupancy") == 0)
            column = i;
    if (t.n_rows < 2 || column < 0) {
        printf("FAIL: check_csv: self-test: %s has no occupancy in a data row\n", csv_path);
        free_table(&t);
        return 1;
    }
    char *kept = t.rows[1].field[column];
    char changed[] = "2.000000"; /* no occupancy is above 1 */
    t.rows[1].field[column] = changed;
    if (check_table(&t, json_path, true) == 0) {
        printf("FAIL: check_csv: self-test: a changed occupancy agrees with the JSON\n");
        failures++;
    }
    t.rows[1].field[column] = kept;
    t.n_rows--;
    if (check_table(&t, json_path, true) == 0) {
        printf("FAIL: check_csv: self-test: a CSV without its last row agrees with the JSON\n");
        failures++;
    }
    t.n_rows++;
    free_table(&t);
    return failures;
}

/* A golden CASE.csv against the golden CASE.json beside it. */
static int check_one(const char *csv_path, void *context)
{
    (void)context;
    char json_path[8192];
    snprintf(json_path, sizeof json_path, "%.*s.json", (int)(strlen(csv_path) - 4), csv_path);
    return check_pair(csv_path, json_path);
}

static int check_golden(const char *srcdir)
{
    return golden_each(srcdir, ".csv", check_one, NULL);
}

int main(int argc, char **argv)
{
    if (argc == 3)
        return check_pair(argv[1], argv[2]) ? 1 : 0;
    if (argc != 1) {
        fprintf(stderr, "usage: check_csv [REPORT.csv REPORT.json]\n");
        return 99;
    }
    const char *srcdir = getenv("SILK_SRCDIR") ? getenv("SILK_SRCDIR") : ".";
    int failures = self_test(srcdir);
    return (failures + check_golden(srcdir)) ? 1 : 0;
}
