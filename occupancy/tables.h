/*
 * tables.h: both vendors' tables together, for a table file (--arch-table)
 * that may hold either vendor's rows: its header says which table it is
 * (silk-arch-tables(5)).
 */
#ifndef SILK_TABLES_H
#define SILK_TABLES_H

#include "amd.h"
#include "occupancy.h"

typedef struct OccTables {
    ArchTable *nvidia;
    AmdTable *amd;
} OccTables;

/* Adds or overrides rows of whichever of the four tables the file's header
 * picks (the NVIDIA product table, the AMD product table, the compute-
 * capability table, the AMD target table).  0, or -1 with *err naming the
 * file, line and field; both tables are unchanged on error. */
int occ_tables_load_text(OccTables *tables, const char *text, size_t len, const char *origin,
                         OccError *err);
int occ_tables_load_file(OccTables *tables, const char *path, OccError *err);

/* Copies of a table's rows (false: no memory, *dst empty). */
bool arch_table_copy(ArchTable *dst, const ArchTable *src);
bool amd_table_copy(AmdTable *dst, const AmdTable *src);

#endif
