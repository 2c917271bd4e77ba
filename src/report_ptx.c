/*
 * report_ptx.c: what `ptxas -v` does not print about a PTX file's entry
 * functions: their performance directives (.maxntid, .reqntid,
 * .minnctapersm, .maxnreg), read from the text by a small scanner, and a
 * copy of the text with one entry's .maxnreg set, which is how the report
 * asks ptxas what a register cap costs (the directive is the per-kernel
 * form of --maxrregcount).
 */
#include "report_ptx.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skips blanks and comments (// to the end of the line, and block ones). */
static const char *skip_space(const char *p, const char *end)
{
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            const char *close = p + 2;
            while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
                close++;
            p = close + 1 < end ? close + 2 : end;
        } else {
            return p;
        }
    }
}

static bool is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool word_at(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0 && (p + n == end || !is_ident(p[n]));
}

/* "a" or "a, b, c": the product, the block size the directive means. */
static int read_dims(const char **pp, const char *end)
{
    long long product = 1;
    const char *p = *pp;
    for (int i = 0; i < 3; i++) {
        p = skip_space(p, end);
        if (p >= end || !isdigit((unsigned char)*p))
            break;
        product *= strtol(p, (char **)&p, 10);
        if (product > 1 << 20)
            product = 1 << 20;
        p = skip_space(p, end);
        if (p < end && *p == ',')
            p++;
        else
            break;
    }
    *pp = p;
    return (int)product;
}

/* The directives between an entry's parameter list and its body. */
static const char *read_directives(const char *p, const char *end, PtxEntry *e)
{
    int depth = 0;
    while (p < end) {
        p = skip_space(p, end);
        if (p >= end)
            break;
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (*p == '{' && depth == 0)
            break;
        else if (*p == ';' && depth == 0)
            return NULL; /* a declaration (.extern .entry): no body */
        if (depth == 0 && *p == '.') {
            const char *d = p;
            int *field = word_at(d, end, ".maxntid") ? &e->maxntid
                         : word_at(d, end, ".reqntid") ? &e->reqntid
                         : word_at(d, end, ".minnctapersm") ? &e->minnctapersm
                         : word_at(d, end, ".maxnreg") ? &e->maxnreg : NULL;
            while (p < end && is_ident(*p))
                p++;
            if (field) {
                if (field == &e->maxnreg)
                    e->maxnreg_at = (size_t)(d - e->text_start);
                *field = read_dims(&p, end);
            }
            continue;
        }
        p++;
    }
    e->body_at = (size_t)(p - e->text_start);
    return p;
}

int report_ptx_scan(const char *text, size_t len, Arena *arena, PtxEntry **out)
{
    const char *end = text + len;
    int n = 0, cap = 8;
    PtxEntry *entries = ARENA_ARRAY(arena, PtxEntry, (size_t)cap);
    for (const char *p = skip_space(text, end); p < end; p = skip_space(p, end)) {
        if (!word_at(p, end, ".entry")) {
            while (p < end && !isspace((unsigned char)*p) && *p != '/')
                p++;
            if (p < end && *p == '/')
                p++;
            continue;
        }
        p = skip_space(p + 6, end);
        const char *name = p;
        while (p < end && is_ident(*p))
            p++;
        if (n == cap) {
            entries = arena_grow(arena, entries, (size_t)cap, (size_t)cap * 2, sizeof *entries);
            cap *= 2;
        }
        PtxEntry *e = &entries[n];
        *e = (PtxEntry){.name = arena_strndup(arena, name, (size_t)(p - name)), .text_start = text,
                        .maxnreg_at = (size_t)-1};
        const char *body = read_directives(p, end, e);
        if (body)
            n++;
        p = body ? body + 1 : p;
    }
    *out = entries;
    return n;
}

/* The text with `e`'s .maxnreg set to `cap`: an old directive is blanked
 * and the new one written before the body. */
char *report_ptx_with_cap(const char *text, size_t len, const PtxEntry *e, int cap, Arena *arena,
                          size_t *out_len)
{
    char directive[32];
    int dlen = snprintf(directive, sizeof directive, ".maxnreg %d\n", cap);
    char *copy = arena_alloc(arena, len + (size_t)dlen + 1, 1);
    memcpy(copy, text, e->body_at);
    if (e->maxnreg_at != (size_t)-1)
        for (size_t i = e->maxnreg_at; i < e->body_at && copy[i] != '\n'; i++)
            copy[i] = ' ';
    memcpy(copy + e->body_at, directive, (size_t)dlen);
    memcpy(copy + e->body_at + dlen, text + e->body_at, len - e->body_at);
    *out_len = len + (size_t)dlen;
    copy[*out_len] = '\0';
    return copy;
}
