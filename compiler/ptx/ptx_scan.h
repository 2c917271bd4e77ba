/*
 * ptx_scan.h: the entry functions of a PTX text and their performance
 * directives, for `silk-occ report` (ptxas -v does not print them).
 */
#ifndef SILK_PTX_SCAN_H
#define SILK_PTX_SCAN_H

#include "arena.h"

#include <stdbool.h>
#include <stddef.h>

/* The directives that cap an entry's registers, by index of
 * PtxEntry.bound_at: each makes ptxas allocate within a limit (.maxntid
 * through the registers a CTA of that size may each have). */
enum { PTX_BOUND_MAXNTID, PTX_BOUND_MINNCTAPERSM, PTX_BOUND_MAXNREG, PTX_N_BOUNDS };

typedef struct PtxEntry {
    const char *name;
    int maxntid, reqntid;  /* products of the dimensions; 0: absent */
    int minnctapersm, maxnreg;
    int cluster[3];        /* .reqnctapercluster x, y, z; all 0: absent */
    bool explicit_cluster; /* .explicitcluster: launched with a cluster only */
    int maxclusterrank;    /* .maxclusterrank: the largest cluster; 0 absent */
    bool extern_smem;      /* uses an .extern .shared array (dynamic shared
                            * memory), itself or through functions it calls */
    const char *text_start;
    size_t start_at;       /* offset of the line that declares it */
    size_t body_at;        /* offset of the body's '{' */
    size_t end_at;         /* offset just past the body's '}' */
    size_t maxnreg_at;     /* offset of its .maxnreg; (size_t)-1 absent */
    /* Each register-capping directive's extent, [at, end), for the copy
     * without them (PTX_CAP_UNBOUNDED); at == (size_t)-1: absent. */
    size_t bound_at[PTX_N_BOUNDS], bound_end[PTX_N_BOUNDS];
} PtxEntry;

/* The entries (with a body) of `len` bytes of PTX, in order, in `arena`. */
int ptx_scan_entries(const char *text, size_t len, Arena *arena, PtxEntry **out);

/* What ptx_with_register_caps does with an entry besides capping it. */
enum { PTX_CAP_KEEP = 0, PTX_CAP_LEAVE_OUT = -1, PTX_CAP_UNBOUNDED = -2 };

/* A copy of the text for checking register caps: entry i (of the n
 * scanned from it) gets `.maxnreg caps[i]` when caps[i] > 0, stays as it
 * is when caps[i] is 0, is left out when it is -1, and loses its
 * .maxntid, .minnctapersm and .maxnreg (blanked, so offsets stay) when
 * it is PTX_CAP_UNBOUNDED: what ptxas makes of the kernel without the
 * bound its source gives it (.reqntid stays: a fixed size is a contract,
 * not a tuning).  What is not an entry (the header, functions,
 * module-scope variables) stays, so one ptxas run checks every capped
 * entry of a file at once. */
char *ptx_with_register_caps(const char *text, size_t len, const PtxEntry *e, int n, const int *caps,
                           Arena *arena, size_t *out_len);

#endif
