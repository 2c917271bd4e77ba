/*
 * occ_warn.h: the occupancy warnings of a build.  Once a build has every
 * kernel's resources on each target (ptxas's figures, or the estimate of
 * regest.h), occ_warn_module runs the occupancy engine on the target's row
 * of the built-in tables and reports, at the @launch attribute (the
 * kernel's name when there is none) or at the launch block concerned:
 *
 *   -Wocc-low     theoretical occupancy under 25% at the kernel's block size
 *   -Wocc-limit   a @launch thread count (a workspace) or a max_regs cap that
 *                 would fit more CTAs per SM, and how many
 *   -Wspill       registers spilled to local memory, in bytes
 *   -Wtail        a constant launch whose last wave is under half full on a
 *                 GPU of the target's compute capability (products.csv)
 *   -Wblock-size  CTAs of 1024 threads of which registers let at most two
 *                 reside on an SM
 *
 * Every message starts "on sm_90:" ("on sm_90 (estimated):" when the
 * figures are the estimate).  occ_warn.c says how each is decided.
 */
#ifndef SILK_OCC_WARN_H
#define SILK_OCC_WARN_H

#include "compile.h"
#include "ir.h"
#include "usage.h"

#include <stdbool.h>

/* Whether any of the five warnings is enabled: when none is, a build need
 * not measure its kernels for them. */
bool occ_warn_enabled(const Diag *d);

/* The register caps -Wocc-limit would suggest on the target of `report`:
 * caps[k] for m->funcs[k], the max_regs that would fit one more CTA per SM
 * at the kernel's size, 0 for none (and for every kernel of an estimated
 * report, or when -Wocc-limit is off).  Returns whether any is nonzero.
 * The caller compiles the kernels at these caps (.maxnreg) and gives
 * ptxas's figures to occ_warn_module, which suggests a cap only when the
 * kernel did not spill at it. */
bool occ_warn_register_caps(const Compilation *c, const IrModule *m, const UsageReport *report,
                            int *caps);

/* Reports the warnings of `m` (lowered from `c`'s root package) for each
 * of the n reports, each one target's figures for every kernel
 * (reports[i].arch names the target, "sm_90a"); at_caps[i], when
 * at_caps is not NULL, the same target's figures at the caps of
 * occ_warn_register_caps (n_kernels 0 when there were none).  A target the
 * tables lack is skipped. */
void occ_warn_module(Compilation *c, const IrModule *m, const UsageReport *reports,
                     const UsageReport *at_caps, int n);

#endif
