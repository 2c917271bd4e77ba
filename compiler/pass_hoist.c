/*
 * pass_hoist.c: code both arms of a branch compute, computed once above it.
 *
 *   A: cbr c, @S1, @S2           A: %x = mul %r, %cols ...
 *   S1: %x = mul %r, %cols  =>      cbr c, @S1, @S2
 *   S2: %y = mul %r, %cols       (%y is %x)
 *
 * CSE cannot merge these: neither arm dominates the other.  The stencil's
 * boundary test has both arms index x[r, c] (the copy and the store of the
 * mean), so both compute r * cols + c and the address; nvcc (GVN hoisting)
 * computes it once, before the branch, and so does this pass.  Both arms
 * must have the branch as their only way in, so the hoisted instruction
 * ran on every path before, and it must be pure and unable to trap; its
 * operands must be available above the branch (defined outside the arms,
 * or hoisted already).  Instructions are taken in order, so a chain
 * (mul, add, shl, add) moves link after link.
 */
#include "pass_internal.h"

#include <string.h>

/* An arm of the branch.  Which registers it defines (and has not
 * hoisted) is kept in one table by register for the whole pass, each arm
 * marking its own with a number of its own: a table for each arm made a
 * kernel of many branches cost branches times registers (20,000 loops:
 * 3 s of a 4 s compile, and a gigabyte). */
typedef struct Arm {
    IrBlock *block;
    uint32_t *owner; /* by register: the mark of the arm that defines it */
    uint32_t mark;
    bool *gone;      /* by index: merged into a hoisted twin */
} Arm;

static bool local(const Arm *arm, uint32_t reg)
{
    return arm->owner[reg] == arm->mark;
}

static bool available(const Arm *arm, const IrInst *in, uint32_t n_regs)
{
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue v = in->operands[k];
        if (v.kind == IRV_REG && v.reg < n_regs && local(arm, v.reg))
            return false;
    }
    return true;
}

static Arm arm_of(IrBlock *b, uint32_t *owner, uint32_t mark, Arena *scratch)
{
    Arm arm = {b, owner, mark, ARENA_ARRAY(scratch, bool, b->n_insts ? b->n_insts : 1)};
    for (uint32_t i = 0; i < b->n_insts; i++)
        if (ir_op_defines(b->insts[i]->op))
            owner[b->insts[i]->result] = mark;
    return arm;
}

static bool hoistable(const IrInst *in)
{
    return pass_pure(in) && !pass_may_trap(in);
}

/* The twin of `in` in `arm`, after the replacements made so far. */
static int find_twin(Arm *arm, const IrInst *in, IrSubst *s, uint32_t n_regs)
{
    for (uint32_t j = 0; j + 1 < arm->block->n_insts; j++) {
        IrInst *other = arm->block->insts[j];
        if (arm->gone[j] || !hoistable(other))
            continue;
        pass_subst_inst(s, other);
        if (pass_equal_insts(in, other) && available(arm, other, n_regs))
            return (int)j;
    }
    return -1;
}

static bool hoist_pair(IrModule *m, IrFunc *f, IrBlock *a, Arm *one, Arm *two, IrSubst *s,
                       Arena *scratch)
{
    bool *moved = ARENA_ARRAY(scratch, bool, one->block->n_insts);
    bool changed = false;
    for (uint32_t i = 0; i + 1 < one->block->n_insts; i++) {
        IrInst *in = one->block->insts[i];
        if (!hoistable(in) || !available(one, in, f->n_regs))
            continue;
        int j = find_twin(two, in, s, f->n_regs);
        if (j < 0)
            continue;
        IrInst *twin = two->block->insts[j];
        pass_insert_before_end(m, a, in);
        moved[i] = true;
        one->owner[in->result] = 0; /* hoisted: no arm's now */
        two->gone[j] = true;
        two->owner[twin->result] = 0;
        pass_subst_set(s, twin->result, ir_reg(in));
        changed = true;
    }
    if (changed) {
        pass_delete_insts(one->block, moved);
        pass_delete_insts(two->block, two->gone);
    }
    return changed;
}

bool pass_hoist(IrModule *m, IrFunc *f, Arena *scratch)
{
    IrCfg *cfg = cfg_build(f, scratch);
    IrSubst s = pass_subst_new(f, scratch);
    uint32_t *owner = ARENA_ARRAY(scratch, uint32_t, f->n_regs + 1), marks = 0;
    bool changed = false;
    for (uint32_t i = 0; i < cfg->n_reachable; i++) {
        IrBlock *a = f->blocks[cfg->rpo[i]];
        IrInst *last = a->insts[a->n_insts - 1];
        if (last->op != IR_CBR || last->target[0] == last->target[1])
            continue;
        int s1 = cfg_block_index(f, last->target[0]), s2 = cfg_block_index(f, last->target[1]);
        if (s1 < 0 || s2 < 0 || cfg->n_preds[s1] != 1 || cfg->n_preds[s2] != 1)
            continue;
        Arm one = arm_of(f->blocks[s1], owner, ++marks, scratch);
        Arm two = arm_of(f->blocks[s2], owner, ++marks, scratch);
        changed |= hoist_pair(m, f, a, &one, &two, &s, scratch);
    }
    if (changed)
        pass_subst_func(&s, f);
    return changed;
}
