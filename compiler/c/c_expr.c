/*
 * c_expr.c: a host expression as C, with the device's semantics.
 *
 * The C mirrors what the CPU backend writes for the same operation
 * (cpu/cpu_inst.c), through the same helpers of cpu_prelude.h, so that
 * host code and a kernel compute one value alike:
 *   - u32 and u64 + - * & | ^ are C's own (unsigned arithmetic wraps);
 *     the other integer types compute in uint32_t or uint64_t and cast
 *     back, so nothing meets C's signed overflow or integer promotion;
 *   - / and % go through silk_udiv32, silk_sdiv64, ... (a division by
 *     zero gives all ones, a remainder the dividend; INT_MIN / -1 wraps);
 *   - a shift count is first converted to the left operand's type, as
 *     lowering does, then silk_shl8 ... silk_ashr64 give 0 (or the sign)
 *     past the width; a constant count is clamped to 255 as the backends
 *     write one;
 *   - f32 and f64 arithmetic results are made canonical NaNs
 *     (silk_nan_f32), as PTX's are; f16 is its bits, computed in double
 *     and rounded once (silk_double_to_half);
 *   - conversions truncate and saturate (silk_f2s32), wrap, or round once.
 * An integer expression the checker folded to a constant is written as
 * that constant when it names no variable (1 << 20 is 1048576); one that
 * reads constant locals is written as the source has it.
 *
 * Silk evaluates operands left to right; C leaves the order of most
 * operands unspecified.  Where two or more operands of one operation
 * have effects (a call, a launch block), c_sequenced evaluates all but
 * the last into temporaries first, in a GNU statement expression:
 * ({ const int32_t silk_t1 = silk_fn_f(1); silk_t1 + silk_fn_f(2); }).
 * && and || sequence their operands themselves.
 *
 * A chain of binary operators leans left and may be as long as the
 * source: its left spine is written in a loop (all the openings, the
 * bottom, then each right operand and closing), never by recursion.
 */
#include "c_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ------------------------------------------------------------------ */

char *c_format(CEmit *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = arena_alloc(e->arena, (size_t)len + 1, 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return text;
}

void c_line(CEmit *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(e->out, "%*s", 4 * e->indent, "");
    vfprintf(e->out, fmt, ap);
    fputc('\n', e->out);
    va_end(ap);
}

void c_error(CEmit *e, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(e->diag, at, fmt, ap);
    va_end(ap);
    e->ok = false;
}

const Symbol *c_callee(const Node *call)
{
    const Node *callee = call->a;
    return callee->kind == ND_NAME && callee->symbol && callee->symbol->kind == SYM_FUNC
               ? callee->symbol
               : NULL;
}

bool c_is_task(const Node *decl) { return (decl->flags & (NF_ASYNC | NF_TASK)) != 0; }

/* ---- types ---------------------------------------------------------------------------- */

static bool is_unsigned(const Type *t) { return type_is_integer(t) && !type_is_signed(t); }

/* The C type of integer width `bits`, signed or not. */
static const char *int_type(int bits, bool is_signed)
{
    switch (bits) {
    case 8: return is_signed ? "int8_t" : "uint8_t";
    case 16: return is_signed ? "int16_t" : "uint16_t";
    case 32: return is_signed ? "int32_t" : "uint32_t";
    default: return is_signed ? "int64_t" : "uint64_t";
    }
}

/* The unsigned type integer arithmetic of `t` is done in. */
static const char *wide(const Type *t) { return type_bits(t) > 32 ? "uint64_t" : "uint32_t"; }

const char *c_type(CEmit *e, const Type *t, Span at)
{
    char buf[96];
    if (type_is_integer(t))
        return int_type(type_bits(t), type_is_signed(t));
    switch (t->kind) {
    case TY_BOOL: return "bool";
    case TY_F16: return "uint16_t"; /* its bits, as on the device */
    case TY_F32: return "float";
    case TY_F64: return "double";
    case TY_STR: return "SilkStr";
    case TY_VOID: return "void";
    case TY_STRUCT:
        if (strcmp(t->name, "DispatchResult") == 0)
            return "SilkDispatchResult";
        if (strcmp(t->name, "Buffer") == 0)
            return "SilkBuffer";
        c_error(e, at, "the runtime has no C type for std/gpu's struct %s", t->name);
        return "int";
    default:
        c_error(e, at, "host code cannot hold a value of type %s", type_name(t, buf, sizeof buf));
        return "int";
    }
}

/* ---- literals --------------------------------------------------------------------------- */

void c_int_literal(CEmit *e, const Type *t, uint64_t value)
{
    int bits = type_bits(t);
    if (bits < 64)
        value &= (UINT64_C(1) << bits) - 1;
    if (type_is_signed(t)) {
        int64_t v = bits < 64 && (value >> (bits - 1)) & 1 ? (int64_t)(value | ~((UINT64_C(1) << bits) - 1))
                                                           : (int64_t)value;
        if (v == INT64_MIN)
            fputs("INT64_MIN", e->out);
        else if (v == INT32_MIN)
            fputs(bits == 32 ? "INT32_MIN" : "INT64_C(-2147483648)", e->out);
        else if (v >= INT32_MIN && v <= INT32_MAX)
            fprintf(e->out, "%" PRId64, v);
        else
            fprintf(e->out, "INT64_C(%" PRId64 ")", v);
    } else if (value <= INT32_MAX) {
        fprintf(e->out, "%" PRIu64, value);
    } else {
        fprintf(e->out, bits == 64 ? "UINT64_C(%" PRIu64 ")" : "%" PRIu64 "u", value);
    }
}

/* The shortest decimal that reads back as `v` in the type (%.9g / %.17g
 * at most), looking like a float. */
static void float_text(double v, bool single, char *buf, size_t size)
{
    if (v == floor(v) && fabs(v) < 1e15) { /* 1000.0, not 1e+03 */
        snprintf(buf, size, "%.1f", v);
        return;
    }
    for (int digits = 1; digits <= (single ? 9 : 17); digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        double back = strtod(buf, NULL);
        if (single ? (float)back == (float)v : back == v)
            break;
    }
    if (!strpbrk(buf, ".eEni"))
        strncat(buf, ".0", size - strlen(buf) - 1);
}

static void float_literal(CEmit *e, const Type *t, double v)
{
    char text[64];
    if (t->kind == TY_F32) {
        float_text((float)v, true, text, sizeof text);
        fprintf(e->out, "%sf", text);
    } else if (t->kind == TY_F64) {
        float_text(v, false, text, sizeof text);
        fputs(text, e->out);
    } else { /* f16: rounded once to the nearest, as the device's constant */
        float_text(v, false, text, sizeof text);
        fprintf(e->out, "silk_double_to_half(%s)", text);
    }
}

/* ---- what an expression is ----------------------------------------------------------------- */

static const char *substituted(const CEmit *e, const Node *n)
{
    for (uint32_t i = e->n_subst; i-- > 0;)
        if (e->subst[i].node == n)
            return e->subst[i].name;
    return NULL;
}

/* A name, or a temporary (c_sequenced's, a piece of a long chain), which
 * reads one: its tree is not walked again for each piece above it. */
static AstSearch visit_names(Node *n, void *e)
{
    return n->kind == ND_NAME || substituted(e, n) ? AST_FOUND : AST_DESCEND;
}

/* An integer constant written as its value: folded, and naming no
 * variable. */
static bool is_constant(CEmit *e, const Node *n)
{
    if (n->folded != 1 || !n->type || !type_is_integer(n->type))
        return false;
    if (n->kind == ND_INT)
        return true;
    return !ast_search((Node *)n, e->arena, visit_names, e);
}

static bool is_conversion(const Node *call)
{
    const Type *to = call->a->kind == ND_NAME && !call->a->symbol ? type_scalar_named(call->a->name)
                                                                   : NULL;
    return to && to->kind != TY_STR && !builtin_find(call->a->name);
}

/* A call without effects: a conversion, or a DispatchResult query. */
static bool is_pure_call(const Node *call)
{
    if (call->a->kind == ND_NAME)
        return is_conversion(call);
    const Symbol *m = call->a->kind == ND_FIELD ? call->a->symbol : NULL;
    return m && strncmp(m->name, "DispatchResult.", 15) == 0;
}

static void visit_effects(Node *n, void *found)
{
    if (n->kind == ND_LAUNCH || (n->kind == ND_CALL && !is_pure_call(n)))
        *(bool *)found = true;
}

bool c_has_effects(CEmit *e, const Node *n)
{
    if (substituted(e, n))
        return false;
    bool effects = false;
    ast_walk((Node *)n, e->arena, visit_effects, &effects);
    return effects;
}

/* ---- sequencing ---------------------------------------------------------------------- */

void c_sequenced(CEmit *e, const Node *const *operands, uint32_t n, CWriter *write,
                 const void *what, int context)
{
    uint32_t last = n, effects = 0;
    for (uint32_t i = 0; i < n; i++)
        if (c_has_effects(e, operands[i])) {
            effects++;
            last = i;
        }
    if (effects < 2) {
        write(e, what, context);
        return;
    }
    uint32_t base = e->n_subst;
    e->subst = arena_grow(e->arena, e->subst, e->n_subst, e->n_subst + n, sizeof *e->subst);
    fputs("({ ", e->out);
    for (uint32_t i = 0; i < last; i++) {
        if (!c_has_effects(e, operands[i]))
            continue;
        const char *temp = c_temp(e, "t");
        fprintf(e->out, "const %s %s = ", c_type(e, operands[i]->type, operands[i]->span), temp);
        c_expr(e, operands[i], C_ANY);
        fputs("; ", e->out);
        e->subst[e->n_subst++] = (CTemp){operands[i], temp};
    }
    write(e, what, C_ANY);
    fputs("; })", e->out);
    e->n_subst = base;
}

/* ---- names and literals ---------------------------------------------------------------------- */

static void name(CEmit *e, const Node *n)
{
    const CLocal *l = n->symbol ? c_local(e, n->symbol) : NULL;
    if (!l) {
        c_error(e, n->span, "host code cannot read '%s' here", n->name);
        return;
    }
    fputs(l->name, e->out);
}

/* Whether a literal of `t` with `value` is written with a minus (and so
 * binds as a unary expression). */
static bool negative(const Type *t, uint64_t value)
{
    int bits = type_bits(t);
    return type_is_signed(t) && ((value >> (bits - 1)) & 1);
}

static void constant(CEmit *e, const Node *n, int context)
{
    bool paren = negative(n->type, n->int_value) && context > C_UNARY;
    fputs(paren ? "(" : "", e->out);
    c_int_literal(e, n->type, n->int_value);
    fputs(paren ? ")" : "", e->out);
}

static void literal(CEmit *e, const Node *n)
{
    if (n->kind == ND_BOOL)
        fputs(n->int_value ? "true" : "false", e->out);
    else if (n->kind == ND_FLOAT)
        float_literal(e, n->type, n->float_value);
    else if (type_is_float(n->type)) /* an integer literal that took a float type */
        float_literal(e, n->type, (double)n->int_value);
    else
        c_int_literal(e, n->type, n->int_value);
}

/* ---- binary operators ------------------------------------------------------------------------ */

typedef struct Shape {
    const char *prefix, *mid, *suffix;
    int left, right, level;  /* the operands' contexts, and the result's binding */
    bool shift;              /* the right operand is a shift count */
} Shape;

static bool is_logical(TokenKind op) { return op == TK_ANDAND || op == TK_OROR; }

static bool is_comparison(TokenKind op)
{
    return op == TK_EQ || op == TK_NE || op == TK_LT || op == TK_LE || op == TK_GT || op == TK_GE;
}

static const char *op_text(TokenKind op)
{
    switch (op) {
    case TK_PLUS: return "+";
    case TK_MINUS: return "-";
    case TK_STAR: return "*";
    case TK_SLASH: return "/";
    case TK_PERCENT: return "%";
    case TK_AMP: return "&";
    case TK_PIPE: return "|";
    case TK_CARET: return "^";
    case TK_SHL: return "<<";
    case TK_SHR: return ">>";
    case TK_EQ: return "==";
    case TK_NE: return "!=";
    case TK_LT: return "<";
    case TK_LE: return "<=";
    case TK_GT: return ">";
    case TK_GE: return ">=";
    case TK_ANDAND: return "&&";
    case TK_OROR: return "||";
    default: return "?";
    }
}

/* C's binding strength of a binary operator. */
static int op_level(TokenKind op)
{
    switch (op) {
    case TK_STAR: case TK_SLASH: case TK_PERCENT: return 13;
    case TK_PLUS: case TK_MINUS: return 12;
    case TK_SHL: case TK_SHR: return 11;
    case TK_LT: case TK_LE: case TK_GT: case TK_GE: return 10;
    case TK_EQ: case TK_NE: return 9;
    case TK_AMP: return 8;
    case TK_CARET: return 7;
    case TK_PIPE: return 6;
    case TK_ANDAND: return 5;
    default: return 4;
    }
}

/* Where GCC's -Wparentheses wants an operand of `parent` parenthesized
 * although precedence binds it so: another operator under & | ^
 * (a | (b ^ c), a & (b + c)), && under ||, a comparison under a
 * comparison.  The C then says what it means without a rule to recall. */
static bool gcc_wants_parens(TokenKind parent, TokenKind child)
{
    if (parent == TK_AMP || parent == TK_PIPE || parent == TK_CARET)
        return child != parent;
    if (parent == TK_OROR)
        return child == TK_ANDAND;
    return is_comparison(parent) && is_comparison(child);
}

static Shape plain(CEmit *e, TokenKind op)
{
    int level = op_level(op);
    return (Shape){"", c_format(e, " %s ", op_text(op)), "", level, level + 1, level, false};
}

/* A helper call: silk_udiv32(a, b); with `cast`, its result (and operands)
 * cast: (int32_t)silk_sdiv32((uint32_t)a, (uint32_t)b). */
static Shape helper(CEmit *e, const char *fn, const char *cast, const char *operand_cast)
{
    if (!cast)
        return (Shape){c_format(e, "%s(", fn), ", ", ")", C_ANY, C_ANY, C_PRIMARY, false};
    return (Shape){c_format(e, "(%s)%s((%s)", cast, fn, operand_cast),
                   c_format(e, ", (%s)", operand_cast), ")", C_UNARY, C_UNARY, C_UNARY, false};
}

static Shape float_shape(CEmit *e, TokenKind op, const Type *t)
{
    int level = op_level(op);
    if (is_comparison(op) && t->kind == TY_F16)
        return (Shape){"silk_half_to_double(", c_format(e, ") %s silk_half_to_double(", op_text(op)),
                       ")", C_ANY, C_ANY, level, false};
    if (is_comparison(op))
        return plain(e, op);
    if (t->kind == TY_F16)
        return (Shape){"silk_double_to_half(silk_half_to_double(",
                       c_format(e, ") %s silk_half_to_double(", op_text(op)), "))", C_ANY, C_ANY,
                       C_PRIMARY, false};
    return (Shape){t->kind == TY_F32 ? "silk_nan_f32(" : "silk_nan_f64(",
                   c_format(e, " %s ", op_text(op)), ")", level, level + 1, C_PRIMARY, false};
}

static Shape shift_shape(CEmit *e, TokenKind op, const Type *t)
{
    int bits = type_bits(t);
    const char *kind = op == TK_SHL ? "shl" : type_is_signed(t) ? "ashr" : "lshr";
    const char *fn = c_format(e, "silk_%s%d", kind, bits);
    Shape s = helper(e, fn, NULL, NULL);
    if (type_is_signed(t))
        s = (Shape){c_format(e, "(%s)%s((%s)", int_type(bits, true), fn, int_type(bits, false)),
                    ", ", ")", C_UNARY, C_ANY, C_UNARY, false};
    s.shift = true;
    return s;
}

static Shape int_shape(CEmit *e, TokenKind op, const Type *t)
{
    const char *ct = int_type(type_bits(t), type_is_signed(t));
    int bits = type_bits(t);
    if (is_comparison(op))
        return plain(e, op);
    if (op == TK_SHL || op == TK_SHR)
        return shift_shape(e, op, t);
    if (op == TK_SLASH || op == TK_PERCENT) {
        const char *fn = c_format(e, "silk_%s%s%d", type_is_signed(t) ? "s" : "u",
                                  op == TK_SLASH ? "div" : "rem", bits);
        return type_is_signed(t) ? helper(e, fn, ct, int_type(bits, false)) : helper(e, fn, NULL, NULL);
    }
    bool bitwise = op == TK_AMP || op == TK_PIPE || op == TK_CARET;
    if ((bitwise && bits >= 32) || (is_unsigned(t) && bits >= 32))
        return plain(e, op);
    if (bitwise) /* (uint8_t)(a & b): & of promoted values, cast back */
        return (Shape){c_format(e, "(%s)(", ct), c_format(e, " %s ", op_text(op)), ")",
                       op_level(op), op_level(op) + 1, C_UNARY, false};
    return (Shape){c_format(e, "(%s)((%s)", ct, wide(t)),
                   c_format(e, " %s (%s)", op_text(op), wide(t)), ")", C_UNARY, C_UNARY, C_UNARY,
                   false};
}

static Shape binary_shape(CEmit *e, const Node *n)
{
    const Type *t = n->a->type;
    if (is_logical(n->op) || t->kind == TY_BOOL)
        return plain(e, n->op);
    if (type_is_float(t))
        return float_shape(e, n->op, t);
    return int_shape(e, n->op, t);
}

/* A shift's count: converted to the left operand's type (wrapping), as
 * lowering converts it, then to the helper's uint32_t; a constant count
 * clamped to 255, as the backends write one. */
static void shift_count(CEmit *e, const Node *count, const Type *t)
{
    int bits = type_bits(t), from = type_bits(count->type);
    if (is_constant(e, count)) {
        uint64_t v = count->int_value;
        if (from < 64 && type_is_signed(count->type) && ((v >> (from - 1)) & 1))
            v |= ~((UINT64_C(1) << from) - 1); /* extended as the count's type says */
        if (bits < 64)
            v &= (UINT64_C(1) << bits) - 1;
        fprintf(e->out, "%" PRIu64 "u", v > 255 ? 255 : v);
        return;
    }
    if (is_unsigned(count->type) && from == bits && bits <= 32) {
        c_expr(e, count, C_ANY);
        return;
    }
    if (from == bits || (bits == 32 && is_unsigned(count->type) && from < 32))
        fputs("(uint32_t)", e->out);
    else
        fprintf(e->out, "(uint32_t)(%s)", int_type(bits, false));
    c_expr(e, count, C_UNARY);
}

/* The left spine of a chain: top first.  A chain of && and || is one kind
 * of spine, other operators another; a folded constant or a temporary
 * ends it. */
typedef struct Spine {
    const Node **nodes;
    Shape *shapes;
    uint32_t n;
    const Node *bottom;
} Spine;

static bool continues(CEmit *e, const Node *n, bool logical)
{
    return n->kind == ND_BINARY && is_logical(n->op) == logical && !substituted(e, n);
}

static bool names_something(CEmit *e, const Node *n)
{
    return ast_search((Node *)n, e->arena, visit_names, e);
}

/* A folded constant that names no variable ends the spine: it is written
 * as its value.  Folding goes up, so the folded nodes are the spine's
 * lowest; whether each names a variable is found bottom up, each right
 * side walked once, so a long chain costs its length. */
static void end_at_constant(CEmit *e, Spine *s)
{
    uint32_t k = 1;
    while (k < s->n && !(s->nodes[k]->folded == 1 && type_is_integer(s->nodes[k]->type)))
        k++;
    if (k >= s->n)
        return;
    bool names = names_something(e, s->bottom);
    uint32_t top_constant = s->n;
    for (uint32_t i = s->n; i-- > k;) {
        names = names || names_something(e, s->nodes[i]->b);
        if (!names)
            top_constant = i;
    }
    if (top_constant < s->n) {
        s->bottom = s->nodes[top_constant];
        s->n = top_constant;
    }
}

static void collect_spine(CEmit *e, const Node *top, Spine *s)
{
    bool logical = is_logical(top->op);
    uint32_t capacity = 0;
    const Node *n = top;
    *s = (Spine){0};
    for (; s->n == 0 || continues(e, n, logical); n = n->a) {
        if (s->n == capacity) {
            uint32_t more = capacity ? 2 * capacity : 8;
            s->nodes = arena_grow(e->arena, s->nodes, capacity, more, sizeof *s->nodes);
            capacity = more;
        }
        s->nodes[s->n++] = n;
    }
    s->bottom = n;
    end_at_constant(e, s);
    s->shapes = ARENA_ARRAY(e->arena, Shape, s->n + 1);
    for (uint32_t i = 0; i < s->n; i++)
        s->shapes[i] = binary_shape(e, s->nodes[i]);
}

/* Whether `n` is written as a C operator of its own (a + b, x < y), not a
 * helper call, a cast, a temporary or a constant. */
static bool written_plain(CEmit *e, const Node *n)
{
    return n->kind == ND_BINARY && !substituted(e, n) && !is_constant(e, n) &&
           binary_shape(e, n).prefix[0] == '\0';
}

static void write_spine(CEmit *e, const void *what, int context)
{
    const Spine *s = what;
    bool *paren = ARENA_ARRAY(e->arena, bool, s->n + 1);
    for (uint32_t i = 0; i < s->n; i++) {
        bool strict = i > 0 && s->shapes[i - 1].prefix[0] == '\0' && s->shapes[i].prefix[0] == '\0' &&
                      gcc_wants_parens(s->nodes[i - 1]->op, s->nodes[i]->op);
        paren[i] = s->shapes[i].level < context || strict;
        fputs(paren[i] ? "(" : "", e->out);
        fputs(s->shapes[i].prefix, e->out);
        context = s->shapes[i].left;
    }
    const Shape *last = &s->shapes[s->n - 1];
    bool negation = s->bottom->kind == ND_UNARY && s->bottom->op == TK_BANG && last->prefix[0] == '\0' &&
                    is_comparison(s->nodes[s->n - 1]->op); /* GCC's -Wlogical-not-parentheses */
    c_expr(e, s->bottom, negation ? C_PRIMARY : context);
    for (uint32_t i = s->n; i-- > 0;) {
        const Shape *shape = &s->shapes[i];
        fputs(shape->mid, e->out);
        if (shape->shift)
            shift_count(e, s->nodes[i]->b, s->nodes[i]->a->type);
        else if (shape->prefix[0] == '\0' && written_plain(e, s->nodes[i]->b) &&
                 gcc_wants_parens(s->nodes[i]->op, s->nodes[i]->b->op))
            c_expr(e, s->nodes[i]->b, C_PRIMARY);
        else
            c_expr(e, s->nodes[i]->b, shape->right);
        fputs(shape->suffix, e->out);
        fputs(paren[i] ? ")" : "", e->out);
    }
}

/* A chain longer than C_PIECE is written in pieces: each piece of
 * C_PIECE operators, from the bottom up, a temporary of its own in a GNU
 * statement expression, the next piece starting from it.  cc1 recurses on
 * an expression's depth and crashed on a 50,000-term a + a + ... written
 * whole; the pieces keep each expression C_PIECE deep.  Silk's order
 * (left to right) is kept, and && and || still stop early: the temporary
 * holds the left part's value, short-circuited as before. */
enum { C_PIECE = 256 };

static void binary_in_pieces(CEmit *e, const Spine *s)
{
    uint32_t base = e->n_subst, pieces = (s->n - 1) / C_PIECE;
    e->subst = arena_grow(e->arena, e->subst, e->n_subst, e->n_subst + pieces, sizeof *e->subst);
    fputs("({ ", e->out);
    for (uint32_t k = 1; k <= pieces; k++) {
        const Node *piece = s->nodes[s->n - k * C_PIECE];
        const char *temp = c_temp(e, "t");
        fprintf(e->out, "const %s %s = ", c_type(e, piece->type, piece->span), temp);
        c_expr(e, piece, C_ANY); /* its spine ends at the piece below, substituted */
        fputs(";\n", e->out);
        e->subst[e->n_subst++] = (CTemp){piece, temp};
    }
    c_expr(e, s->nodes[0], C_ANY);
    fputs("; })", e->out);
    e->n_subst = base;
}

static void binary(CEmit *e, const Node *n, int context)
{
    Spine s;
    collect_spine(e, n, &s);
    if (s.n > C_PIECE) {
        binary_in_pieces(e, &s);
        return;
    }
    if (is_logical(n->op)) { /* && and || sequence their operands */
        write_spine(e, &s, context);
        return;
    }
    const Node **operands = ARENA_ARRAY(e->arena, const Node *, s.n + 1);
    operands[0] = s.bottom;
    for (uint32_t i = 0; i < s.n; i++)
        operands[i + 1] = s.nodes[s.n - 1 - i]->b;
    c_sequenced(e, operands, s.n + 1, write_spine, &s, context);
}

/* ---- unary operators ---------------------------------------------------------------------- */

static void unary(CEmit *e, const Node *n, int context)
{
    const Type *t = n->type;
    if (n->op == TK_PLUS) {
        c_expr(e, n->a, context);
        return;
    }
    bool paren = context > C_UNARY;
    fputs(paren ? "(" : "", e->out);
    if (n->op == TK_BANG) {
        fputs("!", e->out);
    } else if (n->op == TK_TILDE) {
        fputs(type_bits(t) >= 32 ? "~" : c_format(e, "(%s)~", c_type(e, t, n->span)), e->out);
    } else if (type_is_integer(t)) { /* -x: wraps (0 - INT_MIN is INT_MIN) */
        fprintf(e->out, "(%s)(0 - (%s)", c_type(e, t, n->span), wide(t));
        c_expr(e, n->a, C_UNARY);
        fputs(")", e->out);
        fputs(paren ? ")" : "", e->out);
        return;
    } else if (t->kind == TY_F16) { /* the sign bit, as neg.f16 */
        fputs("(uint16_t)(", e->out);
        c_expr(e, n->a, 8);
        fputs(" ^ 0x8000u)", e->out);
        fputs(paren ? ")" : "", e->out);
        return;
    } else {
        fputs("-", e->out);
    }
    c_expr(e, n->a, C_UNARY);
    fputs(paren ? ")" : "", e->out);
}

/* ---- conversions ------------------------------------------------------------------------------ */

/* Writes `prefix`, the operand in `context`, `suffix`; parenthesized as a
 * whole when `level` is looser than the caller's context. */
static void wrap(CEmit *e, const char *prefix, const Node *x, int context, const char *suffix,
                 int level, int outer)
{
    bool paren = level < outer;
    fputs(paren ? "(" : "", e->out);
    fputs(prefix, e->out);
    c_expr(e, x, context);
    fputs(suffix, e->out);
    fputs(paren ? ")" : "", e->out);
}

/* T(x) between floats, and from bool. */
static void convert_float(CEmit *e, const Node *x, const Type *from, const Type *to, int outer)
{
    if (from->kind == TY_BOOL && to->kind == TY_F16)
        wrap(e, "(uint16_t)(", x, 4, " ? 0x3c00u : 0u)", C_UNARY, outer);
    else if (from->kind == TY_BOOL)
        wrap(e, c_format(e, "(%s)", c_type(e, to, x->span)), x, C_UNARY, "", C_UNARY, outer);
    else if (to->kind == TY_F16 && from->kind == TY_F64)
        wrap(e, "silk_double_to_half(", x, C_ANY, ")", C_PRIMARY, outer);
    else if (to->kind == TY_F16)
        wrap(e, "silk_double_to_half((double)", x, C_UNARY, ")", C_PRIMARY, outer);
    else if (from->kind == TY_F16)
        wrap(e, to->kind == TY_F32 ? "silk_nan_f32((float)silk_half_to_double(" : "silk_nan_f64(silk_half_to_double(",
             x, C_ANY, to->kind == TY_F32 ? "))" : "))", C_PRIMARY, outer);
    else
        wrap(e, to->kind == TY_F32 ? "silk_nan_f32((float)" : "silk_nan_f64((double)", x, C_UNARY,
             ")", C_PRIMARY, outer);
}

/* T(x) from a float to an integer: truncated toward zero, saturated, NaN
 * 0 (an 8-bit result saturates at 16 bits, as cvt.rzi.s16 does). */
static void float_to_int(CEmit *e, const Node *x, const Type *from, const Type *to, int outer)
{
    int bits = type_bits(to) == 8 ? 16 : type_bits(to);
    const char *fn = c_format(e, "silk_f2%c%d(%s", type_is_signed(to) ? 's' : 'u', bits,
                              from->kind == TY_F16 ? "silk_half_to_double(" : "");
    const char *close = from->kind == TY_F16 ? "))" : ")";
    bool exact = !type_is_signed(to) && bits == type_bits(to); /* the helper's own type */
    if (exact)
        wrap(e, fn, x, C_ANY, close, C_PRIMARY, outer);
    else
        wrap(e, c_format(e, "(%s)%s", c_type(e, to, x->span), fn), x, C_ANY, close, C_UNARY, outer);
}

static void conversion(CEmit *e, const Node *call, int outer)
{
    const Node *x = call->list.items[0];
    const Type *from = x->type, *to = call->type;
    if (type_equal(from, to)) {
        c_expr(e, x, outer);
    } else if (to->kind == TY_BOOL && from->kind == TY_F16) {
        wrap(e, "(silk_half_to_double(", x, C_ANY, ") != 0)", C_PRIMARY, outer);
    } else if (to->kind == TY_BOOL) {
        wrap(e, "(", x, 10, " != 0)", C_PRIMARY, outer);
    } else if (type_is_float(to)) {
        if (type_is_float(from) || from->kind == TY_BOOL)
            convert_float(e, x, from, to, outer);
        else if (to->kind == TY_F16)
            wrap(e, "silk_double_to_half((double)", x, C_UNARY, ")", C_PRIMARY, outer);
        else
            wrap(e, c_format(e, "(%s)", c_type(e, to, x->span)), x, C_UNARY, "", C_UNARY, outer);
    } else if (type_is_float(from)) {
        float_to_int(e, x, from, to, outer);
    } else { /* integers (and bool): C's conversions wrap and extend as lowering's do */
        wrap(e, c_format(e, "(%s)", c_type(e, to, x->span)), x, C_UNARY, "", C_UNARY, outer);
    }
}

/* ---- calls ---------------------------------------------------------------------------------------- */

typedef struct Call {
    const Node *call;
    const char *function;
} Call;

static void write_call(CEmit *e, const void *what, int context)
{
    const Call *c = what;
    (void)context; /* a call is a primary expression */
    fprintf(e->out, "%s(", c->function);
    for (uint32_t i = 0; i < c->call->list.count; i++) {
        fputs(i ? ", " : "", e->out);
        c_expr(e, c->call->list.items[i], C_ANY);
    }
    fputs(")", e->out);
}

/* A call of a host function of the program (an async or task one starts it). */
static void host_call(CEmit *e, const Node *call, const Node *decl, int context)
{
    Call c = {call, c_is_task(decl) ? c_task_start_name(e, decl) : c_func_name(e, decl)};
    c_sequenced(e, (const Node *const *)call->list.items, call->list.count, write_call, &c, context);
}

static void call(CEmit *e, const Node *n, int context)
{
    const Node *callee = n->a;
    const Symbol *fn = c_callee(n);
    if (callee->kind == ND_FIELD && callee->symbol)
        c_std_method(e, n, callee->symbol);
    else if (fn && fn->func && fn->func->module->package == PKG_STD)
        c_std_call(e, n, fn->func->decl);
    else if (fn && fn->func)
        host_call(e, n, fn->func->decl, context);
    else if (is_conversion(n))
        conversion(e, n, context);
    else if (callee->kind == ND_NAME && !callee->symbol && builtin_find(callee->name) &&
             strncmp(callee->name, "print", 5) == 0)
        c_print(e, n);
    else
        c_error(e, n->span, "host code cannot call this");
}

/* ---- the dispatch -------------------------------------------------------------------------------- */

static void field(CEmit *e, const Node *n)
{
    const Type *t = n->a->type;
    bool known = t && t->kind == TY_STRUCT &&
                 ((strcmp(t->name, "DispatchResult") == 0 &&
                   (strcmp(n->name, "launch_status") == 0 || strcmp(n->name, "synchronize_status") == 0)) ||
                  (strcmp(t->name, "Buffer") == 0 &&
                   (strcmp(n->name, "address") == 0 || strcmp(n->name, "bytes") == 0)));
    if (!known) {
        c_error(e, n->name_span, "the runtime has no field '%s' of this type", n->name);
        return;
    }
    c_expr(e, n->a, C_PRIMARY);
    fprintf(e->out, ".%s", n->name);
}

void c_expr(CEmit *e, const Node *n, int context)
{
    const char *temp = substituted(e, n);
    if (temp) {
        fputs(temp, e->out);
        return;
    }
    if (is_constant(e, n)) {
        constant(e, n, context);
        return;
    }
    switch (n->kind) {
    case ND_INT: case ND_FLOAT: case ND_BOOL: literal(e, n); break;
    case ND_STRING:
        fputs("SILK_STR(", e->out);
        escape_fputs_c_string(n->str, n->str_len, e->out);
        fputs(")", e->out);
        break;
    case ND_NAME: name(e, n); break;
    case ND_UNARY: unary(e, n, context); break;
    case ND_BINARY: binary(e, n, context); break;
    case ND_CALL: call(e, n, context); break;
    case ND_FIELD: field(e, n); break;
    case ND_LAUNCH: c_launch(e, n); break;
    default: c_error(e, n->span, "host code cannot compute this expression"); break;
    }
}
