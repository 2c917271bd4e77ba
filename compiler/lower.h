/*
 * lower.h: the checked AST of the root package's GPU functions as an IR
 * module (ir.h), the back end's input.
 *
 * Every kernel and launchable attr(device=gpu) fn of the root package
 * becomes one IrFunc: its parameters in order (a tensor as its i64
 * address, a scalar as its own type), its launch bounds (.maxntid when the
 * thread count is fixed, .minnctapersm and .maxnreg from @launch, @smem),
 * its body in SSA form.  What the code generator cannot lower yet is
 * reported as an error at the construct ("not yet supported by the code
 * generator: ..."), never dropped.
 */
#ifndef SILK_LOWER_H
#define SILK_LOWER_H

#include "arena.h"
#include "compile.h"
#include "ir.h"

/* The IR of `c`'s root package, in `arena`.  Nothing is lowered when the
 * compilation already has errors (the trees may be incomplete): the
 * module is then empty.  Returns NULL when something could not be lowered
 * (reported to c->diag). */
IrModule *lower_module(Compilation *c, Arena *arena);

#endif
