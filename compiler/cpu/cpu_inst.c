/*
 * cpu_inst.c: one IR instruction as C, with PTX's semantics (cpu_prelude.h
 * holds the helpers for what C leaves undefined).
 *
 * Every register is a C local of its type's holder (cpu_ctype): i1 and i8
 * a uint8_t, f16 its bits in a uint16_t.  Integer arithmetic is done
 * unsigned, at 32 bits at least, so that it wraps as PTX's does and never
 * meets C's signed overflow or integer promotion; signedness comes from
 * the opcode, through casts.  Each choice mirrors the PTX backend's
 * (ptx/ptx_inst.c): i8 division and comparisons read the byte extended,
 * float-to-integer conversions saturate, exp and log go through 2^x and
 * log2 as ex2 and lg2 do, and f64's exp, log, sin and cos through f32.
 */
#include "cpu_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

enum { VALUE_SIZE = 96 };

const char *cpu_ctype(IrType t)
{
    switch (t) {
    case IRT_I1: case IRT_I8: return "uint8_t";
    case IRT_I16: case IRT_F16: return "uint16_t";
    case IRT_I32: return "uint32_t";
    case IRT_I64: return "uint64_t";
    case IRT_F32: return "float";
    case IRT_F64: return "double";
    case IRT_VOID: break;
    }
    return "void";
}

static bool is_float(IrType t) { return t == IRT_F16 || t == IRT_F32 || t == IRT_F64; }

/* The integer width the helpers are named by (i1 and i8: 8). */
static int width(IrType t) { return t == IRT_I1 ? 8 : ir_type_bits(t); }

/* The unsigned type integer arithmetic of `t` is done in. */
static const char *wide(IrType t) { return t == IRT_I64 ? "uint64_t" : "uint32_t"; }

IrType cpu_value_type(const CpuFunc *e, IrValue v)
{
    return v.kind == IRV_REG ? e->reg_types[v.reg] : v.type;
}

const char *cpu_value(CpuFunc *e, IrValue v, char *buf, size_t size)
{
    IrType t = cpu_value_type(e, v);
    if (v.kind == IRV_REG)
        snprintf(buf, size, "r%" PRIu32, v.reg);
    else if (t == IRT_F32)
        snprintf(buf, size, "silk_bits_f32(0x%08" PRIx32 "u)", (uint32_t)v.bits);
    else if (t == IRT_F64)
        snprintf(buf, size, "silk_bits_f64(UINT64_C(0x%016" PRIx64 "))", v.bits);
    else if (t == IRT_I64)
        snprintf(buf, size, "UINT64_C(%" PRIu64 ")", v.bits);
    else /* the low bits of the type, as the IR keeps them */
        snprintf(buf, size, "(%s)%" PRIu64 "u", cpu_ctype(t),
                 t == IRT_I1 ? v.bits & 1 : v.bits & ((UINT64_C(1) << ir_type_bits(t)) - 1));
    return buf;
}

void cpu_error(CpuFunc *e, const IrInst *in, const char *what)
{
    diag_error(e->diag, in->span, "the CPU backend cannot run %s yet", what);
    e->ok = false;
}

/* Operand k as C. */
#define OP(k) cpu_value(e, in->operands[k], op##k, sizeof op##k)

static void assign(CpuFunc *e, const IrInst *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* rN = <fmt>; */
static void assign(CpuFunc *e, const IrInst *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(e->out, "    r%" PRIu32 " = ", in->result);
    vfprintf(e->out, fmt, ap);
    fputs(";\n", e->out);
    va_end(ap);
}

/* ---- integers ---------------------------------------------------------------------- */

static const char *signed_type(IrType t)
{
    switch (t) {
    case IRT_I1: case IRT_I8: return "int8_t";
    case IRT_I16: return "int16_t";
    case IRT_I32: return "int32_t";
    default: return "int64_t";
    }
}

static void int_binary(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE];
    IrType t = in->type;
    const char *ct = cpu_ctype(t), *w = wide(t);
    if (t == IRT_I1) { /* arithmetic modulo 2 */
        const char *c = in->op == IR_MUL || in->op == IR_AND ? "&" : in->op == IR_OR ? "|" : "^";
        assign(e, in, "(uint8_t)(%s %s %s)", OP(0), c, OP(1));
        return;
    }
    const char *c = in->op == IR_ADD ? "+" : in->op == IR_SUB ? "-" : in->op == IR_MUL ? "*"
                  : in->op == IR_AND ? "&" : in->op == IR_OR ? "|" : "^";
    assign(e, in, "(%s)((%s)%s %s (%s)%s)", ct, w, OP(0), c, w, OP(1));
}

static void divide(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE];
    if (in->type == IRT_I1) {
        cpu_error(e, in, "a division of i1");
        return;
    }
    const char *name = in->op == IR_SDIV ? "sdiv" : in->op == IR_UDIV ? "udiv"
                     : in->op == IR_SREM ? "srem" : "urem";
    assign(e, in, "silk_%s%d(%s, %s)", name, width(in->type), OP(0), OP(1));
}

/* The shift amount as PTX's .u32 operand: constants clamped to 255, as the
 * PTX backend writes them; registers converted (a 64-bit one truncated). */
static const char *shift_amount(CpuFunc *e, IrValue v, char *buf, size_t size)
{
    char value[VALUE_SIZE];
    if (v.kind != IRV_REG)
        snprintf(buf, size, "%" PRIu64 "u", v.bits > 255 ? 255 : v.bits);
    else
        snprintf(buf, size, "(uint32_t)%s", cpu_value(e, v, value, sizeof value));
    return buf;
}

static void shift(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], amount[VALUE_SIZE + 16];
    if (in->type == IRT_I1) {
        cpu_error(e, in, "a shift of i1");
        return;
    }
    const char *name = in->op == IR_SHL ? "shl" : in->op == IR_LSHR ? "lshr" : "ashr";
    assign(e, in, "silk_%s%d(%s, %s)", name, width(in->type), OP(0),
           shift_amount(e, in->operands[1], amount, sizeof amount));
}

static void int_minmax(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE];
    bool is_min = in->op == IR_SMIN || in->op == IR_UMIN;
    bool is_signed = in->op == IR_SMIN || in->op == IR_SMAX;
    if (in->type == IRT_I1) { /* true is -1 when signed: min is and for unsigned */
        assign(e, in, "(uint8_t)(%s %s %s)", OP(0), is_min == !is_signed ? "&" : "|", OP(1));
        return;
    }
    const char *cast = is_signed ? signed_type(in->type) : cpu_ctype(in->type);
    assign(e, in, "(%s)%s %s (%s)%s ? %s : %s", cast, OP(0), is_min ? "<" : ">", cast, OP(1),
           op0, op1);
}

static void int_unary(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE];
    IrType t = in->type;
    const char *ct = cpu_ctype(t), *w = wide(t);
    if (t == IRT_I1) /* -x and |x| are x modulo 2 */
        assign(e, in, in->op == IR_NOT ? "(uint8_t)!%s" : "%s", OP(0));
    else if (in->op == IR_NOT)
        assign(e, in, "(%s)~(%s)%s", ct, w, OP(0));
    else if (in->op == IR_NEG)
        assign(e, in, "(%s)(0 - (%s)%s)", ct, w, OP(0));
    else
        assign(e, in, "(%s)%s < 0 ? (%s)(0 - (%s)%s) : %s", signed_type(t), OP(0), ct, w, op0, op0);
}

/* ---- floats ------------------------------------------------------------------------- */

/* Operand k as a double (an f16's value, exactly). */
static const char *as_double(CpuFunc *e, const IrInst *in, uint32_t k, char *buf, size_t size)
{
    char value[VALUE_SIZE];
    cpu_value(e, in->operands[k], value, sizeof value);
    if (cpu_value_type(e, in->operands[k]) == IRT_F16)
        snprintf(buf, size, "silk_half_to_double(%s)", value);
    else
        snprintf(buf, size, "(double)%s", value);
    return buf;
}

/* rN = EXPR, an f32 or f64 arithmetic result: a NaN made canonical where
 * its bits can be seen (cpu_nan.c; elsewhere only its being a NaN counts). */
static void assign_float(CpuFunc *e, const IrInst *in, const char *expr)
{
    if (e->nan_seen[in->result])
        assign(e, in, "silk_nan_f%d(%s)", ir_type_bits(in->type), expr);
    else
        assign(e, in, "%s", expr);
}

/* rN = EXPR, where EXPR (a double) is rounded to the result's type (a
 * NaN to the canonical one: silk_double_to_half makes f16's). */
static void assign_rounded(CpuFunc *e, const IrInst *in, const char *expr)
{
    char cast[4 * VALUE_SIZE];
    if (in->type == IRT_F16) {
        assign(e, in, "silk_double_to_half(%s)", expr);
    } else {
        snprintf(cast, sizeof cast, "(%s)(%s)", cpu_ctype(in->type), expr);
        assign_float(e, in, cast);
    }
}

static void float_binary(CpuFunc *e, const IrInst *in)
{
    char a[VALUE_SIZE + 32], b[VALUE_SIZE + 32], op0[VALUE_SIZE], op1[VALUE_SIZE];
    char expr[2 * VALUE_SIZE + 96];
    const char *c = in->op == IR_ADD ? "+" : in->op == IR_SUB ? "-" : in->op == IR_MUL ? "*" : "/";
    if (in->op == IR_FMIN || in->op == IR_FMAX) {
        snprintf(expr, sizeof expr, "silk_f%s(%s, %s)", in->op == IR_FMIN ? "min" : "max",
                 as_double(e, in, 0, a, sizeof a), as_double(e, in, 1, b, sizeof b));
        assign_rounded(e, in, expr);
    } else if (in->type == IRT_F16) {
        snprintf(expr, sizeof expr, "%s %s %s", as_double(e, in, 0, a, sizeof a), c,
                 as_double(e, in, 1, b, sizeof b));
        assign_rounded(e, in, expr);
    } else { /* f32 and f64: C's arithmetic is IEEE's, rounded to nearest */
        snprintf(expr, sizeof expr, "%s %s %s", OP(0), c, OP(1));
        assign_float(e, in, expr);
    }
}

static void fused_multiply_add(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE], op2[VALUE_SIZE];
    char a[VALUE_SIZE + 32], b[VALUE_SIZE + 32], c[VALUE_SIZE + 32], expr[3 * VALUE_SIZE + 128];
    if (in->type == IRT_F32 || in->type == IRT_F64) {
        snprintf(expr, sizeof expr, "fma%s(%s, %s, %s)", in->type == IRT_F32 ? "f" : "", OP(0),
                 OP(1), OP(2));
        assign_float(e, in, expr);
    } else {
        snprintf(expr, sizeof expr, "fma(%s, %s, %s)", as_double(e, in, 0, a, sizeof a),
                 as_double(e, in, 1, b, sizeof b), as_double(e, in, 2, c, sizeof c));
        assign_rounded(e, in, expr);
    }
}

/* The C of a math function of one f32 (or, with `f64`, f64) operand. */
static const char *math_function(IrOp op, bool f64, const char *x, char *buf, size_t size)
{
    const char *s = f64 ? "" : "f";
    switch (op) {
    case IR_SQRT: snprintf(buf, size, "sqrt%s(%s)", s, x); break;
    case IR_RSQRT: snprintf(buf, size, "1 / sqrt%s(%s)", s, x); break;
    case IR_FLOOR: snprintf(buf, size, "floor%s(%s)", s, x); break;
    case IR_CEIL: snprintf(buf, size, "ceil%s(%s)", s, x); break;
    case IR_NEG: snprintf(buf, size, "-%s", x); break;
    case IR_ABS: snprintf(buf, size, "fabs%s(%s)", s, x); break;
    case IR_SIN: snprintf(buf, size, "sinf(%s)", x); break;
    case IR_COS: snprintf(buf, size, "cosf(%s)", x); break;
    case IR_EXP: snprintf(buf, size, "exp2f(%s * 0x1.715476p+0f)", x); break; /* ex2 of x log2 e */
    default: snprintf(buf, size, "log2f(%s) * 0x1.62e43p-1f", x); break;     /* lg2 x times ln 2 */
    }
    return buf;
}

static bool f32_only(IrOp op) { return op == IR_EXP || op == IR_LOG || op == IR_SIN || op == IR_COS; }

static void float_unary(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], x[VALUE_SIZE + 32], expr[2 * VALUE_SIZE + 64];
    IrType t = in->type;
    if (t == IRT_F16 && (in->op == IR_NEG || in->op == IR_ABS)) { /* the sign bit */
        assign(e, in, in->op == IR_NEG ? "(uint16_t)(%s ^ 0x8000u)" : "(uint16_t)(%s & 0x7fffu)",
               OP(0));
        return;
    }
    if ((t == IRT_F32 || t == IRT_F64) && (in->op == IR_NEG || in->op == IR_ABS)) {
        assign(e, in, "%s", math_function(in->op, t == IRT_F64, OP(0), expr, sizeof expr));
        return;
    }
    if (t == IRT_F32 || (t == IRT_F64 && !f32_only(in->op))) {
        assign_float(e, in, math_function(in->op, t == IRT_F64, OP(0), expr, sizeof expr));
        return;
    }
    /* Through f32, as PTX has these for f32 only. */
    snprintf(x, sizeof x, "(float)%s", as_double(e, in, 0, op0, sizeof op0));
    assign_rounded(e, in, math_function(in->op, false, x, expr, sizeof expr));
}

/* ---- comparison and choice ------------------------------------------------------------- */

static void compare(CpuFunc *e, const IrInst *in)
{
    static const char *const ops[] = {
        [IRC_EQ] = "==", [IRC_NE] = "!=", [IRC_SLT] = "<", [IRC_SLE] = "<=", [IRC_SGT] = ">",
        [IRC_SGE] = ">=", [IRC_ULT] = "<", [IRC_ULE] = "<=", [IRC_UGT] = ">", [IRC_UGE] = ">=",
        [IRC_FEQ] = "==", [IRC_FNE] = "!=", [IRC_FLT] = "<", [IRC_FLE] = "<=", [IRC_FGT] = ">",
        [IRC_FGE] = ">=",
    };
    char op0[VALUE_SIZE], op1[VALUE_SIZE], a[VALUE_SIZE + 32], b[VALUE_SIZE + 32];
    IrType t = cpu_value_type(e, in->operands[0]);
    if (is_float(t)) /* C's == < <= > >= are ordered and its != unordered, as PTX's neu */
        assign(e, in, "(uint8_t)(%s %s %s)", as_double(e, in, 0, a, sizeof a), ops[in->cmp],
               as_double(e, in, 1, b, sizeof b));
    else if (in->cmp >= IRC_SLT && in->cmp <= IRC_SGE)
        assign(e, in, "(uint8_t)((%s)%s %s (%s)%s)", signed_type(t), OP(0), ops[in->cmp],
               signed_type(t), OP(1));
    else
        assign(e, in, "(uint8_t)(%s %s %s)", OP(0), ops[in->cmp], OP(1));
}

static void select_value(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE], op2[VALUE_SIZE];
    assign(e, in, "%s ? %s : %s", OP(0), OP(1), OP(2));
}

/* ---- conversions ------------------------------------------------------------------------ */

/* From i1: true is -1 signed, 1 unsigned. */
static void from_bool(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE];
    bool is_signed = in->op == IR_SEXT || in->op == IR_SITOFP;
    if (in->type == IRT_F16)
        assign(e, in, "%s ? (uint16_t)%s : 0", OP(0), is_signed ? "0xbc00u" : "0x3c00u");
    else if (is_float(in->type))
        assign(e, in, "%s ? %s : 0", OP(0), is_signed ? "-1" : "1");
    else
        assign(e, in, "%s ? (%s)%s : 0", OP(0), cpu_ctype(in->type), is_signed ? "-1" : "1");
}

/* To i1: the low bit (of the value truncated to 32 bits, from a float). */
static void to_bool(CpuFunc *e, const IrInst *in, IrType from)
{
    char op0[VALUE_SIZE], d[VALUE_SIZE + 32];
    if (is_float(from))
        assign(e, in, "(uint8_t)(silk_f2%c32(%s) & 1)", in->op == IR_FPTOSI ? 's' : 'u',
               as_double(e, in, 0, d, sizeof d));
    else
        assign(e, in, "(uint8_t)(%s & 1)", OP(0));
}

static void convert(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], d[VALUE_SIZE + 32], expr[2 * VALUE_SIZE + 64];
    IrType from = cpu_value_type(e, in->operands[0]), to = in->type;
    if (from == IRT_I1) {
        from_bool(e, in);
        return;
    }
    if (to == IRT_I1) {
        to_bool(e, in, from);
        return;
    }
    switch (in->op) {
    case IR_SEXT: assign(e, in, "(%s)(int64_t)(%s)%s", cpu_ctype(to), signed_type(from), OP(0)); break;
    case IR_ZEXT: case IR_TRUNC: assign(e, in, "(%s)%s", cpu_ctype(to), OP(0)); break;
    case IR_FPTOSI: case IR_FPTOUI: /* i8 saturates at 16 bits, as cvt.rzi.s16 does */
        assign(e, in, "(%s)silk_f2%c%d(%s)", cpu_ctype(to), in->op == IR_FPTOSI ? 's' : 'u',
               to == IRT_I8 ? 16 : width(to), as_double(e, in, 0, d, sizeof d));
        break;
    case IR_SITOFP: case IR_UITOFP:
        snprintf(expr, sizeof expr, "(%s)%s", in->op == IR_SITOFP ? signed_type(from) : cpu_ctype(from),
                 OP(0));
        if (to == IRT_F16)
            assign(e, in, "silk_double_to_half((double)%s)", expr);
        else
            assign(e, in, "(%s)%s", cpu_ctype(to), expr);
        break;
    default: /* fpext, fptrunc: one rounding to the result */
        assign_rounded(e, in, as_double(e, in, 0, d, sizeof d));
        break;
    }
}

/* copy, and bitcast: the same bits as the result's type. */
static void move(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE];
    IrType from = cpu_value_type(e, in->operands[0]), to = in->type;
    if (to == IRT_F32 && from != IRT_F32)
        assign(e, in, "silk_bits_f32((uint32_t)%s)", OP(0));
    else if (to == IRT_F64 && from != IRT_F64)
        assign(e, in, "silk_bits_f64((uint64_t)%s)", OP(0));
    else if (from == IRT_F32 && to != IRT_F32)
        assign(e, in, "(%s)silk_f32_bits(%s)", cpu_ctype(to), OP(0));
    else if (from == IRT_F64 && to != IRT_F64)
        assign(e, in, "(%s)silk_f64_bits(%s)", cpu_ctype(to), OP(0));
    else
        assign(e, in, "(%s)%s", cpu_ctype(to), OP(0));
}

/* ---- memory -------------------------------------------------------------------------- */

/* The address operand as a byte pointer of its space, after the check
 * that the access's `bytes` lie in a buffer (global) or in the CTA's
 * shared memory, and, in a module built for race checks, the tracking of
 * a shared access of `kind` (SILK_CPU_LOAD, _STORE, _ATOMIC; `value`: a
 * store's bytes, as a C pointer, else "0"); NULL (reported) for a space a
 * kernel cannot address here. */
static const char *pointer(CpuFunc *e, const IrInst *in, int bytes, int kind, const char *value,
                           char *buf, size_t size)
{
    char addr[VALUE_SIZE];
    cpu_value(e, in->operands[0], addr, sizeof addr);
    if (in->space != IRS_GLOBAL && in->space != IRS_SHARED) {
        cpu_error(e, in, in->space == IRS_PARAM ? "parameter-space memory" : "local memory");
        return NULL;
    }
    bool global = in->space == IRS_GLOBAL;
    uint32_t site = cpu_new_site(e, in);
    fprintf(e->out, "    if (!silk_%s_ok(cta, %s, %d)) {\n        t->site = %" PRIu32 ";\n"
                    "        t->operand[0] = %s;\n        t->operand[1] = %d%s;\n"
                    "        return %s;\n    }\n",
            global ? "global" : "shared", addr, bytes, site, addr, bytes,
            kind != SILK_CPU_LOAD ? " | UINT64_C(1) << 32" : "",
            global ? "SILK_CPU_BAD_GLOBAL" : "SILK_CPU_BAD_SHARED");
    if (!global && e->m->race_checks)
        fprintf(e->out, "    {\n        int found = silk_shared_track(cta, t, %s, %d, %d, %" PRIu32
                        "u, %s);\n        if (found)\n            return found;\n    }\n",
                addr, bytes, kind, site, value);
    if (global)
        snprintf(buf, size, "((unsigned char *)(uintptr_t)%s)", addr);
    else
        snprintf(buf, size, "(cta->shared + %s)", addr);
    return buf;
}

/* The bytes a value of `t` takes in memory (a bool: one). */
static int bytes_of(IrType t) { return t == IRT_I1 ? 1 : ir_type_bits(t) / 8; }

static void load(CpuFunc *e, const IrInst *in)
{
    char p[VALUE_SIZE + 48];
    if (!pointer(e, in, bytes_of(in->type), SILK_CPU_LOAD, "0", p, sizeof p))
        return;
    if (in->type == IRT_I1) /* a bool is a byte */
        fprintf(e->out, "    r%" PRIu32 " = (uint8_t)(*%s != 0);\n", in->result, p);
    else
        fprintf(e->out, "    memcpy(&r%" PRIu32 ", %s, sizeof r%" PRIu32 ");\n", in->result, p,
                in->result);
}

static void store(CpuFunc *e, const IrInst *in)
{
    char p[VALUE_SIZE + 48], op1[VALUE_SIZE], bytes[2 * VALUE_SIZE];
    IrType t = cpu_value_type(e, in->operands[1]);
    if (t == IRT_I1) /* a bool is a byte: 0 or 1 */
        snprintf(bytes, sizeof bytes, "&(unsigned char){(unsigned char)(%s != 0)}", OP(1));
    else
        snprintf(bytes, sizeof bytes, "(const unsigned char *)&(%s){%s}", cpu_ctype(t), OP(1));
    if (!pointer(e, in, bytes_of(t), SILK_CPU_STORE, bytes, p, sizeof p))
        return;
    fprintf(e->out, "    memcpy(%s, %s, %d);\n", p, bytes, bytes_of(t));
}

static void atomic(CpuFunc *e, const IrInst *in)
{
    char p[VALUE_SIZE + 48], op1[VALUE_SIZE], op2[VALUE_SIZE];
    IrType t = in->type;
    bool word = t == IRT_I32 || t == IRT_I64, fl = t == IRT_F32 || t == IRT_F64;
    if (!word && !(fl && (in->atom == IRA_ADD || in->atom == IRA_EXCH))) {
        cpu_error(e, in, "this atomic");
        return;
    }
    if (!pointer(e, in, bytes_of(t), SILK_CPU_ATOMIC, "0", p, sizeof p))
        return;
    int bits = ir_type_bits(t);
    const char *u = bits == 64 ? "uint64_t" : "uint32_t";
    if (fl && in->atom == IRA_ADD)
        assign(e, in, "silk_atomic_add_f%d((%s *)%s, %s)", bits, cpu_ctype(t), p, OP(1));
    else if (fl)
        assign(e, in, "silk_bits_f%d(__atomic_exchange_n((%s *)%s, silk_f%d_bits(%s), __ATOMIC_RELAXED))",
               bits, u, p, bits, OP(1));
    else if (in->atom == IRA_ADD)
        assign(e, in, "__atomic_fetch_add((%s *)%s, %s, __ATOMIC_RELAXED)", u, p, OP(1));
    else if (in->atom == IRA_EXCH)
        assign(e, in, "__atomic_exchange_n((%s *)%s, %s, __ATOMIC_RELAXED)", u, p, OP(1));
    else if (in->atom == IRA_CAS)
        assign(e, in, "silk_atomic_cas%d((%s *)%s, %s, %s)", bits, u, p, OP(1), OP(2));
    else {
        bool is_signed = in->atom == IRA_SMIN || in->atom == IRA_SMAX;
        bool is_min = in->atom == IRA_SMIN || in->atom == IRA_UMIN;
        const char *st = is_signed ? (bits == 64 ? "int64_t" : "int32_t") : u;
        assign(e, in, "(%s)silk_atomic_%c%s%d((%s *)%s, (%s)%s)", u, is_signed ? 's' : 'u',
               is_min ? "min" : "max", bits, st, p, st, OP(1));
    }
}

/* A shared array's address: its offset in the CTA's shared memory. */
static void address_of(CpuFunc *e, const IrInst *in)
{
    if (in->space != IRS_SHARED) {
        cpu_error(e, in, "the address of a parameter");
        return;
    }
    for (uint32_t i = 0; i < e->m->n_shared; i++)
        if (strcmp(e->m->shared[i].name, in->symbol) == 0) {
            assign(e, in, "(%s)%" PRIu64 "u", cpu_ctype(in->type), e->shared_at[i]);
            return;
        }
    cpu_error(e, in, "an unknown shared array");
}

/* ---- the machine: special registers, and the stops ----------------------------------- */

static void special_register(CpuFunc *e, const IrInst *in)
{
    static const char *const values[] = {
        [IRR_TID_X] = "t->tid", [IRR_NTID_X] = "cta->ntid", [IRR_CTAID_X] = "cta->ctaid",
        [IRR_NCTAID_X] = "cta->nctaid", [IRR_LANEID] = "(t->tid & 31u)",
        [IRR_WARPID] = "(t->tid >> 5)", [IRR_NSMID] = "cta->nsmid",
    };
    assign(e, in, "%s", values[in->sreg]);
}

static void shuffle(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE];
    IrType t = in->type;
    if (t != IRT_I32 && t != IRT_F32) {
        cpu_error(e, in, "a shuffle of other than 32 bits");
        return;
    }
    uint32_t k = cpu_new_stop(e, in);
    fprintf(e->out, "    t->operand[0] = %s%s%s;\n    t->operand[1] = (uint32_t)%s;\n"
                    "    t->shuffle_mode = %d;\n",
            t == IRT_F32 ? "silk_f32_bits(" : "", OP(0), t == IRT_F32 ? ")" : "", OP(1),
            (int)in->shfl);
    cpu_suspend(e, k, "SILK_CPU_AT_SHUFFLE");
    assign(e, in, t == IRT_F32 ? "silk_bits_f32((uint32_t)t->result)" : "(uint32_t)t->result");
}

static void ballot(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE];
    uint32_t k = cpu_new_stop(e, in);
    fprintf(e->out, "    t->operand[0] = %s;\n", OP(0));
    cpu_suspend(e, k, "SILK_CPU_AT_BALLOT");
    assign(e, in, "(uint32_t)t->result");
}

/* An index against its extent (unsigned: a negative index is past it too). */
static void index_check(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE], op1[VALUE_SIZE];
    fprintf(e->out, "    if (!(%s < %s)) {\n        t->site = %" PRIu32 ";\n        t->operand[0] = %s;\n"
                    "        t->operand[1] = %s;\n        return SILK_CPU_BAD_INDEX;\n    }\n",
            OP(0), OP(1), cpu_new_site(e, in), op0, op1);
}

/* A var's hidden flag, that it has been assigned, before a read of it. */
static void assigned_check(CpuFunc *e, const IrInst *in)
{
    char op0[VALUE_SIZE];
    fprintf(e->out, "    if (!%s) {\n        t->site = %" PRIu32 ";\n        return SILK_CPU_UNASSIGNED;\n"
                    "    }\n",
            OP(0), cpu_new_site(e, in));
}

/* ---- the dispatch -------------------------------------------------------------------- */

static void arithmetic(CpuFunc *e, const IrInst *in)
{
    if (is_float(in->type))
        float_binary(e, in);
    else
        int_binary(e, in);
}

static void unary(CpuFunc *e, const IrInst *in)
{
    if (is_float(in->type))
        float_unary(e, in);
    else
        int_unary(e, in);
}

void cpu_inst(CpuFunc *e, const IrInst *in)
{
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL: arithmetic(e, in); break;
    case IR_AND: case IR_OR: case IR_XOR: int_binary(e, in); break;
    case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM: divide(e, in); break;
    case IR_FDIV: case IR_FMIN: case IR_FMAX: float_binary(e, in); break;
    case IR_SHL: case IR_LSHR: case IR_ASHR: shift(e, in); break;
    case IR_SMIN: case IR_UMIN: case IR_SMAX: case IR_UMAX: int_minmax(e, in); break;
    case IR_NEG: case IR_ABS: unary(e, in); break;
    case IR_NOT: int_unary(e, in); break;
    case IR_FMA: fused_multiply_add(e, in); break;
    case IR_SQRT: case IR_RSQRT: case IR_EXP: case IR_LOG: case IR_SIN: case IR_COS:
    case IR_FLOOR: case IR_CEIL:
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
    case IR_BARRIER: cpu_suspend(e, cpu_new_stop(e, in), "SILK_CPU_AT_BARRIER"); break;
    case IR_CHECK: index_check(e, in); break;
    case IR_ASSIGNED: assigned_check(e, in); break;
    default: break; /* phis and terminators: cpu_emit.c */
    }
}
