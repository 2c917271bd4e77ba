/*
 * table_load.h: the one CSV table reader behind both vendors' tables
 * (arch_load.c for NVIDIA, amd_load.c for AMD, silk-arch-tables(5)).
 *
 * A vendor describes each of its tables as a TableSchema: the columns (from
 * its .def file), the key column, and a few callbacks for what only it knows
 * (its own cell kinds, how its rows are found, the checks across a row's
 * fields).  occ_table_load_text does the rest -- libcsv, comments, the header,
 * field counts, text and integer cells, keys given twice, the columns a new
 * row must give -- with the same message for the same fault in every table.
 * Internal to occupancy/.
 */
#ifndef SILK_TABLE_LOAD_H
#define SILK_TABLE_LOAD_H

#include "occupancy.h"

#include <stdbool.h>
#include <stddef.h>

/* Cell kinds every table has; a vendor numbers its own from TABLE_KIND_VENDOR. */
enum { TABLE_KIND_TEXT, TABLE_KIND_INT, TABLE_KIND_VENDOR };

typedef struct TableColumn {
    const char *name;
    int kind;
    size_t offset;  /* of the field in the row's struct */
    size_t size;    /* of a text field */
    long min, max;  /* of an integer */
    bool optional;  /* a new row may leave it empty */
} TableColumn;

typedef struct TableLoad TableLoad;

typedef struct TableSchema {
    const char *title;  /* "compute-capability table": in messages */
    const char *key;    /* the key column's name */
    const char *plural; /* "compute capabilities": in "more than N ..." */
    const TableColumn *columns;
    int n_columns;
    size_t row_size;
    /* The table's rows in the context occ_table_load_text was given. */
    void **(*rows)(void *context, size_t **n);
    /* Whether a row has the key; the key is checked first when check_key is
     * not NULL (false: said). */
    bool (*has_key)(const void *row, const char *key);
    bool (*check_key)(TableLoad *ld, const char *key);
    /* Stores a non-empty cell of a vendor kind (false: said). */
    bool (*store)(TableLoad *ld, const TableColumn *col, const char *text, void *row);
    /* The checks across a complete row's fields (say what fails). */
    void (*check_row)(TableLoad *ld, const void *row);
} TableSchema;

/* Reads CSV text into the rows of one of `schemas`, the one its header
 * picks: the first whose key column the header names and whose columns
 * include every name in it; else the first whose key it names; else the
 * first whose columns include every name (its key's absence is then the
 * error); else none, an error naming the keys.  0, or -1 with
 * err->message "origin:line: ..." and the rows already changed (the caller
 * loads into a copy).  *picked, when not NULL, is the schema's index. */
int occ_table_load_text(const TableSchema *const *schemas, int n_schemas, void *context,
                    const char *text, size_t len, const char *origin, OccError *err,
                    int *picked);

/* Says what is wrong with the current row ("field 'x': ..."); the first
 * fault is kept.  Cells quoted back are escaped. */
void occ_table_fail(TableLoad *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *occ_table_context(TableLoad *ld);

/* A table file's text (free it), or NULL with err->message naming it. */
char *occ_table_read_file(const char *path, size_t *len, OccError *err);

/* The four tables (arch_load.c, amd_load.c); their context is an OccTables. */
extern const TableSchema arch_cc_schema, arch_product_schema;
extern const TableSchema amd_target_schema, amd_product_schema;

#endif
