/*
 * parse_internal.h: what the parser's files (parse.c for the token cursor
 * and error recovery, parse_decl.c, parse_stmt.c, parse_expr.c) share.
 */
#ifndef SILK_PARSE_INTERNAL_H
#define SILK_PARSE_INTERNAL_H

#include "parse.h"

/* Deeper nesting than this is an error, not a stack overflow. */
enum { PARSE_MAX_DEPTH = 200 };

typedef struct Parser {
    const Token *tokens;
    uint32_t pos, count;
    const SourceMap *sources;
    Diag *diag;
    Arena *arena;
    bool recovering; /* an error was reported; quiet until a sync point */
    bool unwinding;  /* a declaration at column 1 inside a block: back to the top */
    int depth;
} Parser;

/* ---- the token cursor (parse.c) ------------------------------------------ */
const Token *parse_peek(const Parser *p);
const Token *parse_peek_at(const Parser *p, uint32_t ahead);
bool parse_at(const Parser *p, TokenKind kind);
const Token *parse_advance(Parser *p);
bool parse_accept(Parser *p, TokenKind kind);
/* Consumes `kind` or reports "expected <what>, found <token>". */
const Token *parse_expect(Parser *p, TokenKind kind, const char *what);
Span parse_previous_span(const Parser *p);

/* ---- errors and recovery (parse.c) ---------------------------------------- */
void parse_error(Parser *p, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "expected <what>, found <the current token>", at the current token. */
void parse_error_expected(Parser *p, const char *what);
/* How the current token is named in a message: "';'", "end of line". */
const char *parse_found_name(const Parser *p);
/* Skips to the end of the current statement: past a ';' at this nesting,
 * or up to (not past) the '}' that closes the enclosing block. */
void parse_sync_statement(Parser *p);
/* Skips to the next token that can start a declaration. */
void parse_sync_declaration(Parser *p);
/* The end of a statement: ';' (written or inserted at a newline), or a
 * '}' / end of file that follows.  Returns whether a written ';' ended it. */
bool parse_end_statement(Parser *p);
bool parse_enter(Parser *p, Span at);
void parse_leave(Parser *p);

Node *parse_new_node(Parser *p, NodeKind kind, Span span);
/* A node's attributes, kept in the arena; NULL when there are none. */
NodeList *parse_keep_attributes(Parser *p, NodeList attrs);
void parse_push(Parser *p, NodeList *list, Node *node);
bool parse_token_is_word(const Token *t, const char *word); /* TK_IDENT spelled `word` */
/* The token's text, copied into the tree's arena: the tokens themselves
 * live in a scratch arena that is dropped once the file is parsed. */
const char *parse_keep_text(Parser *p, const Token *t);

/* ---- the grammar ------------------------------------------------------------ */
Node *parse_declaration(Parser *p);                    /* parse_decl.c */
Node *parse_type(Parser *p);
Node *parse_attribute(Parser *p);
Node *parse_block(Parser *p);                          /* parse_stmt.c */
Node *parse_statement(Parser *p);
Node *parse_launch(Parser *p, bool value);
Node *parse_expression(Parser *p);                     /* parse_expr.c */

#endif
