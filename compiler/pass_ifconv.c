/*
 * pass_ifconv.c: if-conversion of branch triangles that only compute a
 * value.
 *
 *   A: ... cbr c, T, J          A: ... (T's instructions) ...
 *   T: (pure instructions)  =>     %v = select c, y, x
 *      br J                        br J
 *   J: %v = phi [A: x], [T: y]  J: ...
 *
 * Lowering gives `a || b` and `a && b` this shape (b is evaluated only
 * when it decides), and so do small conditional assignments.  Branching
 * around two or three instructions costs more than running them: the
 * branches split ptxas's scheduling regions and the phi of a predicate
 * becomes predicated moves, where nvcc's straight `or.pred` chain does not
 * (the stencil's boundary test held 2 to 4 more registers than nvcc's).
 * Only pure instructions that cannot trap move (never a load, a division,
 * a barrier), at most MAX_MOVED of them, so running them on every path is
 * safe and cheap.  For predicates, `select c, 1, y` is `or c, y` and
 * `select c, y, 0` is `and c, y`.
 */
#include "pass_internal.h"

#include <string.h>

enum { MAX_MOVED = 8 };

/* Whether block `t` (index ti) can run unconditionally in its only
 * predecessor: pure, no trap, short, no phis, ending in br to `join`. */
static bool movable(const IrCfg *cfg, const IrBlock *t, uint32_t ti, const IrBlock *join)
{
    if (cfg->n_preds[ti] != 1 || t->n_insts == 0 || t->n_insts > MAX_MOVED + 1)
        return false;
    const IrInst *last = t->insts[t->n_insts - 1];
    if (last->op != IR_BR || last->target[0] != join)
        return false;
    for (uint32_t i = 0; i + 1 < t->n_insts; i++)
        if (!pass_pure(t->insts[i]) || pass_may_trap(t->insts[i]))
            return false;
    return true;
}

static void append(IrModule *m, IrBlock *b, IrInst *in)
{
    b->insts = ir_grow(m->arena, b->insts, b->n_insts, sizeof *b->insts);
    b->insts[b->n_insts++] = in;
}

/* The value of `c ? yes : no` appended to `a`. */
static IrValue choose(IrModule *m, IrFunc *f, IrBlock *a, IrType type, IrValue c, IrValue yes,
                      IrValue no)
{
    if (type == IRT_I1 && yes.kind == IRV_INT && yes.bits == 1) {
        IrInst *or = ir_append(m, f, a, IR_OR, IRT_I1, 2);
        or->operands[0] = c, or->operands[1] = no;
        return ir_reg(or);
    }
    if (type == IRT_I1 && no.kind == IRV_INT && no.bits == 0) {
        IrInst *and = ir_append(m, f, a, IR_AND, IRT_I1, 2);
        and->operands[0] = c, and->operands[1] = yes;
        return ir_reg(and);
    }
    IrInst *sel = ir_append(m, f, a, IR_SELECT, type, 3);
    sel->operands[0] = c, sel->operands[1] = yes, sel->operands[2] = no;
    return ir_reg(sel);
}

/* a, whose only successor is join, of which it is the only predecessor,
 * takes join's instructions (a has no terminator yet); join is left
 * empty, to be dropped. */
static void merge(IrModule *m, IrBlock *a, IrBlock *join)
{
    for (uint32_t i = 0; i < join->n_insts; i++)
        append(m, a, join->insts[i]);
    join->n_insts = 0;
    pass_retarget_phis(a, join);
}

/* Rewrites the triangle a -> t -> join (a's cbr names t as target[t_is_else]). */
static void convert(IrModule *m, IrFunc *f, IrBlock *a, IrBlock *t, IrBlock *join, int t_is_else,
                    IrSubst *subst)
{
    IrInst *cbr = a->insts[--a->n_insts];
    IrValue c = cbr->operands[0];
    for (uint32_t i = 0; i + 1 < t->n_insts; i++)
        append(m, a, t->insts[i]);
    uint32_t phis = 0;
    for (; phis < join->n_insts && join->insts[phis]->op == IR_PHI; phis++) {
        IrInst *phi = join->insts[phis];
        IrValue from_a = phi->incoming[0] == a ? phi->operands[0] : phi->operands[1];
        IrValue from_t = phi->incoming[0] == a ? phi->operands[1] : phi->operands[0];
        IrValue v = t_is_else ? choose(m, f, a, phi->type, c, from_a, from_t)
                              : choose(m, f, a, phi->type, c, from_t, from_a);
        pass_subst_set(subst, phi->result, v);
    }
    /* The phis are gone: join has one predecessor now, and joins a. */
    memmove(join->insts, join->insts + phis, (join->n_insts - phis) * sizeof *join->insts);
    join->n_insts -= phis;
    t->n_insts = 0; /* t is unreachable; it is dropped from the function below */
    merge(m, a, join);
}

static void drop_empty_blocks(IrFunc *f)
{
    uint32_t kept = 0;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        if (f->blocks[b]->n_insts > 0)
            f->blocks[kept++] = f->blocks[b];
    f->n_blocks = kept;
}

/* One triangle at the end of block `ai`, if it has one. */
static bool try_block(IrModule *m, IrFunc *f, const IrCfg *cfg, uint32_t ai, IrSubst *subst)
{
    IrBlock *a = f->blocks[ai];
    IrInst *last = a->n_insts ? a->insts[a->n_insts - 1] : NULL;
    if (!last || last->op != IR_CBR || last->target[0] == last->target[1])
        return false;
    for (int t_is_else = 0; t_is_else < 2; t_is_else++) {
        IrBlock *t = last->target[t_is_else], *join = last->target[!t_is_else];
        int ti = cfg_block_index(f, t), ji = cfg_block_index(f, join);
        if (ti < 0 || ji < 0 || cfg->n_preds[ji] != 2 || !movable(cfg, t, (uint32_t)ti, join))
            continue;
        convert(m, f, a, t, join, t_is_else, subst);
        return true;
    }
    return false;
}

bool pass_ifconv(IrModule *m, IrFunc *f, Arena *scratch)
{
    IrCfg *cfg = cfg_build(f, scratch);
    IrSubst subst = pass_subst_new(f, scratch);
    bool changed = false;
    /* A converted block takes its join's place, so a chain (a || b || c)
     * is converted link after link at the same block.  The graph is a
     * snapshot; the links it describes are untouched until converted. */
    for (uint32_t i = 0; i < cfg->n_reachable; i++)
        while (f->blocks[cfg->rpo[i]]->n_insts > 0 && try_block(m, f, cfg, cfg->rpo[i], &subst))
            changed = true;
    if (changed) {
        pass_subst_func(&subst, f);
        drop_empty_blocks(f);
    }
    return changed;
}
