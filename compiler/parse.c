/*
 * parse.c: the parser's token cursor, its error messages and its recovery.
 *
 * Recovery: after an error the parser is "recovering" and reports nothing
 * more until it reaches a sync point — the end of a statement or the start
 * of a declaration — so one mistake gives one message, and the next
 * independent mistake still gets its own.
 */
#include "parse_internal.h"

#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the token cursor ------------------------------------------------------- */

const Token *parse_peek(const Parser *p) { return &p->tokens[p->pos]; }

const Token *parse_peek_at(const Parser *p, uint32_t ahead)
{
    uint32_t i = p->pos + ahead;
    return &p->tokens[i < p->count ? i : p->count - 1];
}

bool parse_at(const Parser *p, TokenKind kind) { return parse_peek(p)->kind == kind; }

const Token *parse_advance(Parser *p)
{
    const Token *t = parse_peek(p);
    if (t->kind != TK_EOF)
        p->pos++;
    return t;
}

bool parse_accept(Parser *p, TokenKind kind)
{
    if (!parse_at(p, kind))
        return false;
    parse_advance(p);
    return true;
}

const Token *parse_expect(Parser *p, TokenKind kind, const char *what)
{
    if (parse_at(p, kind))
        return parse_advance(p);
    parse_error_expected(p, what);
    return NULL;
}

Span parse_previous_span(const Parser *p)
{
    return p->pos > 0 ? p->tokens[p->pos - 1].span : parse_peek(p)->span;
}

bool parse_token_is_word(const Token *t, const char *word)
{
    return t->kind == TK_IDENT && t->text_len == strlen(word) && memcmp(t->text, word, t->text_len) == 0;
}

const char *parse_keep_text(Parser *p, const Token *t)
{
    return t->text ? arena_strndup(p->arena, t->text, t->text_len) : NULL;
}

/* ---- errors ----------------------------------------------------------------- */

/* Whether the lexer already reported the mistake under the cursor: a
 * character that starts no token, or a malformed token just before. */
static bool lexer_reported(const Parser *p)
{
    const Token *t = parse_peek(p);
    return t->kind == TK_ERROR || t->malformed || (p->pos > 0 && p->tokens[p->pos - 1].malformed);
}

void parse_error(Parser *p, Span at_span, const char *fmt, ...)
{
    if (p->recovering)
        return;
    if (lexer_reported(p)) {
        p->recovering = true;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    diag_verror(p->diag, at_span, fmt, ap);
    va_end(ap);
    p->recovering = true;
}

const char *parse_found_name(const Parser *p)
{
    const Token *t = parse_peek(p);
    if (t->kind == TK_SEMI && t->implicit)
        return "end of line";
    return lex_token_kind_name(t->kind);
}

void parse_error_expected(Parser *p, const char *what)
{
    const Token *t = parse_peek(p);
    if (t->kind == TK_IDENT)
        parse_error(p, t->span, "expected %s, found '%.*s'", what, (int)t->text_len, t->text);
    else
        parse_error(p, t->span, "expected %s, found %s", what, parse_found_name(p));
}

/* ---- recovery --------------------------------------------------------------- */

/* Skips a balanced bracket group starting at the current opener. */
static void skip_group(Parser *p)
{
    int depth = 0;
    do {
        TokenKind k = parse_advance(p)->kind;
        if (k == TK_LPAREN || k == TK_LBRACKET || k == TK_LBRACE)
            depth++;
        else if (k == TK_RPAREN || k == TK_RBRACKET || k == TK_RBRACE)
            depth--;
    } while (depth > 0 && !parse_at(p, TK_EOF));
}

void parse_sync_statement(Parser *p)
{
    while (!parse_at(p, TK_EOF) && !parse_at(p, TK_RBRACE)) {
        TokenKind k = parse_peek(p)->kind;
        if (k == TK_SEMI) {
            parse_advance(p);
            break;
        }
        if (k == TK_LPAREN || k == TK_LBRACKET || k == TK_LBRACE)
            skip_group(p);
        else if (k == TK_RPAREN || k == TK_RBRACKET)
            parse_advance(p); /* a stray closer: drop it */
        else
            parse_advance(p);
    }
    p->recovering = false;
}

/* Declarations start with these keywords, which appear nowhere else, so
 * recovery stops at them whatever brackets an error left open. */
static bool only_starts_declaration(TokenKind k)
{
    return k == TK_KERNEL || k == TK_FN || k == TK_ASYNC || k == TK_TASK || k == TK_IMPORT ||
           k == TK_EOF;
}

/* '@' and attr also start statements (and '@' is the matrix product), so
 * they count only outside every brace the skipped text opened. */
void parse_sync_declaration(Parser *p)
{
    int braces = 0;
    while (!only_starts_declaration(parse_peek(p)->kind)) {
        TokenKind k = parse_advance(p)->kind;
        if (k == TK_LBRACE)
            braces++;
        else if (k == TK_RBRACE && braces > 0)
            braces--;
        if (braces == 0 && (parse_at(p, TK_AT) || parse_at(p, TK_ATTR)) &&
            (k == TK_RBRACE || k == TK_SEMI))
            break;
    }
    p->recovering = false;
}

bool parse_end_statement(Parser *p)
{
    if (parse_at(p, TK_SEMI))
        return !parse_advance(p)->implicit;
    if (parse_at(p, TK_RBRACE) || parse_at(p, TK_EOF))
        return false;
    parse_error_expected(p, "';' or a new line after the statement");
    parse_sync_statement(p);
    return false;
}

bool parse_enter(Parser *p, Span at_span)
{
    if (p->depth >= PARSE_MAX_DEPTH) {
        parse_error(p, at_span, "nesting deeper than %d levels", PARSE_MAX_DEPTH);
        return false;
    }
    p->depth++;
    return true;
}

void parse_leave(Parser *p) { p->depth--; }

/* ---- nodes -------------------------------------------------------------------- */

Node *parse_new_node(Parser *p, NodeKind kind, Span span) { return ast_new(p->arena, kind, span); }

NodeList *parse_keep_attributes(Parser *p, NodeList attrs)
{
    if (attrs.count == 0)
        return NULL;
    NodeList *kept = ARENA_NEW(p->arena, NodeList);
    *kept = attrs;
    return kept;
}

void parse_push(Parser *p, NodeList *list, Node *node)
{
    if (node)
        ast_push(p->arena, list, node);
}

/* ---- the file ------------------------------------------------------------------- */

/* file = { declaration } EOF */
Node *parse_file(const TokenArray *tokens, const SourceMap *sources, Diag *diag, Arena *arena)
{
    Parser p = {.tokens = tokens->tokens, .count = tokens->count, .sources = sources,
                .diag = diag, .arena = arena};
    Node *file = parse_new_node(&p, ND_FILE, parse_peek(&p)->span);
    while (!parse_at(&p, TK_EOF) && !diag_too_many(diag)) {
        uint32_t before = p.pos;
        parse_push(&p, &file->list, parse_declaration(&p));
        if (p.unwinding) { /* resume at the declaration that stopped a block */
            p.unwinding = false;
            p.recovering = false;
            continue;
        }
        if (p.pos == before) /* always make progress */
            parse_advance(&p);
        if (p.recovering)
            parse_sync_declaration(&p);
    }
    file->span = source_span_join(file->span, parse_peek(&p)->span);
    return file;
}
