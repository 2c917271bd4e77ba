/*
 * pass_fold.c: constant folding and propagation.
 *
 * Blocks are visited in reverse postorder, so a definition is seen before
 * the uses it dominates: each instruction's operands are first rewritten
 * through the replacements found so far, then the instruction is tried:
 * when its result is known (a constant, or one of its operands) every use
 * is redirected there and the instruction deleted.  A phi's back-edge
 * operands and unreachable blocks are rewritten at the end; phis whose
 * operands agree are dce's.
 *
 * What folds, and the rules that keep it exact:
 * - Integers wrap to their width (the IR's two's complement semantics).
 *   Division and remainder by zero, and the signed INT_MIN / -1, are left
 *   for the machine.  A shift folds only by less than the width (PTX
 *   clamps larger amounts; the IR does not promise that).  i1 folds
 *   only where it is plain bit arithmetic (add, sub, mul, the bit
 *   operations, eq/ne, select, the conversions).
 * - Floats fold only where the result is IEEE's correctly rounded one,
 *   which PTX computes too (the backend writes add.rn, sub.rn, mul.rn,
 *   div.rn, and no ftz): add, sub, mul and fdiv are done in double and
 *   rounded once to the type (double carries more than twice the bits of
 *   f32 and f16, so the double rounding is exact).  A NaN result is the
 *   canonical NaN of its type (f32 0x7fffffff, f16 0x7fff, f64
 *   0x7fffffffffffffff), as PTX's and the CPU backend's are, whatever NaN
 *   went in.  neg and abs flip or clear the sign, a NaN's too (the CPU
 *   backend's do; PTX leaves neg.f32 of a NaN unspecified); min and max
 *   fold unless both operands are zeros (a NaN gives the other operand;
 *   two NaNs the canonical one); comparisons always (C's NaN rules are
 *   PTX's: fne is unordered, the rest ordered).  No fma, sqrt or
 *   approximate function folds.
 * - Conversions fold when exact: an integer to float only when the float
 *   holds it exactly, a float to integer only when its truncation is in
 *   range (PTX saturates, C would not), never from a NaN; fpext and
 *   fptrunc of a NaN give the canonical NaN.
 * - Identities, integers only: x+0, x-0, x*1, x*0, x&0, x&~0, x|0, x|~0,
 *   x^0, x-x, x^x, x&x, x|x, shifts by 0, 0 shifted, x/1, x%1.  Not on
 *   floats: x+0.0 is not x for -0.0.
 * - select on a constant or between equal operands; copy always.
 * - Constant offsets combine: (x + 2) - 2 is x, (x + 1) + 1 is x + 2.
 * - cbr on a constant becomes br, and the phis of the successor it no
 *   longer reaches drop that edge; cbr to one block twice becomes br.
 * - `assigned` on the constant true (a variable assigned on every path to
 *   the read) is dropped: the check cannot fail.
 */
#include "pass_internal.h"

#include <math.h>
#include <string.h>

static const IrValue NO_FOLD = {.kind = IRV_NONE};

static bool is_int(IrType t)
{
    return t >= IRT_I1 && t <= IRT_I64;
}

static bool is_float(IrType t)
{
    return t >= IRT_F16 && t <= IRT_F64;
}

static uint64_t width_mask(IrType t)
{
    int bits = ir_type_bits(t);
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* The signed value of an integer constant's bits in its width. */
static int64_t signed_of(IrType t, uint64_t bits)
{
    uint64_t mask = width_mask(t), sign = (mask >> 1) + 1;
    bits &= mask;
    return (int64_t)((bits & sign) ? bits | ~mask : bits);
}

static bool is_const(IrValue v)
{
    return v.kind == IRV_INT || v.kind == IRV_FLOAT;
}

static bool is_int_const(IrValue v, uint64_t bits)
{
    return v.kind == IRV_INT && (v.bits & width_mask(v.type)) == (bits & width_mask(v.type));
}

static IrValue int_result(IrType t, uint64_t bits)
{
    return ir_int(t, (int64_t)bits);
}

/* ---- integers -------------------------------------------------------------- */

/* Division and remainder; NO_FOLD by zero and for signed INT_MIN / -1. */
static IrValue fold_divide(IrOp op, IrType t, uint64_t a, uint64_t b)
{
    int64_t sa = signed_of(t, a), sb = signed_of(t, b);
    int64_t min = signed_of(t, (width_mask(t) >> 1) + 1);
    if (b == 0 || t == IRT_I1)
        return NO_FOLD;
    switch (op) {
    case IR_UDIV: return int_result(t, a / b);
    case IR_UREM: return int_result(t, a % b);
    default:
        if (sa == min && sb == -1)
            return NO_FOLD;
        return int_result(t, (uint64_t)(op == IR_SDIV ? sa / sb : sa % sb));
    }
}

/* Shifts by less than the width; an arithmetic shift keeps the sign. */
static IrValue fold_shift(IrOp op, IrType t, uint64_t a, uint64_t b)
{
    if (t == IRT_I1 || b >= (uint64_t)ir_type_bits(t))
        return NO_FOLD;
    if (op == IR_SHL)
        return int_result(t, a << b);
    if (op == IR_LSHR)
        return int_result(t, a >> b);
    int64_t sa = signed_of(t, a);
    return int_result(t, sa < 0 ? ~(~(uint64_t)sa >> b) : (uint64_t)sa >> b);
}

static IrValue fold_int_binary(IrOp op, IrType t, uint64_t a, uint64_t b)
{
    int64_t sa = signed_of(t, a), sb = signed_of(t, b);
    bool ordered = t != IRT_I1; /* min and max of i1 are not plain bit arithmetic */
    switch (op) {
    case IR_ADD: return int_result(t, a + b);
    case IR_SUB: return int_result(t, a - b);
    case IR_MUL: return int_result(t, a * b);
    case IR_AND: return int_result(t, a & b);
    case IR_OR: return int_result(t, a | b);
    case IR_XOR: return int_result(t, a ^ b);
    case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM: return fold_divide(op, t, a, b);
    case IR_SHL: case IR_LSHR: case IR_ASHR: return fold_shift(op, t, a, b);
    case IR_SMIN: return ordered ? int_result(t, (uint64_t)(sa < sb ? sa : sb)) : NO_FOLD;
    case IR_SMAX: return ordered ? int_result(t, (uint64_t)(sa > sb ? sa : sb)) : NO_FOLD;
    case IR_UMIN: return ordered ? int_result(t, a < b ? a : b) : NO_FOLD;
    case IR_UMAX: return ordered ? int_result(t, a > b ? a : b) : NO_FOLD;
    default: return NO_FOLD;
    }
}

static IrValue fold_int_unary(IrOp op, IrType t, uint64_t a)
{
    int64_t sa = signed_of(t, a);
    switch (op) {
    case IR_NEG: return int_result(t, 0 - a);
    case IR_NOT: return int_result(t, ~a);
    case IR_ABS: /* abs of the most negative value is left to the machine */
        if (t == IRT_I1 || sa == signed_of(t, (width_mask(t) >> 1) + 1))
            return NO_FOLD;
        return int_result(t, (uint64_t)(sa < 0 ? -sa : sa));
    default: return NO_FOLD;
    }
}

/* ---- floats ------------------------------------------------------------------ */

/* The canonical NaN of `t`, as PTX's arithmetic gives it. */
static IrValue canonical_nan(IrType t)
{
    uint64_t bits = t == IRT_F16 ? 0x7fff : t == IRT_F32 ? 0x7fffffff : 0x7fffffffffffffffull;
    return (IrValue){.kind = IRV_FLOAT, .type = t, .bits = bits};
}

/* A float result of `t`, rounded to it; a NaN is the canonical one. */
static IrValue float_result(IrType t, double d)
{
    return isnan(d) ? canonical_nan(t) : ir_float(t, d);
}

static IrValue fold_float_binary(IrOp op, IrType t, double a, double b)
{
    switch (op) {
    case IR_ADD: return float_result(t, a + b);
    case IR_SUB: return float_result(t, a - b);
    case IR_MUL: return float_result(t, a * b);
    case IR_FDIV: return float_result(t, a / b);
    case IR_FMIN: case IR_FMAX: /* which zero min(-0, +0) gives is not ours to say */
        if (a == 0 && b == 0)
            return NO_FOLD;
        if (isnan(a) || isnan(b)) /* the other operand; of two NaNs, the canonical one */
            return float_result(t, isnan(a) ? b : a);
        return float_result(t, (op == IR_FMIN) == (a < b) ? a : b);
    default: return NO_FOLD;
    }
}

static IrValue fold_float_unary(IrOp op, IrType t, IrValue a)
{
    uint64_t sign = 1ull << (ir_type_bits(t) - 1);
    if (op == IR_NEG)
        return (IrValue){.kind = IRV_FLOAT, .type = t, .bits = a.bits ^ sign};
    if (op == IR_ABS)
        return (IrValue){.kind = IRV_FLOAT, .type = t, .bits = a.bits & ~sign};
    return NO_FOLD;
}

/* ---- comparisons --------------------------------------------------------------- */

static bool compare_ints(IrCmp cmp, IrType t, uint64_t a, uint64_t b)
{
    int64_t sa = signed_of(t, a), sb = signed_of(t, b);
    a &= width_mask(t);
    b &= width_mask(t);
    switch (cmp) {
    case IRC_EQ: return a == b;
    case IRC_NE: return a != b;
    case IRC_SLT: return sa < sb;
    case IRC_SLE: return sa <= sb;
    case IRC_SGT: return sa > sb;
    case IRC_SGE: return sa >= sb;
    case IRC_ULT: return a < b;
    case IRC_ULE: return a <= b;
    case IRC_UGT: return a > b;
    default: return a >= b;
    }
}

static bool compare_floats(IrCmp cmp, double a, double b)
{
    switch (cmp) {
    case IRC_FEQ: return a == b;
    case IRC_FNE: return !(a == b);
    case IRC_FLT: return a < b;
    case IRC_FLE: return a <= b;
    case IRC_FGT: return a > b;
    default: return a >= b;
    }
}

static IrValue fold_cmp(const IrInst *in)
{
    IrValue a = in->operands[0], b = in->operands[1];
    if (in->cmp <= IRC_UGE && a.kind == IRV_REG && pass_same_value(a, b)) {
        bool reflexive = in->cmp == IRC_EQ || in->cmp == IRC_SLE || in->cmp == IRC_SGE ||
                         in->cmp == IRC_ULE || in->cmp == IRC_UGE;
        return ir_int(IRT_I1, reflexive);
    }
    if (!is_const(a) || !is_const(b) || a.type != b.type)
        return NO_FOLD;
    bool r = in->cmp <= IRC_UGE
                 ? compare_ints(in->cmp, a.type, a.bits, b.bits)
                 : compare_floats(in->cmp, ir_float_value(a.type, a.bits), ir_float_value(b.type, b.bits));
    return ir_int(IRT_I1, r);
}

/* ---- conversions ------------------------------------------------------------------ */

/* An integer to a float, when the float holds it exactly. */
static IrValue int_to_float(IrType to, IrValue a, bool is_signed)
{
    uint64_t u = a.bits & width_mask(a.type);
    int64_t s = signed_of(a.type, a.bits);
    uint64_t magnitude = is_signed && s < 0 ? (uint64_t)0 - (uint64_t)s : u;
    if (magnitude > (1ull << 53))
        return NO_FOLD;
    double d = is_signed ? (double)s : (double)u;
    IrValue r = ir_float(to, d);
    return ir_float_value(to, r.bits) == d ? r : NO_FOLD;
}

/* A float to an integer, truncated, when in the range of `to`. */
static IrValue float_to_int(IrType to, IrValue a, bool is_signed)
{
    double d = ir_float_value(a.type, a.bits);
    int bits = ir_type_bits(to);
    if (to == IRT_I1 || isnan(d) || !(d > -0x1p62 && d < 0x1p62))
        return NO_FOLD;
    int64_t t = (int64_t)d; /* C truncates toward zero, as cvt.rzi */
    int64_t lo = is_signed ? -((int64_t)1 << (bits - 2)) * 2 : 0;
    int64_t hi = bits == 64 ? INT64_MAX : is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    return t < lo || t > hi ? NO_FOLD : ir_int(to, t);
}

static IrValue fold_convert(IrOp op, IrType to, IrValue a)
{
    switch (op) {
    case IR_SEXT: return ir_int(to, signed_of(a.type, a.bits));
    case IR_ZEXT: case IR_TRUNC: return int_result(to, a.bits & width_mask(a.type));
    case IR_BITCAST:
        return (IrValue){.kind = is_float(to) ? IRV_FLOAT : IRV_INT, .type = to, .bits = a.bits & width_mask(to)};
    case IR_SITOFP: case IR_UITOFP: return int_to_float(to, a, op == IR_SITOFP);
    case IR_FPTOSI: case IR_FPTOUI: return float_to_int(to, a, op == IR_FPTOSI);
    case IR_FPEXT: case IR_FPTRUNC: return float_result(to, ir_float_value(a.type, a.bits));
    default: return NO_FOLD;
    }
}

/* ---- identities ---------------------------------------------------------------------- */

/* x op c, c op x, x op x for integers: the result when it does not
 * depend on x's value, or is x. */
static IrValue fold_identity(const IrInst *in)
{
    IrType t = in->type;
    IrValue a = in->operands[0], b = in->operands[1], zero = ir_int(t, 0), ones = ir_int(t, -1);
    bool same = a.kind == IRV_REG && pass_same_value(a, b);
    switch (in->op) {
    case IR_ADD: return is_int_const(b, 0) ? a : is_int_const(a, 0) ? b : NO_FOLD;
    case IR_SUB: return is_int_const(b, 0) ? a : same ? zero : NO_FOLD;
    case IR_MUL:
        if (is_int_const(a, 0) || is_int_const(b, 0))
            return zero;
        return is_int_const(b, 1) ? a : is_int_const(a, 1) ? b : NO_FOLD;
    case IR_AND:
        if (is_int_const(a, 0) || is_int_const(b, 0))
            return zero;
        return is_int_const(b, ~0ull) || same ? a : is_int_const(a, ~0ull) ? b : NO_FOLD;
    case IR_OR:
        if (is_int_const(a, ~0ull) || is_int_const(b, ~0ull))
            return ones;
        return is_int_const(b, 0) || same ? a : is_int_const(a, 0) ? b : NO_FOLD;
    case IR_XOR: return is_int_const(b, 0) ? a : is_int_const(a, 0) ? b : same ? zero : NO_FOLD;
    case IR_SHL: case IR_LSHR: case IR_ASHR:
        return is_int_const(b, 0) ? a : is_int_const(a, 0) ? zero : NO_FOLD;
    case IR_UDIV: case IR_SDIV: return is_int_const(b, 1) && t != IRT_I1 ? a : NO_FOLD;
    case IR_UREM: case IR_SREM: return is_int_const(b, 1) && t != IRT_I1 ? zero : NO_FOLD;
    default: return NO_FOLD;
    }
}

/* ---- one instruction --------------------------------------------------------------- */

static IrValue fold_arith(const IrInst *in)
{
    IrValue a = in->operands[0], b = in->n_operands > 1 ? in->operands[1] : NO_FOLD;
    IrType t = in->type;
    if (in->n_operands == 1 && is_const(a))
        return is_int(t) ? fold_int_unary(in->op, t, a.bits) : fold_float_unary(in->op, t, a);
    if (in->n_operands != 2)
        return NO_FOLD;
    if (is_const(a) && is_const(b))
        return is_int(t) ? fold_int_binary(in->op, t, a.bits, b.bits)
                         : fold_float_binary(in->op, t, ir_float_value(t, a.bits), ir_float_value(t, b.bits));
    return is_int(t) ? fold_identity(in) : NO_FOLD;
}

/* What the result of `in` is known to be, or NO_FOLD. */
static IrValue fold_inst(const IrInst *in)
{
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM:
    case IR_FDIV: case IR_AND: case IR_OR: case IR_XOR: case IR_SHL: case IR_LSHR: case IR_ASHR:
    case IR_SMIN: case IR_UMIN: case IR_SMAX: case IR_UMAX: case IR_FMIN: case IR_FMAX:
    case IR_NEG: case IR_NOT: case IR_ABS:
        return fold_arith(in);
    case IR_CMP: return fold_cmp(in);
    case IR_SELECT:
        if (is_int_const(in->operands[0], 0) || is_int_const(in->operands[0], 1))
            return in->operands[(in->operands[0].bits & 1) ? 1 : 2];
        return pass_same_value(in->operands[1], in->operands[2]) ? in->operands[1] : NO_FOLD;
    case IR_SEXT: case IR_ZEXT: case IR_TRUNC: case IR_FPTOSI: case IR_FPTOUI: case IR_SITOFP:
    case IR_UITOFP: case IR_FPEXT: case IR_FPTRUNC: case IR_BITCAST:
        return is_const(in->operands[0]) ? fold_convert(in->op, in->type, in->operands[0]) : NO_FOLD;
    case IR_COPY: return in->operands[0];
    default: return NO_FOLD;
    }
}

/* cbr on a constant, or to one block twice, becomes br; the phis of a
 * successor no longer reached drop this block's edge. */
static bool fold_branch(IrBlock *b, IrInst *in)
{
    IrValue c = in->operands[0];
    IrBlock *taken, *dropped = NULL;
    if (in->target[0] == in->target[1])
        taken = in->target[0];
    else if (c.kind == IRV_INT) {
        taken = in->target[(c.bits & 1) ? 0 : 1];
        dropped = in->target[(c.bits & 1) ? 1 : 0];
    } else
        return false;
    if (dropped)
        pass_remove_phi_edge(dropped, b);
    in->op = IR_BR;
    in->n_operands = 0;
    in->target[0] = taken;
    in->target[1] = NULL;
    return true;
}

/* ---- constant offsets ------------------------------------------------------------- */

/* Whether `in` is an integer x + k or x - k with k constant: then *x and
 * the offset k (negated for sub, in the width) are set. */
static bool offset_form(const IrInst *in, IrValue *x, uint64_t *k)
{
    if ((in->op != IR_ADD && in->op != IR_SUB) || !is_int(in->type) || in->type == IRT_I1)
        return false;
    IrValue a = in->operands[0], b = in->operands[1];
    if (a.kind == IRV_REG && b.kind == IRV_INT) {
        *x = a;
        *k = in->op == IR_ADD ? b.bits : 0 - b.bits;
        return true;
    }
    if (in->op == IR_ADD && a.kind == IRV_INT && b.kind == IRV_REG) {
        *x = b;
        *k = a.bits;
        return true;
    }
    return false;
}

/* (x + k1) + k2 is x + (k1 + k2), as is any mix of add and sub of
 * constants, since integers wrap: lowering's index arithmetic (t + 2 - 2)
 * is full of them.  `in` becomes `add x, k1 + k2`, or x itself when the
 * offsets cancel; the inner instruction is left for dce. */
static IrValue fold_offsets(IrInst *in, IrInst *const *def)
{
    IrValue x, inner_x;
    uint64_t k, inner_k;
    if (!offset_form(in, &x, &k) || !def[x.reg] || !offset_form(def[x.reg], &inner_x, &inner_k))
        return NO_FOLD;
    IrValue sum = int_result(in->type, k + inner_k);
    if (sum.bits == 0)
        return inner_x;
    in->op = IR_ADD;
    in->operands[0] = inner_x;
    in->operands[1] = sum;
    return NO_FOLD;
}

/* ---- strength reduction ------------------------------------------------------------- */

/* Unsigned division and remainder by a power of two are a shift and a
 * mask.  PTX's div.u64 and rem.u64 are long subroutines in SASS, and even
 * the 32-bit ones cost registers that ptxas does not always win back, so
 * `in` is rewritten in place (its result stays the same register). */
static bool reduce_strength(IrInst *in)
{
    if ((in->op != IR_UDIV && in->op != IR_UREM) || !is_int(in->type) || in->type == IRT_I1)
        return false;
    IrValue d = in->operands[1];
    uint64_t bits = d.bits & width_mask(in->type);
    if (d.kind != IRV_INT || bits < 2 || (bits & (bits - 1)) != 0)
        return false;
    int shift = 0;
    while ((UINT64_C(1) << shift) != bits)
        shift++;
    in->operands[1] = in->op == IR_UDIV ? int_result(in->type, (uint64_t)shift)
                                        : int_result(in->type, bits - 1);
    in->op = in->op == IR_UDIV ? IR_LSHR : IR_AND;
    return true;
}

/* ---- the pass ------------------------------------------------------------------------ */

static bool fold_block(IrBlock *b, IrSubst *s, IrInst *const *def, bool *dead)
{
    bool changed = false;
    for (uint32_t i = 0; i < b->n_insts; i++) {
        IrInst *in = b->insts[i];
        changed |= pass_subst_inst(s, in);
        if (in->op == IR_CBR) {
            changed |= fold_branch(b, in);
            continue;
        }
        if (in->op == IR_ASSIGNED && is_int_const(in->operands[0], 1)) {
            dead[i] = true;
            changed = true;
            continue;
        }
        if (in->op == IR_PHI || !ir_op_defines(in->op))
            continue;
        changed |= reduce_strength(in);
        IrValue v = fold_inst(in);
        if (v.kind == IRV_NONE && in->n_operands == 2) {
            IrValue before = in->operands[0];
            v = fold_offsets(in, def);
            changed |= !pass_same_value(before, in->operands[0]);
        }
        if (v.kind == IRV_NONE || (v.kind == IRV_REG && v.reg == in->result))
            continue;
        pass_subst_set(s, in->result, v);
        dead[i] = true;
        changed = true;
    }
    return changed;
}

bool pass_fold(IrModule *m, IrFunc *f, Arena *scratch)
{
    (void)m;
    IrCfg *cfg = cfg_build(f, scratch);
    IrSubst s = pass_subst_new(f, scratch);
    IrInst **def = pass_definitions(f, scratch);
    bool changed = false;
    bool **dead = ARENA_ARRAY(scratch, bool *, f->n_blocks);
    for (uint32_t i = 0; i < cfg->n_reachable; i++) {
        IrBlock *b = f->blocks[cfg->rpo[i]];
        dead[cfg->rpo[i]] = ARENA_ARRAY(scratch, bool, b->n_insts ? b->n_insts : 1);
        changed |= fold_block(b, &s, def, dead[cfg->rpo[i]]);
    }
    for (uint32_t b = 0; b < f->n_blocks; b++)
        if (dead[b])
            pass_delete_insts(f->blocks[b], dead[b]);
    changed |= pass_subst_func(&s, f);
    return changed;
}
