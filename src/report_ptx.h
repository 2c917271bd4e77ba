/*
 * report_ptx.h: the entry functions of a PTX text and their performance
 * directives, for `silk-occ report` (ptxas -v does not print them).
 */
#ifndef SILK_REPORT_PTX_H
#define SILK_REPORT_PTX_H

#include "arena.h"

#include <stddef.h>

typedef struct PtxEntry {
    const char *name;
    int maxntid, reqntid;  /* products of the dimensions; 0: absent */
    int minnctapersm, maxnreg;
    const char *text_start;
    size_t body_at;        /* offset of the body's '{' */
    size_t maxnreg_at;     /* offset of its .maxnreg; (size_t)-1 absent */
} PtxEntry;

/* The entries (with a body) of `len` bytes of PTX, in order, in `arena`. */
int report_ptx_scan(const char *text, size_t len, Arena *arena, PtxEntry **out);

/* A copy of the text in which entry `e` (scanned from it) has `.maxnreg cap`. */
char *report_ptx_with_cap(const char *text, size_t len, const PtxEntry *e, int cap, Arena *arena,
                          size_t *out_len);

#endif
