/*
 * header.h: `silkc compile --emit=header`, a C header that carries a
 * program's kernels into a host program built without silkc at run time
 * (header.c says what it holds).  Code generation from the IR, so the
 * compiler's, not the program's.
 */
#ifndef SILK_HEADER_H
#define SILK_HEADER_H

#include "compile.h"
#include "ir.h"

#include <stdio.h>

/* Writes to `out` a C header that embeds ptx[i], the PTX of target
 * archs[i], and describes every kernel of `m` (its entry name, parameters
 * from the IR with C types, launch bounds).  `name` is the header's file
 * name ("dir/k.h"; the caller's output checks the writes): the names it
 * defines start with it as an identifier. */
void header_write(Compilation *c, const IrModule *m, const char *name, const char *const archs[],
                  const char *const ptx[], int n, FILE *out);

#endif
