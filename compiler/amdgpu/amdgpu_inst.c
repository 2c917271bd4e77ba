/*
 * amdgpu_inst.c: instruction selection for the AMDGPU backend, one IR
 * instruction (not a phi or a terminator, which amdgpu.c handles) at a
 * time, through one dispatch switch.
 *
 * Results agree with the CPU backend's (cpu/cpu_inst.c, cpu_prelude.h),
 * which has PTX's semantics, wherever LLVM would leave them undefined or
 * differ; each choice for that reason:
 * - Division by zero gives all ones (udiv, sdiv) or the dividend (urem,
 *   srem), sdiv by -1 negates (INT_MIN wraps) and srem by -1 is 0: the
 *   divisor is replaced by 1 before LLVM's udiv/sdiv, which are undefined
 *   there, and the answer chosen by select.
 * - A shift amount is read as PTX's .u32 (a 64-bit one truncated, a
 *   constant clamped to 255); shl and lshr by the width or more give 0,
 *   ashr by it the sign (the amount clamped to width - 1).  LLVM's shifts
 *   past the width are poison, which the select discards.
 * - fmin and fmax return the other operand for a NaN (llvm.minnum), and
 *   take -0 below +0, which minnum leaves open: equal operands give the
 *   OR (min) or AND (max) of their bits.
 * - Float-to-integer conversions saturate and take NaN to 0
 *   (llvm.fpto[su]i.sat), an i8 result saturating at 16 bits as PTX's
 *   cvt.rzi.s16 does; to i1, the low bit of the 32-bit conversion.
 * - A float result whose NaN bits can be seen (a store, bitcast, atomic:
 *   the CPU backend's ir_nan_seen) is made PTX's canonical NaN
 *   (0x7fffffff, 0x7fffffffffffffff, f16 0x7fff), as the CPU backend
 *   does for the same results.
 * - f16 division and math functions go through f32, as PTX's and the CPU
 *   backend's do; f64's exp, log, sin and cos through f32 too.  exp is
 *   2^(x log2 e), log log2(x) ln 2, rsqrt 1 / sqrt(x).
 * - `cmp fne` is unordered (une: true for a NaN, as C's !=); the other
 *   float predicates are ordered.
 * - i1 arithmetic is modulo 2: add and sub are xor, mul is and; min and
 *   max are and or or (true is -1 when signed).
 * Memory: a global address is a pointer in addrspace(1), a shared one the
 * 32-bit offset of an LDS pointer (addrspace 3), a local one of private
 * memory (addrspace 5); a bool is a byte in memory.  Atomics are relaxed
 * (monotonic) at the agent (global) or workgroup (shared) scope, as PTX's
 * atom is.  A kernel's parameters live in its kernarg segment, which Silk
 * never addresses: ld.param and addr.param have no form here.
 * The machine (the Semantics of issue 15):
 * - tid.x is workitem.id.x, ctaid.x workgroup.id.x; ntid.x and nctaid.x
 *   come from the HSA dispatch packet (workgroup_size_x at byte 4, the
 *   grid's work-items grid_size_x at byte 12, over the workgroup size).
 * - laneid is the lane in the wavefront (mbcnt) modulo 32, warpid
 *   tid.x / 32: a Silk warp is 32 lanes on every target, half a wave64.
 * - A shuffle reads its source lane with ds_bpermute (a byte address),
 *   the lane computed as PTX's shfl computes it within 32 lanes, then
 *   placed in the reading lane's half of the wavefront: (lane & ~31) |
 *   src.  A ballot of a wave64 is shifted down to the lane's half.
 * - A barrier is s_barrier between a workgroup release and acquire
 *   fence, as HIP's __syncthreads.
 * - nsmid (ctx.sms) has no AMD form: no register holds the CU count.
 */
#include "amdgpu_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------------- */

static bool is_float(IrType t) { return t == IRT_F16 || t == IRT_F32 || t == IRT_F64; }

static LlValue src(const LlFunc *e, const IrInst *in, uint32_t k)
{
    return amdgpu_value(e, in->operands[k]);
}

static const char *dst(const IrInst *in, char buf[16])
{
    snprintf(buf, 16, "%%r%" PRIu32, in->result);
    return buf;
}

/* The integer type of a float's bits ("i16" for half). */
static const char *bits_type(IrType t)
{
    return t == IRT_F16 ? "i16" : t == IRT_F32 ? "i32" : t == IRT_F64 ? "i64" : "i32";
}

/* The suffix of an overloaded intrinsic: "i32", "f16", "f32" ... */
static const char *suffix(IrType t)
{
    switch (t) {
    case IRT_F16: return "f16";
    case IRT_F32: return "f32";
    case IRT_F64: return "f64";
    default: return amdgpu_type(t);
    }
}

/* `call T @NAME.SUFFIX(T a[, T b[, T c]])` into `into`, declared. */
static void call_math(LlFunc *e, const char *into, const char *name, IrType t, int n,
                      const LlValue *args)
{
    const char *ty = amdgpu_type(t);
    char decl[160], params[48] = "";
    for (int i = 0; i < n; i++)
        snprintf(params + strlen(params), sizeof params - strlen(params), "%s%s", i ? ", " : "", ty);
    snprintf(decl, sizeof decl, "declare %s @%s.%s(%s)", ty, name, suffix(t), params);
    amdgpu_declare(e, decl);
    if (n == 1)
        amdgpu_line(e, "%s = call %s @%s.%s(%s %s)", into, ty, name, suffix(t), ty, args[0].text);
    else if (n == 2)
        amdgpu_line(e, "%s = call %s @%s.%s(%s %s, %s %s)", into, ty, name, suffix(t), ty, args[0].text,
                ty, args[1].text);
    else
        amdgpu_line(e, "%s = call %s @%s.%s(%s %s, %s %s, %s %s)", into, ty, name, suffix(t), ty,
                args[0].text, ty, args[1].text, ty, args[2].text);
}

/* PTX's canonical NaN of `t` (what the CPU backend makes), as a constant:
 * f32's as the double LLVM writes it, its payload in the top bits. */
static const char *canonical_nan(IrType t)
{
    return t == IRT_F16 ? "0xH7FFF" : t == IRT_F32 ? "0x7FFFFFFFE0000000" : "0x7FFFFFFFFFFFFFFF";
}

/* Where a float result is computed: the result itself, or a temporary
 * when its NaN must then be made canonical (float_result). */
static LlValue float_target(LlFunc *e, const IrInst *in)
{
    return e->nan_seen[in->result] ? amdgpu_temp(e) : amdgpu_reg(in->result);
}

/* The result from `value` (float_target's): a NaN made canonical where
 * its bits can be seen. */
static void float_result(LlFunc *e, const IrInst *in, LlValue value)
{
    if (!e->nan_seen[in->result])
        return;
    const char *ty = amdgpu_type(in->type);
    char d[16];
    LlValue nan = amdgpu_temp(e);
    amdgpu_line(e, "%s = fcmp uno %s %s, 0.0", nan.text, ty, value.text);
    amdgpu_line(e, "%s = select i1 %s, %s %s, %s %s", dst(in, d), nan.text, ty, canonical_nan(in->type), ty,
            value.text);
}

/* ---- integers -------------------------------------------------------------------------- */

static void int_binary(LlFunc *e, const IrInst *in)
{
    char d[16];
    const char *op;
    if (in->type == IRT_I1) /* arithmetic modulo 2 */
        op = in->op == IR_MUL || in->op == IR_AND ? "and" : in->op == IR_OR ? "or" : "xor";
    else
        op = in->op == IR_ADD ? "add" : in->op == IR_SUB ? "sub" : in->op == IR_MUL ? "mul"
           : in->op == IR_AND ? "and" : in->op == IR_OR ? "or" : "xor";
    amdgpu_line(e, "%s = %s %s %s, %s", dst(in, d), op, amdgpu_type(in->type), src(e, in, 0).text,
            src(e, in, 1).text);
}

/* udiv, urem, sdiv, srem with the CPU backend's answers where LLVM's are
 * undefined (see the top). */
static void divide(LlFunc *e, const IrInst *in)
{
    if (in->type == IRT_I1) {
        amdgpu_error(e, in, "'%s' of i1 has no AMDGPU form", ir_op_name(in->op));
        return;
    }
    const char *ty = amdgpu_type(in->type);
    LlValue a = src(e, in, 0), b = src(e, in, 1);
    bool is_signed = in->op == IR_SDIV || in->op == IR_SREM;
    bool rem = in->op == IR_SREM || in->op == IR_UREM;
    const char *op = is_signed ? (rem ? "srem" : "sdiv") : (rem ? "urem" : "udiv");
    char d[16];
    IrValue by = in->operands[1];
    uint64_t mask = ir_type_bits(in->type) == 64 ? UINT64_MAX : (UINT64_C(1) << ir_type_bits(in->type)) - 1;
    if (by.kind == IRV_INT && (by.bits & mask) != 0 && (!is_signed || (by.bits & mask) != mask)) {
        amdgpu_line(e, "%s = %s %s %s, %s", dst(in, d), op, ty, a.text, b.text); /* LLVM's own answer */
        return;
    }
    LlValue zero = amdgpu_temp(e);
    amdgpu_line(e, "%s = icmp eq %s %s, 0", zero.text, ty, b.text);
    LlValue minus_one = zero, unsafe = zero;
    if (is_signed) {
        minus_one = amdgpu_temp(e);
        amdgpu_line(e, "%s = icmp eq %s %s, -1", minus_one.text, ty, b.text);
        unsafe = amdgpu_temp(e);
        amdgpu_line(e, "%s = or i1 %s, %s", unsafe.text, zero.text, minus_one.text);
    }
    LlValue safe = amdgpu_temp(e);
    amdgpu_line(e, "%s = select i1 %s, %s 1, %s %s", safe.text, unsafe.text, ty, ty, b.text);
    LlValue q = amdgpu_temp(e);
    amdgpu_line(e, "%s = %s %s %s, %s", q.text, op, ty, a.text, safe.text);
    if (is_signed) { /* by -1: the negation (wrapping), or 0 for srem */
        LlValue negated = a;
        if (!rem) {
            negated = amdgpu_temp(e);
            amdgpu_line(e, "%s = sub %s 0, %s", negated.text, ty, a.text);
        }
        LlValue by_minus_one = amdgpu_temp(e);
        amdgpu_line(e, "%s = select i1 %s, %s %s, %s %s", by_minus_one.text, minus_one.text, ty,
                rem ? "0" : negated.text, ty, q.text);
        q = by_minus_one;
    }
    amdgpu_line(e, "%s = select i1 %s, %s %s, %s %s", dst(in, d), zero.text, ty, rem ? a.text : "-1", ty,
                q.text);
}

/* The shift amount as an i32, as PTX's .u32 operand (see the top). */
static LlValue shift_amount(LlFunc *e, IrValue v)
{
    if (v.kind != IRV_REG)
        return amdgpu_int((long long)(v.bits > 255 ? 255 : v.bits));
    IrType t = amdgpu_value_type(e, v);
    if (t == IRT_I32)
        return amdgpu_reg(v.reg);
    LlValue a = amdgpu_temp(e);
    amdgpu_line(e, "%s = %s %s %s to i32", a.text, t == IRT_I64 ? "trunc" : "zext", amdgpu_type(t),
            amdgpu_reg(v.reg).text);
    return a;
}

/* An i32 amount at the shifted type's width. */
static LlValue amount_as(LlFunc *e, LlValue amount, IrType t)
{
    if (t == IRT_I32)
        return amount;
    LlValue a = amdgpu_temp(e);
    amdgpu_line(e, "%s = %s i32 %s to %s", a.text, t == IRT_I64 ? "zext" : "trunc", amount.text,
                amdgpu_type(t));
    return a;
}

static void shift(LlFunc *e, const IrInst *in)
{
    if (in->type == IRT_I1) {
        amdgpu_error(e, in, "'%s' of i1 has no AMDGPU form", ir_op_name(in->op));
        return;
    }
    const char *ty = amdgpu_type(in->type);
    int bits = ir_type_bits(in->type);
    LlValue a = src(e, in, 0);
    char d[16];
    IrValue by = in->operands[1];
    if (by.kind != IRV_REG) { /* a constant amount: folded, for the reader */
        uint64_t n = by.bits > 255 ? 255 : by.bits;
        if (n >= (uint64_t)bits && in->op != IR_ASHR)
            amdgpu_line(e, "%s = and %s %s, 0", dst(in, d), ty, a.text);
        else
            amdgpu_line(e, "%s = %s %s %s, %llu", dst(in, d),
                        in->op == IR_SHL    ? "shl"
                        : in->op == IR_LSHR ? "lshr"
                                            : "ashr",
                        ty, a.text, (unsigned long long)(n >= (uint64_t)bits ? (uint64_t)bits - 1 : n));
        return;
    }
    LlValue amount = shift_amount(e, by);
    if (in->op == IR_ASHR) { /* past the width: the sign, everywhere */
        LlValue clamped = amdgpu_temp(e);
        amdgpu_declare(e, "declare i32 @llvm.umin.i32(i32, i32)");
        amdgpu_line(e, "%s = call i32 @llvm.umin.i32(i32 %s, i32 %d)", clamped.text, amount.text, bits - 1);
        amdgpu_line(e, "%s = ashr %s %s, %s", dst(in, d), ty, a.text, amount_as(e, clamped, in->type).text);
        return;
    }
    LlValue past = amdgpu_temp(e), shifted = amdgpu_temp(e);
    amdgpu_line(e, "%s = icmp uge i32 %s, %d", past.text, amount.text, bits);
    LlValue n = amount_as(e, amount, in->type);
    amdgpu_line(e, "%s = %s %s %s, %s", shifted.text, in->op == IR_SHL ? "shl" : "lshr", ty, a.text, n.text);
    amdgpu_line(e, "%s = select i1 %s, %s 0, %s %s", dst(in, d), past.text, ty, ty, shifted.text);
}

static void int_minmax(LlFunc *e, const IrInst *in)
{
    bool is_min = in->op == IR_SMIN || in->op == IR_UMIN;
    bool is_signed = in->op == IR_SMIN || in->op == IR_SMAX;
    char d[16];
    if (in->type == IRT_I1) { /* true is -1 when signed: min is and for unsigned */
        amdgpu_line(e, "%s = %s i1 %s, %s", dst(in, d), is_min == !is_signed ? "and" : "or",
                src(e, in, 0).text, src(e, in, 1).text);
        return;
    }
    LlValue args[2] = {src(e, in, 0), src(e, in, 1)};
    const char *name = in->op == IR_SMIN ? "llvm.smin" : in->op == IR_UMIN ? "llvm.umin"
                     : in->op == IR_SMAX ? "llvm.smax" : "llvm.umax";
    call_math(e, dst(in, d), name, in->type, 2, args);
}

/* neg, abs and not of integers and predicates. */
static void int_unary(LlFunc *e, const IrInst *in)
{
    const char *ty = amdgpu_type(in->type);
    LlValue a = src(e, in, 0);
    char d[16];
    if (in->type == IRT_I1) /* -x and |x| are x modulo 2 */
        amdgpu_line(e, "%s = xor i1 %s, %s", dst(in, d), a.text, in->op == IR_NOT ? "true" : "false");
    else if (in->op == IR_NOT)
        amdgpu_line(e, "%s = xor %s %s, -1", dst(in, d), ty, a.text);
    else if (in->op == IR_NEG)
        amdgpu_line(e, "%s = sub %s 0, %s", dst(in, d), ty, a.text);
    else { /* |INT_MIN| wraps to INT_MIN */
        char decl[96];
        snprintf(decl, sizeof decl, "declare %s @llvm.abs.%s(%s, i1)", ty, ty, ty);
        amdgpu_declare(e, decl);
        amdgpu_line(e, "%s = call %s @llvm.abs.%s(%s %s, i1 false)", dst(in, d), ty, ty, ty, a.text);
    }
}

/* ---- floats ---------------------------------------------------------------------------- */

/* `v` of type `from` converted to `to` (fpext or fptrunc) in a temporary. */
static LlValue float_convert(LlFunc *e, LlValue v, IrType from, IrType to)
{
    LlValue t = amdgpu_temp(e);
    amdgpu_line(e, "%s = %s %s %s to %s", t.text, ir_type_bits(to) > ir_type_bits(from) ? "fpext" : "fptrunc",
            amdgpu_type(from), v.text, amdgpu_type(to));
    return t;
}

/* min and max: minnum's answer, but -0 below +0 (see the top). */
static void float_minmax(LlFunc *e, const IrInst *in, LlValue into)
{
    IrType t = in->type;
    const char *ty = amdgpu_type(t), *it = bits_type(t);
    bool is_min = in->op == IR_FMIN;
    LlValue args[2] = {src(e, in, 0), src(e, in, 1)};
    LlValue m = amdgpu_temp(e), ia = amdgpu_temp(e), ib = amdgpu_temp(e), joined = amdgpu_temp(e),
            signed_zero = amdgpu_temp(e);
    LlValue equal = amdgpu_temp(e);
    call_math(e, m.text, is_min ? "llvm.minnum" : "llvm.maxnum", t, 2, args);
    amdgpu_line(e, "%s = bitcast %s %s to %s", ia.text, ty, args[0].text, it);
    amdgpu_line(e, "%s = bitcast %s %s to %s", ib.text, ty, args[1].text, it);
    amdgpu_line(e, "%s = %s %s %s, %s", joined.text, is_min ? "or" : "and", it, ia.text, ib.text);
    amdgpu_line(e, "%s = bitcast %s %s to %s", signed_zero.text, it, joined.text, ty);
    amdgpu_line(e, "%s = fcmp oeq %s %s, %s", equal.text, ty, args[0].text, args[1].text);
    amdgpu_line(e, "%s = select i1 %s, %s %s, %s %s", into.text, equal.text, ty, signed_zero.text, ty,
                m.text);
}

static void float_binary(LlFunc *e, const IrInst *in)
{
    IrType t = in->type;
    LlValue into = float_target(e, in);
    if (in->op == IR_FMIN || in->op == IR_FMAX) {
        float_minmax(e, in, into);
    } else if (t == IRT_F16 && in->op == IR_FDIV) { /* through f32, as PTX's */
        LlValue a = float_convert(e, src(e, in, 0), t, IRT_F32),
                b = float_convert(e, src(e, in, 1), t, IRT_F32);
        LlValue q = amdgpu_temp(e);
        amdgpu_line(e, "%s = fdiv float %s, %s", q.text, a.text, b.text);
        amdgpu_line(e, "%s = fptrunc float %s to half", into.text, q.text);
    } else {
        const char *op = in->op == IR_ADD ? "fadd" : in->op == IR_SUB ? "fsub" : in->op == IR_MUL ? "fmul"
                       : "fdiv";
        amdgpu_line(e, "%s = %s %s %s, %s", into.text, op, amdgpu_type(t), src(e, in, 0).text,
                    src(e, in, 1).text);
    }
    float_result(e, in, into);
}

static void fused_multiply_add(LlFunc *e, const IrInst *in)
{
    LlValue args[3] = {src(e, in, 0), src(e, in, 1), src(e, in, 2)};
    LlValue into = float_target(e, in);
    call_math(e, into.text, "llvm.fma", in->type, 3, args);
    float_result(e, in, into);
}

/* A math function of one f32 (or f64, where `t` is) value into `into`. */
static void math_core(LlFunc *e, IrOp op, IrType t, const char *into, LlValue x)
{
    const char *ty = amdgpu_type(t);
    LlValue s = amdgpu_temp(e);
    switch (op) {
    case IR_SQRT: call_math(e, into, "llvm.sqrt", t, 1, &x); break;
    case IR_FLOOR: call_math(e, into, "llvm.floor", t, 1, &x); break;
    case IR_CEIL: call_math(e, into, "llvm.ceil", t, 1, &x); break;
    case IR_SIN: call_math(e, into, "llvm.sin", t, 1, &x); break;
    case IR_COS: call_math(e, into, "llvm.cos", t, 1, &x); break;
    case IR_RSQRT:
        call_math(e, s.text, "llvm.sqrt", t, 1, &x);
        amdgpu_line(e, "%s = fdiv %s 1.0, %s", into, ty, s.text);
        break;
    case IR_EXP: /* e^x = 2^(x log2 e), log2 e rounded to f32 (0x3FB8AA3B) */
        amdgpu_line(e, "%s = fmul float %s, 0x3FF7154760000000", s.text, x.text);
        call_math(e, into, "llvm.exp2", IRT_F32, 1, &s);
        break;
    default: /* ln x = log2(x) ln 2, ln 2 rounded to f32 (0x3F317218) */
        assert(op == IR_LOG);
        call_math(e, s.text, "llvm.log2", IRT_F32, 1, &x);
        amdgpu_line(e, "%s = fmul float %s, 0x3FE62E4300000000", into, s.text);
        break;
    }
}

static bool f32_only(IrOp op) { return op == IR_EXP || op == IR_LOG || op == IR_SIN || op == IR_COS; }

/* Math functions, and neg and abs of floats. */
static void float_unary(LlFunc *e, const IrInst *in)
{
    IrType t = in->type;
    const char *ty = amdgpu_type(t);
    LlValue a = src(e, in, 0);
    char d[16];
    if (in->op == IR_NEG) { /* the sign bit, NaN or not */
        amdgpu_line(e, "%s = fneg %s %s", dst(in, d), ty, a.text);
        return;
    }
    if (in->op == IR_ABS) {
        call_math(e, dst(in, d), "llvm.fabs", t, 1, &a);
        return;
    }
    LlValue into = float_target(e, in);
    if (t == IRT_F32 || (t == IRT_F64 && !f32_only(in->op))) {
        math_core(e, in->op, t, into.text, a);
    } else { /* through f32 */
        LlValue x = float_convert(e, a, t, IRT_F32), r = amdgpu_temp(e);
        math_core(e, in->op, IRT_F32, r.text, x);
        amdgpu_line(e, "%s = %s float %s to %s", into.text, t == IRT_F64 ? "fpext" : "fptrunc", r.text, ty);
    }
    float_result(e, in, into);
}

/* ---- comparison and choice ---------------------------------------------------------------- */

static void compare(LlFunc *e, const IrInst *in)
{
    static const char *const preds[] = {
        [IRC_EQ] = "eq",   [IRC_NE] = "ne",   [IRC_SLT] = "slt", [IRC_SLE] = "sle", [IRC_SGT] = "sgt",
        [IRC_SGE] = "sge", [IRC_ULT] = "ult", [IRC_ULE] = "ule", [IRC_UGT] = "ugt", [IRC_UGE] = "uge",
        [IRC_FEQ] = "oeq", [IRC_FNE] = "une", [IRC_FLT] = "olt", [IRC_FLE] = "ole", [IRC_FGT] = "ogt",
        [IRC_FGE] = "oge",
    };
    IrType t = amdgpu_value_type(e, in->operands[0]);
    char d[16];
    amdgpu_line(e, "%s = %s %s %s %s, %s", dst(in, d), is_float(t) ? "fcmp" : "icmp", preds[in->cmp],
                amdgpu_type(t), src(e, in, 0).text, src(e, in, 1).text);
}

static void select_value(LlFunc *e, const IrInst *in)
{
    const char *ty = amdgpu_type(in->type);
    char d[16];
    amdgpu_line(e, "%s = select i1 %s, %s %s, %s %s", dst(in, d), src(e, in, 0).text, ty, src(e, in, 1).text,
                ty, src(e, in, 2).text);
}

/* ---- conversions ---------------------------------------------------------------------------- */

/* A saturating float-to-integer conversion of `a` (of `from`) to `bits`. */
static LlValue saturate(LlFunc *e, bool is_signed, IrType from, LlValue a, int bits)
{
    const char *s = is_signed ? "fptosi" : "fptoui";
    char decl[96];
    snprintf(decl, sizeof decl, "declare i%d @llvm.%s.sat.i%d.%s(%s)", bits, s, bits, suffix(from),
             amdgpu_type(from));
    amdgpu_declare(e, decl);
    LlValue r = amdgpu_temp(e);
    amdgpu_line(e, "%s = call i%d @llvm.%s.sat.i%d.%s(%s %s)", r.text, bits, s, bits, suffix(from),
                amdgpu_type(from), a.text);
    return r;
}

static void convert(LlFunc *e, const IrInst *in)
{
    IrType from = amdgpu_value_type(e, in->operands[0]), to = in->type;
    const char *ft = amdgpu_type(from), *tt = amdgpu_type(to);
    LlValue a = src(e, in, 0);
    bool is_signed = in->op == IR_SEXT || in->op == IR_SITOFP || in->op == IR_FPTOSI;
    char d[16];
    if (from == to && !is_float(to)) { /* a same-width extension or truncation */
        amdgpu_line(e, "%s = or %s %s, %s", dst(in, d), tt, a.text, to == IRT_I1 ? "false" : "0");
    } else if (from == IRT_I1) { /* true is -1 signed, 1 unsigned */
        amdgpu_line(e, "%s = %s i1 %s to %s", dst(in, d),
                is_float(to) ? (is_signed ? "sitofp" : "uitofp") : (is_signed ? "sext" : "zext"), a.text, tt);
    } else if (to == IRT_I1) { /* the low bit (of the 32-bit conversion, from a float) */
        if (is_float(from))
            a = saturate(e, is_signed, from, a, 32), from = IRT_I32;
        amdgpu_line(e, "%s = trunc %s %s to i1", dst(in, d), amdgpu_type(from), a.text);
    } else if (in->op == IR_FPTOSI || in->op == IR_FPTOUI) { /* i8 saturates at 16 bits */
        LlValue r = saturate(e, is_signed, from, a, to == IRT_I8 ? 16 : ir_type_bits(to));
        if (to == IRT_I8)
            amdgpu_line(e, "%s = trunc i16 %s to i8", dst(in, d), r.text);
        else
            amdgpu_line(e, "%s = or %s %s, 0", dst(in, d), tt, r.text);
    } else if (in->op == IR_FPEXT || in->op == IR_FPTRUNC) {
        LlValue into = float_target(e, in);
        amdgpu_line(e, "%s = %s %s %s to %s", into.text, in->op == IR_FPEXT ? "fpext" : "fptrunc", ft, a.text,
                    tt);
        float_result(e, in, into);
    } else {
        static const char *const names[] = {[IR_SEXT] = "sext", [IR_ZEXT] = "zext", [IR_TRUNC] = "trunc",
                                            [IR_SITOFP] = "sitofp", [IR_UITOFP] = "uitofp"};
        amdgpu_line(e, "%s = %s %s %s to %s", dst(in, d), names[in->op], ft, a.text, tt);
    }
}

/* copy, and bitcast: the same bits as the result's type. */
static void move(LlFunc *e, const IrInst *in)
{
    IrType from = amdgpu_value_type(e, in->operands[0]), to = in->type;
    LlValue a = src(e, in, 0);
    char d[16];
    if (ir_type_bits(from) != ir_type_bits(to)) {
        amdgpu_error(e, in, "a bitcast from %s to %s has no AMDGPU form", ir_type_name(from),
                     ir_type_name(to));
        return;
    }
    /* LLVM has no copy; a bitcast to the same type is one */
    amdgpu_line(e, "%s = bitcast %s %s to %s", dst(in, d), amdgpu_type(from), a.text, amdgpu_type(to));
}

/* ---- memory ---------------------------------------------------------------------------------- */

/* The pointer of an access to `space` at the i64 address `v`; false
 * (reported) for a space Silk's kernels do not address on AMD. */
static bool pointer(LlFunc *e, const IrInst *in, IrValue v, LlValue *p, const char **ptr_type)
{
    LlValue addr = amdgpu_value(e, v);
    IrType t = amdgpu_value_type(e, v);
    *p = amdgpu_temp(e);
    if (in->space == IRS_GLOBAL) {
        *ptr_type = "ptr addrspace(1)";
        amdgpu_line(e, "%s = inttoptr %s %s to ptr addrspace(1)", p->text, amdgpu_type(t), addr.text);
        return true;
    }
    if (in->space == IRS_PARAM) {
        amdgpu_error(e, in, "parameter-space memory has no AMDGPU form");
        return false;
    }
    /* LDS and private memory take 32-bit offsets */
    *ptr_type = in->space == IRS_SHARED ? "ptr addrspace(3)" : "ptr addrspace(5)";
    LlValue offset = addr;
    if (t != IRT_I32) {
        offset = amdgpu_temp(e);
        amdgpu_line(e, "%s = trunc %s %s to i32", offset.text, amdgpu_type(t), addr.text);
    }
    amdgpu_line(e, "%s = inttoptr i32 %s to %s", p->text, offset.text, *ptr_type);
    return true;
}

static void load(LlFunc *e, const IrInst *in)
{
    LlValue p;
    const char *pt;
    char d[16];
    if (!pointer(e, in, in->operands[0], &p, &pt))
        return;
    if (in->type == IRT_I1) { /* a bool is a byte */
        LlValue byte = amdgpu_temp(e);
        amdgpu_line(e, "%s = load i8, %s %s, align 1", byte.text, pt, p.text);
        amdgpu_line(e, "%s = icmp ne i8 %s, 0", dst(in, d), byte.text);
        return;
    }
    amdgpu_line(e, "%s = load %s, %s %s, align %" PRIu32, dst(in, d), amdgpu_type(in->type), pt, p.text,
            ir_natural_align(in->type));
}

static void store(LlFunc *e, const IrInst *in)
{
    LlValue p;
    const char *pt;
    if (!pointer(e, in, in->operands[0], &p, &pt))
        return;
    IrType t = amdgpu_value_type(e, in->operands[1]);
    LlValue v = src(e, in, 1);
    if (t == IRT_I1) { /* a bool is a byte: 0 or 1 */
        LlValue byte = amdgpu_temp(e);
        amdgpu_line(e, "%s = zext i1 %s to i8", byte.text, v.text);
        v = byte;
        t = IRT_I8;
    }
    amdgpu_line(e, "store %s %s, %s %s, align %" PRIu32, amdgpu_type(t), v.text, pt, p.text,
                ir_natural_align(t));
}

static void atomic(LlFunc *e, const IrInst *in)
{
    static const char *const ops[] = {[IRA_ADD] = "add",   [IRA_SMIN] = "min", [IRA_UMIN] = "umin",
                                      [IRA_SMAX] = "max",  [IRA_UMAX] = "umax", [IRA_EXCH] = "xchg"};
    IrType t = in->type;
    bool word = t == IRT_I32 || t == IRT_I64, fl = t == IRT_F32 || t == IRT_F64;
    if (!word && !(fl && (in->atom == IRA_ADD || in->atom == IRA_EXCH))) {
        amdgpu_error(e, in, "'atom.%s' of %s has no AMDGPU form", ir_atom_name(in->atom), ir_type_name(t));
        return;
    }
    LlValue p;
    const char *pt, *ty = amdgpu_type(t);
    if (!pointer(e, in, in->operands[0], &p, &pt))
        return;
    const char *scope = in->space == IRS_SHARED ? "workgroup" : "agent";
    LlValue b = src(e, in, 1);
    char d[16];
    if (in->atom == IRA_CAS) { /* operands: the expected value, then the new one */
        LlValue pair = amdgpu_temp(e);
        amdgpu_line(e,
                    "%s = cmpxchg %s %s, %s %s, %s %s syncscope(\"%s\") monotonic monotonic, align %" PRIu32,
                    pair.text, pt, p.text, ty, b.text, ty, src(e, in, 2).text, scope, ir_natural_align(t));
        amdgpu_line(e, "%s = extractvalue { %s, i1 } %s, 0", dst(in, d), ty, pair.text);
        return;
    }
    const char *op = fl && in->atom == IRA_ADD ? "fadd" : ops[in->atom];
    amdgpu_line(e, "%s = atomicrmw %s %s %s, %s %s syncscope(\"%s\") monotonic, align %" PRIu32, dst(in, d),
                op, pt, p.text, ty, b.text, scope, ir_natural_align(t));
}

/* A shared array's address: its offset in the workgroup's LDS. */
static void address_of(LlFunc *e, const IrInst *in)
{
    if (in->space != IRS_SHARED) {
        amdgpu_error(e, in, "the address of a kernel parameter has no AMDGPU form");
        return;
    }
    char d[16];
    if (in->type == IRT_I32) {
        amdgpu_line(e, "%s = ptrtoint ptr addrspace(3) @%s to i32", dst(in, d), in->symbol);
        return;
    }
    LlValue offset = amdgpu_temp(e);
    amdgpu_line(e, "%s = ptrtoint ptr addrspace(3) @%s to i32", offset.text, in->symbol);
    amdgpu_line(e, "%s = zext i32 %s to %s", dst(in, d), offset.text, amdgpu_type(in->type));
}

/* ---- the machine ---------------------------------------------------------------------------- */

/* The lane's index in its wavefront (mbcnt of all lanes below it),
 * computed where it is used (one value for the function would have to
 * be placed where it dominates every use; LLVM merges the copies). */
static LlValue hardware_lane(LlFunc *e)
{
    LlValue low = amdgpu_temp(e);
    amdgpu_declare(e, "declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)");
    amdgpu_line(e, "%s = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)", low.text);
    if (e->wave_size == 32)
        return low;
    LlValue lane = amdgpu_temp(e);
    amdgpu_declare(e, "declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)");
    amdgpu_line(e, "%s = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %s)", lane.text, low.text);
    return lane;
}

/* The first lane of the Silk warp of the lane `hw` (hardware_lane) in
 * its wavefront, 0 or 32, into *base on wave64; false on wave32, where the
 * warp is the wavefront. */
static bool half_base(LlFunc *e, LlValue hw, LlValue *base)
{
    if (e->wave_size == 32)
        return false;
    *base = amdgpu_temp(e);
    amdgpu_line(e, "%s = and i32 %s, 32", base->text, hw.text);
    return true;
}

/* A field of the HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t):
 * `bits` wide at byte `offset`, as an i32. */
static LlValue dispatch_field(LlFunc *e, int offset, int bits)
{
    LlValue packet = amdgpu_temp(e), field = amdgpu_temp(e), value = amdgpu_temp(e);
    amdgpu_declare(e, "declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()");
    amdgpu_line(e, "%s = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()", packet.text);
    amdgpu_line(e, "%s = getelementptr inbounds i8, ptr addrspace(4) %s, i64 %d", field.text, packet.text,
                offset);
    amdgpu_line(e, "%s = load i%d, ptr addrspace(4) %s, align %d, !invariant.load !{}", value.text, bits,
            field.text, bits / 8);
    if (bits == 32)
        return value;
    LlValue wide = amdgpu_temp(e);
    amdgpu_line(e, "%s = zext i%d %s to i32", wide.text, bits, value.text);
    return wide;
}

static void special_register(LlFunc *e, const IrInst *in)
{
    char d[16];
    switch (in->sreg) {
    case IRR_TID_X:
        amdgpu_declare(e, "declare i32 @llvm.amdgcn.workitem.id.x()");
        amdgpu_line(e, "%s = call i32 @llvm.amdgcn.workitem.id.x()", dst(in, d));
        break;
    case IRR_CTAID_X:
        amdgpu_declare(e, "declare i32 @llvm.amdgcn.workgroup.id.x()");
        amdgpu_line(e, "%s = call i32 @llvm.amdgcn.workgroup.id.x()", dst(in, d));
        break;
    case IRR_NTID_X: {
        LlValue size = dispatch_field(e, 4, 16);
        amdgpu_line(e, "%s = or i32 %s, 0", dst(in, d), size.text);
        break;
    }
    case IRR_NCTAID_X: {
        LlValue size = dispatch_field(e, 4, 16), grid = dispatch_field(e, 12, 32);
        amdgpu_line(e, "%s = udiv i32 %s, %s", dst(in, d), grid.text, size.text);
        break;
    }
    case IRR_LANEID: amdgpu_line(e, "%s = and i32 %s, 31", dst(in, d), hardware_lane(e).text); break;
    case IRR_WARPID: {
        LlValue tid = amdgpu_temp(e);
        amdgpu_declare(e, "declare i32 @llvm.amdgcn.workitem.id.x()");
        amdgpu_line(e, "%s = call i32 @llvm.amdgcn.workitem.id.x()", tid.text);
        amdgpu_line(e, "%s = lshr i32 %s, 5", dst(in, d), tid.text);
        break;
    }
    case IRR_NSMID:
        amdgpu_error(e, in, "ctx.sms has no AMDGPU form: no register holds the number of CUs");
        break;
    }
}

/* The source lane in the Silk warp, as PTX's shfl.sync computes it with
 * the clamps the PTX backend gives (0 for up, else 31): out of range, the
 * lane reads itself. */
static LlValue source_lane(LlFunc *e, const IrInst *in, LlValue lane)
{
    IrValue operand = in->operands[1];
    LlValue b = operand.kind == IRV_REG ? amdgpu_temp(e) : amdgpu_int((long long)(operand.bits & 31));
    if (operand.kind == IRV_REG)
        amdgpu_line(e, "%s = and i32 %s, 31", b.text, src(e, in, 1).text);
    if (in->shfl == IRSH_IDX)
        return b;
    LlValue j = amdgpu_temp(e);
    if (in->shfl == IRSH_BFLY) {
        amdgpu_line(e, "%s = xor i32 %s, %s", j.text, lane.text, b.text);
        return j;
    }
    LlValue ok = amdgpu_temp(e), picked = amdgpu_temp(e);
    if (in->shfl == IRSH_DOWN) {
        amdgpu_line(e, "%s = add i32 %s, %s", j.text, lane.text, b.text);
        amdgpu_line(e, "%s = icmp ule i32 %s, 31", ok.text, j.text);
    } else {
        amdgpu_line(e, "%s = sub i32 %s, %s", j.text, lane.text, b.text);
        amdgpu_line(e, "%s = icmp uge i32 %s, %s", ok.text, lane.text, b.text);
    }
    amdgpu_line(e, "%s = select i1 %s, i32 %s, i32 %s", picked.text, ok.text, j.text, lane.text);
    return picked;
}

static void shuffle(LlFunc *e, const IrInst *in)
{
    IrType t = in->type;
    if (t != IRT_I32 && t != IRT_F32) {
        amdgpu_error(e, in, "a shuffle of %s has no AMDGPU form (32 bits only)", ir_type_name(t));
        return;
    }
    LlValue hw = hardware_lane(e), lane = amdgpu_temp(e);
    amdgpu_line(e, "%s = and i32 %s, 31", lane.text, hw.text);
    LlValue from = source_lane(e, in, lane), base;
    if (half_base(e, hw, &base)) { /* the same half of the wave64: (lane & ~31) | src */
        LlValue in_half = amdgpu_temp(e);
        amdgpu_line(e, "%s = or i32 %s, %s", in_half.text, base.text, from.text);
        from = in_half;
    }
    LlValue address = amdgpu_temp(e), value = src(e, in, 0), got = amdgpu_temp(e);
    amdgpu_line(e, "%s = shl i32 %s, 2", address.text, from.text);
    if (t == IRT_F32) {
        LlValue bits = amdgpu_temp(e);
        amdgpu_line(e, "%s = bitcast float %s to i32", bits.text, value.text);
        value = bits;
    }
    amdgpu_declare(e, "declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)");
    char d[16];
    if (t == IRT_I32) {
        amdgpu_line(e, "%s = call i32 @llvm.amdgcn.ds.bpermute(i32 %s, i32 %s)", dst(in, d), address.text,
                    value.text);
        return;
    }
    amdgpu_line(e, "%s = call i32 @llvm.amdgcn.ds.bpermute(i32 %s, i32 %s)", got.text, address.text,
                value.text);
    amdgpu_line(e, "%s = bitcast i32 %s to float", dst(in, d), got.text);
}

/* The predicate's ballot over the Silk warp: a wave64's shifted down to
 * the lane's half. */
static void ballot(LlFunc *e, const IrInst *in)
{
    LlValue p = src(e, in, 0), base;
    char d[16];
    if (e->wave_size == 32 || !half_base(e, hardware_lane(e), &base)) {
        amdgpu_declare(e, "declare i32 @llvm.amdgcn.ballot.i32(i1)");
        amdgpu_line(e, "%s = call i32 @llvm.amdgcn.ballot.i32(i1 %s)", dst(in, d), p.text);
        return;
    }
    LlValue all = amdgpu_temp(e), by = amdgpu_temp(e), half = amdgpu_temp(e);
    amdgpu_declare(e, "declare i64 @llvm.amdgcn.ballot.i64(i1)");
    amdgpu_line(e, "%s = call i64 @llvm.amdgcn.ballot.i64(i1 %s)", all.text, p.text);
    amdgpu_line(e, "%s = zext i32 %s to i64", by.text, base.text);
    amdgpu_line(e, "%s = lshr i64 %s, %s", half.text, all.text, by.text);
    amdgpu_line(e, "%s = trunc i64 %s to i32", dst(in, d), half.text);
}

static void barrier(LlFunc *e)
{
    amdgpu_declare(e, "declare void @llvm.amdgcn.s.barrier()");
    amdgpu_line(e, "fence syncscope(\"workgroup\") release");
    amdgpu_line(e, "call void @llvm.amdgcn.s.barrier()");
    amdgpu_line(e, "fence syncscope(\"workgroup\") acquire");
}

/* ---- the dispatch ----------------------------------------------------------------------------- */

void amdgpu_inst(LlFunc *e, const IrInst *in)
{
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL:
        if (is_float(in->type))
            float_binary(e, in);
        else
            int_binary(e, in);
        break;
    case IR_AND: case IR_OR: case IR_XOR: int_binary(e, in); break;
    case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM: divide(e, in); break;
    case IR_FDIV: case IR_FMIN: case IR_FMAX: float_binary(e, in); break;
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
    case IR_LOAD: load(e, in); break;
    case IR_STORE: store(e, in); break;
    case IR_ATOM: atomic(e, in); break;
    case IR_ADDR: address_of(e, in); break;
    case IR_SREG: special_register(e, in); break;
    case IR_SHFL: shuffle(e, in); break;
    case IR_BALLOT: ballot(e, in); break;
    case IR_BARRIER: barrier(e); break;
    case IR_CHECK: case IR_ASSIGNED: break; /* the CPU backend's checks */
    default: /* phis and terminators are amdgpu.c's */
        assert(in->op == IR_PHI || ir_op_is_terminator(in->op));
        break;
    }
}
