/*
 * lower.h: the checked AST of the root package's GPU functions as an IR
 * module (ir.h), the back end's input.
 *
 * Every kernel and launchable attr(device=gpu) fn of the root package
 * becomes one IrFunc: its parameters in order (a tensor as its i64
 * address, a scalar as its own type), its launch bounds (reqntid when the
 * thread count is fixed, .minnctapersm and .maxnreg from @launch, @smem),
 * its body in SSA form.  Calls to device functions are inlined, tile
 * statements divided among the CTA's threads (lower_tile.c).
 *
 * The @persistent ABI: a @persistent function gets one hidden parameter
 * after its own, `__silk_logical_ctas` (u64): the number of logical
 * work-groups.  The launcher passes it and may start any number of CTAs
 * (the runtime: min(logical, SMs x resident CTAs per SM)); CTA b runs the
 * logical work-groups b, b + nctaid.x, ... below that count, each as one
 * iteration of the body, with ctx.cta the logical index and ctx.ctas the
 * logical count.  What the code generator cannot lower yet is
 * reported as an error at the construct ("not yet supported by the code
 * generator: ..."), never dropped.
 */
#ifndef SILK_LOWER_H
#define SILK_LOWER_H

#include "arena.h"
#include "compile.h"
#include "ir.h"

/* The hidden last parameter of a @persistent function (see above). */
#define LOWER_LOGICAL_CTAS "__silk_logical_ctas"

/* Whether `f` is a @persistent kernel: its last parameter is that one. */
bool lower_is_persistent(const IrFunc *f);

/* The IR of `c`'s root package, in `arena`.  Nothing is lowered when the
 * compilation already has errors (the trees may be incomplete): the
 * module is then empty.  Returns NULL when something could not be lowered
 * (reported to c->diag). */
IrModule *lower_module(Compilation *c, Arena *arena);

#endif
