/*
 * parse_expr.c: expressions, by precedence climbing.
 *
 *   expr    = unary { binop unary }        (binding as the table below)
 *   unary   = ( "-" | "+" | "!" | "~" ) unary | postfix
 *   postfix = primary { "(" args ")" | "[" index { "," index } "]"
 *                     | "." IDENT | "::" IDENT }
 *           | IDENT "<" type { "," type } ">" "(" args ")"     (load<f32>(a))
 *   index   = expr [ "+:" expr ]                               (a view: start +: width)
 *   primary = INT | FLOAT | STRING | "true" | "false" | IDENT | "(" expr ")"
 *           | launch                                           (value position)
 *
 * The binding of binary operators is Rust's, loosest first: ||, &&, the
 * comparisons (which do not chain), |, ^, &, << >>, + -, * / % and @ (the
 * tile matrix product).  So bitwise operators bind tighter than
 * comparisons, unlike C.
 */
#include "parse_internal.h"

enum { PREC_NONE = 0, PREC_COMPARE = 3 };

static int precedence(TokenKind k)
{
    switch (k) {
    case TK_OROR: return 1;
    case TK_ANDAND: return 2;
    case TK_EQ: case TK_NE: case TK_LT: case TK_LE: case TK_GT: case TK_GE: return PREC_COMPARE;
    case TK_PIPE: return 4;
    case TK_CARET: return 5;
    case TK_AMP: return 6;
    case TK_SHL: case TK_SHR: return 7;
    case TK_PLUS: case TK_MINUS: return 8;
    case TK_STAR: case TK_SLASH: case TK_PERCENT: case TK_AT: return 9;
    default: return PREC_NONE;
    }
}

static Node *parse_unary(Parser *p);

/* args = [ expr { "," expr } [","] ] ")"  — the '(' already taken. */
static void parse_arguments(Parser *p, Node *call)
{
    while (!p->recovering && !parse_at(p, TK_RPAREN)) {
        parse_push(p, &call->list, parse_expression(p));
        if (!parse_accept(p, TK_COMMA))
            break;
    }
    parse_expect(p, TK_RPAREN, "')' after the arguments");
}

/* index = expr [ "+:" expr ] */
static Node *parse_index(Parser *p)
{
    Node *start = parse_expression(p);
    if (!start || p->recovering || !parse_at(p, TK_PLUS_COLON))
        return start;
    parse_advance(p);
    Node *slice = parse_new_node(p, ND_SLICE, start->span);
    slice->a = start;
    slice->b = parse_expression(p);
    slice->span = source_span_join(slice->span, parse_previous_span(p));
    return slice;
}

/* Whether the '<' at the cursor opens type arguments of a call, as in
 * load<f32>(a): a run of names, extents and commas closed by '>' and
 * followed by '('.  Anything else is a comparison. */
static bool looks_like_type_arguments(const Parser *p)
{
    int depth = 0;
    for (uint32_t i = 0; p->pos + i < p->count; i++) {
        switch (parse_peek_at(p, i)->kind) {
        case TK_LT: depth++; break;
        case TK_GT:
            if (--depth == 0)
                return parse_peek_at(p, i + 1)->kind == TK_LPAREN;
            break;
        case TK_IDENT: case TK_COMMA: case TK_LBRACKET: case TK_RBRACKET: case TK_INT: break;
        default: return false;
        }
    }
    return false;
}

static Node *parse_generic_call(Parser *p, Node *callee)
{
    Node *call = parse_new_node(p, ND_CALL, callee->span);
    call->a = callee;
    parse_advance(p); /* '<' */
    do
        parse_push(p, &call->list2, parse_type(p));
    while (!p->recovering && parse_accept(p, TK_COMMA));
    if (parse_expect(p, TK_GT, "'>' after the type arguments") &&
        parse_expect(p, TK_LPAREN, "'(' and the arguments"))
        parse_arguments(p, call);
    call->span = source_span_join(call->span, parse_previous_span(p));
    return call;
}

static Node *parse_postfix_one(Parser *p, Node *base)
{
    const Token *t = parse_advance(p);
    Node *n;
    switch (t->kind) {
    case TK_LPAREN:
        n = parse_new_node(p, ND_CALL, base->span);
        n->a = base;
        parse_arguments(p, n);
        break;
    case TK_LBRACKET:
        n = parse_new_node(p, ND_INDEX, base->span);
        n->a = base;
        do
            parse_push(p, &n->list, parse_index(p));
        while (!p->recovering && parse_accept(p, TK_COMMA));
        parse_expect(p, TK_RBRACKET, "']' after the indices");
        break;
    default: { /* '.' or '::' */
        bool path = t->kind == TK_COLONCOLON;
        const Token *name = parse_expect(p, TK_IDENT, path ? "a name after '::'" : "a field name after '.'");
        if (!name)
            return base;
        n = parse_new_node(p, path ? ND_PATH : ND_FIELD, base->span);
        n->a = base;
        n->name = parse_keep_text(p, name);
        n->name_span = name->span;
        break;
    }
    }
    n->span = source_span_join(n->span, parse_previous_span(p));
    return n;
}

/* Each call, index or field nests the node before it one level deeper in
 * the tree (`a.b.c` is field(field(a))), so each counts as a level of
 * nesting until the operand ends: the walkers of the tree recurse on them. */
static Node *parse_postfix(Parser *p, Node *base)
{
    if (base && base->kind == ND_NAME && parse_at(p, TK_LT) && looks_like_type_arguments(p))
        base = parse_generic_call(p, base);
    int levels = 0;
    while (base && !p->recovering) {
        TokenKind k = parse_peek(p)->kind;
        if (k != TK_LPAREN && k != TK_LBRACKET && k != TK_DOT && k != TK_COLONCOLON)
            break;
        if (!parse_enter(p, parse_peek(p)->span)) {
            base = NULL;
            break;
        }
        levels++;
        base = parse_postfix_one(p, base);
    }
    while (levels-- > 0)
        parse_leave(p);
    return base;
}

static Node *literal(Parser *p, NodeKind kind)
{
    const Token *t = parse_advance(p);
    Node *n = parse_new_node(p, kind, t->span);
    if (kind == ND_FLOAT)
        n->float_value = t->float_value;
    else if (kind == ND_INT)
        n->int_value = t->int_value;
    n->suffix = t->suffix;
    n->overflow = t->overflow;
    if (kind == ND_STRING) {
        n->str = parse_keep_text(p, t);
        n->str_len = t->text_len;
    }
    if (kind == ND_BOOL)
        n->int_value = t->kind == TK_TRUE;
    if (kind == ND_NAME) {
        n->name = parse_keep_text(p, t);
        n->name_span = t->span;
    }
    return n;
}

static Node *parse_primary(Parser *p)
{
    switch (parse_peek(p)->kind) {
    case TK_INT: return literal(p, ND_INT);
    case TK_FLOAT: return literal(p, ND_FLOAT);
    case TK_STRING: return literal(p, ND_STRING);
    case TK_TRUE: case TK_FALSE: return literal(p, ND_BOOL);
    case TK_IDENT: return literal(p, ND_NAME);
    case TK_GPU: return parse_launch(p, true);
    case TK_LPAREN: {
        Span open = parse_advance(p)->span;
        Node *inner = parse_expression(p);
        if (!inner || !parse_expect(p, TK_RPAREN, "')' to close the parenthesis"))
            return inner;
        inner->flags |= NF_PARENS;
        inner->span = source_span_join(open, parse_previous_span(p));
        return inner;
    }
    default:
        parse_error_expected(p, "an expression");
        return NULL;
    }
}

/* unary = ( "-" | "+" | "!" | "~" ) unary | postfix */
static Node *parse_unary(Parser *p)
{
    TokenKind k = parse_peek(p)->kind;
    if (k != TK_MINUS && k != TK_PLUS && k != TK_BANG && k != TK_TILDE)
        return parse_postfix(p, parse_primary(p));
    Span op = parse_advance(p)->span;
    if (!parse_enter(p, op))
        return NULL;
    Node *n = parse_new_node(p, ND_UNARY, op);
    n->op = k;
    n->a = parse_unary(p);
    parse_leave(p);
    if (!n->a)
        return NULL;
    n->span = source_span_join(op, n->a->span);
    return n;
}

/* Operators binding tighter than `min` fold into the right operand. */
static Node *parse_binary(Parser *p, int min)
{
    Node *left = parse_unary(p);
    while (left && !p->recovering) {
        TokenKind op = parse_peek(p)->kind;
        int prec = precedence(op);
        if (prec == PREC_NONE || prec < min)
            break;
        Span op_span = parse_advance(p)->span;
        if (!parse_enter(p, op_span))
            return NULL;
        Node *right = parse_binary(p, prec + 1);
        parse_leave(p);
        if (!right)
            return NULL;
        if (prec == PREC_COMPARE && precedence(parse_peek(p)->kind) == PREC_COMPARE) {
            parse_error(p, parse_peek(p)->span,
                        "comparisons do not chain: write (a < b) && (b < c), or use parentheses");
            return NULL;
        }
        Node *n = parse_new_node(p, ND_BINARY, source_span_join(left->span, right->span));
        n->op = op;
        n->a = left;
        n->b = right;
        left = n;
    }
    return left;
}

Node *parse_expression(Parser *p)
{
    if (!parse_enter(p, parse_peek(p)->span))
        return NULL;
    Node *n = parse_binary(p, 1);
    parse_leave(p);
    return n;
}
