/*
 * sema_expr.c: the type of every expression (language.md section 3).
 *
 * Typing is bidirectional in one respect: a context may ask for a type
 * (`expected`), which unsuffixed literals take — `let x: u8 = 200` — and
 * which a binary operator passes to both sides, so that `x + 1` is a u8
 * when x is.  Otherwise types must match exactly: Silk has no implicit
 * conversions; `T(e)` converts.
 */
#include "sema.h"

#include <stdio.h>
#include <string.h>

static Type *error_type(void) { return type_scalar(TY_ERROR); }

static const char *tname(const Type *t, char *buf) { return type_name(t, buf, 96); }

Symbol *sema_lookup(Checker *k, const char *name)
{
    return scope_find(k->scope ? k->scope : k->module->scope, name);
}

static bool in_device_code(const Checker *k) { return k->func && k->func->gpu; }

void sema_check_assignable(Checker *k, Node *e, Type *got, Type *want, const char *what)
{
    char a[96], b[96];
    if (got->kind == TY_ERROR || want->kind == TY_ERROR || type_equal(got, want))
        return;
    bool convertible = type_is_numeric(want) && (type_is_numeric(got) || got->kind == TY_BOOL);
    if (convertible)
        diag_error(k->diag, e->span, "%s has type %s, expected %s; convert with %s(...)", what,
                   tname(got, a), tname(want, b), tname(want, b));
    else
        diag_error(k->diag, e->span, "%s has type %s, expected %s", what, tname(got, a), tname(want, b));
}

/* ---- literals -------------------------------------------------------------------- */

/* An unsuffixed literal (or a sum of them) takes the type asked for.
 *
 * A chain of binary operators, `1.0 + 1.0 + ...`, leans left: it is as
 * deep as it is long, so its left spine is walked in a loop, not by
 * recursion (32,000 terms overflowed the stack), and every spine node
 * keeps its answer, since the checker asks again at each level (asking
 * afresh made checking quadratic).  A spine node is flexible when nothing
 * at or below it is not: the first walk finds the deepest node that fails,
 * the second marks the nodes above it (and it) no, the ones below yes. */
static bool is_flexible_leaf(Node *e)
{
    switch (e->kind) {
    case ND_INT: case ND_FLOAT: return e->suffix == SUFFIX_NONE;
    case ND_UNARY: return sema_is_flexible(e->a);
    default: return false;
    }
}

bool sema_is_flexible(Node *e)
{
    if (e->flexible)
        return e->flexible == 1;
    if (e->kind != ND_BINARY) {
        e->flexible = is_flexible_leaf(e) ? 1 : 2;
        return e->flexible == 1;
    }
    Node *deepest_no = NULL, *n = e;
    for (; n->kind == ND_BINARY && !n->flexible; n = n->a)
        if (!sema_is_flexible(n->b))
            deepest_no = n;
    if (!sema_is_flexible(n)) /* the bottom, or a node already answered */
        deepest_no = n;
    bool below_no = deepest_no != NULL;
    for (Node *m = e; m != n; m = m->a) {
        m->flexible = below_no ? 2 : 1;
        if (m == deepest_no)
            below_no = false;
    }
    return e->flexible == 1;
}

static Type *suffix_type(LiteralSuffix s)
{
    static const TypeKind kinds[] = {TY_ERROR, TY_I32, TY_I64, TY_U32, TY_U64, TY_F32, TY_F64};
    return type_scalar(kinds[s]);
}

/* `at` is where an error goes: the literal, or the '-' in front of it. */
static Type *check_int(Checker *k, Node *e, Type *expected, bool negative, Span at)
{
    char buf[96];
    Type *t;
    if (e->suffix != SUFFIX_NONE)
        t = suffix_type(e->suffix);
    else if (expected && type_is_float(expected))
        return e->type = expected;
    else if (expected && type_is_integer(expected))
        t = expected;
    else
        t = type_int_fits(type_scalar(TY_I32), e->int_value, negative) ? type_scalar(TY_I32)
                                                                      : type_scalar(TY_I64);
    if (e->overflow) {
        diag_error(k->diag, at, "integer literal does not fit in 64 bits");
        return e->type = error_type();
    }
    if (!type_int_fits(t, e->int_value, negative)) {
        diag_error(k->diag, at, "%s%llu does not fit in %s", negative ? "-" : "",
                   (unsigned long long)e->int_value, tname(t, buf));
        return e->type = error_type();
    }
    return e->type = t;
}

static Type *check_float(Checker *k, Node *e, Type *expected)
{
    if (e->overflow) {
        diag_error(k->diag, e->span, "float literal is too large for f64");
        return error_type();
    }
    Type *t = e->suffix != SUFFIX_NONE ? suffix_type(e->suffix)
              : expected && type_is_float(expected) ? expected : type_scalar(TY_F32);
    double limit = t->kind == TY_F16 ? 65504.0 : t->kind == TY_F32 ? 3.4028234663852886e38 : 0;
    if (limit && e->float_value > limit) {
        char buf[96];
        diag_error(k->diag, e->span, "float literal is too large for %s", tname(t, buf));
        return error_type();
    }
    return t;
}

/* ---- names ------------------------------------------------------------------------ */

static Type *check_name(Checker *k, Node *e)
{
    if (strcmp(e->name, "ctx") == 0 && !sema_lookup(k, "ctx")) {
        if (in_device_code(k))
            return type_scalar(TY_CTX);
        diag_error(k->diag, e->span, "ctx exists only in GPU functions (kernel, or attr(device=gpu) fn)");
        return error_type();
    }
    Symbol *s = sema_lookup(k, e->name);
    if (!s) {
        if (type_scalar_named(e->name) || builtin_find(e->name))
            diag_error(k->diag, e->span, "'%s' is not a value; call it: %s(...)", e->name, e->name);
        else {
            diag_error(k->diag, e->span, "unknown name '%s'", e->name);
            sema_note_std_name(k, e->name);
        }
        return error_type();
    }
    e->symbol = s;
    s->read = true;
    if (s->kind == SYM_FUNC) {
        diag_error(k->diag, e->span, "function '%s' is not a value; call it", e->name);
        return error_type();
    }
    if (s->kind == SYM_STRUCT) {
        diag_error(k->diag, e->span, "'%s' is a type, not a value", e->name);
        return error_type();
    }
    return s->type;
}

/* ---- operators ---------------------------------------------------------------------- */

static Type *check_unary(Checker *k, Node *e, Type *expected)
{
    char buf[96];
    Type *t = e->op == TK_MINUS && e->a->kind == ND_INT ? check_int(k, e->a, expected, true, e->span)
                                                        : sema_check_expr(k, e->a, expected);
    e->a->type = t;
    if (t->kind == TY_ERROR)
        return t;
    bool ok = e->op == TK_BANG ? t->kind == TY_BOOL
              : e->op == TK_TILDE ? type_is_integer(t) : type_is_numeric(t);
    if (!ok) {
        diag_error(k->diag, e->span, "%s cannot be applied to %s", lex_token_kind_name(e->op), tname(t, buf));
        return error_type();
    }
    if (e->op == TK_MINUS && type_is_integer(t) && !type_is_signed(t) && e->a->kind != ND_INT) {
        diag_error(k->diag, e->span, "negating an unsigned %s; convert to a signed type first", tname(t, buf));
        return error_type();
    }
    return t;
}

static bool is_comparison(TokenKind op)
{
    return op == TK_EQ || op == TK_NE || op == TK_LT || op == TK_LE || op == TK_GT || op == TK_GE;
}

static bool is_tile_like(const Type *t)
{
    return t->kind == TY_TILE || t->kind == TY_ARRAY || t->kind == TY_TENSOR;
}

/* What a side of a binary operator asks of the other: its own type, or,
 * for a tile, its element type (a scalar combines with every element). */
static Type *partner(Type *t) { return is_tile_like(t) ? t->elem : t; }

static bool same_shape(const Type *a, const Type *b)
{
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i])
            return false;
    return true;
}

static Type *tile_of(Checker *k, const Type *shape, Type *elem, int64_t rows, int64_t cols)
{
    Type *t = ARENA_NEW(k->arena, Type);
    t->kind = TY_TILE;
    t->elem = elem;
    t->rank = shape ? shape->rank : 2;
    for (int i = 0; shape && i < shape->rank; i++)
        t->dims[i] = shape->dims[i];
    if (!shape) {
        t->dims[0] = rows;
        t->dims[1] = cols;
    }
    return t;
}

/* The operators defined on integers only: on scalars and on a tile's
 * elements alike. */
static bool is_integer_only(TokenKind op)
{
    return op == TK_PERCENT || op == TK_AMP || op == TK_PIPE || op == TK_CARET ||
           op == TK_SHL || op == TK_SHR;
}

/* Tile operands combine element by element (a scalar with every element);
 * '@' is the matrix product [m, k] @ [k, n] -> [m, n]. */
static Type *check_tile_binary(Checker *k, Node *e, Type *l, Type *r)
{
    char a[96], b[96];
    Type *le = partner(l), *re = partner(r);
    if (!type_equal(le, re) || !type_is_numeric(le)) {
        diag_error(k->diag, e->span, "%s needs elements of one numeric type, not %s and %s",
                   lex_token_kind_name(e->op), tname(l, a), tname(r, b));
        return error_type();
    }
    if (e->op == TK_AT) {
        bool fits = is_tile_like(l) && is_tile_like(r) && l->rank == 2 && r->rank == 2 &&
                    (l->dims[1] < 0 || r->dims[0] < 0 || l->dims[1] == r->dims[0]);
        if (!fits) {
            diag_error(k->diag, e->span, "'@' multiplies [m, k] by [k, n] tiles, not %s and %s",
                       tname(l, a), tname(r, b));
            return error_type();
        }
        return tile_of(k, NULL, le, l->dims[0], r->dims[1]);
    }
    if (is_tile_like(l) && is_tile_like(r) && !same_shape(l, r)) {
        diag_error(k->diag, e->span, "%s needs tiles of one shape, not %s and %s",
                   lex_token_kind_name(e->op), tname(l, a), tname(r, b));
        return error_type();
    }
    if (is_comparison(e->op) || e->op == TK_ANDAND || e->op == TK_OROR) {
        diag_error(k->diag, e->span, "%s does not apply to tiles", lex_token_kind_name(e->op));
        return error_type();
    }
    Type *tile = is_tile_like(l) ? l : r;
    if (is_integer_only(e->op) && !type_is_integer(le)) {
        diag_error(k->diag, e->span, "%s cannot be applied to %s", lex_token_kind_name(e->op),
                   tname(tile, a));
        return error_type();
    }
    return tile_of(k, tile, le, 0, 0);
}

static void check_division(Checker *k, Node *e, Type *t)
{
    if ((e->op != TK_SLASH && e->op != TK_PERCENT) || !type_is_integer(t))
        return;
    ConstValue v = const_eval(k, e->b);
    if (v.known && v.bits == 0)
        diag_error(k->diag, e->b->span, "division by zero");
}

/* The type of binary operator `e` whose operands have types l and r. */
static Type *binary_result(Checker *k, Node *e, Type *l, Type *r)
{
    char a[96], b[96];
    bool logical = e->op == TK_ANDAND || e->op == TK_OROR;
    if (l->kind == TY_ERROR || r->kind == TY_ERROR)
        return error_type();
    if (is_tile_like(l) || is_tile_like(r))
        return check_tile_binary(k, e, l, r);
    const char *op = lex_token_kind_name(e->op);
    if (logical) {
        if (l->kind != TY_BOOL || r->kind != TY_BOOL) {
            diag_error(k->diag, e->span, "%s needs bool operands, not %s and %s", op, tname(l, a), tname(r, b));
            return error_type();
        }
        return l;
    }
    if (e->op == TK_SHL || e->op == TK_SHR) {
        if (!type_is_integer(l) || !type_is_integer(r)) {
            diag_error(k->diag, e->span, "%s needs integer operands, not %s and %s", op, tname(l, a), tname(r, b));
            return error_type();
        }
        return l;
    }
    if (!type_equal(l, r)) {
        diag_error(k->diag, e->span, "%s needs operands of one type, not %s and %s%s", op, tname(l, a),
                   tname(r, b), type_is_numeric(l) && type_is_numeric(r) ? "; convert one with T(...)" : "");
        return error_type();
    }
    if (e->op == TK_AT) {
        diag_error(k->diag, e->span, "'@' multiplies tiles; %s is not a tile", tname(l, a));
        return error_type();
    }
    bool fits = is_comparison(e->op) ? (type_is_numeric(l) || ((e->op == TK_EQ || e->op == TK_NE) && l->kind == TY_BOOL))
                : is_integer_only(e->op) ? type_is_integer(l) : type_is_numeric(l);
    if (!fits) {
        diag_error(k->diag, e->span, "%s cannot be applied to %s", op, tname(l, a));
        return error_type();
    }
    check_division(k, e, l);
    return is_comparison(e->op) ? type_scalar(TY_BOOL) : l;
}

/* ---- chains of binary operators --------------------------------------------------- */

/* Both sides of an operator: a flexible side takes the other's type.  So
 * the right side goes first when the left is flexible and it is not; then
 * the left side's expected type is known before the walk goes down. */
typedef struct BinaryStep {
    Node *e;
    Type *right; /* the right side's type when it went first, else NULL */
} BinaryStep;

static bool is_shift(const Node *e) { return e->op == TK_SHL || e->op == TK_SHR; }

/* What a flexible side of `e` is asked for when the other side has type
 * `other`: the other side's type (a tile's element type), except that
 * beside a scalar either side of a shift is typed on its own.  A tile's
 * elements combine with one scalar of their type, so in t << 3 and
 * 1 << t the literal takes it, as in t * 2 (language.md 3.2). */
static Type *flexible_side(const Node *e, Type *other)
{
    return is_shift(e) && !is_tile_like(other) ? NULL : partner(other);
}

/* What the sides of `e` are asked for, given what `e` is asked for; checks
 * the right side first when it decides the left's type.  Returns what the
 * left side is asked for. */
static Type *step_down(Checker *k, Node *e, Type *expected, BinaryStep *step)
{
    bool logical = e->op == TK_ANDAND || e->op == TK_OROR;
    Type *want = logical ? type_scalar(TY_BOOL) : is_comparison(e->op) ? NULL : expected;
    *step = (BinaryStep){e, NULL};
    if (sema_is_flexible(e->a) && !sema_is_flexible(e->b)) {
        step->right = sema_check_expr(k, e->b, want);
        return flexible_side(e, step->right);
    }
    return want && is_tile_like(want) ? want->elem : want;
}

static Type *finish_expr(Checker *k, Node *e, Type *t);

/* A chain of binary operators leans left (`a + b + c` is (a + b) + c) and
 * is as deep as the source is long, so its left spine is walked with a
 * list of steps, down and then up, not by recursion; only the right sides
 * (and the bottom) recurse, and their depth is the parser's nesting limit. */
static Type *check_binary(Checker *k, Node *top, Type *expected)
{
    BinaryStep *steps = NULL;
    uint32_t n = 0;
    Node *e = top;
    for (;;) {
        if ((n & (n - 1)) == 0) /* 0, 1, 2, 4...: full, double it */
            steps = arena_grow(k->arena, steps, n, n ? 2 * (size_t)n : 1, sizeof *steps);
        expected = step_down(k, e, expected, &steps[n++]);
        if (e->a->kind != ND_BINARY)
            break;
        e = e->a;
    }
    Type *left = sema_check_expr(k, e->a, expected);
    while (n-- > 0) {
        BinaryStep *s = &steps[n];
        Type *right = s->right ? s->right : sema_check_expr(k, s->e->b, flexible_side(s->e, left));
        Type *t = binary_result(k, s->e, left, right);
        left = n ? finish_expr(k, s->e, t) : t; /* sema_check_expr finishes the top */
    }
    return left;
}

/* ---- fields and indexing -------------------------------------------------------------- */

static Type *check_field(Checker *k, Node *e)
{
    char buf[96];
    Type *base = sema_check_expr(k, e->a, NULL);
    if (base->kind == TY_ERROR)
        return base;
    if (base->kind == TY_CTX) {
        Type *t = builtin_ctx_field_type(e->name);
        if (!t)
            diag_error(k->diag, e->name_span, "ctx has no field '%s'", e->name);
        return t ? t : error_type();
    }
    if (base->kind == TY_STRUCT)
        for (int i = 0; i < base->n_fields; i++)
            if (strcmp(base->fields[i].name, e->name) == 0)
                return base->fields[i].type;
    diag_error(k->diag, e->name_span, "%s has no field '%s'", tname(base, buf), e->name);
    return error_type();
}

static Type *check_view(Checker *k, Node *e, Type *base)
{
    Type *t = ARENA_NEW(k->arena, Type);
    t->kind = TY_TILE;
    t->elem = base->elem;
    t->rank = base->rank;
    for (int i = 0; i < base->rank; i++) {
        Node *index = e->list.items[i];
        if (index->kind != ND_SLICE) {
            diag_error(k->diag, index->span, "a view gives every dimension as start +: width");
            return error_type();
        }
        sema_check_expr(k, index->a, type_scalar(TY_U64));
        sema_check_expr(k, index->b, type_scalar(TY_U64));
        ConstValue width = const_eval(k, index->b);
        if (!width.known || width.bits == 0 || const_is_negative(width)) {
            diag_error(k->diag, index->b->span, "a view's width must be a positive integer constant");
            return error_type();
        }
        t->dims[i] = (int64_t)width.bits;
    }
    return t;
}

static Type *check_index(Checker *k, Node *e)
{
    char buf[96];
    Type *base = sema_check_expr(k, e->a, NULL);
    if (base->kind == TY_ERROR)
        return base;
    if (base->kind != TY_TENSOR && base->kind != TY_ARRAY && base->kind != TY_TILE) {
        diag_error(k->diag, e->a->span, "%s cannot be indexed", tname(base, buf));
        return error_type();
    }
    if ((int)e->list.count != base->rank) {
        diag_error(k->diag, e->span, "%s has %d dimension%s; %u ind%s given", tname(base, buf),
                   base->rank, base->rank == 1 ? "" : "s", e->list.count, e->list.count == 1 ? "ex" : "ices");
        return error_type();
    }
    if (e->list.count && e->list.items[0]->kind == ND_SLICE)
        return check_view(k, e, base);
    for (uint32_t i = 0; i < e->list.count; i++) {
        Node *index = e->list.items[i];
        Type *t = index->kind == ND_SLICE ? error_type() : sema_check_expr(k, index, type_scalar(TY_U64));
        if (index->kind == ND_SLICE)
            diag_error(k->diag, index->span, "a view gives every dimension as start +: width");
        else if (t->kind != TY_ERROR && !type_is_integer(t))
            diag_error(k->diag, index->span, "an index must be an integer, not %s", tname(t, buf));
    }
    return base->elem;
}

/* ---- the dispatcher ------------------------------------------------------------------- */

static Type *check_expr_kind(Checker *k, Node *e, Type *expected)
{
    switch (e->kind) {
    case ND_INT: return check_int(k, e, expected, false, e->span);
    case ND_FLOAT: return check_float(k, e, expected);
    case ND_STRING:
        if (in_device_code(k)) {
            diag_error(k->diag, e->span, "strings are for host code");
            return error_type();
        }
        return type_scalar(TY_STR);
    case ND_BOOL: return type_scalar(TY_BOOL);
    case ND_NAME: return check_name(k, e);
    case ND_UNARY: return check_unary(k, e, expected);
    case ND_BINARY: return check_binary(k, e, expected);
    case ND_FIELD: return check_field(k, e);
    case ND_INDEX: return check_index(k, e);
    case ND_CALL: return sema_check_call(k, e, expected);
    case ND_LAUNCH: return sema_check_launch(k, e);
    case ND_PATH:
        diag_error(k->diag, e->span, "qualified names (a::b) are not part of Silk; import the name");
        return error_type();
    default:
        diag_error(k->diag, e->span, "this is not an expression");
        return error_type();
    }
}

/* Records the type of `e` and folds an integer constant. */
static Type *finish_expr(Checker *k, Node *e, Type *t)
{
    e->type = t;
    if (type_is_integer(t))
        const_eval(k, e); /* folds, and reports overflow where it happens */
    return e->type;     /* an overflow made it TY_ERROR */
}

Type *sema_check_expr(Checker *k, Node *e, Type *expected)
{
    if (!e)
        return error_type();
    return finish_expr(k, e, check_expr_kind(k, e, expected));
}
