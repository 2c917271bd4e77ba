/*
 * pass_internal.h: what the passes share (pass_util.c): the facts about
 * opcodes that decide what a pass may remove, merge or move, and a table
 * of replacements that rewrites every use of a register at once.
 */
#ifndef SILK_PASS_INTERNAL_H
#define SILK_PASS_INTERNAL_H

#include "ir_cfg.h"
#include "pass.h"

/* ---- what an instruction may become ---- */

/* Whether `in` may be deleted when nothing uses its result: it defines a
 * value and has no effect besides (every R-class opcode except atom).
 * Loads are removable: the IR's loads are not volatile, and dropping an
 * unused one can only drop a fault.  shfl and ballot are too: every thread
 * runs the same code, so all of them drop it together. */
bool pass_removable(const IrInst *in);

/* Whether `in` computes its result from its operands alone (and from
 * values fixed for the thread: its ids, the grid's shape), so that two
 * alike may be merged and one may be computed earlier: not memory, not
 * phis, not shfl or ballot (which read other threads), not warpid (which
 * may change while a thread runs). */
bool pass_pure(const IrInst *in);

/* Whether `in` should not run where the program did not run it: integer
 * division and remainder (by zero), which LICM does not hoist. */
bool pass_may_trap(const IrInst *in);

/* Whether two operands are the same register or the same constant. */
bool pass_same_value(IrValue a, IrValue b);

/* Whether two instructions compute the same thing from the same operands
 * (either order for a commutative opcode): what CSE and hoisting merge. */
bool pass_equal_insts(const IrInst *a, const IrInst *b);

/* A hash of what pass_equal_insts compares: equal instructions hash
 * alike (a commutative opcode's operands in either order too), so CSE
 * finds an instruction's twin by its key, not by a scan. */
uint32_t pass_hash_inst(const IrInst *in);

/* ---- replacing values ---- */

/* Replacements by register: a use of r becomes to[r] when set[r]. */
typedef struct IrSubst {
    IrValue *to;
    bool *set;
    uint32_t n;
} IrSubst;

IrSubst pass_subst_new(const IrFunc *f, Arena *scratch);
void pass_subst_set(IrSubst *s, uint32_t reg, IrValue to);
/* `v` after every replacement that applies to it, chains followed. */
IrValue pass_subst_resolve(const IrSubst *s, IrValue v);
/* Rewrites the operands of `in`; true when one changed. */
bool pass_subst_inst(const IrSubst *s, IrInst *in);
/* Rewrites every operand of `f`; true when one changed. */
bool pass_subst_func(const IrSubst *s, IrFunc *f);

/* ---- lookups ---- */

/* By register (0 .. f->n_regs - 1): the instruction that defines it; NULL
 * for a parameter.  A snapshot: registers made later are not in it. */
IrInst **pass_definitions(const IrFunc *f, Arena *scratch);

/* ---- editing ---- */

/* Drops the operand of each phi of `b` that comes from `pred`. */
void pass_remove_phi_edge(IrBlock *b, const IrBlock *pred);

/* Deletes the instructions of `b` for which dead[i] is true (by index). */
void pass_delete_insts(IrBlock *b, const bool *dead);

/* Puts `in` (taken from elsewhere) just before b's terminator. */
void pass_insert_before_end(IrModule *m, IrBlock *b, IrInst *in);

/* `to` took over the terminator of `from` (a block split or merged):
 * the phis of its successors name `to` where they named `from`. */
void pass_retarget_phis(IrBlock *to, const IrBlock *from);

#endif
