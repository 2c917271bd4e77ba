/*
 * sema_stmt.c: function bodies — scopes, statements, and the statement
 * attributes of the seed's interactions (@registers, @tensorcore).
 */
#include "sema.h"

#include <stdio.h>
#include <string.h>

static const char *tname(const Type *t, char *buf) { return type_name(t, buf, 96); }

static void check_statement(Checker *k, Node *s);

/* ---- scopes and locals ---------------------------------------------------------------- */

static bool is_unused(const Symbol *s)
{
    return !s->read && s->kind == SYM_LOCAL && s->name[0] != '_';
}

/* Scopes are left far more often than they hold an unused variable, so
 * the ordered list (an allocation) is made only when there is one. */
static void warn_unused(Checker *k, Scope *scope)
{
    if (!scope_any(scope, is_unused))
        return;
    uint32_t n;
    Symbol **symbols = scope_symbols(scope, &n);
    for (uint32_t i = 0; i < n; i++)
        if (is_unused(symbols[i]))
            diag_warning(k->diag, W_UNUSED_VARIABLE, symbols[i]->span, "unused variable '%s'",
                         symbols[i]->name);
}

static Symbol *declare_local(Checker *k, SymbolKind kind, Node *decl, Type *t)
{
    Symbol *s = ARENA_NEW(k->arena, Symbol);
    s->kind = kind;
    s->name = decl->name;
    s->span = decl->name_span;
    s->decl = decl;
    s->type = t;
    s->module = k->module;
    s->mutable = decl->flags & NF_MUTABLE;
    Symbol *before = scope_add(k->scope, s);
    if (before) {
        diag_error(k->diag, decl->name_span, "'%s' is already declared in this scope", decl->name);
        diag_note(k->diag, before->span, "the first '%s' is here", decl->name);
    }
    decl->symbol = s;
    return s;
}

static void enter_scope(Checker *k) { k->scope = scope_new(k->arena, k->scope); }

static void leave_scope(Checker *k)
{
    warn_unused(k, k->scope);
    k->scope = k->scope->parent;
}

/* ---- the seed's interactions ----------------------------------------------------------- */

static int64_t element_count(const Type *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++)
        n *= t->dims[i];
    return n;
}

/* @registers spreads a tile over the CTA's threads: its elements must
 * divide evenly by threads. */
static void check_registers(Checker *k, Node *attr, Node *let, Type *t)
{
    char buf[96];
    if (let->kind != ND_LET || t->kind != TY_TILE) {
        diag_error(k->diag, attr->span, "@registers applies to a tile variable: @registers let t: tile<f32>[...] = ...");
        return;
    }
    int threads = k->func->reqntid;
    if (threads == 0) {
        diag_error(k->diag, attr->span, "@registers needs a fixed thread count (@launch)");
        return;
    }
    int64_t n = element_count(t);
    if (n % threads != 0)
        diag_error(k->diag, attr->span,
                   "@registers needs the tile's element count to divide evenly by threads: %s has %lld elements, not a multiple of %d",
                   tname(t, buf), (long long)n, threads);
}

/* @tensorcore c = a @ b: the CTA's warps must tile c's grid of 16x16
 * fragments. */
static void check_tensorcore(Checker *k, Node *attr, Node *s)
{
    if (!k->func || !k->func->gpu) {
        diag_error(k->diag, attr->span, "@tensorcore applies to tile products in GPU functions");
        return;
    }
    if (s->kind != ND_ASSIGN || !s->b || s->b->kind != ND_BINARY || s->b->op != TK_AT) {
        diag_error(k->diag, attr->span, "@tensorcore applies to a tile product: @tensorcore c = a @ b");
        return;
    }
    Type *c = s->a->type;
    int threads = k->func->reqntid;
    if (threads == 0) {
        diag_error(k->diag, attr->span, "@tensorcore needs a fixed thread count (@launch)");
        return;
    }
    if (!c || c->kind == TY_ERROR || c->rank != 2)
        return;
    int warps = threads / 32;
    bool whole = c->dims[0] % 16 == 0 && c->dims[1] % 16 == 0;
    int64_t fragments = whole ? (c->dims[0] / 16) * (c->dims[1] / 16) : 0;
    if (!whole || fragments % warps != 0)
        diag_error(k->diag, attr->span,
                   "@tensorcore needs the CTA's %d warp%s to tile the %lldx%lld result's grid of 16x16 fragments%s",
                   warps, warps == 1 ? "" : "s", (long long)c->dims[0], (long long)c->dims[1],
                   whole ? "" : " (its extents are not multiples of 16)");
}

static void check_statement_attributes(Checker *k, Node *s)
{
    for (uint32_t i = 0; i < s->attrs->count; i++) {
        Node *attr = s->attrs->items[i];
        if (strcmp(attr->name, "registers") == 0)
            check_registers(k, attr, s, s->symbol ? s->symbol->type : type_scalar(TY_ERROR));
        else if (strcmp(attr->name, "tensorcore") == 0)
            check_tensorcore(k, attr, s);
        else if (strcmp(attr->name, "attr") != 0)
            diag_error(k->diag, attr->span, "@%s does not apply to a statement", attr->name);
    }
}

static bool is_tile_like(const Type *t)
{
    return t->kind == TY_TILE || t->kind == TY_ARRAY || t->kind == TY_TENSOR;
}

/* What a whole tile, tensor or shared array accepts: a tile operand of its
 * shape and element type, or a scalar of its element type (a fill). */
static bool tile_accepts(const Type *target, const Type *value)
{
    if (value->kind == TY_ERROR || type_equal(value, target->elem))
        return true;
    if (!is_tile_like(value) || value->rank != target->rank || !type_equal(value->elem, target->elem))
        return false;
    for (int i = 0; i < target->rank; i++)
        if (value->dims[i] >= 0 && target->dims[i] >= 0 && value->dims[i] != target->dims[i])
            return false;
    return true;
}

/* "a i32" reads badly: the article of a type's name, as it is spoken. */
static const char *article(const char *type)
{
    return strchr("aeioAEIO", type[0]) || (type[0] == 'f' && type[1] >= '0' && type[1] <= '9') ? "an" : "a";
}

/* ---- statements ---------------------------------------------------------------------------- */

static void check_let(Checker *k, Node *s)
{
    char buf[96];
    Type *declared = s->a ? sema_resolve_type(k, s->a, false) : NULL;
    if (declared && declared->kind == TY_ARRAY) {
        diag_error(k->diag, s->a->span, "arrays are declared with shared; a tile value is tile<%s>[...]",
                   declared->elem->name);
        declared = type_scalar(TY_ERROR);
    }
    if (declared && declared->kind == TY_TILE && !(k->func && k->func->gpu)) {
        diag_error(k->diag, s->a->span, "tiles exist only in GPU functions");
        declared = type_scalar(TY_ERROR);
    }
    Type *t = declared;
    if (s->b) {
        Type *init = sema_check_expr(k, s->b, declared && is_tile_like(declared) ? declared->elem : declared);
        if (declared && declared->kind == TY_TILE) {
            if (!tile_accepts(declared, init)) {
                char a[96], b[96];
                diag_error(k->diag, s->b->span, "a tile of %s takes a tile of its shape or one %s, not %s",
                           tname(declared, a), declared->elem->name, tname(init, b));
            }
        } else if (declared) {
            sema_check_assignable(k, s->b, init, declared, "the initializer");
        } else {
            t = init;
        }
        if (t->kind == TY_VOID) {
            diag_error(k->diag, s->b->span, "this has no value to store");
            t = type_scalar(TY_ERROR);
        }
    } else if (!(s->flags & NF_MUTABLE)) {
        diag_error(k->diag, s->name_span, "'%s' is immutable and needs a value: let %s: %s = ...", s->name,
                   s->name, tname(t, buf));
    }
    Symbol *sym = declare_local(k, SYM_LOCAL, s, t);
    if (t && t->kind == TY_ERROR)
        sym->read = true; /* its error was reported; "unused" would be a second message */
    if (!sym->mutable && s->b)
        sym->value = const_eval(k, s->b);
}

/* a * b, or UINT64_MAX when it does not fit. */
static uint64_t saturating_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The function's static shared memory with array `t` added, each array at
 * its element's alignment in the order declared (as lowering lays them
 * out, compiler/ir.c: ir_static_smem); the declaration that takes it past
 * the limit is the error.  Lowering's own arrays (tiles, reductions) are
 * counted after lowering, for the whole kernel (build.c). */
static void count_shared(Checker *k, Node *s, const Type *t)
{
    uint64_t size = (uint64_t)(type_bits(t->elem) < 8 ? 1 : type_bits(t->elem) / 8);
    uint64_t bytes = size;
    for (int d = 0; d < t->rank; d++)
        bytes = saturating_mul(bytes, (uint64_t)(t->dims[d] > 0 ? t->dims[d] : 1));
    uint64_t before = k->func->shared_bytes;
    uint64_t at = (before + size - 1) / size * size;
    uint64_t after = bytes > UINT64_MAX - at ? UINT64_MAX : at + bytes;
    k->func->shared_bytes = after;
    uint64_t limit = k->c->shared_limit.bytes;
    if (limit && before <= limit && after > limit) {
        char total[32], most[64];
        if (after == UINT64_MAX)
            snprintf(total, sizeof total, "2^64 or more");
        else
            snprintf(total, sizeof total, "%llu", (unsigned long long)after);
        compile_shared_limit_text(&k->c->shared_limit, most, sizeof most);
        diag_error(k->diag, s->span,
                   "'%s' brings the static shared memory of '%s' to %s bytes; a kernel may have at most %s",
                   s->name, k->func->decl->name, total, most);
    }
}

static void check_shared(Checker *k, Node *s)
{
    if (!(k->func && k->func->gpu)) {
        diag_error(k->diag, s->span, "shared memory exists only in GPU functions");
        return;
    }
    Type *t = sema_resolve_type(k, s->a, false);
    if (t->kind != TY_ARRAY && t->kind != TY_ERROR) {
        diag_error(k->diag, s->a->span, "a shared array needs its extents: shared %s: %s[256]", s->name,
                   s->a->name);
        t = type_scalar(TY_ERROR);
    }
    Symbol *sym = declare_local(k, SYM_SHARED, s, t);
    sym->mutable = true;
    sym->read = true;
    if (t->kind == TY_ARRAY)
        count_shared(k, s, t);
}

/* Why `target` cannot be assigned to, reported; true if it can. */
static bool is_assignable_target(Checker *k, Node *target)
{
    if (target->kind == ND_FIELD) {
        Node *base = target->a;
        if (base->type && base->type->kind == TY_CTX) {
            diag_error(k->diag, target->span, "cannot assign to ctx.%s: ctx is read-only", target->name);
            return false;
        }
        return base->kind != ND_NAME || is_assignable_target(k, base);
    }
    if (target->kind == ND_INDEX)
        return true;
    if (target->kind != ND_NAME || !target->symbol) {
        diag_error(k->diag, target->span, "this cannot be assigned to");
        return false;
    }
    Symbol *s = target->symbol;
    if (s->mutable || s->kind == SYM_SHARED)
        return true;
    if (s->kind == SYM_PARAM && s->type->kind == TY_TENSOR)
        return true; /* a whole-tensor tile statement writes the memory it views */
    const char *why = s->kind == SYM_PARAM ? "parameters are immutable (copy it into a var)"
                      : s->kind == SYM_LOOP ? "loop variables are immutable (copy it into a var)"
                      : "it is immutable (declare it with var)";
    diag_error(k->diag, target->span, "cannot assign to '%s': %s", s->name, why);
    diag_note(k->diag, s->span, "'%s' is declared here", s->name);
    return false;
}

static bool needs_integers(TokenKind op)
{
    return op == TK_PERCENT_ASSIGN || op == TK_AMP_ASSIGN || op == TK_PIPE_ASSIGN ||
           op == TK_CARET_ASSIGN || op == TK_SHL_ASSIGN || op == TK_SHR_ASSIGN;
}

/* x op= v: numbers (integers for % & | ^ << >>); a shift takes any
 * integer amount; dividing by a constant zero is an error. */
static void check_compound(Checker *k, Node *s, Type *target)
{
    bool shift = s->op == TK_SHL_ASSIGN || s->op == TK_SHR_ASSIGN;
    Type *value = sema_check_expr(k, s->b, shift ? NULL : target);
    if (target->kind == TY_ERROR || value->kind == TY_ERROR)
        return;
    bool ok = needs_integers(s->op) ? type_is_integer(target) : type_is_numeric(target);
    if (!ok) {
        diag_error(k->diag, s->span, "%s needs %s", lex_token_kind_name(s->op),
                   needs_integers(s->op) ? "an integer" : "a number");
        return;
    }
    if (shift) {
        if (!type_is_integer(value))
            diag_error(k->diag, s->b->span, "a shift amount must be an integer");
        return;
    }
    sema_check_assignable(k, s->b, value, target, "the value");
    if ((s->op == TK_SLASH_ASSIGN || s->op == TK_PERCENT_ASSIGN) && type_is_integer(target)) {
        ConstValue v = const_eval(k, s->b);
        if (v.known && v.bits == 0)
            diag_error(k->diag, s->b->span, "division by zero");
    }
}

static void check_assign(Checker *k, Node *s)
{
    /* Writing a variable is not reading it (-Wunused-variable). */
    Symbol *written = s->a->kind == ND_NAME ? sema_lookup(k, s->a->name) : NULL;
    bool was_read = written && written->read;
    Type *target = sema_check_expr(k, s->a, NULL);
    if (written && s->op == TK_ASSIGN)
        written->read = was_read;
    if (target->kind == TY_ERROR || !is_assignable_target(k, s->a)) {
        sema_check_expr(k, s->b, NULL);
        return;
    }
    if (s->op != TK_ASSIGN) {
        check_compound(k, s, target);
        return;
    }
    if (is_tile_like(target)) {
        Type *value = sema_check_expr(k, s->b, target->elem);
        if (!tile_accepts(target, value)) {
            char a[96], b[96];
            diag_error(k->diag, s->b->span, "a tile statement needs a value of shape %s, not %s",
                       tname(target, a), tname(value, b));
        }
        return;
    }
    sema_check_assignable(k, s->b, sema_check_expr(k, s->b, target), target, "the value");
}

static void check_condition(Checker *k, Node *c, const char *what)
{
    char buf[96];
    Type *t = sema_check_expr(k, c, type_scalar(TY_BOOL));
    if (t->kind != TY_ERROR && t->kind != TY_BOOL)
        diag_error(k->diag, c->span, "%s must be a bool, not %s", what, tname(t, buf));
}

static void check_for(Checker *k, Node *s)
{
    char buf[96];
    /* 0..n: the literal bound takes the other's type. */
    Type *t;
    if (sema_is_flexible(s->a) && !sema_is_flexible(s->b)) {
        t = sema_check_expr(k, s->b, NULL);
        sema_check_assignable(k, s->a, sema_check_expr(k, s->a, t), t, "the range's start");
    } else {
        t = sema_check_expr(k, s->a, NULL);
    }
    if (t->kind != TY_ERROR && !type_is_integer(t)) {
        diag_error(k->diag, s->a->span, "a range's bounds must be integers, not %s", tname(t, buf));
        t = type_scalar(TY_ERROR);
    }
    if (!s->b->type)
        sema_check_assignable(k, s->b, sema_check_expr(k, s->b, t), t, "the range's end");
    if (s->c) {
        sema_check_assignable(k, s->c, sema_check_expr(k, s->c, t), t, "the step");
        ConstValue step = const_eval(k, s->c);
        if (step.known && step.bits == 0)
            diag_error(k->diag, s->c->span, "a range's step must not be zero");
    }
    enter_scope(k);
    Symbol *v = declare_local(k, SYM_LOOP, s, t);
    v->read = true;
    k->loops++;
    sema_check_block(k, s->d);
    k->loops--;
    leave_scope(k);
}

static void check_return(Checker *k, Node *s)
{
    Type *want = k->func ? k->func->result : type_scalar(TY_VOID);
    if (!s->a) {
        if (want->kind != TY_VOID && want->kind != TY_ERROR)
            diag_error(k->diag, s->span, "'%s' must return %s %s value", k->func->decl->name,
                       article(want->name), want->name);
        return;
    }
    Type *got = sema_check_expr(k, s->a, want);
    if (want->kind == TY_VOID)
        diag_error(k->diag, s->a->span, "'%s' returns nothing; remove the value", k->func->decl->name);
    else
        sema_check_assignable(k, s->a, got, want, "the returned value");
}

/* A statement that computes a value and drops it is almost always a
 * mistake — often a line the newline rule split off its predecessor. */
static void check_expression_statement(Checker *k, Node *s)
{
    Node *outer = k->statement_call;
    k->statement_call = s->a;
    Type *t = sema_check_expr(k, s->a, NULL);
    k->statement_call = outer;
    bool effect = s->a->kind == ND_CALL || s->a->kind == ND_LAUNCH;
    if (!effect && t->kind != TY_ERROR)
        diag_warning(k->diag, W_UNUSED_VALUE, s->span, "this value is computed and never used");
}

static void check_statement_kind(Checker *k, Node *s)
{
    switch (s->kind) {
    case ND_LET: check_let(k, s); break;
    case ND_SHARED: check_shared(k, s); break;
    case ND_ASSIGN: check_assign(k, s); break;
    case ND_EXPR_STMT: check_expression_statement(k, s); break;
    case ND_IF:
        check_condition(k, s->a, "an if condition");
        sema_check_block(k, s->b);
        if (s->c)
            check_statement(k, s->c);
        break;
    case ND_WHILE:
        check_condition(k, s->a, "a while condition");
        k->loops++;
        sema_check_block(k, s->b);
        k->loops--;
        break;
    case ND_FOR: check_for(k, s); break;
    case ND_BREAK: case ND_CONTINUE:
        if (k->loops == 0)
            diag_error(k->diag, s->span, "%s outside a loop", s->kind == ND_BREAK ? "break" : "continue");
        break;
    case ND_RETURN: check_return(k, s); break;
    case ND_LAUNCH: sema_check_launch(k, s); break;
    case ND_BLOCK: sema_check_block(k, s); break;
    case ND_EMPTY: diag_warning(k->diag, W_EMPTY_STATEMENT, s->span, "empty statement"); break;
    default: diag_error(k->diag, s->span, "this is not a statement"); break;
    }
}

static void check_statement(Checker *k, Node *s)
{
    if (!s || diag_too_many(k->diag))
        return;
    check_statement_kind(k, s);
    if (s->attrs)
        check_statement_attributes(k, s);
}

static bool ends_flow(const Node *s)
{
    return s->kind == ND_RETURN || s->kind == ND_BREAK || s->kind == ND_CONTINUE;
}

void sema_check_block(Checker *k, Node *block)
{
    if (!block)
        return;
    enter_scope(k);
    bool warned = false;
    for (uint32_t i = 0; i < block->list.count; i++) {
        Node *s = block->list.items[i];
        if (!warned && i > 0 && ends_flow(block->list.items[i - 1])) {
            diag_warning(k->diag, W_UNREACHABLE, s->span, "this statement is never reached");
            warned = true;
        }
        check_statement(k, s);
    }
    leave_scope(k);
}

/* ---- functions -------------------------------------------------------------------------------- */

/* Whether every path through `s` returns. */
static bool always_returns(const Node *s)
{
    if (!s)
        return false;
    if (s->kind == ND_RETURN)
        return true;
    if (s->kind == ND_IF)
        return s->c && always_returns(s->b) && always_returns(s->c);
    if (s->kind == ND_BLOCK)
        for (uint32_t i = 0; i < s->list.count; i++)
            if (always_returns(s->list.items[i]))
                return true;
    return false;
}

static void check_function_body(Checker *k, Symbol *fn)
{
    FuncInfo *f = sema_function_info(k, fn);
    if (!f->decl->b || !f->launch_ok)
        return;
    k->func = f;
    k->scope = f->scope;
    k->loops = 0;
    sema_check_block(k, f->decl->b);
    if (f->result->kind != TY_VOID && f->result->kind != TY_ERROR && !always_returns(f->decl->b))
        diag_error(k->diag, f->decl->name_span, "'%s' does not return %s %s value on every path",
                   f->decl->name, article(f->result->name), f->result->name);
    k->func = NULL;
    k->scope = NULL;
}

void sema_check_bodies(Checker *k, Module *m)
{
    Module *outer = k->module;
    k->module = m;
    uint32_t n;
    Symbol **symbols = scope_symbols(m->scope, &n);
    for (uint32_t i = 0; i < n && !diag_too_many(k->diag); i++)
        if (symbols[i]->kind == SYM_FUNC && symbols[i]->module == m)
            check_function_body(k, symbols[i]);
    k->module = outer;
}
