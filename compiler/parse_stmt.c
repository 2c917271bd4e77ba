/*
 * parse_stmt.c: blocks, statements and the launch block.
 *
 *   block     = "{" { statement } "}"
 *   statement = ";"
 *             | { attribute } statement          (@registers let..., attr(...) gpu...)
 *             | ("let" | "var") IDENT [ ":" type ] [ "=" expr ] end
 *             | "shared" IDENT ":" type end
 *             | "if" expr block [ "else" ( if-statement | block ) ]
 *             | "while" expr block
 *             | "for" IDENT "in" expr ".." expr [ "step" expr ] block
 *             | "break" end | "continue" end | "return" [ expr ] end
 *             | launch [ ";" ]
 *             | block
 *             | expr [ assign-op expr ] end
 *   launch    = "gpu" "(" option { "," option } [","] ")" "{" { statement } "}"
 *   option    = IDENT "=" expr
 *
 * `end` is a ';', written or inserted by the lexer at a newline, or the '}'
 * that closes the block.  The launch block's body is parsed as ordinary
 * statements so that the checker can say exactly which form is not allowed
 * there (a declaration, control flow, a second call).
 */
#include "parse_internal.h"

/* Statements after `first`'s start, up to `end`, become its span. */
static Node *finish(Parser *p, Node *n)
{
    n->span = source_span_join(n->span, parse_previous_span(p));
    return n;
}

static void end_simple_statement(Parser *p, Node *n)
{
    finish(p, n);
    if (!p->recovering && parse_end_statement(p))
        n->flags |= NF_SEMI;
}

/* block = "{" { statement } "}" */
Node *parse_block(Parser *p)
{
    const Token *open = parse_expect(p, TK_LBRACE, "'{'");
    if (!open || !parse_enter(p, open->span))
        return NULL;
    Node *block = parse_new_node(p, ND_BLOCK, open->span);
    while (!parse_at(p, TK_RBRACE) && !parse_at(p, TK_EOF) && !p->unwinding && !diag_too_many(p->diag)) {
        uint32_t before = p->pos;
        parse_push(p, &block->list, parse_statement(p));
        if (p->recovering)
            parse_sync_statement(p);
        else if (p->pos == before && !p->unwinding)
            parse_advance(p);
    }
    /* Unwinding from a declaration at column 1: only the innermost block
     * reports its missing '}'; the parser then resumes at the top level. */
    int errors = p->diag->errors;
    if (!parse_expect(p, TK_RBRACE, "'}' to close the block") && p->diag->errors > errors)
        diag_note(p->diag, open->span, "the block opened here");
    parse_leave(p);
    return finish(p, block);
}

/* ("let" | "var") IDENT [ ":" type ] [ "=" expr ] end */
static Node *parse_let(Parser *p)
{
    const Token *keyword = parse_advance(p);
    Node *let = parse_new_node(p, ND_LET, keyword->span);
    if (keyword->kind == TK_VAR)
        let->flags |= NF_MUTABLE;
    const Token *name = parse_expect(p, TK_IDENT, "a variable name");
    if (!name)
        return let;
    let->name = parse_keep_text(p, name);
    let->name_span = name->span;
    if (parse_accept(p, TK_COLON))
        let->a = parse_type(p);
    if (!p->recovering && parse_accept(p, TK_ASSIGN))
        let->b = parse_expression(p);
    if (!p->recovering && !let->a && !let->b)
        parse_error_expected(p, "':' and a type, or '=' and a value");
    end_simple_statement(p, let);
    return let;
}

/* "shared" IDENT ":" type end */
static Node *parse_shared(Parser *p)
{
    Node *shared = parse_new_node(p, ND_SHARED, parse_advance(p)->span);
    const Token *name = parse_expect(p, TK_IDENT, "the shared array's name");
    if (!name)
        return shared;
    shared->name = parse_keep_text(p, name);
    shared->name_span = name->span;
    if (parse_expect(p, TK_COLON, "':' and the element type with its extents, as f32[256]"))
        shared->a = parse_type(p);
    end_simple_statement(p, shared);
    return shared;
}

/* "if" expr block [ "else" ( if-statement | block ) ] */
static Node *parse_if(Parser *p)
{
    Node *n = parse_new_node(p, ND_IF, parse_advance(p)->span);
    n->a = parse_expression(p);
    if (!p->recovering)
        n->b = parse_block(p);
    /* "}\nelse" would end the statement at the newline, as in Go; nothing
     * else can follow, so the inserted ';' is dropped. */
    if (parse_at(p, TK_SEMI) && parse_peek(p)->implicit && parse_peek_at(p, 1)->kind == TK_ELSE)
        parse_advance(p);
    if (!p->recovering && parse_accept(p, TK_ELSE)) {
        if (parse_at(p, TK_IF)) {
            if (parse_enter(p, parse_peek(p)->span)) {
                n->c = parse_if(p);
                parse_leave(p);
            }
        } else {
            n->c = parse_block(p);
        }
    }
    return finish(p, n);
}

/* "while" expr block */
static Node *parse_while(Parser *p)
{
    Node *n = parse_new_node(p, ND_WHILE, parse_advance(p)->span);
    n->a = parse_expression(p);
    if (!p->recovering)
        n->b = parse_block(p);
    return finish(p, n);
}

/* "for" IDENT "in" expr ".." expr [ "step" expr ] block */
static Node *parse_for(Parser *p)
{
    Node *n = parse_new_node(p, ND_FOR, parse_advance(p)->span);
    const Token *name = parse_expect(p, TK_IDENT, "the loop variable");
    if (!name)
        return n;
    n->name = parse_keep_text(p, name);
    n->name_span = name->span;
    if (!parse_expect(p, TK_IN, "'in' after the loop variable"))
        return n;
    n->a = parse_expression(p);
    if (!p->recovering && parse_expect(p, TK_DOTDOT, "'..' between the range's bounds"))
        n->b = parse_expression(p);
    if (!p->recovering && parse_accept(p, TK_STEP))
        n->c = parse_expression(p);
    if (!p->recovering)
        n->d = parse_block(p);
    return finish(p, n);
}

/* "break" end | "continue" end | "return" [ expr ] end */
static Node *parse_jump(Parser *p)
{
    const Token *keyword = parse_advance(p);
    NodeKind kind = keyword->kind == TK_BREAK ? ND_BREAK
                    : keyword->kind == TK_CONTINUE ? ND_CONTINUE : ND_RETURN;
    Node *n = parse_new_node(p, kind, keyword->span);
    if (kind == ND_RETURN && !parse_at(p, TK_SEMI) && !parse_at(p, TK_RBRACE) && !parse_at(p, TK_EOF))
        n->a = parse_expression(p);
    end_simple_statement(p, n);
    return n;
}

/* option = IDENT "=" expr */
static Node *parse_launch_option(Parser *p)
{
    const Token *name = parse_expect(p, TK_IDENT, "a launch option (grid= or workspace=)");
    if (!name)
        return NULL;
    Node *option = parse_new_node(p, ND_LAUNCH_OPTION, name->span);
    option->name = parse_keep_text(p, name);
    option->name_span = name->span;
    if (parse_expect(p, TK_ASSIGN, "'=' after the launch option"))
        option->a = parse_expression(p);
    return finish(p, option);
}

/* launch = "gpu" "(" option { "," option } [","] ")" "{" { statement } "}" */
Node *parse_launch(Parser *p, bool value)
{
    Node *n = parse_new_node(p, ND_LAUNCH, parse_advance(p)->span);
    n->name_span = n->span; /* the keyword: its place, after an attr(...) prefix widens span */
    if (value)
        n->flags |= NF_VALUE;
    if (!parse_expect(p, TK_LPAREN, "'(' and the launch options after gpu"))
        return n;
    while (!p->recovering && !parse_at(p, TK_RPAREN)) {
        parse_push(p, &n->list, parse_launch_option(p));
        if (!parse_accept(p, TK_COMMA))
            break;
    }
    if (!parse_expect(p, TK_RPAREN, "')' after the launch options"))
        return n;
    Node *body = parse_block(p);
    if (body)
        n->list2 = body->list;
    return finish(p, n);
}

static bool is_assignment(TokenKind k)
{
    switch (k) {
    case TK_ASSIGN: case TK_PLUS_ASSIGN: case TK_MINUS_ASSIGN: case TK_STAR_ASSIGN:
    case TK_SLASH_ASSIGN: case TK_PERCENT_ASSIGN: case TK_AMP_ASSIGN: case TK_PIPE_ASSIGN:
    case TK_CARET_ASSIGN: case TK_SHL_ASSIGN: case TK_SHR_ASSIGN:
        return true;
    default:
        return false;
    }
}

/* expr [ assign-op expr ] end */
static Node *parse_expression_statement(Parser *p)
{
    Node *target = parse_expression(p);
    if (!target || p->recovering)
        return target;
    Node *n;
    if (is_assignment(parse_peek(p)->kind)) {
        n = parse_new_node(p, ND_ASSIGN, target->span);
        n->op = parse_advance(p)->kind;
        n->a = target;
        n->b = parse_expression(p);
    } else {
        n = parse_new_node(p, ND_EXPR_STMT, target->span);
        n->a = target;
    }
    end_simple_statement(p, n);
    return n;
}

/* A declaration keyword inside a block.  At the start of a line (column
 * 1) it is taken as the next top-level declaration, and what is missing is
 * the '}' of the blocks still open; indented, it is a nested declaration,
 * which Silk does not have. */
static Node *misplaced_declaration(Parser *p)
{
    const Token *t = parse_peek(p);
    uint32_t line, col;
    source_line_col(&p->sources->files[t->span.file], t->span.start, &line, &col);
    if (col == 1) {
        p->unwinding = true;
        return NULL;
    }
    const char *name = lex_token_kind_name(t->kind);
    parse_error(p, t->span, "%s %s declaration must be at the top level of the file",
                name[1] == 'a' || name[1] == 'i' ? "an" : "a", name);
    return NULL;
}

/* { attribute } statement */
static Node *parse_attributed(Parser *p)
{
    NodeList attrs = {0};
    while (!p->recovering && (parse_at(p, TK_AT) || parse_at(p, TK_ATTR)))
        parse_push(p, &attrs, parse_attribute(p));
    if (p->recovering)
        return NULL;
    Node *n = parse_statement(p);
    if (n) {
        n->attrs = parse_keep_attributes(p, attrs);
        if (attrs.count)
            n->span = source_span_join(attrs.items[0]->span, n->span);
    }
    return n;
}

static Node *parse_launch_statement(Parser *p)
{
    Node *n = parse_launch(p, false);
    if (!p->recovering && parse_at(p, TK_SEMI))
        n->flags |= parse_advance(p)->implicit ? 0 : NF_SEMI;
    return n;
}

Node *parse_statement(Parser *p)
{
    switch (parse_peek(p)->kind) {
    case TK_SEMI: {
        const Token *semi = parse_advance(p);
        return semi->implicit ? NULL : parse_new_node(p, ND_EMPTY, semi->span);
    }
    case TK_AT: case TK_ATTR: return parse_attributed(p);
    case TK_LET: case TK_VAR: return parse_let(p);
    case TK_SHARED: return parse_shared(p);
    case TK_IF: return parse_if(p);
    case TK_WHILE: return parse_while(p);
    case TK_FOR: return parse_for(p);
    case TK_BREAK: case TK_CONTINUE: case TK_RETURN: return parse_jump(p);
    case TK_GPU: return parse_launch_statement(p);
    case TK_LBRACE: return parse_block(p);
    case TK_KERNEL: case TK_FN: case TK_ASYNC: case TK_TASK: case TK_IMPORT:
        return misplaced_declaration(p);
    default: return parse_expression_statement(p);
    }
}
