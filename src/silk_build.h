/*
 * silk_build.h: Silk source to PTX inside silk-occ, for the commands that
 * analyse Silk kernels (verify's built-in kernels and Silk files).  The
 * whole compiler pipeline of `silkc compile`, with diagnostics to a stream.
 */
#ifndef SILK_SILK_BUILD_H
#define SILK_SILK_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct SilkBuild {
    char *ptx;           /* NUL-terminated PTX for the target (malloc'ed) */
    size_t ptx_len;
    char **kernels;      /* the entry names, in order (malloc'ed) */
    int n_kernels;
} SilkBuild;

/* Compiles `path` (or, when `text` is not NULL, `len` bytes of text named
 * `path`) for `arch` ("sm_90").  Diagnostics go to `diagnostics`.  Returns
 * false when the source has errors or the target is unknown. */
bool silk_build_ptx(const char *path, const char *text, size_t len, const char *arch,
                    FILE *diagnostics, SilkBuild *out);
void silk_build_free(SilkBuild *b);

#endif
