/*
 * consteval.c: integer constant expressions, for @launch, extents, views
 * and launch geometry.  An expression is constant when it is made of
 * literals, immutable locals with constant initializers, ctx.threads /
 * ctx.warps / ctx.lanes of a fixed-size CTA, conversions and operators.
 *
 * Arithmetic is done in the expression's type; a result that does not fit
 * is an error ("constant expression overflows u32"), never a silent wrap —
 * except through an explicit conversion T(e), whose narrowing wraps by
 * definition (language.md section 3).
 */
#include "sema.h"

#include <string.h>

static ConstValue unknown(void) { return (ConstValue){0}; }

static ConstValue known(uint64_t bits, Type *t)
{
    return (ConstValue){.known = true, .bits = bits, .type = t};
}

bool const_is_negative(ConstValue v) { return type_is_signed(v.type) && (int64_t)v.bits < 0; }

/* Whether a mathematically exact value fits t (128-bit arithmetic holds
 * any product or sum of two 64-bit values). */
static bool fits(Type *t, __int128 v)
{
    int bits = type_bits(t);
    if (type_is_signed(t)) {
        __int128 lo = -((__int128)1 << (bits - 1)), hi = ((__int128)1 << (bits - 1)) - 1;
        return v >= lo && v <= hi;
    }
    return v >= 0 && (bits == 64 ? v <= (__int128)UINT64_MAX : v < ((__int128)1 << bits));
}

static __int128 wide(ConstValue v)
{
    return type_is_signed(v.type) ? (__int128)(int64_t)v.bits : (__int128)v.bits;
}

static ConstValue checked(Checker *k, Node *e, Type *t, __int128 v)
{
    char buf[96];
    if (!fits(t, v)) {
        diag_error(k->diag, e->span, "constant expression overflows %s", type_name(t, buf, sizeof buf));
        e->type = type_scalar(TY_ERROR);
        return unknown();
    }
    return known((uint64_t)v, t);
}

static ConstValue eval_binary(Checker *k, Node *e)
{
    ConstValue l = const_eval(k, e->a), r = const_eval(k, e->b);
    if (!l.known || !r.known || !type_is_integer(e->type))
        return unknown();
    __int128 a = wide(l), b = wide(r);
    switch (e->op) {
    case TK_PLUS: return checked(k, e, e->type, a + b);
    case TK_MINUS: return checked(k, e, e->type, a - b);
    case TK_STAR: return checked(k, e, e->type, a * b);
    case TK_SLASH: return b == 0 ? unknown() : checked(k, e, e->type, a / b);
    case TK_PERCENT: return b == 0 ? unknown() : checked(k, e, e->type, a % b);
    case TK_AMP: return known(l.bits & r.bits, e->type);
    case TK_PIPE: return known(l.bits | r.bits, e->type);
    case TK_CARET: return known(l.bits ^ r.bits, e->type);
    case TK_SHL:
        if (b < 0 || b >= type_bits(e->type))
            return checked(k, e, e->type, (__int128)1 << 100); /* reports the overflow */
        return checked(k, e, e->type, a << (int)b);
    case TK_SHR:
        return b < 0 || b >= type_bits(e->type) ? known(0, e->type) : known((uint64_t)(a >> (int)b), e->type);
    default: return unknown();
    }
}

/* `bits` cut to t's width, sign-extended when t is signed. */
static ConstValue wrap_to(uint64_t bits, Type *t)
{
    int width = type_bits(t);
    uint64_t mask = width == 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
    uint64_t b = bits & mask;
    if (type_is_signed(t) && width < 64 && (b >> (width - 1)) & 1)
        b |= ~mask;
    return known(b, t);
}

/* T(e) wraps to T's width; a float operand is not constant here. */
static ConstValue eval_conversion(Checker *k, Node *e)
{
    ConstValue v = const_eval(k, e->list.items[0]);
    return v.known ? wrap_to(v.bits, e->type) : unknown();
}

static ConstValue eval_ctx(Checker *k, Node *e)
{
    if (!k->func || e->a->kind != ND_NAME || strcmp(e->a->name, "ctx") != 0)
        return unknown();
    if (strcmp(e->name, "lanes") == 0)
        return known(32, e->type);
    if (k->func->reqntid == 0)
        return unknown();
    if (strcmp(e->name, "threads") == 0)
        return known((uint64_t)k->func->reqntid, e->type);
    if (strcmp(e->name, "warps") == 0)
        return known((uint64_t)k->func->reqntid / 32, e->type);
    return unknown();
}

static ConstValue evaluate(Checker *k, Node *e);

/* Each node is evaluated once (the checker asks for every integer
 * expression, and parents ask again for their operands); the answer is
 * kept in the node, where --dump-ast shows it. */
ConstValue const_eval(Checker *k, Node *e)
{
    if (!e || !e->type || !type_is_integer(e->type))
        return unknown();
    if (e->folded)
        return e->folded == 1 ? known(e->int_value, e->type) : unknown();
    ConstValue v = evaluate(k, e);
    e->folded = v.known ? 1 : 2;
    if (v.known) /* an integer expression: int_value is free (ND_INT holds v.bits already) */
        e->int_value = v.bits;
    return v;
}

static ConstValue evaluate(Checker *k, Node *e)
{
    switch (e->kind) {
    case ND_INT: {
        uint64_t bits = e->int_value;
        return known(bits, e->type);
    }
    case ND_UNARY: {
        ConstValue v = const_eval(k, e->a);
        if (!v.known)
            return unknown();
        if (e->op == TK_TILDE)
            return wrap_to(~v.bits, e->type);
        if (e->op == TK_MINUS && e->a->kind == ND_INT) /* -<magnitude>: i64's minimum fits */
            return checked(k, e, e->type, -(__int128)e->a->int_value);
        return e->op == TK_MINUS ? checked(k, e, e->type, -wide(v)) : v;
    }
    case ND_BINARY: return eval_binary(k, e);
    case ND_NAME:
        return e->symbol && e->symbol->kind == SYM_LOCAL && !e->symbol->mutable ? e->symbol->value
                                                                              : unknown();
    case ND_FIELD: return eval_ctx(k, e);
    case ND_CALL:
        if (e->a->kind == ND_NAME && type_scalar_named(e->a->name) && e->list.count == 1)
            return eval_conversion(k, e);
        return unknown();
    default: return unknown();
    }
}
