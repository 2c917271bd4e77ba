/*
 * lex.c: Silk's lexer (language.md section 2).  One call turns a whole file
 * into an array of tokens ending in TK_EOF.
 *
 * The lexer works straight on the file's text, which source.c ends with a
 * NUL: scanning loops stop at the NUL without a bounds check and then ask
 * whether it is the end of the file or a stray NUL byte in it.  Keywords and
 * punctuation come from tokens.def only; lex_file builds two small lookup
 * tables from it on entry (an open-addressed hash of the keywords, and the
 * punctuation grouped by first byte in tokens.def's longest-first order), so
 * the spellings cannot drift from the token list and no state outlives the
 * call.
 *
 * Semicolons are inserted as lex.h says: at a newline (or a block comment
 * holding one) after a token that can end a statement, unless the innermost
 * open bracket is '(' or '['; and at the end of the file on the same terms,
 * as if the file ended with a newline.  The open brackets are a stack; a
 * closer pops back to its own opener (dropping openers left unclosed in
 * between, the parser reports those), and a closer with no opener of its
 * kind open pops nothing, so one stray ')' or ']' does not switch semicolon
 * insertion off for the rest of the file.  A line ends at "\n", "\r\n" or a
 * lone "\r" (classic Mac files, as source.c's line table counts them), so
 * that a file of CR line ends is not one line, all of it a comment after
 * the first "//".  An inserted semicolon has an empty span at the end of
 * its line: the offset of the '\n', or of the '\r' of a "\r\n" or a lone
 * '\r', so its column is one past the line's text either way.
 *
 * Errors are reported and the lexer goes on.  A malformed number or string
 * still becomes a token of its kind (a number's value is then 0), so that
 * the parser does not add a second error about a missing operand; a
 * character that starts no token is skipped.  A string may not hold a raw
 * newline (use \n): an unterminated string ends at the end of its line, so
 * it cannot swallow the rest of the file.  Decisions beyond the language
 * page: `1.` is the integer 1 then '.', since `0..n` must be INT DOTDOT
 * IDENT and `1.foo` a field; a decimal integer may take a float suffix
 * (`1f32` is a float, as in Rust); `0X` and `0B` are accepted like `0x` and
 * `0b`; a '_' must sit between two digits; a float too large for f64 sets
 * `overflow` like an integer that does not fit in 64 bits; a UTF-8
 * byte-order mark at the start of a file is skipped.
 */
#include "lex.h"

#include "arena.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- token tables from tokens.def --------------------------------------- */

enum TokenClass { CLASS_K, CLASS_P, CLASS_L, CLASS_X };

static const char *const token_spelling[TK_COUNT] = {
#define TOKEN(e, spelling, class) [TK_##e] = spelling,
#include "tokens.def"
#undef TOKEN
};

static const unsigned char token_class[TK_COUNT] = {
#define TOKEN(e, spelling, class) [TK_##e] = CLASS_##class,
#include "tokens.def"
#undef TOKEN
};

/* Keywords and punctuation are named in quotes, the rest by what they are. */
#define QUOTED_K(s) "'" s "'"
#define QUOTED_P(s) "'" s "'"
#define QUOTED_L(s) s
#define QUOTED_X(s) s
static const char *const token_names[TK_COUNT] = {
#define TOKEN(e, spelling, class) [TK_##e] = QUOTED_##class(spelling),
#include "tokens.def"
#undef TOKEN
};

const char *lex_token_kind_name(TokenKind kind)
{
    assert(kind < TK_COUNT);
    return token_names[kind];
}

/* ---- character classes --------------------------------------------------- */

/* Plain comparisons rather than <ctype.h>, which follows the locale.  NUL
 * is in no class, so scans stop at the sentinel after the text. */
static bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

static bool is_letter(char c)
{
    return (unsigned char)(((unsigned char)c | 0x20) - 'a') < 26;
}

static bool is_hex_digit(char c)
{
    return is_digit(c) || (unsigned char)(((unsigned char)c | 0x20) - 'a') < 6;
}

static bool is_ident_start(char c)
{
    return is_letter(c) || c == '_';
}

static bool is_ident_char(char c)
{
    return is_letter(c) || is_digit(c) || c == '_';
}

/* ---- the lexer's state --------------------------------------------------- */

enum {
    KEYWORD_SLOTS = 64,   /* a power of two, well above the keyword count */
    PUNCT_PER_BYTE = 5,   /* punctuation sharing a first byte, plus a 0 end */
    TOKEN_GUESS_MAX = 1 << 22, /* tokens: 128 MiB of address space */
};

typedef struct KeywordSlot {
    const char *spelling; /* NULL: empty slot */
    uint32_t len;
    TokenKind kind;
} KeywordSlot;

typedef struct LexTables {
    KeywordSlot keywords[KEYWORD_SLOTS];
    uint32_t keyword_max_len;
    /* Punctuation by first byte, in tokens.def order, ended by 0 (TK_EOF,
     * which is no punctuation). */
    unsigned char punct[128][PUNCT_PER_BYTE];
    unsigned char punct_len[TK_COUNT];
} LexTables;

typedef struct Lexer {
    const char *text; /* NUL at text[len] */
    uint32_t len;
    uint32_t pos;
    uint32_t file;
    Diag *diag;
    Arena *arena;
    Token *tokens;
    uint32_t count, capacity;
    unsigned char *brackets; /* open '(' '[' '{' as token kinds */
    uint32_t depth, bracket_capacity;
    uint32_t open[3];         /* how many of each opener are on the stack */
    bool can_end;             /* the last token may end a statement */
    bool stopped;             /* the error limit was reached */
    bool malformed;           /* an error was reported in the token being made */
    LexTables tables;
} Lexer;

static_assert(TK_COUNT <= 255, "token kinds must fit in a byte");

/* ---- building the tables ------------------------------------------------- */

/* First byte, last byte and length: no two of today's keywords collide, so
 * a keyword is found at the first probe; linear probing keeps any future
 * keyword correct all the same. */
static uint32_t keyword_hash(const char *s, uint32_t len)
{
    return ((unsigned char)s[0] + (unsigned char)s[len - 1] * 3u + len * 6u) & (KEYWORD_SLOTS - 1);
}

static void add_keyword(LexTables *t, TokenKind kind)
{
    const char *s = token_spelling[kind];
    uint32_t len = (uint32_t)strlen(s);
    uint32_t h = keyword_hash(s, len);
    while (t->keywords[h].spelling)
        h = (h + 1) & (KEYWORD_SLOTS - 1);
    t->keywords[h] = (KeywordSlot){s, len, kind};
    if (len > t->keyword_max_len)
        t->keyword_max_len = len;
}

static void add_punct(LexTables *t, TokenKind kind)
{
    const char *s = token_spelling[kind];
    assert((unsigned char)s[0] < 128);
    unsigned char *list = t->punct[(unsigned char)s[0]];
    int n = 0;
    while (list[n])
        n++;
    assert(n + 1 < PUNCT_PER_BYTE);
    list[n] = (unsigned char)kind;
    t->punct_len[kind] = (unsigned char)strlen(s);
}

static void build_tables(LexTables *t)
{
    memset(t, 0, sizeof *t);
    for (int kind = 0; kind < TK_COUNT; kind++) {
        if (token_class[kind] == CLASS_K)
            add_keyword(t, (TokenKind)kind);
        else if (token_class[kind] == CLASS_P)
            add_punct(t, (TokenKind)kind);
    }
}

static TokenKind lookup_word(const LexTables *t, const char *s, uint32_t len)
{
    if (len > t->keyword_max_len)
        return TK_IDENT;
    for (uint32_t h = keyword_hash(s, len);; h = (h + 1) & (KEYWORD_SLOTS - 1)) {
        const KeywordSlot *slot = &t->keywords[h];
        if (!slot->spelling)
            return TK_IDENT;
        if (slot->len == len && memcmp(slot->spelling, s, len) == 0)
            return slot->kind;
    }
}

/* ---- output -------------------------------------------------------------- */

static Span span_of(const Lexer *lx, uint32_t start, uint32_t end)
{
    return (Span){lx->file, start, end};
}

static void lex_error(Lexer *lx, uint32_t start, uint32_t end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void lex_error(Lexer *lx, uint32_t start, uint32_t end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(lx->diag, span_of(lx, start, end), fmt, ap);
    va_end(ap);
    lx->malformed = true; /* marks the token being made (see emit) */
    if (diag_too_many(lx->diag))
        lx->stopped = true;
}

static bool ends_statement(TokenKind kind)
{
    switch (kind) {
    case TK_IDENT: case TK_INT: case TK_FLOAT: case TK_STRING:
    case TK_TRUE: case TK_FALSE:
    case TK_RPAREN: case TK_RBRACKET: case TK_RBRACE:
    case TK_RETURN: case TK_BREAK: case TK_CONTINUE:
        return true;
    default:
        return false;
    }
}

static Token *emit(Lexer *lx, TokenKind kind, uint32_t start, uint32_t end)
{
    if (lx->count == lx->capacity) {
        uint32_t bigger = lx->capacity * 2;
        lx->tokens = arena_grow(lx->arena, lx->tokens, lx->count, bigger, sizeof(Token));
        lx->capacity = bigger;
    }
    Token *t = &lx->tokens[lx->count++];
    *t = (Token){.kind = kind, .span = span_of(lx, start, end), .malformed = lx->malformed};
    lx->malformed = false;
    lx->can_end = ends_statement(kind);
    return t;
}

/* ---- brackets and semicolon insertion ------------------------------------ */

static int bracket_index(TokenKind kind)
{
    switch (kind) {
    case TK_LPAREN: case TK_RPAREN: return 0;
    case TK_LBRACKET: case TK_RBRACKET: return 1;
    case TK_LBRACE: case TK_RBRACE: return 2;
    default: return -1;
    }
}

static void push_bracket(Lexer *lx, TokenKind opener)
{
    if (lx->depth == lx->bracket_capacity) {
        uint32_t bigger = lx->bracket_capacity ? 2 * lx->bracket_capacity : 64;
        lx->brackets = arena_grow(lx->arena, lx->brackets, lx->depth, bigger, 1);
        lx->bracket_capacity = bigger;
    }
    lx->brackets[lx->depth++] = (unsigned char)opener;
    lx->open[bracket_index(opener)]++;
}

/* Pops back to the closer's opener; pops nothing if none is open. */
static void pop_bracket(Lexer *lx, TokenKind closer)
{
    int want = bracket_index(closer);
    if (lx->open[want] == 0)
        return;
    int popped;
    do {
        popped = bracket_index((TokenKind)lx->brackets[--lx->depth]);
        lx->open[popped]--;
    } while (popped != want);
}

static void track_bracket(Lexer *lx, TokenKind kind)
{
    if (kind == TK_LPAREN || kind == TK_LBRACKET || kind == TK_LBRACE)
        push_bracket(lx, kind);
    else if (kind == TK_RPAREN || kind == TK_RBRACKET || kind == TK_RBRACE)
        pop_bracket(lx, kind);
}

static bool newline_may_end_statement(const Lexer *lx)
{
    if (!lx->can_end)
        return false;
    return lx->depth == 0 || lx->brackets[lx->depth - 1] == TK_LBRACE;
}

/* A line ends at `at`, the offset of its '\n', or of the '\r' of a
 * "\r\n" or a lone '\r'. */
static void end_line(Lexer *lx, uint32_t at)
{
    if (!newline_may_end_statement(lx))
        return;
    emit(lx, TK_SEMI, at, at)->implicit = true;
}

/* The first line end in text[from, to): a '\n' or a '\r', or NULL.  A
 * byte loop: a memchr for each of the two would rescan a file without
 * '\n' to its end for every comment. */
static const char *find_line_end(const char *from, const char *to)
{
    for (const char *p = from; p < to; p++)
        if (*p == '\n' || *p == '\r')
            return p;
    return NULL;
}

/* ---- whitespace and comments --------------------------------------------- */

static void skip_block_comment(Lexer *lx)
{
    const char *text = lx->text, *end = text + lx->len;
    const char *body = text + lx->pos + 2, *close = NULL;
    for (const char *p = body; p < end && (p = memchr(p, '*', (size_t)(end - p))) != NULL; p++) {
        if (p + 1 < end && p[1] == '/') {
            close = p;
            break;
        }
    }
    const char *body_end = close ? close : end;
    const char *newline = find_line_end(body, body_end);
    if (!close)
        lex_error(lx, lx->pos, lx->pos + 2, "unterminated block comment");
    if (newline)
        end_line(lx, (uint32_t)(newline - text));
    lx->pos = close ? (uint32_t)(close + 2 - text) : lx->len;
}

static void skip_line_comment(Lexer *lx)
{
    const char *from = lx->text + lx->pos;
    const char *newline = find_line_end(from, lx->text + lx->len);
    lx->pos = newline ? (uint32_t)(newline - lx->text) : lx->len; /* the line end ends the line */
}

/* Skips blanks and comments, inserting semicolons where lines end. */
static void skip_trivia(Lexer *lx)
{
    for (;;) {
        switch (lx->text[lx->pos]) {
        case ' ': case '\t': case '\f': case '\v':
            lx->pos++;
            break;
        case '\r': /* "\r\n" or a lone '\r': one line end */
            end_line(lx, lx->pos);
            lx->pos += lx->text[lx->pos + 1] == '\n' ? 2 : 1;
            break;
        case '\n':
            end_line(lx, lx->pos);
            lx->pos++;
            break;
        case '/':
            if (lx->text[lx->pos + 1] == '/')
                skip_line_comment(lx);
            else if (lx->text[lx->pos + 1] == '*')
                skip_block_comment(lx);
            else
                return;
            break;
        default:
            return;
        }
    }
}

/* ---- identifiers and keywords -------------------------------------------- */

static void lex_word(Lexer *lx)
{
    uint32_t start = lx->pos, end = start + 1;
    while (is_ident_char(lx->text[end]))
        end++;
    uint32_t len = end - start;
    TokenKind kind = lookup_word(&lx->tables, lx->text + start, len);
    Token *t = emit(lx, kind, start, end);
    if (kind == TK_IDENT) { /* the name in the source itself: no copy */
        t->text = lx->text + start;
        t->text_len = len;
    }
    lx->pos = end;
}

/* ---- numbers ------------------------------------------------------------- */

typedef struct NumberScan {
    uint32_t start, end;            /* the whole literal, suffix included */
    uint32_t digits, digits_end;    /* after any 0x/0b; the float's whole text */
    uint32_t suffix;                /* == end when there is none */
    unsigned base;
    bool is_float;
} NumberScan;

/* Skips digits (hex digits if `hex`) and '_' separators. */
static uint32_t skip_digits(const char *text, uint32_t p, bool hex)
{
    while ((hex ? is_hex_digit(text[p]) : is_digit(text[p])) || text[p] == '_')
        p++;
    return p;
}

/* A fraction needs a digit after the '.', so `0..n` and `1.foo` stay apart. */
static uint32_t scan_decimal_float_part(const char *text, uint32_t p, bool *is_float)
{
    if (text[p] == '.' && is_digit(text[p + 1])) {
        *is_float = true;
        p = skip_digits(text, p + 1, false);
    }
    if (text[p] == 'e' || text[p] == 'E') {
        uint32_t q = p + 1;
        if (text[q] == '+' || text[q] == '-')
            q++;
        if (is_digit(text[q])) {
            *is_float = true;
            p = skip_digits(text, q, false);
        }
    }
    return p;
}

static NumberScan scan_number(const Lexer *lx)
{
    const char *text = lx->text;
    NumberScan n = {.start = lx->pos, .base = 10};
    uint32_t p = lx->pos;
    char radix = text[p] == '0' ? text[p + 1] : 0;
    if (radix == 'x' || radix == 'X')
        n.base = 16;
    else if (radix == 'b' || radix == 'B')
        n.base = 2;
    if (n.base != 10)
        p += 2;
    n.digits = p;
    /* Binary literals take any decimal digit here, so `0b12` is reported
     * as a bad literal rather than as a suffix '2'. */
    p = skip_digits(text, p, n.base == 16);
    if (n.base == 10)
        p = scan_decimal_float_part(text, p, &n.is_float);
    n.digits_end = n.suffix = p;
    while (is_ident_char(text[p]))
        p++;
    n.end = p;
    return n;
}

static bool is_digit_of(char c, unsigned base)
{
    if (base == 16)
        return is_hex_digit(c);
    if (base == 2)
        return c == '0' || c == '1';
    return is_digit(c);
}

/* Every '_' between two digits, every digit of the base, and some digits. */
static bool digits_well_formed(const char *text, const NumberScan *n)
{
    if (n->digits == n->digits_end)
        return false;
    for (uint32_t p = n->digits; p < n->digits_end; p++) {
        char c = text[p];
        if (c == '_') {
            if (p == n->digits || !is_digit_of(text[p - 1], n->base) || !is_digit_of(text[p + 1], n->base))
                return false;
        } else if (!n->is_float && !is_digit_of(c, n->base)) {
            return false;
        }
    }
    return true;
}

static LiteralSuffix parse_suffix(const char *s, uint32_t len)
{
    static const struct { const char *text; LiteralSuffix suffix; } suffixes[] = {
        {"i32", SUFFIX_I32}, {"i64", SUFFIX_I64}, {"u32", SUFFIX_U32},
        {"u64", SUFFIX_U64}, {"f32", SUFFIX_F32}, {"f64", SUFFIX_F64},
    };
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
        if (len == 3 && memcmp(s, suffixes[i].text, 3) == 0)
            return suffixes[i].suffix;
    return SUFFIX_NONE;
}

static bool is_float_suffix(LiteralSuffix s)
{
    return s == SUFFIX_F32 || s == SUFFIX_F64;
}

/* The value of an integer's digits; saturates and sets *overflow. */
static uint64_t integer_value(const char *text, const NumberScan *n, bool *overflow)
{
    uint64_t value = 0;
    for (uint32_t p = n->digits; p < n->digits_end; p++) {
        char c = text[p];
        if (c == '_')
            continue;
        unsigned digit = is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
        if (value > (UINT64_MAX - digit) / n->base) {
            *overflow = true;
            return UINT64_MAX;
        }
        value = value * n->base + digit;
    }
    return value;
}

/* strtod on the digits without their separators.  (strtod follows the C
 * locale's decimal point, which silkc never changes.) */
static double float_value(Lexer *lx, const NumberScan *n, bool *overflow)
{
    char small[64];
    uint32_t len = n->digits_end - n->digits;
    char *clean = len < sizeof small ? small : arena_alloc(lx->arena, len + 1, 1);
    uint32_t k = 0;
    for (uint32_t p = n->digits; p < n->digits_end; p++)
        if (lx->text[p] != '_')
            clean[k++] = lx->text[p];
    clean[k] = '\0';
    double value = strtod(clean, NULL);
    *overflow = value > 1.7976931348623157e308; /* HUGE_VAL: beyond f64 */
    return value;
}

/* Checks the literal; reports it and returns false if it is malformed. */
static bool check_number(Lexer *lx, NumberScan *n, LiteralSuffix *suffix)
{
    const char *what = n->is_float ? "float" : "integer";
    if (!digits_well_formed(lx->text, n)) {
        lex_error(lx, n->start, n->end, "invalid %s literal", what);
        return false;
    }
    uint32_t suffix_len = n->end - n->suffix;
    *suffix = parse_suffix(lx->text + n->suffix, suffix_len);
    if (*suffix != SUFFIX_NONE && !n->is_float && is_float_suffix(*suffix) && n->base == 10)
        n->is_float = true; /* 1f32, as in Rust */
    bool fits = *suffix != SUFFIX_NONE && is_float_suffix(*suffix) == n->is_float;
    if (suffix_len > 0 && !fits) {
        lex_error(lx, n->start, n->end, "invalid suffix '%.*s' on %s literal", (int)suffix_len,
                  lx->text + n->suffix, what);
        *suffix = SUFFIX_NONE;
        return false;
    }
    return true;
}

static void lex_number(Lexer *lx)
{
    NumberScan n = scan_number(lx);
    LiteralSuffix suffix = SUFFIX_NONE;
    bool ok = check_number(lx, &n, &suffix);
    Token *t = emit(lx, n.is_float ? TK_FLOAT : TK_INT, n.start, n.end);
    t->suffix = suffix;
    bool overflow = false;
    if (ok && n.is_float)
        t->float_value = float_value(lx, &n, &overflow);
    else if (ok)
        t->int_value = integer_value(lx->text, &n, &overflow);
    t->overflow = overflow;
    lx->pos = n.end;
}

/* ---- strings ------------------------------------------------------------- */

static int hex_digit(char c)
{
    if (!is_hex_digit(c))
        return -1;
    return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Decodes the escape at text[p] ('\\'), appending to out; returns the
 * offset after it.  A bad escape is reported and adds nothing. */
static uint32_t decode_escape(Lexer *lx, uint32_t p, uint32_t end, char *out, uint32_t *n)
{
    const char *text = lx->text;
    char c = p + 1 < end ? text[p + 1] : '\0';
    switch (c) {
    case 'n': out[(*n)++] = '\n'; return p + 2;
    case 't': out[(*n)++] = '\t'; return p + 2;
    case '\\': out[(*n)++] = '\\'; return p + 2;
    case '"': out[(*n)++] = '"'; return p + 2;
    case 'x': {
        int hi = p + 2 < end ? hex_digit(text[p + 2]) : -1;
        int lo = p + 3 < end ? hex_digit(text[p + 3]) : -1;
        if (hi >= 0 && lo >= 0) {
            out[(*n)++] = (char)(hi * 16 + lo);
            return p + 4;
        }
        uint32_t bad_end = p + 2 + (hi >= 0);
        lex_error(lx, p, bad_end, "invalid '\\x' escape: expected two hex digits");
        return bad_end;
    }
    default:
        if (p + 1 >= end)
            return end; /* a '\' cut off by the end of an unterminated string */
        if (c > ' ' && c < 0x7f)
            lex_error(lx, p, p + 2, "unknown escape sequence '\\%c'", c);
        else
            lex_error(lx, p, p + 2, "unknown escape sequence: '\\' followed by byte 0x%02X",
                      (unsigned char)c);
        return p + 2;
    }
}

static void decode_string(Lexer *lx, Token *t, uint32_t from, uint32_t to, bool has_escape)
{
    if (!has_escape) {
        t->text = arena_strndup(lx->arena, lx->text + from, to - from);
        t->text_len = to - from;
        return;
    }
    char *out = arena_alloc(lx->arena, (size_t)(to - from) + 1, 1);
    uint32_t n = 0;
    for (uint32_t p = from; p < to && !lx->stopped;) {
        if (lx->text[p] == '\\')
            p = decode_escape(lx, p, to, out, &n);
        else
            out[n++] = lx->text[p++];
    }
    t->text = out;
    t->text_len = n;
}

/* Finds the closing quote; *closed is false when the line or file ends
 * first (the string then runs to there). */
static uint32_t scan_string(const Lexer *lx, uint32_t p, bool *closed, bool *has_escape)
{
    const char *text = lx->text;
    for (;; p++) {
        char c = text[p];
        if (c == '"') {
            *closed = true;
            return p;
        }
        if (c == '\n' || c == '\r' || (c == '\0' && p >= lx->len)) {
            *closed = false;
            return p;
        }
        if (c == '\\') {
            *has_escape = true;
            if (text[p + 1] != '\n' && text[p + 1] != '\r' && p + 1 < lx->len)
                p++;
        }
    }
}

static void lex_string(Lexer *lx)
{
    uint32_t start = lx->pos;
    bool closed = false, has_escape = false;
    uint32_t close = scan_string(lx, start + 1, &closed, &has_escape);
    uint32_t end = closed ? close + 1 : close;
    if (!closed)
        lex_error(lx, start, start + 1, "unterminated string");
    Token *t = emit(lx, TK_STRING, start, end);
    decode_string(lx, t, start + 1, close, has_escape);
    t->malformed = t->malformed || lx->malformed; /* a bad escape, found after emit */
    lx->malformed = false;
    lx->pos = end;
}

/* ---- punctuation and stray bytes ----------------------------------------- */

static bool spelled_at(const char *text, const char *spelling)
{
    for (uint32_t i = 1; spelling[i]; i++) /* text's NUL stops a mismatch */
        if (text[i] != spelling[i])
            return false;
    return true;
}

/* A byte that starts no token: report it and skip it (a whole UTF-8
 * sequence at once, so one stray character is one error). */
static void skip_stray(Lexer *lx)
{
    uint32_t start = lx->pos, end = start + 1;
    unsigned char c = (unsigned char)lx->text[start];
    if (c > ' ' && c < 0x7f) {
        lex_error(lx, start, end, "unexpected character '%c'", c);
    } else {
        if (c >= 0xc0)
            while (end < lx->len && end - start < 4 && ((unsigned char)lx->text[end] & 0xc0) == 0x80)
                end++;
        lex_error(lx, start, end, "unexpected byte 0x%02X", c);
    }
    emit(lx, TK_ERROR, start, end);
    lx->pos = end;
}

static void lex_punct(Lexer *lx)
{
    unsigned char c = (unsigned char)lx->text[lx->pos];
    if (c < 128) {
        for (const unsigned char *k = lx->tables.punct[c]; *k; k++) {
            TokenKind kind = (TokenKind)*k;
            if (spelled_at(lx->text + lx->pos, token_spelling[kind])) {
                uint32_t end = lx->pos + lx->tables.punct_len[kind];
                emit(lx, kind, lx->pos, end);
                track_bracket(lx, kind);
                lx->pos = end;
                return;
            }
        }
    }
    skip_stray(lx);
}

/* ---- the driver ---------------------------------------------------------- */

static void lex_token(Lexer *lx)
{
    char c = lx->text[lx->pos];
    if (is_ident_start(c))
        lex_word(lx);
    else if (is_digit(c))
        lex_number(lx);
    else if (c == '"')
        lex_string(lx);
    else
        lex_punct(lx);
}

static void lexer_init(Lexer *lx, const SourceMap *sources, uint32_t file, Diag *diag, Arena *arena)
{
    assert(file < sources->n_files);
    const SourceFile *f = &sources->files[file];
    memset(lx, 0, sizeof *lx);
    lx->text = f->text;
    lx->len = f->len;
    lx->file = file;
    lx->diag = diag;
    lx->arena = arena;
    /* Every token but an inserted ';' takes at least one byte, and an
     * inserted ';' takes a newline, so len + 2 tokens always suffice: the
     * array never has to grow (and be copied) for files up to the cap.
     * Reserving more than is used costs only address space: a large
     * chunk's untouched pages take no memory. */
    lx->capacity = (f->len + 2 < TOKEN_GUESS_MAX ? f->len + 2 : TOKEN_GUESS_MAX) + 16;
    lx->tokens = arena_alloc(arena, lx->capacity, sizeof(Token));
    build_tables(&lx->tables);
    if (f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0)
        lx->pos = 3; /* a UTF-8 byte-order mark */
}

TokenArray lex_file(const SourceMap *sources, uint32_t file, Diag *diag, Arena *arena)
{
    Lexer lx;
    lexer_init(&lx, sources, file, diag, arena);
    while (!lx.stopped) {
        skip_trivia(&lx);
        if (lx.pos >= lx.len)
            break;
        lex_token(&lx);
    }
    /* The end of the file ends the last line; it sits at the end of the last
     * line's text, so that "found end of file" points at that line. */
    uint32_t end = lx.len;
    if (end > 0 && lx.text[end - 1] == '\n')
        end -= end > 1 && lx.text[end - 2] == '\r' ? 2 : 1;
    else if (end > 0 && lx.text[end - 1] == '\r')
        end--;
    if (newline_may_end_statement(&lx))
        emit(&lx, TK_SEMI, end, end)->implicit = true;
    emit(&lx, TK_EOF, end, end);
    return (TokenArray){lx.tokens, lx.count};
}
