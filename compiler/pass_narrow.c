/*
 * pass_narrow.c: shared-memory addresses in 32 bits.
 *
 * The shared window is smaller than 4 GiB, so a shared address fits in 32
 * bits, and PTX takes a 32-bit register in [ ] for .shared (nvcc's
 * `mov.u32 %r, sym; add.s32; ld.shared [%r]`).  Lowering computes every
 * address in i64; here the address of each shared load, store and atomic
 * is recomputed in i32 from the same tree: add, sub, mul, shl, and, or and
 * xor commute with truncation, a zext of 32 bits is its operand, the
 * array's `addr.shared` gets an i32 twin, and anything else (a phi, a
 * division) is truncated where it is defined.  The i64 arithmetic is left
 * for dce; half-width values hold half the registers.
 */
#include "pass_internal.h"

#include <string.h>

typedef struct Narrower {
    IrModule *m;
    IrFunc *f;
    IrInst *const *def;
    uint32_t n_regs;    /* registers before the pass */
    IrValue *narrow;    /* by register: its i32 twin, once made */
    IrInst **after;     /* by new register: the instruction to place it after */
    IrBlock pending;    /* the twins, in the order made */
} Narrower;

static IrInst *twin(Narrower *n, IrOp op, uint32_t n_operands, IrInst *place_after)
{
    IrInst *in = ir_append(n->m, n->f, &n->pending, op, IRT_I32, n_operands);
    n->after = ir_grow(n->m->arena, n->after, n->pending.n_insts - 1, sizeof *n->after);
    n->after[n->pending.n_insts - 1] = place_after;
    return in;
}

static IrValue narrow_value(Narrower *n, IrValue v);

static bool commutes_with_trunc(IrOp op)
{
    switch (op) {
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_SHL: case IR_AND: case IR_OR: case IR_XOR:
        return true;
    default:
        return false;
    }
}

/* The i32 twin of the value `d` defines (d NULL: a parameter, reg). */
static IrValue narrow_def(Narrower *n, IrInst *d, uint32_t reg)
{
    IrInst *in;
    if (d && (d->op == IR_ZEXT || d->op == IR_SEXT) && d->operands[0].type == IRT_I32)
        return d->operands[0];
    if (d && d->op == IR_ADDR && d->space == IRS_SHARED) {
        in = twin(n, IR_ADDR, 0, d);
        in->space = IRS_SHARED;
        in->symbol = d->symbol;
    } else if (d && (d->op == IR_ZEXT || d->op == IR_SEXT)) {
        in = twin(n, d->op, 1, d);
        in->operands[0] = d->operands[0];
    } else if (d && commutes_with_trunc(d->op)) {
        IrValue a = narrow_value(n, d->operands[0]), b = narrow_value(n, d->operands[1]);
        in = twin(n, d->op, 2, d);
        in->operands[0] = a, in->operands[1] = b;
    } else {
        in = twin(n, IR_TRUNC, 1, d); /* d NULL: at the entry */
        in->operands[0] = (IrValue){.kind = IRV_REG, .type = IRT_I64, .reg = reg};
    }
    return ir_reg(in);
}

static IrValue narrow_value(Narrower *n, IrValue v)
{
    if (v.kind == IRV_INT)
        return ir_int(IRT_I32, (int32_t)(uint32_t)v.bits);
    if (v.kind != IRV_REG || v.reg >= n->n_regs)
        return v; /* never: operands of i64 trees are i64 registers or constants */
    if (n->narrow[v.reg].kind == IRV_NONE)
        n->narrow[v.reg] = narrow_def(n, n->def[v.reg], v.reg);
    return n->narrow[v.reg];
}

static bool shared_access(const IrInst *in)
{
    return (in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_ATOM) &&
           in->space == IRS_SHARED && in->operands[0].kind == IRV_REG &&
           in->operands[0].type == IRT_I64;
}

static void emit(Narrower *n, IrInst ***out, uint32_t *n_out, IrInst *in)
{
    *out = ir_grow(n->m->arena, *out, *n_out, sizeof **out);
    (*out)[(*n_out)++] = in;
}

/* The twins anchored at `anchor` (NULL: a parameter's), in the order made. */
static void emit_twins(Narrower *n, IrInst ***out, uint32_t *n_out, const IrInst *anchor)
{
    for (uint32_t t = 0; t < n->pending.n_insts; t++)
        if (n->after[t] == anchor)
            emit(n, out, n_out, n->pending.insts[t]);
}

/* Puts each twin right after the instruction it mirrors; those of phis
 * after the block's last phi, those of parameters at the top of the entry. */
static void place_twins(Narrower *n)
{
    for (uint32_t b = 0; b < n->f->n_blocks; b++) {
        IrBlock *blk = n->f->blocks[b];
        IrInst **out = NULL;
        uint32_t n_out = 0, i = 0;
        for (; i < blk->n_insts && blk->insts[i]->op == IR_PHI; i++)
            emit(n, &out, &n_out, blk->insts[i]);
        for (uint32_t p = 0; p < i; p++)
            emit_twins(n, &out, &n_out, blk->insts[p]);
        if (b == 0)
            emit_twins(n, &out, &n_out, NULL);
        for (; i < blk->n_insts; i++) {
            emit(n, &out, &n_out, blk->insts[i]);
            emit_twins(n, &out, &n_out, blk->insts[i]);
        }
        blk->insts = out;
        blk->n_insts = n_out;
    }
}

bool pass_narrow(IrModule *m, IrFunc *f, Arena *scratch)
{
    Narrower n = {m, f, pass_definitions(f, scratch), f->n_regs,
                  ARENA_ARRAY(scratch, IrValue, f->n_regs ? f->n_regs : 1), NULL, {0}};
    bool changed = false;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            IrInst *in = f->blocks[b]->insts[i];
            if (!shared_access(in))
                continue;
            in->operands[0] = narrow_value(&n, in->operands[0]);
            changed = true;
        }
    if (changed)
        place_twins(&n);
    return changed;
}
