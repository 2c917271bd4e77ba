/*
 * silkgen_expr.c: typed Silk expressions, free of undefined behaviour by
 * construction.
 *
 * Every expression is written fully parenthesised, so Silk's precedence
 * (bitwise above comparisons, unlike C) never decides anything.  What the
 * language leaves open is never written:
 *
 * - Integer division and remainder by zero, and INT_MIN / -1 (pass_fold.c
 *   leaves them "for the machine"): a divisor is `b | 1` (unsigned) or
 *   `(b & -2) | 2` (signed: never 0, never -1), or the call goes through
 *   div_T / rem_T, which test the divisor first.
 * - Shifts by the width or more (PTX clamps, the IR does not promise it):
 *   a count is a literal below the width, or `c & (width - 1)`.
 * - A float converted to an integer it does not fit (PTX saturates, C
 *   does not): through to_T(f64(x)), which gives 0 outside the range and
 *   for NaN.
 *
 * Integer overflow is not among them: the IR's integers wrap (two's
 * complement, as PTX's).  silkc itself evaluates constant expressions and
 * rejects one that overflows, so no operator here has two constant
 * operands: after a constant left side the right side is made
 * non-constant (Want.nonconst), and a unary operator, a conversion or a
 * shift's value always takes a non-constant operand.  An unsuffixed
 * literal then always takes the type of the other operand, or of the
 * parameter it is passed to, and is written to fit it.
 */
#include "silkgen.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const Want ANY = {false, false};

static Want nonconst_of(Want w)
{
    w.nonconst = true;
    return w;
}

/* ---- types ------------------------------------------------------------------------ */

Ty ty_random(Gen *g)
{
    static const Ty common[] = {TY_I32, TY_U32, TY_I64, TY_U64, TY_F32, TY_F64};
    static const Ty rare[] = {TY_I8, TY_U8, TY_I16, TY_U16, TY_F16};
    if (rng_percent(&g->rng, 75))
        return common[rng_below(&g->rng, 6)];
    Ty t = rare[rng_below(&g->rng, 5)];
    return t == TY_F16 && !g->use_f16 ? TY_F32 : t;
}

/* silkc exec has buffers of every number type but f16, so no tensor
 * parameter is f16 (f16 stays in locals and shared arrays). */
Ty ty_random_buffer(Gen *g)
{
    Ty t = ty_random(g);
    return t == TY_F16 ? TY_F32 : t;
}

Ty ty_random_any(Gen *g)
{
    return rng_percent(&g->rng, 15) ? TY_BOOL : ty_random(g);
}

/* ---- literals --------------------------------------------------------------------- */

static uint64_t type_max(Ty t)
{
    int bits = ty_bits(t);
    uint64_t all = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    return ty_is_signed(t) ? all >> 1 : all;
}

/* A non-negative value in one of Silk's spellings: decimal, 1_000 groups,
 * hexadecimal, binary, with the type's suffix where it has one. */
static void put_unsigned(Gen *g, Ty t, uint64_t v)
{
    char digits[32];
    unsigned form = rng_below(&g->rng, 10);
    if (form == 0 && v > 0) {
        gen_put(g, "0x%" PRIx64, v);
    } else if (form == 1 && v < 256) {
        char bin[16];
        int k = 0;
        for (int b = 7; b >= 0; b--)
            if (k || (v >> b) & 1 || b == 0)
                bin[k++] = (char)('0' + ((v >> b) & 1));
        bin[k] = '\0';
        gen_put(g, "0b%s", bin);
    } else if (form == 2 && v >= 1000) {
        snprintf(digits, sizeof digits, "%" PRIu64, v);
        size_t len = strlen(digits);
        for (size_t i = 0; i < len; i++) {
            gen_put(g, "%c", digits[i]);
            if (i + 1 < len && (len - 1 - i) % 3 == 0)
                gen_put(g, "_");
        }
    } else {
        gen_put(g, "%" PRIu64, v);
    }
    if (ty_has_suffix(t) && rng_percent(&g->rng, 15))
        gen_put(g, "%s", ty_name(t));
}

static void int_literal(Gen *g, Ty t)
{
    uint64_t max = type_max(t);
    bool neg = ty_is_signed(t) && rng_percent(&g->rng, 30);
    uint64_t v;
    switch (rng_below(&g->rng, 6)) {
    case 0: case 1: v = rng_below(&g->rng, 10); break;
    case 2: v = 1ull << rng_below(&g->rng, (uint32_t)ty_bits(t) - (ty_is_signed(t) ? 1 : 0)); break;
    case 3: v = max - rng_below(&g->rng, 2); break;
    default: v = rng_next(&g->rng) & max; break;
    }
    if (neg) {
        /* -(max + 1) is the type's minimum: a minus sign counts (3.2) */
        if (v == max && rng_percent(&g->rng, 50))
            gen_put(g, "(-%" PRIu64 ")", max + 1);
        else
            gen_put(g, "(-%" PRIu64 ")", v);
        return;
    }
    put_unsigned(g, t, v);
}

static void float_literal(Gen *g, Ty t)
{
    static const char *const small[] = {"0.0", "1.0", "-1.0", "0.5", "2.0", "-2.5", "0.125",
                                        "3.0", "10.0", "-0.75", "100.0", "1000.0", "0.001", "7.25"};
    static const char *const f32_only[] = {"1e-3", "3.5e4", "1e10", "-1e20", "0.1", "1.5e-7", "65536.0"};
    static const char *const f64_only[] = {"1e100", "-2.5e-200", "0.1", "4294967296.0", "1e-10"};
    const char *s = small[rng_below(&g->rng, 14)];
    if (t != TY_F16 && rng_percent(&g->rng, 30))
        s = f32_only[rng_below(&g->rng, 7)];
    if (t == TY_F64 && rng_percent(&g->rng, 20))
        s = f64_only[rng_below(&g->rng, 5)];
    bool suffix = ty_has_suffix(t) && rng_percent(&g->rng, 15);
    gen_put(g, s[0] == '-' ? "(%s%s)" : "%s%s", s, suffix ? ty_name(t) : "");
}

void expr_literal(Gen *g, Ty t)
{
    if (t == TY_BOOL)
        gen_put(g, rng_percent(&g->rng, 50) ? "true" : "false");
    else if (ty_is_float(t))
        float_literal(g, t);
    else
        int_literal(g, t);
}

void expr_small_literal(Gen *g, Ty t, int lo, int hi)
{
    int v = rng_range(&g->rng, lo, hi);
    if (ty_is_float(t))
        gen_put(g, v < 0 ? "(%d.0)" : "%d.0", v);
    else
        gen_put(g, v < 0 ? "(%d)" : "%d", v);
}

/* ---- conversions ------------------------------------------------------------------ */

/* Writes the start of a conversion of a `from` value to `to`; returns how
 * many parentheses close it.  Float to integer goes through to_T (it fits,
 * or 0); bool converts to integers only, so to a float through u32. */
static int convert_open(Gen *g, Ty from, Ty to)
{
    if (ty_is_float(from) && ty_is_int(to)) {
        g->need_to_int |= 1u << to;
        gen_put(g, "to_%s(f64(", ty_name(to));
        return 2;
    }
    if (from == TY_BOOL && ty_is_float(to)) {
        gen_put(g, "%s(u32(", ty_name(to));
        return 2;
    }
    gen_put(g, "%s(", ty_name(to));
    return 1;
}

static void close_parens(Gen *g, int n)
{
    while (n-- > 0)
        gen_put(g, ")");
}

/* A variable as a value of another type (a checksum's operand). */
void expr_convert_var(Gen *g, const Var *v, Ty to)
{
    if (v->ty == to) {
        gen_put(g, "%s", v->name);
        return;
    }
    int close = convert_open(g, v->ty, to);
    gen_put(g, "%s", v->name);
    close_parens(g, close);
}

/* ---- leaves ------------------------------------------------------------------------ */

static Var *pick_var(Gen *g, Ty t, Want w)
{
    int found[MAX_VARS], n = 0;
    for (int i = g->scope_base; i < g->n_vars; i++) {
        const Var *v = &g->vars[i];
        if (v->ty == t && !(w.nonconst && v->is_const) && !(w.uniform && !v->is_uniform))
            found[n++] = i;
    }
    if (!n)
        return NULL;
    Var *v = &g->vars[found[rng_below(&g->rng, (uint32_t)n)]];
    v->reads++;
    return v;
}

typedef struct CtxField {
    const char *name;
    Ty ty;
    bool is_const, is_uniform;
} CtxField;

static const CtxField ctx_fields[] = {
    {"tid", TY_U32, false, false},    {"lane", TY_U32, false, false},
    {"warp", TY_U32, false, false},   {"threads", TY_U32, true, true},
    {"warps", TY_U32, true, true},    {"lanes", TY_U32, true, true},
    {"gid", TY_U64, false, false},    {"cta", TY_U64, false, true},
    {"ctas", TY_U64, false, true},    {"size", TY_U64, false, true},
};

static bool ctx_field(Gen *g, Ty t, Want w, Ex *ex)
{
    if (g->in_helper)
        return false;
    const CtxField *found[10];
    int n = 0;
    for (size_t i = 0; i < sizeof ctx_fields / sizeof *ctx_fields; i++) {
        const CtxField *f = &ctx_fields[i];
        if (f->ty == t && !(w.nonconst && f->is_const) && !(w.uniform && !f->is_uniform))
            found[n++] = f;
    }
    if (!n)
        return false;
    const CtxField *f = found[rng_below(&g->rng, (uint32_t)n)];
    gen_put(g, "ctx.%s", f->name);
    *ex = (Ex){f->is_const, f->is_uniform};
    return true;
}

static Ex comparison(Gen *g, int depth, Want w);

/* A non-constant value of type t that always exists: ctx.cta (uniform) or
 * ctx.tid in a kernel, a parameter in a helper, converted to t. */
static Ex base_value(Gen *g, Ty t, Want w)
{
    if (t == TY_BOOL)
        return comparison(g, 1, nonconst_of(w));
    Want any_var = {true, w.uniform};
    for (int tries = 0; tries < 4; tries++) {
        Ty from = ty_random_any(g);
        Var *v = pick_var(g, from, any_var);
        if (v) {
            int close = from == t ? 0 : convert_open(g, from, t);
            gen_put(g, "%s", v->name);
            close_parens(g, close);
            return (Ex){false, v->is_uniform};
        }
    }
    /* a helper always has a parameter of its own: the first */
    if (g->in_helper) {
        Var *v = &g->vars[g->scope_base];
        v->reads++;
        int close = v->ty == t ? 0 : convert_open(g, v->ty, t);
        gen_put(g, "%s", v->name);
        close_parens(g, close);
        return (Ex){false, false};
    }
    const char *field = w.uniform ? "cta" : rng_percent(&g->rng, 50) ? "tid" : "gid";
    Ty from = strcmp(field, "tid") == 0 ? TY_U32 : TY_U64;
    int close = from == t ? 0 : convert_open(g, from, t);
    gen_put(g, "ctx.%s", field);
    close_parens(g, close);
    return (Ex){false, w.uniform};
}

static bool tensor_read(Gen *g, Ty t, Want w)
{
    if (g->in_helper || t == TY_BOOL || t == TY_F16) /* no f16 buffers */
        return false;
    int p = gen_param_input(g, t);
    if (p < 0)
        return false;
    const Param *pr = &g->params[p];
    gen_put(g, "%s[", pr->name);
    for (int d = 0; d < pr->rank; d++) {
        if (d)
            gen_put(g, ", ");
        expr_index(g, p, d, w.uniform);
    }
    gen_put(g, "]");
    return true;
}

static Ex leaf(Gen *g, Ty t, Want w)
{
    Ex ex = {false, true};
    for (int tries = 0; tries < 3; tries++) {
        switch (rng_below(&g->rng, 6)) {
        case 0:
            if (!w.nonconst) {
                expr_literal(g, t);
                return (Ex){true, true};
            }
            break;
        case 1: case 2: {
            Var *v = pick_var(g, t, w);
            if (v) {
                gen_put(g, "%s", v->name);
                return (Ex){v->is_const, v->is_uniform};
            }
            break;
        }
        case 3:
            if (ctx_field(g, t, w, &ex))
                return ex;
            break;
        case 4:
            if (tensor_read(g, t, w))
                return (Ex){false, w.uniform};
            break;
        default:
            break;
        }
    }
    return base_value(g, t, w);
}

/* ---- indices: in range by construction -------------------------------------------- */

/* An index of dimension `dim` of parameter `param`: this thread's own row
 * (gid clamped, or the grid-stride loop's element) for an extent n, else
 * a value reduced modulo the extent, or clamped to it. */
void expr_index(Gen *g, int param, int dim, bool uniform)
{
    const Param *p = &g->params[param];
    int ep = p->extent_param[dim];
    char extent[32];
    if (ep >= 0)
        snprintf(extent, sizeof extent, "%s", g->params[ep].name);
    else
        snprintf(extent, sizeof extent, "%" PRIu64, p->extent[dim]);
    if (ep == g->p_n && !uniform && g->gid_index && rng_percent(&g->rng, 55)) {
        gen_put(g, "%s", g->gid_index);
        return;
    }
    if (ep < 0 && rng_percent(&g->rng, 25)) {
        gen_put(g, "%" PRIu64, rng_next(&g->rng) % p->extent[dim]);
        return;
    }
    Want w = {true, uniform};
    Ty from = ty_random(g);
    while (ty_is_float(from))
        from = ty_random(g);
    bool clamp = ep >= 0 && rng_percent(&g->rng, 30);
    gen_put(g, clamp ? "min(" : "(");
    int close = from == TY_U64 ? 0 : convert_open(g, from, TY_U64);
    expr(g, from, 1, w);
    close_parens(g, close);
    if (clamp)
        gen_put(g, ", %s - 1)", extent);
    else
        gen_put(g, " %% %s)", extent);
}

/* ---- the safe helpers ---------------------------------------------------------------- */

static const char *const int_min[TY_COUNT] = {
    [TY_I8] = "-128", [TY_I16] = "-32768", [TY_I32] = "-2147483648",
    [TY_I64] = "-9223372036854775808",
};

/* to_T's open interval: a float strictly inside truncates into T. */
static const char *const to_int_range[TY_COUNT][2] = {
    [TY_I8] = {"-129.0", "128.0"},
    [TY_I16] = {"-32769.0", "32768.0"},
    [TY_I32] = {"-2147483649.0", "2147483648.0"},
    [TY_I64] = {"-9223372036854775808.0", "9223372036854775808.0"},
    [TY_U8] = {"-1.0", "256.0"},
    [TY_U16] = {"-1.0", "65536.0"},
    [TY_U32] = {"-1.0", "4294967296.0"},
    [TY_U64] = {"-1.0", "18446744073709551616.0"},
};

static void write_to_int(Text *out, Ty t)
{
    const char *n = ty_name(t);
    text_printf(out,
                "\n// %s of a float: 0 where the truncation does not fit (and for NaN),\n"
                "// which Silk leaves open.\n"
                "attr(device=gpu) fn to_%s(x: f64) -> %s {\n"
                "  if x > %s && x < %s {\n"
                "    return %s(x)\n"
                "  }\n"
                "  return 0\n"
                "}\n",
                n, n, n, to_int_range[t][0], to_int_range[t][1], n);
}

static void write_div(Text *out, Ty t)
{
    const char *n = ty_name(t);
    if (ty_is_signed(t)) {
        text_printf(out,
                    "\n// %s division and remainder, defined where Silk leaves them open:\n"
                    "// by zero, and the minimum by -1.\n"
                    "attr(device=gpu) fn div_%s(a: %s, b: %s) -> %s {\n"
                    "  if b == 0 || (b == -1 && a == %s) {\n"
                    "    return a\n"
                    "  }\n"
                    "  return a / b\n"
                    "}\n"
                    "attr(device=gpu) fn rem_%s(a: %s, b: %s) -> %s {\n"
                    "  if b == 0 || b == -1 {\n"
                    "    return 0\n"
                    "  }\n"
                    "  return a %% b\n"
                    "}\n",
                    n, n, n, n, n, int_min[t], n, n, n, n);
        return;
    }
    text_printf(out,
                "\n// %s division and remainder, defined by zero.\n"
                "attr(device=gpu) fn div_%s(a: %s, b: %s) -> %s {\n"
                "  if b == 0 {\n"
                "    return a\n"
                "  }\n"
                "  return a / b\n"
                "}\n"
                "attr(device=gpu) fn rem_%s(a: %s, b: %s) -> %s {\n"
                "  if b == 0 {\n"
                "    return a\n"
                "  }\n"
                "  return a %% b\n"
                "}\n",
                n, n, n, n, n, n, n, n, n);
}

void expr_write_helpers(Gen *g, Text *out)
{
    for (Ty t = TY_I8; t <= TY_U64; t++) {
        if (g->need_div & (1u << t))
            write_div(out, t);
        if (g->need_to_int & (1u << t))
            write_to_int(out, t);
    }
}

/* ---- operators ------------------------------------------------------------------------ */

/* a OP b, with b made non-constant when a is constant. */
static Ex binary(Gen *g, Ty t, const char *op, int depth, Want w)
{
    gen_put(g, "(");
    Ex a = expr(g, t, depth - 1, w);
    gen_put(g, " %s ", op);
    Ex b = expr(g, t, depth - 1, a.is_const ? nonconst_of(w) : w);
    gen_put(g, ")");
    return (Ex){a.is_const && b.is_const, a.is_uniform && b.is_uniform};
}

/* f(a, b) of one type (min, max), one argument non-constant. */
static Ex call2(Gen *g, Ty t, const char *f, int depth, Want w)
{
    gen_put(g, "%s(", f);
    Ex a = expr(g, t, depth - 1, w);
    gen_put(g, ", ");
    Ex b = expr(g, t, depth - 1, a.is_const ? nonconst_of(w) : w);
    gen_put(g, ")");
    return (Ex){false, a.is_uniform && b.is_uniform};
}

static Ex unary(Gen *g, Ty t, const char *pre, const char *post, int depth, Want w)
{
    gen_put(g, "%s", pre);
    Ex a = expr(g, t, depth - 1, nonconst_of(w));
    gen_put(g, "%s", post);
    return (Ex){false, a.is_uniform};
}

static Ex shift(Gen *g, Ty t, int depth, Want w)
{
    gen_put(g, "(");
    Ex a = expr(g, t, depth - 1, nonconst_of(w));
    gen_put(g, rng_percent(&g->rng, 50) ? " << " : " >> ");
    Ex c = {true, true};
    if (rng_percent(&g->rng, 50)) {
        gen_put(g, "%u", rng_below(&g->rng, (uint32_t)ty_bits(t)));
    } else {
        Ty ct = ty_random(g);
        while (ty_is_float(ct))
            ct = ty_random(g);
        gen_put(g, "(");
        c = expr(g, ct, depth - 1, nonconst_of(w));
        gen_put(g, " & %d)", ty_bits(t) - 1);
    }
    gen_put(g, ")");
    return (Ex){false, a.is_uniform && c.is_uniform};
}

static Ex divide(Gen *g, Ty t, int depth, Want w)
{
    bool rem = rng_percent(&g->rng, 40);
    if (rng_percent(&g->rng, 50)) {
        char name[16];
        snprintf(name, sizeof name, "%s_%s", rem ? "rem" : "div", ty_name(t));
        g->need_div |= 1u << t;
        return call2(g, t, name, depth, w);
    }
    gen_put(g, "(");
    Ex a = expr(g, t, depth - 1, w);
    gen_put(g, rem ? " %% (" : " / (");
    gen_put(g, ty_is_signed(t) ? "(" : "");
    Ex b = expr(g, t, depth - 1, nonconst_of(w));
    gen_put(g, ty_is_signed(t) ? " & -2) | 2))" : " | 1))");
    return (Ex){false, a.is_uniform && b.is_uniform};
}

static Ex convert(Gen *g, Ty t, int depth, Want w)
{
    Ty from = ty_random_any(g);
    if (from == t)
        from = ty_random(g);
    int close = convert_open(g, from, t);
    Ex a = expr(g, from, depth - 1, nonconst_of(w));
    close_parens(g, close);
    return (Ex){false, a.is_uniform};
}

/* ---- helpers (device functions that return a value) -------------------------------- */

static Helper *helper_for(Gen *g, Ty t)
{
    int limit = g->in_helper ? g->n_helpers - 1 : g->n_helpers;
    int found[MAX_HELPERS], n = 0;
    for (int i = 0; i < limit; i++)
        if (g->helpers[i].result == t)
            found[n++] = i;
    bool make = !g->in_helper && g->n_helpers < g->size->max_helpers && rng_percent(&g->rng, n ? 30 : 70);
    if (make) {
        Helper *h = &g->helpers[g->n_helpers++];
        snprintf(h->name, sizeof h->name, "h%d", g->n_helpers - 1);
        h->result = t;
        h->n_params = rng_range(&g->rng, 1, 3);
        for (int i = 0; i < h->n_params; i++)
            h->params[i] = rng_percent(&g->rng, 50) ? t : ty_random(g);
        stmt_helper(g, h);
        return h;
    }
    return n ? &g->helpers[found[rng_below(&g->rng, (uint32_t)n)]] : NULL;
}

static bool helper_call(Gen *g, Ty t, int depth, Want w, Ex *ex)
{
    if (!g->use_helpers || t == TY_BOOL)
        return false;
    Helper *h = helper_for(g, t);
    if (!h)
        return false;
    gen_put(g, "%s(", h->name);
    bool uniform = true;
    for (int i = 0; i < h->n_params; i++) {
        if (i)
            gen_put(g, ", ");
        uniform &= expr(g, h->params[i], depth - 1, (Want){false, w.uniform}).is_uniform;
    }
    gen_put(g, ")");
    *ex = (Ex){false, uniform};
    return true;
}

/* ---- by type ----------------------------------------------------------------------------- */

static Ex int_expr(Gen *g, Ty t, int depth, Want w)
{
    Ex ex;
    switch (rng_below(&g->rng, 14)) {
    case 0: return unary(g, t, "(~", ")", depth, w);
    case 1:
        if (!ty_is_signed(t))
            return binary(g, t, "+", depth, w);
        if (rng_percent(&g->rng, 50))
            return unary(g, t, "(-", ")", depth, w);
        return unary(g, t, "abs(", ")", depth, w);
    case 2: case 3: return binary(g, t, rng_percent(&g->rng, 50) ? "+" : "-", depth, w);
    case 4: return binary(g, t, "*", depth, w);
    case 5: case 6: {
        static const char *const bit[] = {"&", "|", "^"};
        return binary(g, t, bit[rng_below(&g->rng, 3)], depth, w);
    }
    case 7: return shift(g, t, depth, w);
    case 8: return divide(g, t, depth, w);
    case 9: return call2(g, t, rng_percent(&g->rng, 50) ? "min" : "max", depth, w);
    case 10: return convert(g, t, depth, w);
    case 11:
        if (helper_call(g, t, depth, w, &ex))
            return ex;
        return binary(g, t, "^", depth, w);
    case 12:
        if (!w.uniform && cta_collective_expr(g, t))
            return (Ex){false, false};
        return leaf(g, t, w);
    default: return leaf(g, t, w);
    }
}

static Ex float_unary(Gen *g, Ty t, int depth, Want w)
{
    static const char *const pre[] = {"(-", "abs(", "sqrt(abs(", "floor(", "ceil(", "sin(",
                                      "cos(", "exp(", "log(abs(", "rsqrt(abs("};
    static const char *const post[] = {")", ")", "))", ")", ")", ")", ")", ")", ") + 1.0)", ") + 1.0)"};
    unsigned k = rng_below(&g->rng, 10);
    return unary(g, t, pre[k], post[k], depth, w);
}

static Ex float_expr(Gen *g, Ty t, int depth, Want w)
{
    Ex ex;
    switch (rng_below(&g->rng, 12)) {
    case 0: case 1: return float_unary(g, t, depth, w);
    case 2: case 3: return binary(g, t, rng_percent(&g->rng, 50) ? "+" : "-", depth, w);
    case 4: return binary(g, t, "*", depth, w);
    case 5: return binary(g, t, "/", depth, w);
    case 6: {
        gen_put(g, "fma(");
        Ex a = expr(g, t, depth - 1, w);
        gen_put(g, ", ");
        Ex b = expr(g, t, depth - 1, w);
        gen_put(g, ", ");
        Ex c = expr(g, t, depth - 1, a.is_const && b.is_const ? nonconst_of(w) : w);
        gen_put(g, ")");
        return (Ex){false, a.is_uniform && b.is_uniform && c.is_uniform};
    }
    case 7: return call2(g, t, rng_percent(&g->rng, 50) ? "min" : "max", depth, w);
    case 8: return convert(g, t, depth, w);
    case 9:
        if (helper_call(g, t, depth, w, &ex))
            return ex;
        return binary(g, t, "*", depth, w);
    case 10:
        if (!w.uniform && cta_collective_expr(g, t))
            return (Ex){false, false};
        return leaf(g, t, w);
    default: return leaf(g, t, w);
    }
}

static Ex comparison(Gen *g, int depth, Want w)
{
    static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    Ty t = ty_random(g);
    gen_put(g, "(");
    Ex a = expr(g, t, depth - 1, w);
    gen_put(g, " %s ", ops[rng_below(&g->rng, 6)]);
    Ex b = expr(g, t, depth - 1, a.is_const ? nonconst_of(w) : w);
    gen_put(g, ")");
    return (Ex){a.is_const && b.is_const, a.is_uniform && b.is_uniform};
}

/* p && q, p || q: q is evaluated only by some threads, so no collective
 * may stand in it. */
static Ex logical(Gen *g, int depth, Want w)
{
    gen_put(g, "(");
    Ex a = expr(g, TY_BOOL, depth - 1, w);
    gen_put(g, rng_percent(&g->rng, 50) ? " && " : " || ");
    bool collective_ok = g->collective_ok;
    g->collective_ok = false;
    Ex b = expr(g, TY_BOOL, depth - 1, a.is_const ? nonconst_of(w) : w);
    g->collective_ok = collective_ok;
    gen_put(g, ")");
    return (Ex){a.is_const && b.is_const, a.is_uniform && b.is_uniform};
}

static Ex bool_expr(Gen *g, int depth, Want w)
{
    if (depth <= 0) {
        Var *v = rng_percent(&g->rng, 50) ? pick_var(g, TY_BOOL, w) : NULL;
        if (v) {
            gen_put(g, "%s", v->name);
            return (Ex){v->is_const, v->is_uniform};
        }
        if (!w.nonconst && rng_percent(&g->rng, 20)) {
            expr_literal(g, TY_BOOL);
            return (Ex){true, true};
        }
        return comparison(g, 1, w);
    }
    switch (rng_below(&g->rng, 8)) {
    case 0: case 1: case 2: return comparison(g, depth, w);
    case 3: return logical(g, depth, w);
    case 4: return unary(g, TY_BOOL, "(!", ")", depth, w);
    case 5: {
        gen_put(g, "(");
        Ex a = expr(g, TY_BOOL, depth - 1, w);
        gen_put(g, rng_percent(&g->rng, 50) ? " == " : " != ");
        Ex b = expr(g, TY_BOOL, depth - 1, a.is_const ? nonconst_of(w) : w);
        gen_put(g, ")");
        return (Ex){a.is_const && b.is_const, a.is_uniform && b.is_uniform};
    }
    case 6:
        if (!w.uniform && cta_collective_expr(g, TY_BOOL))
            return (Ex){false, false};
        return comparison(g, depth, w);
    default: return bool_expr(g, 0, w);
    }
}

Ex expr(Gen *g, Ty t, int depth, Want w)
{
    if (t == TY_BOOL)
        return bool_expr(g, depth, w);
    if (depth <= 0 || rng_percent(&g->rng, 20))
        return leaf(g, t, w);
    return ty_is_float(t) ? float_expr(g, t, depth, w) : int_expr(g, t, depth, w);
}

Ex expr_any(Gen *g, Ty t)
{
    return expr(g, t, rng_range(&g->rng, 1, g->size->expr_depth), ANY);
}

Ex expr_nonconst(Gen *g, Ty t, int depth)
{
    return expr(g, t, depth, (Want){true, false});
}
