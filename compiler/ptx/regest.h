/*
 * regest.h: what a kernel uses, estimated from the IR, for when there is
 * no ptxas to measure it (silkc compile --resource-usage without the CUDA
 * toolkit).
 *
 * Registers come from a liveness analysis of the IR (regest.c says how,
 * and how far from ptxas the figure has been measured to be); static
 * shared memory, barriers and the stack frame are exact or nearly so, as
 * the IR names every shared array and barrier the kernel uses.  Every
 * figure comes back in the same KernelUsage ptxas's report fills, with
 * `estimated` set, so the callers print and feed the occupancy engine
 * through one path and say which kind of figure it is.
 */
#ifndef SILK_REGEST_H
#define SILK_REGEST_H

#include "arena.h"
#include "ir.h"
#include "ptxas.h"

/* The 32-bit register units ptxas needs beyond the IR's own live values
 * (see regest.c for why, and how it was measured). */
enum { REGEST_OVERHEAD = 2 };

/* The most 32-bit register units `f` holds live at any point: a 64-bit
 * value counts two, a predicate (i1) none, a constant none.
 * Tables come from `scratch`. */
int regest_live_units(const IrFunc *f, Arena *scratch);

/* The register limit ptxas works under for `f`: 255, or less by .maxnreg,
 * or by .reqntid with .minnctapersm (that many CTAs must fit an SM's 64K
 * registers). */
int regest_register_cap(const IrFunc *f);

/* Everything at once: `f`'s usage as ptxas would report it, with
 * `estimated` set; the name from `arena`.  Registers beyond
 * the cap come back as spills (4 bytes stored and loaded per register). */
KernelUsage regest_kernel(const IrModule *m, const IrFunc *f, Arena *arena);

#endif
