/*
 * pass_dce.c: dead-code elimination, in three steps.
 *
 * 1. Unreachable blocks go (the successors' phis drop their edges); the
 *    others keep their order.
 * 2. Trivial phis go: a phi whose operands are all one value v or the phi
 *    itself is v (v then dominates the phi's block, so its uses may read
 *    v).  Replacing one may make another trivial, so this repeats until
 *    none is left.
 * 3. Unused instructions go, found by marking: instructions with effects
 *    (stores, atomics, barriers, terminators) are live, and so is every
 *    definition a live instruction reads; whatever removable instruction
 *    (pass_removable: every definition but atom, loads included) is left
 *    unmarked is deleted.  Marking rather than counting uses also removes
 *    cycles of phis that only feed each other, as a loop's unused
 *    induction variables do.
 */
#include "pass_internal.h"

/* ---- unreachable blocks -------------------------------------------------- */

static bool remove_unreachable(IrFunc *f, Arena *scratch)
{
    IrCfg *cfg = cfg_build(f, scratch);
    if (cfg->n_reachable == f->n_blocks)
        return false;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        if (cfg_reachable(cfg, b))
            continue;
        for (int s = 0; s < 2; s++)
            if (cfg->succ[b][s] >= 0)
                pass_remove_phi_edge(f->blocks[cfg->succ[b][s]], f->blocks[b]);
    }
    uint32_t kept = 0;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        if (cfg_reachable(cfg, b))
            f->blocks[kept++] = f->blocks[b];
    f->n_blocks = kept;
    return true;
}

/* ---- trivial phis ----------------------------------------------------------- */

/* The one value `phi` merges apart from itself, or IRV_NONE. */
static IrValue trivial_value(const IrSubst *s, const IrInst *phi)
{
    IrValue only = {.kind = IRV_NONE};
    for (uint32_t k = 0; k < phi->n_operands; k++) {
        IrValue v = pass_subst_resolve(s, phi->operands[k]);
        if (v.kind == IRV_REG && v.reg == phi->result)
            continue;
        if (only.kind != IRV_NONE && !pass_same_value(only, v))
            return (IrValue){.kind = IRV_NONE};
        only = v;
    }
    return only;
}

/* Marks each trivial phi in dead[reg] and records its replacement. */
static bool find_trivial_phis(IrFunc *f, IrSubst *s, bool *dead)
{
    bool any = false;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < f->n_blocks; b++)
            for (uint32_t i = 0; i < f->blocks[b]->n_insts && f->blocks[b]->insts[i]->op == IR_PHI; i++) {
                IrInst *phi = f->blocks[b]->insts[i];
                if (dead[phi->result])
                    continue;
                IrValue v = trivial_value(s, phi);
                if (v.kind == IRV_NONE)
                    continue;
                pass_subst_set(s, phi->result, v);
                dead[phi->result] = changed = any = true;
            }
    }
    return any;
}

/* ---- unused instructions ---------------------------------------------------- */

typedef struct Marker {
    IrInst **def;      /* by register: its defining instruction (NULL: a parameter) */
    bool *live;        /* by register */
    uint32_t *work;    /* registers marked live whose operands are not yet marked */
    uint32_t n_work;
} Marker;

static void mark_operands(Marker *mk, const IrInst *in)
{
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue v = in->operands[k];
        if (v.kind != IRV_REG || mk->live[v.reg])
            continue;
        mk->live[v.reg] = true;
        if (mk->def[v.reg])
            mk->work[mk->n_work++] = v.reg;
    }
}

/* Marks every register a live instruction reads, transitively. */
static void mark_live(IrFunc *f, Marker *mk)
{
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op))
                mk->def[in->result] = in;
        }
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            IrInst *in = f->blocks[b]->insts[i];
            if (pass_removable(in))
                continue;
            if (ir_op_defines(in->op))
                mk->live[in->result] = true;
            mark_operands(mk, in);
        }
    while (mk->n_work)
        mark_operands(mk, mk->def[mk->work[--mk->n_work]]);
}

/* Deletes removable instructions whose register is not live, or is dead[]. */
static bool sweep(IrFunc *f, const bool *live, const bool *dead, Arena *scratch)
{
    bool changed = false;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        IrBlock *block = f->blocks[b];
        bool *gone = ARENA_ARRAY(scratch, bool, block->n_insts ? block->n_insts : 1);
        for (uint32_t i = 0; i < block->n_insts; i++) {
            IrInst *in = block->insts[i];
            gone[i] = pass_removable(in) && (dead[in->result] || !live[in->result]);
            changed |= gone[i];
        }
        pass_delete_insts(block, gone);
    }
    return changed;
}

bool pass_dce(IrModule *m, IrFunc *f, Arena *scratch)
{
    (void)m;
    uint32_t n = f->n_regs ? f->n_regs : 1;
    bool changed = remove_unreachable(f, scratch);
    IrSubst s = pass_subst_new(f, scratch);
    bool *dead = ARENA_ARRAY(scratch, bool, n);
    if (find_trivial_phis(f, &s, dead))
        changed |= pass_subst_func(&s, f);
    Marker mk = {.def = ARENA_ARRAY(scratch, IrInst *, n), .live = ARENA_ARRAY(scratch, bool, n),
                 .work = ARENA_ARRAY(scratch, uint32_t, n)};
    mark_live(f, &mk);
    changed |= sweep(f, mk.live, dead, scratch);
    return changed;
}
