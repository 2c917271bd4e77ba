/*
 * pass.h: the IR's optimisation passes and the pipeline that runs them
 * between lowering and the PTX backend.
 *
 * A pass works on one function in place and says whether it changed it.
 * Pass-local tables come from `scratch`, an arena dropped after the pass;
 * new IR (instructions, blocks) from the module's arena.  After every pass
 * the function is renumbered (registers in order of definition, blocks in
 * order of appearance, as ir.h's text form wants) and, when asked, the
 * module is verified, so a pass that breaks an invariant is named.
 *
 *   fold  constant folding and propagation, copies, algebraic identities,
 *         constant offsets, cbr on a constant -> br (pass_fold.c)
 *   dce   unreachable blocks, trivial phis, unused instructions without
 *         effects (pass_dce.c)
 *   cse   common subexpressions over the dominator tree, never across a
 *         loop (pass_cse.c)
 *   licm  loop-invariant pure instructions into a preheader, within a
 *         budget of registers (pass_licm.c)
 *   ifconv  branch triangles that only compute a value (a || b) become
 *         selects (pass_ifconv.c)
 *   hoist   instructions both arms of a branch compute, once above it
 *         (pass_hoist.c)
 *   address an address written as an earlier one of its block plus a
 *         constant or one scaled value (pass_address.c)
 *   divide  64-bit unsigned division through 32 bits when the operands
 *         fit, the remainder from the same division (pass_divide.c)
 *   narrow  shared-memory addresses in 32 bits (pass_narrow.c)
 */
#ifndef SILK_PASS_H
#define SILK_PASS_H

#include "ir.h"

/* Verify after every pass in debug builds (and always in tests). */
#ifdef NDEBUG
#define PASS_VERIFY_EACH false
#else
#define PASS_VERIFY_EACH true
#endif

/* One pass on one function: true when it changed something. */
typedef bool IrPass(IrModule *m, IrFunc *f, Arena *scratch);

IrPass pass_fold;
IrPass pass_dce;
IrPass pass_cse;
IrPass pass_licm;
IrPass pass_ifconv;
IrPass pass_address;
IrPass pass_divide;
IrPass pass_narrow;
IrPass pass_hoist;

/* The pass named `name` ("fold", "ifconv", "dce", "cse", "licm", "hoist", "address", "divide", "narrow"), or NULL. */
IrPass *pass_find(const char *name);

/* Runs `pass` (called `name` in messages) on every function of `m`, then
 * renumbers each function and, when `verify`, verifies the module.  Sets
 * *changed when the pass changed a function (changed may be NULL).
 * Returns false, with "the IR failed verification after pass NAME: a
 * compiler bug" reported to `diag`, when the verifier found a fault. */
bool pass_run(IrModule *m, const char *name, IrPass *pass, Diag *diag, bool verify, bool *changed);

/* The pipeline: the passes in order, repeated while they change the IR
 * (at most a few rounds).  False when verification failed (reported). */
bool ir_optimize(IrModule *m, Diag *diag, bool verify_each);

/* Numbers the registers of `f` densely in order of definition (the
 * parameters first) and its blocks by position. */
void pass_renumber(IrFunc *f, Arena *scratch);

#endif
