/*
 * pass_divide.c: 64-bit unsigned division through 32 bits when the
 * operands fit, with the remainder from the same division.
 *
 * PTX's div.u64 and rem.u64 are long subroutines in SASS and hold many
 * registers; an index divided by a run-time extent (ctx.cta / blocks_x)
 * almost always fits in 32 bits.  As nvcc does (LLVM's division bypass and
 * DivRemPairs), a block with such a division is split at it:
 *
 *   c = cmp eq (lshr (or x, y), 32), 0     (x left out when it is a zext
 *   cbr c, @fast, @slow                     of 32 bits: its high half is 0)
 *   @fast: q32 = udiv (trunc x), (trunc y); r32 = (trunc x) - q32 * (trunc y)
 *   @slow: q = udiv x, y; r = x - q * y
 *   @join: q = phi ...; r = phi ...        (zext of q32 and r32 from @fast)
 *
 * and the udiv and urem of the same operands in the rest of the block take
 * their values from the join.  Signed division is left as it is.
 */
#include "pass_internal.h"

#include <string.h>

typedef struct Divider {
    IrModule *m;
    IrFunc *f;
    IrInst *const *def;
    uint32_t n_regs; /* registers before the pass */
    IrSubst subst;
} Divider;

static bool is_wide_division(const IrInst *in)
{
    return (in->op == IR_UDIV || in->op == IR_UREM) && in->type == IRT_I64 &&
           in->operands[1].kind == IRV_REG;
}

/* Whether `v` is known to fit in 32 bits: a zext of a 32-bit value. */
static bool fits_32(const Divider *d, IrValue v)
{
    const IrInst *in = v.kind == IRV_REG && v.reg < d->n_regs ? d->def[v.reg] : NULL;
    return (v.kind == IRV_INT && v.bits >> 32 == 0) ||
           (in && in->op == IR_ZEXT && ir_type_bits(in->operands[0].type) <= 32);
}

static IrValue op2(Divider *d, IrBlock *b, IrOp op, IrType t, IrValue x, IrValue y)
{
    IrInst *in = ir_append(d->m, d->f, b, op, t, 2);
    in->operands[0] = x, in->operands[1] = y;
    return ir_reg(in);
}

static IrValue op1(Divider *d, IrBlock *b, IrOp op, IrType t, IrValue x)
{
    IrInst *in = ir_append(d->m, d->f, b, op, t, 1);
    in->operands[0] = x;
    return ir_reg(in);
}

/* x / y and x % y in `b`, in type t; then a jump to `join`. */
static void divide_in(Divider *d, IrBlock *b, IrType t, IrValue x, IrValue y, IrBlock *join,
                      IrValue *q, IrValue *r)
{
    *q = op2(d, b, IR_UDIV, t, x, y);
    *r = op2(d, b, IR_SUB, t, x, op2(d, b, IR_MUL, t, *q, y));
    ir_append(d->m, d->f, b, IR_BR, IRT_VOID, 0)->target[0] = join;
}

/* The test at the end of `b`: cbr (x | y) < 2^32, fast, slow. */
static void branch_on_width(Divider *d, IrBlock *b, IrValue x, IrValue y, IrBlock *fast,
                            IrBlock *slow)
{
    IrValue both = fits_32(d, x) ? y : op2(d, b, IR_OR, IRT_I64, x, y);
    IrValue high = op2(d, b, IR_LSHR, IRT_I64, both, ir_int(IRT_I64, 32));
    IrInst *cmp = ir_append(d->m, d->f, b, IR_CMP, IRT_I1, 2);
    cmp->cmp = IRC_EQ;
    cmp->operands[0] = high, cmp->operands[1] = ir_int(IRT_I64, 0);
    IrInst *cbr = ir_append(d->m, d->f, b, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = ir_reg(cmp);
    cbr->target[0] = fast, cbr->target[1] = slow;
}

static IrValue join_phi(Divider *d, IrBlock *join, IrValue from_fast, IrBlock *fast,
                        IrValue from_slow, IrBlock *slow)
{
    IrInst *phi = ir_append(d->m, d->f, join, IR_PHI, IRT_I64, 2);
    phi->operands[0] = from_fast, phi->incoming[0] = fast;
    phi->operands[1] = from_slow, phi->incoming[1] = slow;
    return ir_reg(phi);
}

/* Moves the three new blocks (the last of f) to just after block `at`. */
static void place_after(IrFunc *f, uint32_t at)
{
    IrBlock *moved[3];
    memcpy(moved, &f->blocks[f->n_blocks - 3], sizeof moved);
    memmove(&f->blocks[at + 4], &f->blocks[at + 1], (f->n_blocks - 4 - at) * sizeof *f->blocks);
    memcpy(&f->blocks[at + 1], moved, sizeof moved);
}

/* Splits block `bi` at its instruction `at` (a wide division). */
static void split(Divider *d, uint32_t bi, uint32_t at)
{
    IrBlock *b = d->f->blocks[bi];
    IrValue x = b->insts[at]->operands[0], y = b->insts[at]->operands[1];
    IrBlock *fast = ir_new_block(d->m, d->f), *slow = ir_new_block(d->m, d->f);
    IrBlock *join = ir_new_block(d->m, d->f);
    place_after(d->f, bi);
    /* The tail is copied out first: appending the test to b reuses its room. */
    uint32_t n_rest = b->n_insts - at;
    IrInst **rest = ARENA_ARRAY(d->m->arena, IrInst *, n_rest);
    memcpy(rest, b->insts + at, n_rest * sizeof *rest);
    b->n_insts = at;
    branch_on_width(d, b, x, y, fast, slow);
    IrValue q32, r32, q64, r64;
    divide_in(d, fast, IRT_I32, op1(d, fast, IR_TRUNC, IRT_I32, x),
              op1(d, fast, IR_TRUNC, IRT_I32, y), join, &q32, &r32);
    fast->n_insts--; /* the widening goes before the jump */
    IrValue qf = op1(d, fast, IR_ZEXT, IRT_I64, q32), rf = op1(d, fast, IR_ZEXT, IRT_I64, r32);
    ir_append(d->m, d->f, fast, IR_BR, IRT_VOID, 0)->target[0] = join;
    divide_in(d, slow, IRT_I64, x, y, join, &q64, &r64);
    IrValue q = join_phi(d, join, qf, fast, q64, slow);
    IrValue r = join_phi(d, join, rf, fast, r64, slow);
    for (uint32_t i = 0; i < n_rest; i++) {
        IrInst *in = rest[i];
        if (is_wide_division(in) && pass_same_value(in->operands[0], x) &&
            pass_same_value(in->operands[1], y))
            pass_subst_set(&d->subst, in->result, in->op == IR_UDIV ? q : r);
        else {
            join->insts = ir_grow(d->m->arena, join->insts, join->n_insts, sizeof *join->insts);
            join->insts[join->n_insts++] = in;
        }
    }
    pass_retarget_phis(join, b);
}

/* Whether block `p` ends in the test of a split already made, a
 * `cmp eq (lshr _, 32), 0`, whose else target is the slow path (so a
 * second run of the pipeline finds nothing to do there). */
static bool tests_width(const Divider *d, const IrBlock *p)
{
    const IrInst *t = p->n_insts ? p->insts[p->n_insts - 1] : NULL;
    if (!t || t->op != IR_CBR || t->operands[0].kind != IRV_REG)
        return false;
    const IrInst *cmp = t->operands[0].reg < d->n_regs ? d->def[t->operands[0].reg] : NULL;
    const IrInst *shift = cmp && cmp->op == IR_CMP && cmp->cmp == IRC_EQ &&
                                  cmp->operands[0].kind == IRV_REG && cmp->operands[0].reg < d->n_regs
                              ? d->def[cmp->operands[0].reg]
                              : NULL;
    return shift && shift->op == IR_LSHR && shift->operands[1].kind == IRV_INT &&
           shift->operands[1].bits == 32;
}

/* By block id: whether the block is the slow path of a split already
 * made.  Found once, not by a scan of every block for each block (which
 * made the pass quadratic).  The blocks this run adds have ids past the
 * table; their divisions are new registers, which are never split. */
static bool *find_slow_paths(const Divider *d, Arena *scratch)
{
    uint32_t n = d->f->n_blocks;
    bool *slow = ARENA_ARRAY(scratch, bool, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        const IrBlock *p = d->f->blocks[i];
        const IrBlock *target = tests_width(d, p) ? p->insts[p->n_insts - 1]->target[1] : NULL;
        if (target && target->id < n && d->f->blocks[target->id] == target)
            slow[target->id] = true;
    }
    return slow;
}

bool pass_divide(IrModule *m, IrFunc *f, Arena *scratch)
{
    Divider d = {m, f, pass_definitions(f, scratch), f->n_regs, pass_subst_new(f, scratch)};
    bool changed = false;
    uint32_t n_old = f->n_blocks;
    const bool *slow = find_slow_paths(&d, scratch);
    /* The new blocks come right after the one split, so the scan meets the
     * join (the rest of the block) next and divides there too. */
    for (uint32_t bi = 0; bi < f->n_blocks; bi++) {
        IrBlock *b = f->blocks[bi];
        if (b->id < n_old && slow[b->id])
            continue;
        for (uint32_t i = 0; i < b->n_insts; i++)
            if (is_wide_division(b->insts[i]) && b->insts[i]->result < d.n_regs) {
                split(&d, bi, i);
                changed = true;
                break;
            }
    }
    if (changed)
        pass_subst_func(&d.subst, f);
    return changed;
}
