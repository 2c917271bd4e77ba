/*
 * c_func.c: one host function as a C function, statement by statement.
 *
 *   let x = e           const T x = e;
 *   var x: T            T x = 0;          (Silk leaves it unspecified: 0 here)
 *   x op= v             x = x op v;       (written as the operator is)
 *   if / while          if (...) { } else if (...) { } else { }, while (...) { }
 *   for i in a..b step s
 *                       for (T i = a, silk_end1 = b, silk_step2 = s; i < silk_end1;
 *                            i += silk_step2) { }
 *   gpu (...) { k(...); }
 *                       (void)silkrt_dispatch(...);
 * A for loop evaluates its bounds and step once, before the first
 * iteration (a bound that is a constant or an immutable name is read as
 * it is), and runs while i < b, adding the step with wrapping, as the
 * device's loop does: a negative step counts down only until the value
 * wraps (`for i in 0..10 step -1` runs until i passes i32's minimum).
 * A local or parameter that is never read is marked (void)x, so that C's
 * unused-variable warnings do not fire on what Silk only warns about.
 */
#include "c_internal.h"

#include <string.h>

static void block(CEmit *e, const Node *b);
static void statement(CEmit *e, const Node *s);

/* ---- the signature -------------------------------------------------------------------- */

static const char *result_type(CEmit *e, const FuncInfo *f)
{
    return f->result->kind == TY_VOID ? "void" : c_type(e, f->result, f->decl->a->span);
}

void c_prototype(CEmit *e, const FuncInfo *f, FILE *out)
{
    const Node *d = f->decl;
    fprintf(out, "%s %s(", result_type(e, f), c_func_name(e, d));
    if (d->list.count == 0)
        fputs("void", out);
    for (uint32_t i = 0; i < d->list.count; i++)
        fprintf(out, "%s%s %s", i ? ", " : "", c_type(e, f->params[i], d->list.items[i]->span),
                c_safe_name(e, d->list.items[i]->name));
    fputs(")", out);
}

/* ---- statements ---------------------------------------------------------------------- */

static void indent(CEmit *e) { fprintf(e->out, "%*s", 4 * e->indent, ""); }

/* A statement's expression, ended with ';'. */
static void expression_line(CEmit *e, const char *before, const Node *x, const char *after)
{
    indent(e);
    fputs(before, e->out);
    c_expr(e, x, C_ANY);
    fprintf(e->out, "%s;\n", after);
}

static void mark_unread(CEmit *e, const Symbol *s)
{
    const CLocal *l = c_local(e, s);
    if (l && l->reads == 0)
        c_line(e, "(void)%s;", l->name);
}

static void let(CEmit *e, const Node *s)
{
    const Symbol *sym = s->symbol;
    const CLocal *l = c_local(e, sym);
    const char *t = c_type(e, sym->type, s->span);
    indent(e);
    fprintf(e->out, "%s%s %s = ", sym->mutable ? "" : "const ", t, l->name);
    if (s->b)
        c_expr(e, s->b, C_ANY);
    else if (sym->type->kind == TY_STR)
        fputs("SILK_STR(\"\")", e->out);
    else if (sym->type->kind == TY_STRUCT)
        fputs("{0}", e->out);
    else
        fputs("0", e->out);
    fputs(";\n", e->out);
    mark_unread(e, sym);
}

static TokenKind compound_operator(TokenKind op)
{
    switch (op) {
    case TK_PLUS_ASSIGN: return TK_PLUS;
    case TK_MINUS_ASSIGN: return TK_MINUS;
    case TK_STAR_ASSIGN: return TK_STAR;
    case TK_SLASH_ASSIGN: return TK_SLASH;
    case TK_PERCENT_ASSIGN: return TK_PERCENT;
    case TK_AMP_ASSIGN: return TK_AMP;
    case TK_PIPE_ASSIGN: return TK_PIPE;
    case TK_CARET_ASSIGN: return TK_CARET;
    case TK_SHL_ASSIGN: return TK_SHL;
    default: return TK_SHR;
    }
}

/* x = v, or x op= v as x = x op v (the target has no effects: a variable
 * or a field of one). */
static void assign(CEmit *e, const Node *s)
{
    indent(e);
    c_expr(e, s->a, C_ANY);
    fputs(" = ", e->out);
    if (s->op == TK_ASSIGN) {
        c_expr(e, s->b, C_ANY);
    } else {
        Node *op = ast_new(e->arena, ND_BINARY, s->span);
        op->op = compound_operator(s->op);
        op->a = s->a;
        op->b = s->b;
        op->type = s->a->type;
        c_expr(e, op, C_ANY);
    }
    fputs(";\n", e->out);
}

static void expression_statement(CEmit *e, const Node *s)
{
    const Node *x = s->a;
    bool call = x->kind == ND_CALL || x->kind == ND_LAUNCH;
    if (x->kind == ND_LAUNCH || (call && x->type && x->type->kind != TY_VOID))
        expression_line(e, "(void)", x, ""); /* the result discarded */
    else if (call)
        expression_line(e, "", x, "");
    else /* -Wunused-value's case: computed (its effects too) and dropped */
        expression_line(e, "(void)(", x, ")");
}

static void if_chain(CEmit *e, const Node *s)
{
    indent(e);
    fputs("if (", e->out);
    for (;;) {
        c_expr(e, s->a, C_ANY);
        fputs(") {\n", e->out);
        block(e, s->b);
        s = s->c;
        if (!s) {
            c_line(e, "}");
            return;
        }
        if (s->kind != ND_IF)
            break;
        indent(e);
        fputs("} else if (", e->out);
    }
    c_line(e, "} else {");
    block(e, s);
    c_line(e, "}");
}

/* A bound that cannot change while the loop runs: a constant, or an
 * immutable name. */
static bool stable(const Node *x)
{
    return x->folded == 1 || (x->kind == ND_NAME && x->symbol && !x->symbol->mutable);
}

static void for_loop(CEmit *e, const Node *s)
{
    const Type *t = s->symbol->type;
    const char *ct = c_type(e, t, s->span), *i = c_local(e, s->symbol)->name;
    const char *end = stable(s->b) ? NULL : c_temp(e, "end");
    const char *step = s->c && !stable(s->c) ? c_temp(e, "step") : NULL;
    indent(e);
    fprintf(e->out, "for (%s %s = ", ct, i);
    c_expr(e, s->a, C_ANY);
    if (end) {
        fprintf(e->out, ", %s = ", end);
        c_expr(e, s->b, C_ANY);
    }
    if (step) {
        fprintf(e->out, ", %s = ", step);
        c_expr(e, s->c, C_ANY);
    }
    fprintf(e->out, "; %s < ", i);
    if (end)
        fputs(end, e->out);
    else
        c_expr(e, s->b, 11);
    if (!s->c) {
        fprintf(e->out, "; %s++) {\n", i); /* i < b, so i + 1 does not overflow */
    } else if (!type_is_signed(t)) { /* unsigned: += wraps */
        fprintf(e->out, "; %s += ", i);
        step ? (void)fputs(step, e->out) : c_expr(e, s->c, C_ANY);
        fputs(") {\n", e->out);
    } else {
        const char *u = type_bits(t) > 32 ? "uint64_t" : "uint32_t";
        fprintf(e->out, "; %s = (%s)((%s)%s + (%s)", i, ct, u, i, u);
        step ? (void)fputs(step, e->out) : c_expr(e, s->c, C_UNARY);
        fputs(")) {\n", e->out);
    }
    block(e, s->d);
    c_line(e, "}");
}

static void statement_kind(CEmit *e, const Node *s)
{
    switch (s->kind) {
    case ND_LET: let(e, s); break;
    case ND_ASSIGN: assign(e, s); break;
    case ND_EXPR_STMT: expression_statement(e, s); break;
    case ND_LAUNCH: expression_line(e, "(void)", s, ""); break;
    case ND_IF: if_chain(e, s); break;
    case ND_WHILE:
        indent(e);
        fputs("while (", e->out);
        c_expr(e, s->a, C_ANY);
        fputs(") {\n", e->out);
        block(e, s->b);
        c_line(e, "}");
        break;
    case ND_FOR: for_loop(e, s); break;
    case ND_BREAK: c_line(e, "break;"); break;
    case ND_CONTINUE: c_line(e, "continue;"); break;
    case ND_RETURN:
        if (s->a)
            expression_line(e, "return ", s->a, "");
        else
            c_line(e, "return;");
        break;
    case ND_BLOCK:
        c_line(e, "{");
        block(e, s);
        c_line(e, "}");
        break;
    case ND_EMPTY: break;
    default: c_error(e, s->span, "host code cannot hold this statement"); break;
    }
}

/* A statement; its attr(...) metadata, if any, goes to the launch blocks
 * in it and above it as a comment. */
static void statement(CEmit *e, const Node *s)
{
    const char *outer = e->metadata;
    e->metadata = c_metadata(e, s);
    if (e->metadata) {
        indent(e);
        fputs("/* attr(", e->out);
        escape_fputs_comment(e->metadata, strlen(e->metadata), e->out);
        fputs(") */\n", e->out);
    }
    statement_kind(e, s);
    e->metadata = outer;
}

/* The statements of block `b`, one level in. */
static void block(CEmit *e, const Node *b)
{
    e->indent++;
    for (uint32_t i = 0; i < b->list.count && e->ok; i++)
        statement(e, b->list.items[i]);
    e->indent--;
}

/* ---- the function ---------------------------------------------------------------------- */

/* The Silk header of the function, as a comment: "fn f(x: u64) -> i32". */
static void header_comment(CEmit *e, const FuncInfo *f)
{
    const Node *d = f->decl;
    const SourceFile *file = &e->c->sources.files[d->span.file];
    uint32_t line, col, end = d->b->span.start;
    source_line_col(file, d->span.start, &line, &col);
    uint32_t start = d->span.start;
    while (end > start && (file->text[end - 1] == ' ' || file->text[end - 1] == '\t'))
        end--;
    fputs("/* ", e->out);
    escape_fputs_comment(file->text + start, end - start, e->out);
    fputs(" (", e->out);
    escape_fputs_comment(file->path, strlen(file->path), e->out);
    fprintf(e->out, ":%u) */\n", line);
}

void c_function(CEmit *e, const FuncInfo *f)
{
    e->func = f;
    c_names_function(e, f);
    header_comment(e, f);
    c_prototype(e, f, e->out);
    fputs("\n{\n", e->out);
    e->indent = 1;
    /* the parameters at the body's level; block() goes there itself */
    for (uint32_t i = 0; i < f->decl->list.count; i++) {
        const Symbol *p = scope_find_here(f->scope, f->decl->list.items[i]->name);
        if (p)
            mark_unread(e, p);
    }
    e->indent = 0;
    block(e, f->decl->b);
    fputs("}\n\n", e->out);
    e->func = NULL;
}
