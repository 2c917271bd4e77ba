/*
 * ptx_inst.c: instruction selection, one IR instruction (not a phi or a
 * terminator, which ptx.c handles) at a time, through one dispatch switch.
 *
 * The choices, each for a reason:
 * - Signedness comes from the opcode: sdiv is div.s32, udiv div.u32, lshr
 *   shr.u32, ashr shr.s32, `cmp ult` setp.lo.u32.  Where it does not
 *   matter (add, sub, mul.lo) the signed form is used, as nvcc does.
 * - Float arithmetic names its rounding (add.rn.f32, div.rn.f32,
 *   sqrt.rn.f32, fma.rn.f32): an explicit .rn also keeps ptxas from
 *   contracting a mul and an add into an fma the IR did not ask for.
 *   rsqrt, sin, cos, exp and log are PTX's approximations (exp and log
 *   through ex2 and lg2, scaled by log2(e) and ln(2)); f64 has only rsqrt
 *   among them, so the others go through f32.
 * - Float-to-integer conversions truncate (cvt.rzi), integer-to-float and
 *   narrowing float conversions round to nearest (cvt.rn), as C does.
 *   `cmp fne` is setp.neu (true when either is NaN, as C's !=); the other
 *   float predicates are ordered.
 * - f16 arithmetic is native where PTX has it for sm_75 at PTX 6.3 (add,
 *   sub, mul, fma, setp); division, min, max and the math functions are
 *   done in f32 and rounded back, which for division and sqrt is still
 *   correctly rounded (f32 carries more than twice f16's precision); neg
 *   and abs flip or clear the sign bit.
 * - i8 lives in a .b16 register whose upper byte is undefined: add, sub,
 *   mul, the bit operations, shl and stores only read the low byte's
 *   bits, the conversions read it as .s8 or .u8; division, remainder,
 *   right shifts, min, max, abs and comparisons extend it first.
 * - i1 is a predicate: and/or/xor/not .pred; add and sub are xor, mul is
 *   and; select is two predicated movs; in memory and in parameters a bool
 *   is a byte.
 * - Atomics exist for 32- and 64-bit integers (and float add and exch);
 *   a sub-word atomic is reported as an error.
 */
#include "ptx_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

/* ---- type names -------------------------------------------------------------- */

/* An integer type at its register's width: i8 computes in 16 bits.  kind
 * is 's', 'u' or 'b'. */
static const char *int_type(IrType t, char kind)
{
    static const char *const s[] = {"s16", "s32", "s64"}, *const u[] = {"u16", "u32", "u64"},
                             *const b[] = {"b16", "b32", "b64"};
    int i = t == IRT_I64 ? 2 : t == IRT_I32 ? 1 : 0;
    assert(t >= IRT_I8 && t <= IRT_I64);
    return kind == 's' ? s[i] : kind == 'u' ? u[i] : b[i];
}

/* The exact integer type of a conversion's source: i8 is .s8 or .u8. */
static const char *exact_type(IrType t, char kind)
{
    if (t == IRT_I8)
        return kind == 's' ? "s8" : "u8";
    return int_type(t, kind);
}

static const char *float_type(IrType t)
{
    assert(t == IRT_F16 || t == IRT_F32 || t == IRT_F64);
    return t == IRT_F16 ? "f16" : t == IRT_F32 ? "f32" : "f64";
}

static bool is_float(IrType t)
{
    return t == IRT_F16 || t == IRT_F32 || t == IRT_F64;
}

/* selp's and bitcast's type: the register class's bit type, f32 and f64 as such. */
static const char *bit_type(IrType t)
{
    static const char *const names[PC_COUNT] = {"pred", "b32", "b64", "f32", "f64", "b16"};
    return names[ptx_class(t)];
}

/* ---- operands ---------------------------------------------------------------- */

static PtxOperand dst(const PtxFunc *e, const IrInst *in)
{
    return ptx_reg(e, in->result);
}

static PtxOperand src(PtxFunc *e, const IrInst *in, uint32_t k)
{
    return ptx_value(e, in->operands[k], false);
}

/* Operand k, an i8 register extended to its 16 bits (signed or not), so
 * that an instruction reading all 16 bits sees the i8's value. */
static PtxOperand extended(PtxFunc *e, const IrInst *in, uint32_t k, bool is_signed)
{
    IrValue v = in->operands[k];
    if (v.kind != IRV_REG || ptx_value_type(e, v) != IRT_I8)
        return ptx_value(e, v, !is_signed);
    PtxOperand t = ptx_temp(e, IRT_I8);
    const char *s = is_signed ? "s" : "u";
    ptx_line(e, "cvt.%s16.%s8 %s, %s", s, s, t.text, ptx_reg(e, v.reg).text);
    return t;
}

/* An f16 as an f32 temporary. */
static PtxOperand widen_half(PtxFunc *e, PtxOperand h)
{
    PtxOperand f = ptx_temp(e, IRT_F32);
    ptx_line(e, "cvt.f32.f16 %s, %s", f.text, h.text);
    return f;
}

/* ---- integer and predicate arithmetic ----------------------------------------------- */

/* OP.TYPE d, a, b, reading i8 operands extended when `extend`. */
static void int_binary(PtxFunc *e, const IrInst *in, const char *op, char kind, bool extend)
{
    PtxOperand a = extend ? extended(e, in, 0, kind == 's') : ptx_value(e, in->operands[0], kind == 'u');
    PtxOperand b = extend ? extended(e, in, 1, kind == 's') : ptx_value(e, in->operands[1], kind == 'u');
    ptx_line(e, "%s.%s %s, %s, %s", op, int_type(in->type, kind), dst(e, in).text, a.text, b.text);
}

static void pred_binary(PtxFunc *e, const IrInst *in, const char *op)
{
    PtxOperand a = src(e, in, 0), b = src(e, in, 1);
    ptx_line(e, "%s.pred %s, %s, %s", op, dst(e, in).text, a.text, b.text);
}

/* The shift amount as the .u32 PTX wants: constants clamped (PTX clamps
 * shifts past the width too), other widths converted. */
static PtxOperand shift_amount(PtxFunc *e, const IrInst *in)
{
    IrValue v = in->operands[1];
    if (v.kind != IRV_REG) {
        v.bits = v.bits > 255 ? 255 : v.bits;
        return ptx_value(e, v, true);
    }
    IrType t = ptx_value_type(e, v);
    if (t == IRT_I32)
        return ptx_reg(e, v.reg);
    PtxOperand u = ptx_temp(e, IRT_I32);
    ptx_line(e, "cvt.u32.%s %s, %s", exact_type(t, 'u'), u.text, ptx_reg(e, v.reg).text);
    return u;
}

static void shift(PtxFunc *e, const IrInst *in)
{
    if (in->type == IRT_I1) {
        ptx_error(e, in, "'%s' of i1 has no PTX form", ir_op_name(in->op));
        return;
    }
    char kind = in->op == IR_SHL ? 'b' : in->op == IR_LSHR ? 'u' : 's';
    PtxOperand a = in->op == IR_SHL ? src(e, in, 0) : extended(e, in, 0, kind == 's');
    PtxOperand b = shift_amount(e, in);
    ptx_line(e, "%s.%s %s, %s, %s", in->op == IR_SHL ? "shl" : "shr", int_type(in->type, kind),
             dst(e, in).text, a.text, b.text);
}

/* sdiv, udiv, srem, urem: extended operands; none for i1. */
static void divide(PtxFunc *e, const IrInst *in)
{
    if (in->type == IRT_I1) {
        ptx_error(e, in, "'%s' of i1 has no PTX form", ir_op_name(in->op));
        return;
    }
    bool rem = in->op == IR_SREM || in->op == IR_UREM;
    char kind = in->op == IR_SDIV || in->op == IR_SREM ? 's' : 'u';
    int_binary(e, in, rem ? "rem" : "div", kind, true);
}

/* min and max; on i1 (true is -1 when signed) they are and/or. */
static void int_minmax(PtxFunc *e, const IrInst *in)
{
    bool is_min = in->op == IR_SMIN || in->op == IR_UMIN;
    char kind = in->op == IR_SMIN || in->op == IR_SMAX ? 's' : 'u';
    if (in->type == IRT_I1)
        pred_binary(e, in, (is_min == (kind == 'u')) ? "and" : "or");
    else
        int_binary(e, in, is_min ? "min" : "max", kind, true);
}

/* add, sub and mul of integers and predicates (floats go to float_binary). */
static void int_arith(PtxFunc *e, const IrInst *in)
{
    if (in->type == IRT_I1) /* arithmetic modulo 2 */
        pred_binary(e, in, in->op == IR_MUL ? "and" : "xor");
    else
        int_binary(e, in, in->op == IR_ADD ? "add" : in->op == IR_SUB ? "sub" : "mul.lo", 's', false);
}

static void bitwise(PtxFunc *e, const IrInst *in)
{
    const char *op = in->op == IR_AND ? "and" : in->op == IR_OR ? "or" : "xor";
    if (in->type == IRT_I1)
        pred_binary(e, in, op);
    else
        int_binary(e, in, op, 'b', false);
}

/* neg, abs and not of integers and predicates. */
static void int_unary(PtxFunc *e, const IrInst *in)
{
    PtxOperand d = dst(e, in);
    if (in->type == IRT_I1) { /* -x and |x| are x modulo 2 */
        PtxOperand a = src(e, in, 0);
        ptx_line(e, "%s.pred %s, %s", in->op == IR_NOT ? "not" : "mov", d.text, a.text);
        return;
    }
    if (in->op == IR_NOT) {
        PtxOperand a = src(e, in, 0);
        ptx_line(e, "not.%s %s, %s", int_type(in->type, 'b'), d.text, a.text);
        return;
    }
    PtxOperand a = in->op == IR_ABS ? extended(e, in, 0, true) : src(e, in, 0);
    ptx_line(e, "%s.%s %s, %s", in->op == IR_ABS ? "abs" : "neg", int_type(in->type, 's'), d.text, a.text);
}

/* ---- floats ----------------------------------------------------------------------- */

static const char *float_binary_op(IrOp op)
{
    switch (op) {
    case IR_ADD: return "add.rn";
    case IR_SUB: return "sub.rn";
    case IR_MUL: return "mul.rn";
    case IR_FDIV: return "div.rn";
    case IR_FMIN: return "min";
    default: assert(op == IR_FMAX); return "max";
    }
}

static void float_binary(PtxFunc *e, const IrInst *in)
{
    const char *op = float_binary_op(in->op);
    PtxOperand a = src(e, in, 0), b = src(e, in, 1), d = dst(e, in);
    bool native = in->type != IRT_F16 || in->op == IR_ADD || in->op == IR_SUB || in->op == IR_MUL;
    if (native) {
        ptx_line(e, "%s.%s %s, %s, %s", op, float_type(in->type), d.text, a.text, b.text);
        return;
    }
    PtxOperand a32 = widen_half(e, a), b32 = widen_half(e, b), r = ptx_temp(e, IRT_F32);
    ptx_line(e, "%s.f32 %s, %s, %s", op, r.text, a32.text, b32.text);
    ptx_line(e, "cvt.rn.f16.f32 %s, %s", d.text, r.text);
}

static void fused_multiply_add(PtxFunc *e, const IrInst *in)
{
    PtxOperand a = src(e, in, 0), b = src(e, in, 1), c = src(e, in, 2);
    ptx_line(e, "fma.rn.%s %s, %s, %s, %s", float_type(in->type), dst(e, in).text, a.text, b.text, c.text);
}

/* A float function of one f32 or f64 operand. */
static void float_unary_core(PtxFunc *e, IrOp op, IrType t, PtxOperand d, PtxOperand a)
{
    const char *ft = float_type(t);
    PtxOperand s;
    switch (op) {
    case IR_SQRT: ptx_line(e, "sqrt.rn.%s %s, %s", ft, d.text, a.text); break;
    case IR_RSQRT: ptx_line(e, "rsqrt.approx.%s %s, %s", ft, d.text, a.text); break;
    case IR_FLOOR: ptx_line(e, "cvt.rmi.%s.%s %s, %s", ft, ft, d.text, a.text); break;
    case IR_CEIL: ptx_line(e, "cvt.rpi.%s.%s %s, %s", ft, ft, d.text, a.text); break;
    case IR_NEG: ptx_line(e, "neg.%s %s, %s", ft, d.text, a.text); break;
    case IR_ABS: ptx_line(e, "abs.%s %s, %s", ft, d.text, a.text); break;
    case IR_SIN: ptx_line(e, "sin.approx.f32 %s, %s", d.text, a.text); break;
    case IR_COS: ptx_line(e, "cos.approx.f32 %s, %s", d.text, a.text); break;
    case IR_EXP: /* e^x = 2^(x log2 e) */
        s = ptx_temp(e, IRT_F32);
        ptx_line(e, "mul.rn.f32 %s, %s, 0f3FB8AA3B", s.text, a.text);
        ptx_line(e, "ex2.approx.f32 %s, %s", d.text, s.text);
        break;
    default: /* ln x = log2(x) ln 2 */
        assert(op == IR_LOG);
        s = ptx_temp(e, IRT_F32);
        ptx_line(e, "lg2.approx.f32 %s, %s", s.text, a.text);
        ptx_line(e, "mul.rn.f32 %s, %s, 0f3F317218", d.text, s.text);
        break;
    }
}

/* Whether PTX has the function for f32 only. */
static bool f32_only(IrOp op)
{
    return op == IR_EXP || op == IR_LOG || op == IR_SIN || op == IR_COS;
}

/* Math functions, and neg and abs of floats. */
static void float_unary(PtxFunc *e, const IrInst *in)
{
    IrType t = in->type;
    PtxOperand a = src(e, in, 0), d = dst(e, in);
    if (t == IRT_F16 && (in->op == IR_NEG || in->op == IR_ABS)) { /* the sign bit */
        ptx_line(e, "%s.b16 %s, %s, %s", in->op == IR_NEG ? "xor" : "and", d.text, a.text,
                 in->op == IR_NEG ? "0x8000" : "0x7FFF");
        return;
    }
    if (t == IRT_F32 || (t == IRT_F64 && !f32_only(in->op))) {
        float_unary_core(e, in->op, t, d, a);
        return;
    }
    PtxOperand a32 = ptx_temp(e, IRT_F32), r = ptx_temp(e, IRT_F32);
    ptx_line(e, t == IRT_F16 ? "cvt.f32.f16 %s, %s" : "cvt.rn.f32.f64 %s, %s", a32.text, a.text);
    float_unary_core(e, in->op, IRT_F32, r, a32);
    ptx_line(e, t == IRT_F16 ? "cvt.rn.f16.f32 %s, %s" : "cvt.f64.f32 %s, %s", d.text, r.text);
}

/* ---- comparison and choice ------------------------------------------------------------ */

static void compare(PtxFunc *e, const IrInst *in)
{
    static const char *const preds[] = {
        [IRC_EQ] = "eq",  [IRC_NE] = "ne",  [IRC_SLT] = "lt", [IRC_SLE] = "le", [IRC_SGT] = "gt",
        [IRC_SGE] = "ge", [IRC_ULT] = "lo", [IRC_ULE] = "ls", [IRC_UGT] = "hi", [IRC_UGE] = "hs",
        [IRC_FEQ] = "eq", [IRC_FNE] = "neu", [IRC_FLT] = "lt", [IRC_FLE] = "le", [IRC_FGT] = "gt",
        [IRC_FGE] = "ge",
    };
    IrType t = ptx_value_type(e, in->operands[0]);
    PtxOperand d = dst(e, in);
    if (t == IRT_I1) { /* eq and ne only: xor, inverted for eq */
        PtxOperand a = src(e, in, 0), b = src(e, in, 1);
        ptx_line(e, "xor.pred %s, %s, %s", d.text, a.text, b.text);
        if (in->cmp == IRC_EQ)
            ptx_line(e, "not.pred %s, %s", d.text, d.text);
        return;
    }
    if (is_float(t)) {
        PtxOperand a = src(e, in, 0), b = src(e, in, 1);
        ptx_line(e, "setp.%s.%s %s, %s, %s", preds[in->cmp], float_type(t), d.text, a.text, b.text);
        return;
    }
    bool is_unsigned = in->cmp >= IRC_ULT;
    PtxOperand a = extended(e, in, 0, !is_unsigned), b = extended(e, in, 1, !is_unsigned);
    ptx_line(e, "setp.%s.%s %s, %s, %s", preds[in->cmp], int_type(t, is_unsigned ? 'u' : 's'), d.text,
             a.text, b.text);
}

static void select_value(PtxFunc *e, const IrInst *in)
{
    PtxOperand c = src(e, in, 0), a = src(e, in, 1), b = src(e, in, 2), d = dst(e, in);
    if (in->type == IRT_I1) { /* selp has no .pred form */
        ptx_line(e, "@%s mov.pred %s, %s", c.text, d.text, a.text);
        ptx_line(e, "@!%s mov.pred %s, %s", c.text, d.text, b.text);
        return;
    }
    ptx_line(e, "selp.%s %s, %s, %s, %s", bit_type(in->type), d.text, a.text, b.text, c.text);
}

/* ---- conversions ----------------------------------------------------------------------- */

/* From i1: true is -1 signed, 1 unsigned. */
static void from_bool(PtxFunc *e, const IrInst *in, PtxOperand d, PtxOperand a)
{
    bool is_signed = in->op == IR_SEXT || in->op == IR_SITOFP;
    const char *one = is_signed ? "-1" : "1";
    if (!is_float(in->type)) {
        ptx_line(e, "selp.%s %s, %s, 0, %s", int_type(in->type, is_signed ? 's' : 'u'), d.text, one, a.text);
        return;
    }
    PtxOperand w = ptx_temp(e, IRT_I32);
    ptx_line(e, "selp.s32 %s, %s, 0, %s", w.text, one, a.text);
    ptx_line(e, "cvt.rn.%s.s32 %s, %s", float_type(in->type), d.text, w.text);
}

/* To i1: the low bit (of the truncated value, from a float). */
static void to_bool(PtxFunc *e, const IrInst *in, IrType from, PtxOperand d, PtxOperand a)
{
    if (is_float(from)) {
        PtxOperand w = ptx_temp(e, IRT_I32);
        ptx_line(e, "cvt.rzi.%s32.%s %s, %s", in->op == IR_FPTOSI ? "s" : "u", float_type(from), w.text,
                 a.text);
        a = w;
        from = IRT_I32;
    }
    PtxOperand bit = ptx_temp(e, from);
    ptx_line(e, "and.%s %s, %s, 1", int_type(from, 'b'), bit.text, a.text);
    ptx_line(e, "setp.ne.%s %s, %s, 0", int_type(from, 'b'), d.text, bit.text);
}

static void convert(PtxFunc *e, const IrInst *in)
{
    IrType from = ptx_value_type(e, in->operands[0]), to = in->type;
    PtxOperand a = src(e, in, 0), d = dst(e, in);
    if (from == IRT_I1) {
        from_bool(e, in, d, a);
        return;
    }
    if (to == IRT_I1) {
        to_bool(e, in, from, d, a);
        return;
    }
    switch (in->op) {
    case IR_SEXT: ptx_line(e, "cvt.%s.%s %s, %s", int_type(to, 's'), exact_type(from, 's'), d.text, a.text); break;
    case IR_ZEXT: ptx_line(e, "cvt.%s.%s %s, %s", int_type(to, 'u'), exact_type(from, 'u'), d.text, a.text); break;
    case IR_TRUNC:
        if (ptx_class(from) == ptx_class(to)) /* i16 to i8: the same register bits */
            ptx_line(e, "mov.b16 %s, %s", d.text, a.text);
        else
            ptx_line(e, "cvt.%s.%s %s, %s", int_type(to, 'u'), int_type(from, 'u'), d.text, a.text);
        break;
    case IR_FPTOSI: case IR_FPTOUI:
        ptx_line(e, "cvt.rzi.%s.%s %s, %s", int_type(to, in->op == IR_FPTOSI ? 's' : 'u'), float_type(from),
                 d.text, a.text);
        break;
    case IR_SITOFP: case IR_UITOFP:
        ptx_line(e, "cvt.rn.%s.%s %s, %s", float_type(to), exact_type(from, in->op == IR_SITOFP ? 's' : 'u'),
                 d.text, a.text);
        break;
    case IR_FPEXT: ptx_line(e, "cvt.%s.%s %s, %s", float_type(to), float_type(from), d.text, a.text); break;
    default:
        assert(in->op == IR_FPTRUNC);
        ptx_line(e, "cvt.rn.%s.%s %s, %s", float_type(to), float_type(from), d.text, a.text);
        break;
    }
}

/* copy, and bitcast: the same bits in a register of the result's class. */
static void move(PtxFunc *e, const IrInst *in)
{
    if (in->op == IR_COPY || in->type == IRT_I1) {
        ptx_move(e, in->type, dst(e, in), in->operands[0]);
        return;
    }
    PtxOperand a = src(e, in, 0);
    ptx_line(e, "mov.b%d %s, %s", ir_type_bits(in->type), dst(e, in).text, a.text);
}

/* ---- memory --------------------------------------------------------------------------- */

static PtxOperand address(PtxFunc *e, IrValue v)
{
    PtxOperand o;
    if (v.kind == IRV_REG)
        snprintf(o.text, sizeof o.text, "[%.24s]", ptx_reg(e, v.reg).text); /* "%rd" and 10 digits at most */
    else
        snprintf(o.text, sizeof o.text, "[%" PRIu64 "]", v.bits);
    return o;
}

static void store(PtxFunc *e, const IrInst *in)
{
    if (in->space == IRS_PARAM && e->f->kernel) {
        ptx_error(e, in, "a kernel's parameters cannot be stored to in PTX");
        return;
    }
    IrType t = ptx_value_type(e, in->operands[1]);
    PtxOperand addr = address(e, in->operands[0]), v = src(e, in, 1);
    if (t == IRT_I1) { /* a bool is a byte */
        PtxOperand byte = ptx_temp(e, IRT_I16);
        ptx_line(e, "selp.u16 %s, 1, 0, %s", byte.text, v.text);
        v = byte;
    }
    ptx_line(e, "st.%s.%s %s, %s", ir_space_name(in->space), ptx_mem_type(t), addr.text, v.text);
}

static void atomic(PtxFunc *e, const IrInst *in)
{
    static const char *const ops[] = {[IRA_ADD] = "add",  [IRA_SMIN] = "min", [IRA_UMIN] = "min",
                                      [IRA_SMAX] = "max", [IRA_UMAX] = "max", [IRA_EXCH] = "exch",
                                      [IRA_CAS] = "cas"};
    IrType t = in->type;
    bool word = t == IRT_I32 || t == IRT_I64, fl = t == IRT_F32 || t == IRT_F64;
    if (!word && !(fl && (in->atom == IRA_ADD || in->atom == IRA_EXCH))) {
        ptx_error(e, in, "'atom.%s' of %s has no PTX form", ir_atom_name(in->atom), ir_type_name(t));
        return;
    }
    const char *type;
    if (in->atom == IRA_EXCH || in->atom == IRA_CAS)
        type = ir_type_bits(t) == 64 ? "b64" : "b32";
    else if (fl)
        type = float_type(t);
    else
        type = int_type(t, in->atom == IRA_SMIN || in->atom == IRA_SMAX ? 's' : 'u');
    bool is_unsigned = type[0] == 'u';
    PtxOperand addr = address(e, in->operands[0]), b = ptx_value(e, in->operands[1], is_unsigned);
    PtxOperand d = dst(e, in);
    const char *space = ir_space_name(in->space);
    if (in->atom == IRA_CAS) {
        PtxOperand c = ptx_value(e, in->operands[2], false);
        ptx_line(e, "atom.%s.cas.%s %s, %s, %s, %s", space, type, d.text, addr.text, b.text, c.text);
    } else {
        ptx_line(e, "atom.%s.%s.%s %s, %s, %s", space, ops[in->atom], type, d.text, addr.text, b.text);
    }
}

/* A shared array's address in the shared window, or a parameter's in the
 * parameter space: the symbol itself. */
static void address_of(PtxFunc *e, const IrInst *in)
{
    PtxOperand d = dst(e, in);
    if (in->space == IRS_SHARED) {
        ptx_line(e, "mov.u%d %s, %s", ir_type_bits(in->type), d.text, in->symbol);
        return;
    }
    for (uint32_t p = 0; p < e->f->n_params; p++)
        if (e->f->params[p].name && strcmp(e->f->params[p].name, in->symbol) == 0) {
            ptx_line(e, "mov.u64 %s, %s_param_%" PRIu32, d.text, e->f->name, p);
            return;
        }
    ptx_error(e, in, "$%s is not a parameter of @%s", in->symbol, e->f->name);
}

/* ---- the machine ---------------------------------------------------------------------- */

static void shuffle(PtxFunc *e, const IrInst *in)
{
    /* c packs the segment mask (0: the whole warp) and the clamp: the last
     * lane for down, bfly and idx, the first for up. */
    const char *clamp = in->shfl == IRSH_UP ? "0" : "31";
    PtxOperand a = src(e, in, 0), b = src(e, in, 1);
    ptx_line(e, "shfl.sync.%s.b32 %s, %s, %s, %s, 0xffffffff", ir_shfl_name(in->shfl), dst(e, in).text, a.text,
             b.text, clamp);
}

/* ---- the dispatch ---------------------------------------------------------------------- */

void ptx_inst(PtxFunc *e, const IrInst *in)
{
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL:
        if (is_float(in->type))
            float_binary(e, in);
        else
            int_arith(e, in);
        break;
    case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM: divide(e, in); break;
    case IR_FDIV: case IR_FMIN: case IR_FMAX: float_binary(e, in); break;
    case IR_AND: case IR_OR: case IR_XOR: bitwise(e, in); break;
    case IR_SHL: case IR_LSHR: case IR_ASHR: shift(e, in); break;
    case IR_SMIN: case IR_UMIN: case IR_SMAX: case IR_UMAX: int_minmax(e, in); break;
    case IR_NEG: case IR_ABS:
        if (is_float(in->type))
            float_unary(e, in);
        else
            int_unary(e, in);
        break;
    case IR_NOT: int_unary(e, in); break;
    case IR_FMA: fused_multiply_add(e, in); break;
    case IR_SQRT: case IR_RSQRT: case IR_EXP: case IR_LOG: case IR_SIN: case IR_COS: case IR_FLOOR:
    case IR_CEIL:
        float_unary(e, in);
        break;
    case IR_CMP: compare(e, in); break;
    case IR_SELECT: select_value(e, in); break;
    case IR_SEXT: case IR_ZEXT: case IR_TRUNC: case IR_FPTOSI: case IR_FPTOUI: case IR_SITOFP:
    case IR_UITOFP: case IR_FPEXT: case IR_FPTRUNC:
        convert(e, in);
        break;
    case IR_BITCAST: case IR_COPY: move(e, in); break;
    case IR_LOAD: {
        PtxOperand addr = address(e, in->operands[0]);
        ptx_load(e, ir_space_name(in->space), in->type, dst(e, in), addr.text);
        break;
    }
    case IR_STORE: store(e, in); break;
    case IR_ATOM: atomic(e, in); break;
    case IR_ADDR: address_of(e, in); break;
    case IR_SREG: ptx_line(e, "mov.u32 %s, %%%s", dst(e, in).text, ir_sreg_name(in->sreg)); break;
    case IR_SHFL: shuffle(e, in); break;
    case IR_BALLOT: {
        PtxOperand p = src(e, in, 0);
        ptx_line(e, "vote.sync.ballot.b32 %s, %s, 0xffffffff", dst(e, in).text, p.text);
        break;
    }
    case IR_BARRIER: ptx_line(e, "bar.sync 0"); break;
    case IR_CHECK: case IR_ASSIGNED: break; /* the CPU backend's checks */
    default: /* phis and terminators are ptx.c's */
        assert(in->op == IR_PHI || ir_op_is_terminator(in->op));
        break;
    }
}
