/*
 * lex.h: Silk's lexer.  A whole file becomes one array of tokens ending in
 * TK_EOF.
 *
 * A character that starts no token is reported and becomes a TK_ERROR token,
 * and a token with an error in it (an unterminated string, a bad number)
 * is marked malformed, so that the parser stays quiet about the same
 * mistake.
 *
 * Statements end at ';' or, as in Go, at a newline after a token that can
 * end one (a name, a literal, ')', ']', '}', return, break, continue): the
 * lexer then inserts a TK_SEMI token with `implicit` set and an empty span
 * at the end of the line.  Unlike Go, no semicolon is inserted while a '('
 * or '[' is open, so a call's arguments may run over several lines without
 * trailing commas (as in gpu-launch-blocks.txt).
 */
#ifndef SILK_LEX_H
#define SILK_LEX_H

#include "diag.h"
#include "source.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum TokenKind {
#define TOKEN(e, spelling, class) TK_##e,
#include "tokens.def"
#undef TOKEN
    TK_COUNT
} TokenKind;

/* The suffix of a numeric literal: 42u64, 2.5f32. */
typedef enum LiteralSuffix {
    SUFFIX_NONE, SUFFIX_I32, SUFFIX_I64, SUFFIX_U32, SUFFIX_U64, SUFFIX_F32, SUFFIX_F64
} LiteralSuffix;

/* 32 bytes: a big file has a token for every three or four bytes, and the
 * token array is most of what parsing holds in memory. */
typedef struct Token {
    Span span;
    TokenKind kind : 8;
    LiteralSuffix suffix : 4; /* TK_INT, TK_FLOAT */
    bool implicit : 1;        /* a semicolon the lexer inserted at a newline */
    bool overflow : 1;        /* TK_INT: the digits do not fit in 64 bits; TK_FLOAT: beyond f64 */
    bool malformed : 1;       /* the lexer reported an error in it: the parser says no more */
    uint32_t text_len;        /* TK_IDENT, TK_STRING: the length of text */
    union {
        uint64_t int_value;   /* TK_INT */
        double float_value;   /* TK_FLOAT */
        const char *text;     /* TK_IDENT: the name, in the source (not NUL-terminated);
                                 TK_STRING: the decoded value (may hold NUL bytes) */
    };
} Token;

typedef struct TokenArray {
    Token *tokens;
    uint32_t count; /* including the final TK_EOF */
} TokenArray;

/* Lexes file `file` of `sources`.  Errors (an unterminated string or
 * comment, a character that starts no token, a malformed number) are
 * reported to `diag`; the lexer skips the bad text and goes on. */
TokenArray lex_file(const SourceMap *sources, uint32_t file, Diag *diag, Arena *arena);

/* "identifier", "'('", "'kernel'": how a message names a kind of token. */
const char *lex_token_kind_name(TokenKind kind);

#endif
