/*
 * arch_writers.h: how `silk-occ arch` prints the tables of both vendors:
 * one writer per format (arch_text.c, arch_json.c, arch_csv.c), each over
 * the NVIDIA and the AMD rows alike.  What is common (a row's vendor, its
 * name, its family, a product's SM or CU count) is written once; the rest
 * of a row is its table's columns, which differ between the vendors as
 * the tables do.
 */
#ifndef SILK_ARCH_WRITERS_H
#define SILK_ARCH_WRITERS_H

#include "amd.h"
#include "cli.h"

/* What `arch list` or `arch show NAME` prints. */
typedef struct ArchView {
    const ArchTable *nvidia;
    const AmdTable *amd;
    const Target *shown; /* show: the architecture (and product) named; NULL: list */
} ArchView;

int arch_write_text(const ArchView *v, FILE *out);
int arch_write_json(const ArchView *v, FILE *out);
int arch_write_csv(const ArchView *v, FILE *out); /* list only */

#endif
