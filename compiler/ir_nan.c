/*
 * ir_nan.c: which f32 and f64 results of a function must have their NaN
 * made canonical, so that every NaN a kernel can observe is PTX's
 * canonical one (cpu_prelude.h's silk_nan_f32, silk_nan_f64) at a price
 * paid only where it matters.
 *
 * A NaN's bits can be seen only where they leave the float arithmetic: a
 * store, an atomic's value, a bitcast.  Every float operation maps a NaN
 * to a NaN whatever its payload (and is itself made canonical where it
 * is seen), min and max give the other operand, comparisons and
 * float-to-integer conversions do not look at the bits; so a result used
 * only by those need not be made canonical, and a loop carrying an
 * accumulator through fma and add pays nothing.  A phi, select, copy,
 * neg, abs (sign-bit operations) and shuffle (to another lane) carry the
 * bits on: their operands are seen where their results are.
 */
#include "ir_nan.h"

#include <string.h>

static bool is_float(IrType t) { return t == IRT_F16 || t == IRT_F32 || t == IRT_F64; }

/* Whether `in` uses operand k's bits only as a number (its own result,
 * if a float, is made canonical where seen). */
static bool blind_use(const IrInst *in, uint32_t k)
{
    (void)k;
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_FDIV: case IR_FMIN: case IR_FMAX: case IR_FMA:
    case IR_SQRT: case IR_RSQRT: case IR_EXP: case IR_LOG: case IR_SIN: case IR_COS:
    case IR_FLOOR: case IR_CEIL:
        return is_float(in->type);
    case IR_CMP: case IR_FPTOSI: case IR_FPTOUI: case IR_FPEXT: case IR_FPTRUNC:
        return true;
    default:
        return false;
    }
}

/* Whether `in` carries operand k's bits to its result. */
static bool carries(const IrInst *in, uint32_t k)
{
    switch (in->op) {
    case IR_PHI: case IR_COPY: return true;
    case IR_SELECT: return k > 0;
    case IR_NEG: case IR_ABS: return is_float(in->type);
    case IR_SHFL: return k == 0;
    default: return false;
    }
}

/* Marks every register operand of `in` that `seen` (or not blind) reaches. */
static bool mark(const IrInst *in, bool *seen)
{
    bool changed = false;
    bool result_seen = ir_op_defines(in->op) && seen[in->result];
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue v = in->operands[k];
        if (v.kind != IRV_REG || seen[v.reg])
            continue;
        if (carries(in, k) ? result_seen : !blind_use(in, k)) {
            seen[v.reg] = true;
            changed = true;
        }
    }
    return changed;
}

bool *ir_nan_seen(const IrModule *m, const IrFunc *f)
{
    bool *seen = ARENA_ARRAY(m->arena, bool, f->n_regs + 1);
    memset(seen, 0, (f->n_regs + 1) * sizeof *seen);
    bool changed = true;
    while (changed) { /* a phi's uses may come before it: to the fixed point */
        changed = false;
        for (uint32_t b = f->n_blocks; b-- > 0;)
            for (uint32_t i = f->blocks[b]->n_insts; i-- > 0;)
                changed |= mark(f->blocks[b]->insts[i], seen);
    }
    return seen;
}
