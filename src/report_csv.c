/*
 * report_csv.c: `silk-occ report --format csv`: a header row, then one row
 * per kernel x target x block size (the rows of each occupancy table), for
 * spreadsheets and scripts that join reports.  A row names its kernel and
 * target, carries every number of its table row under the column names of
 * `silk-occ calc --format csv`, says whether it is the selected
 * configuration and, on the selected row when there is a work size, the
 * tail: the work's CTAs and, on a product, its waves and persistent grid.
 * The columns are fixed, so every report has the same header; a cell that
 * does not apply is empty.  Text cells are written by libcsv, which quotes
 * them as CSV requires; numbers need no quoting.  docs/report-schema.md
 * lists the columns.
 */
#include "report_writers.h"

#include "escape.h"

#include <assert.h>
#include <csv.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLUMNS = 64, COLUMN_NAME = 40 };

/* The columns before and after the limit_<limiter> ones, which follow
 * limited_by as in calc's CSV. */
static const char *const leading_columns[] = {
    "file", "kernel", "symbol", "vendor", "arch", "compute_capability", "gpu", "sm_count",
    "estimated", "threads", "regs_per_thread", "static_smem", "dynamic_smem", "warps_per_block",
    "active_blocks_per_sm", "active_warps_per_sm", "max_warps_per_sm", "waves_per_simd",
    "max_waves_per_simd", "occupancy", "limited_by",
};
static const char *const trailing_columns[] = {
    "allocated_regs_per_block", "allocated_smem_per_block", "selected",
    /* the selected row's tail, with a work size */
    "work", "ctas", "tail_threads",
    /* ... and on a product (the target is one) */
    "waves", "full_waves", "last_wave_fill", "idle_fraction", "better_threads", "persistent_grid",
};

typedef struct Columns {
    char name[MAX_COLUMNS][COLUMN_NAME];
    int n;
} Columns;

/* A row being written: the cells so far, checked against the header so
 * the two cannot drift apart. */
typedef struct CsvRow {
    FILE *out;
    const Columns *columns;
    int n;
} CsvRow;

static void list_columns(Columns *c)
{
    c->n = 0;
    for (size_t i = 0; i < sizeof leading_columns / sizeof *leading_columns; i++)
        snprintf(c->name[c->n++], COLUMN_NAME, "%s", leading_columns[i]);
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        snprintf(c->name[c->n++], COLUMN_NAME, "limit_%s", occ_limiter_name((OccLimiter)i));
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        snprintf(c->name[c->n++], COLUMN_NAME, "limit_%s", amd_limiter_name((AmdLimiter)i));
    for (size_t i = 0; i < sizeof trailing_columns / sizeof *trailing_columns; i++)
        snprintf(c->name[c->n++], COLUMN_NAME, "%s", trailing_columns[i]);
    assert(c->n <= MAX_COLUMNS);
}

static void next_cell(CsvRow *row, const char *column)
{
    assert(row->n < row->columns->n && strcmp(row->columns->name[row->n], column) == 0);
    (void)column;
    if (row->n++ > 0)
        fputc(',', row->out);
}

static void text_cell(CsvRow *row, const char *column, const char *text)
{
    next_cell(row, column);
    csv_fwrite(row->out, text, strlen(text));
}

/* A name from the input: libcsv quotes the cell, but a control character
 * in it would still reach the terminal of whoever cats the file, so it is
 * written as escape.h spells it (\x1b, \n; a backslash as \\), whole. */
static void name_cell(CsvRow *row, const char *column, const char *text)
{
    if (escape_is_plain(text)) {
        text_cell(row, column, text);
        return;
    }
    size_t size = escape_text(text, NULL, 0) + 1;
    char *escaped = malloc(size);
    if (escaped)
        escape_text(text, escaped, size);
    text_cell(row, column, escaped ? escaped : "?"); /* out of memory: no raw bytes */
    free(escaped);
}

static void empty_cell(CsvRow *row, const char *column)
{
    text_cell(row, column, "");
}

static void uint_cell(CsvRow *row, const char *column, unsigned long long value)
{
    next_cell(row, column);
    fprintf(row->out, "%llu", value);
}

/* Fractions with 6 decimals, as calc writes them. */
static void real_cell(CsvRow *row, const char *column, double value)
{
    next_cell(row, column);
    fprintf(row->out, "%.6f", value);
}

static void bool_cell(CsvRow *row, const char *column, bool value)
{
    next_cell(row, column);
    fputs(value ? "true" : "false", row->out);
}

static void end_row(CsvRow *row)
{
    assert(row->n == row->columns->n);
    fputc('\n', row->out);
}

static void write_header(FILE *out, const Columns *c)
{
    CsvRow row = {out, c, 0};
    for (int i = 0; i < c->n; i++)
        text_cell(&row, c->name[i], c->name[i]);
    end_row(&row);
}

static void write_identity(CsvRow *row, const ReportEntry *e)
{
    const Target *t = &e->target;
    bool amd = t->vendor == OCC_AMD;
    char cc[16] = "";
    ReportGpu gpu;
    if (!amd)
        snprintf(cc, sizeof cc, "%d.%d", t->arch->major, t->arch->minor);
    name_cell(row, "file", e->kernel.file);
    name_cell(row, "kernel", e->kernel.title);
    name_cell(row, "symbol", e->kernel.name);
    text_cell(row, "vendor", amd ? "amd" : "nvidia");
    text_cell(row, "arch", t->sm_name);
    text_cell(row, "compute_capability", cc);
    text_cell(row, "gpu", report_named_gpu(e, &gpu) ? gpu.id : "");
    if (t->sm_count > 0)
        uint_cell(row, "sm_count", (unsigned long long)t->sm_count);
    else
        empty_cell(row, "sm_count");
    bool_cell(row, "estimated", e->kernel.usage.estimated);
}

/* A count, or an empty cell where the row's vendor has none. */
static void count_cell(CsvRow *row, const char *column, bool present, unsigned long long value)
{
    if (present)
        uint_cell(row, column, value);
    else
        empty_cell(row, column);
}

/* One vendor's limit_<limiter> cells: the figures' on a row of that
 * vendor, empty on the other's. */
static void write_limits(CsvRow *row, const OccFigures *f, OccVendor vendor, int n)
{
    char name[COLUMN_NAME];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "limit_%s", occ_vendor_limiter_name(vendor, i));
        count_cell(row, name, f->vendor == vendor && f->limit[i] != INT_MAX,
                   (unsigned long long)f->limit[i]);
    }
}

/* The numbers of one occupancy-table row, as calc's CSV has them; an AMD
 * row's groups are workgroups per CU (WGP), its occupancy waves per SIMD. */
static void write_result(CsvRow *row, const ReportEntry *e, const ReportRow *r)
{
    const OccResult *res = &r->result;
    const OccFigures *f = &r->fig;
    bool nv = f->vendor == OCC_NVIDIA;
    char limiters[160] = "";
    uint_cell(row, "threads", (unsigned long long)r->threads);
    uint_cell(row, "regs_per_thread", (unsigned long long)e->kernel.usage.registers);
    uint_cell(row, "static_smem", (unsigned long long)e->kernel.usage.static_smem);
    uint_cell(row, "dynamic_smem", (unsigned long long)r->dynamic_smem);
    uint_cell(row, "warps_per_block",
              (unsigned long long)(nv ? res->warps_per_block : r->amd.waves_per_workgroup));
    uint_cell(row, "active_blocks_per_sm", (unsigned long long)f->groups);
    count_cell(row, "active_warps_per_sm", nv, (unsigned long long)res->active_warps);
    count_cell(row, "max_warps_per_sm", nv, (unsigned long long)res->max_warps);
    count_cell(row, "waves_per_simd", !nv, (unsigned long long)f->active);
    count_cell(row, "max_waves_per_simd", !nv, (unsigned long long)f->max_active);
    real_cell(row, "occupancy", occ_figures_occupancy(f));
    for (int i = 0; i < f->n_limiters; i++)
        if (f->limited_by & (1u << i)) {
            size_t used = strlen(limiters);
            snprintf(limiters + used, sizeof limiters - used, "%s%s", used ? ";" : "",
                     occ_vendor_limiter_name(f->vendor, i));
        }
    text_cell(row, "limited_by", limiters);
    write_limits(row, f, OCC_NVIDIA, OCC_N_LIMITERS);
    write_limits(row, f, OCC_AMD, AMD_N_LIMITERS);
    count_cell(row, "allocated_regs_per_block", nv, (unsigned long long)res->allocated_regs_per_block);
    count_cell(row, "allocated_smem_per_block", nv, (unsigned long long)res->allocated_smem_per_block);
}

/* The target product's tail and persistent grid, or NULL. */
static const TailRow *product_tail(const ReportEntry *e)
{
    ReportGpu gpu;
    for (int i = 0; report_named_gpu(e, &gpu) && i < e->n_tails; i++)
        if (strcmp(e->tails[i].gpu.id, gpu.id) == 0)
            return &e->tails[i];
    return NULL;
}

static const PersistentRow *product_persistent(const ReportEntry *e)
{
    ReportGpu gpu;
    for (int i = 0; report_named_gpu(e, &gpu) && i < e->n_persistent; i++)
        if (strcmp(e->persistent[i].gpu.id, gpu.id) == 0)
            return &e->persistent[i];
    return NULL;
}

static void write_waves(CsvRow *row, const TailRow *t)
{
    if (!t) {
        const char *const names[] = {"waves", "full_waves", "last_wave_fill", "idle_fraction",
                                     "better_threads"};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            empty_cell(row, names[i]);
        return;
    }
    real_cell(row, "waves", t->waves.waves);
    uint_cell(row, "full_waves", (unsigned long long)t->waves.full_waves);
    real_cell(row, "last_wave_fill", t->waves.last_wave_fill);
    real_cell(row, "idle_fraction", t->waves.idle_fraction);
    if (t->better_threads)
        uint_cell(row, "better_threads", (unsigned long long)t->better_threads);
    else
        empty_cell(row, "better_threads");
}

/* Only the selected row has a launch: the others leave these empty. */
static void write_launch(CsvRow *row, const ReportEntry *e, bool selected)
{
    bool work = selected && e->have_work;
    const char *const work_columns[] = {"work", "ctas", "tail_threads"};
    const unsigned long long work_values[] = {e->work, e->ctas, e->tail_threads};
    for (int i = 0; i < 3; i++)
        if (work)
            uint_cell(row, work_columns[i], work_values[i]);
        else
            empty_cell(row, work_columns[i]);
    write_waves(row, work ? product_tail(e) : NULL);
    const PersistentRow *p = selected ? product_persistent(e) : NULL;
    if (p)
        uint_cell(row, "persistent_grid", (unsigned long long)p->grid);
    else
        empty_cell(row, "persistent_grid");
}

int report_write_csv(const ReportModel *m, FILE *out)
{
    Columns columns;
    list_columns(&columns);
    write_header(out, &columns);
    for (int i = 0; i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        for (int j = 0; j < e->n_rows; j++) {
            CsvRow row = {out, &columns, 0};
            write_identity(&row, e);
            write_result(&row, e, &e->rows[j]);
            bool_cell(&row, "selected", j == e->selected);
            write_launch(&row, e, j == e->selected);
            end_row(&row);
        }
    }
    return EXIT_OK;
}
