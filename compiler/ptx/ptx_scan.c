/*
 * ptx_scan.c: what `ptxas -v` does not print about a PTX file's entry
 * functions: their performance directives (.maxntid, .reqntid,
 * .minnctapersm, .maxnreg), read from the text by a small scanner, and a
 * copy of the text with the entries' .maxnreg set, which is how the report
 * asks ptxas what a register cap costs (the directive is the per-kernel
 * form of --maxrregcount), or with their capping directives removed, which
 * is how it asks what the kernel's own bound costs.
 */
#include "ptx_scan.h"

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

/* "x, y, z" of .reqnctapercluster, each dimension (1 when left out). */
static void read_each_dim(const char **pp, const char *end, int dims[3])
{
    const char *p = *pp;
    dims[0] = dims[1] = dims[2] = 1;
    for (int i = 0; i < 3; i++) {
        p = skip_space(p, end);
        if (p >= end || !isdigit((unsigned char)*p))
            break;
        long v = strtol(p, (char **)&p, 10);
        dims[i] = v > 1 << 20 ? 1 << 20 : (int)v;
        p = skip_space(p, end);
        if (p < end && *p == ',')
            p++;
        else
            break;
    }
    *pp = p;
}

/* The cluster directives: .reqnctapercluster (__cluster_dims__), the
 * .explicitcluster that comes with it and .maxclusterrank
 * (__launch_bounds__'s third value).  False for any other directive. */
static bool read_cluster_directive(const char *d, const char **pp, const char *end, PtxEntry *e)
{
    if (word_at(d, end, ".explicitcluster")) {
        e->explicit_cluster = true;
        return true;
    }
    if (word_at(d, end, ".reqnctapercluster")) {
        read_each_dim(pp, end, e->cluster);
        return true;
    }
    if (word_at(d, end, ".maxclusterrank")) {
        e->maxclusterrank = read_dims(pp, end);
        return true;
    }
    return false;
}

/* Where a register-capping directive lies, from `d` to `p`. */
static void note_bound(PtxEntry *e, const int *field, const char *d, const char *p)
{
    int b = field == &e->maxntid        ? PTX_BOUND_MAXNTID
            : field == &e->minnctapersm ? PTX_BOUND_MINNCTAPERSM
            : field == &e->maxnreg      ? PTX_BOUND_MAXNREG
                                        : -1;
    if (b < 0)
        return;
    e->bound_at[b] = (size_t)(d - e->text_start);
    e->bound_end[b] = (size_t)(p - e->text_start);
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
            if (!field && read_cluster_directive(d, &p, end, e))
                continue;
            if (field) {
                if (field == &e->maxnreg)
                    e->maxnreg_at = (size_t)(d - e->text_start);
                *field = read_dims(&p, end);
                note_bound(e, field, d, p);
            }
            continue;
        }
        p++;
    }
    e->body_at = (size_t)(p - e->text_start);
    return p;
}

/* The start of the line holding `p` (where `.visible .entry` begins). */
static size_t line_start(const char *text, const char *p)
{
    while (p > text && p[-1] != '\n')
        p--;
    return (size_t)(p - text);
}

/* Just past the '}' that closes the body opening at `body_at`; braces in
 * // comments do not count (PTX has no string literals). */
static size_t body_end(const char *text, size_t len, size_t body_at)
{
    int depth = 0;
    for (size_t i = body_at; i < len; i++) {
        if (text[i] == '/' && i + 1 < len && text[i + 1] == '/')
            while (i < len && text[i] != '\n')
                i++;
        else if (text[i] == '{')
            depth++;
        else if (text[i] == '}' && --depth == 0)
            return i + 1;
    }
    return len;
}

/* Whether text[from, to) holds `name` as a whole identifier. */
static bool mentions(const char *text, size_t from, size_t to, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = from; i + n <= to; i++)
        if (memcmp(text + i, name, n) == 0 && (i == from || !is_ident(text[i - 1])) &&
            (i + n == to || !is_ident(text[i + n])))
            return true;
    return false;
}

/* A function's name and body, as the scan meets it. */
typedef struct Span {
    const char *name;
    size_t body_at, end_at;
} Span;

typedef struct NameList {
    const char **names;
    int n, cap;
} NameList;

static void push_name(NameList *l, const char *name, Arena *arena)
{
    if (l->n == l->cap) {
        int grown = l->cap ? l->cap * 2 : 8;
        l->names = arena_grow(arena, l->names, (size_t)l->cap, (size_t)grown, sizeof *l->names);
        l->cap = grown;
    }
    l->names[l->n++] = name;
}

static bool mentions_any(const char *text, const Span *f, const NameList *l)
{
    for (int i = 0; i < l->n; i++)
        if (mentions(text, f->body_at, f->end_at, l->names[i]))
            return true;
    return false;
}

/* "NAME" of `.extern .shared .align 16 .b8 NAME[];` from p, just past
 * ".shared"; NULL for anything else. */
static const char *extern_shared_name(const char *p, const char *end, Arena *arena)
{
    const char *name = NULL;
    for (p = skip_space(p, end); p < end && *p != ';' && *p != '['; p = skip_space(p, end)) {
        name = p;
        while (p < end && is_ident(*p))
            p++;
        if (p == name)
            return NULL;
    }
    return p < end && *p == '[' && name ? arena_strndup(arena, name, (size_t)(p - name)) : NULL;
}

/* Which entries use dynamic shared memory: those whose body names an
 * `.extern .shared` array, or calls a function that does (so on, to any
 * depth: a function that calls one that does, does). */
static void mark_extern_smem(const char *text, PtxEntry *entries, int n, const Span *funcs,
                             int n_funcs, NameList *names, Arena *arena)
{
    if (names->n == 0)
        return;
    bool *tainted = ARENA_ARRAY(arena, bool, (size_t)n_funcs + 1);
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < n_funcs; i++)
            if (!tainted[i] && mentions_any(text, &funcs[i], names)) {
                tainted[i] = grew = true;
                push_name(names, funcs[i].name, arena);
            }
    }
    for (int i = 0; i < n; i++) {
        Span body = {entries[i].name, entries[i].body_at, entries[i].end_at};
        entries[i].extern_smem = mentions_any(text, &body, names);
    }
}

/* A .func with a body at p (just past ".func"): its name and body. */
static const char *scan_func(const char *text, const char *p, const char *end, Span *f,
                             Arena *arena)
{
    p = skip_space(p, end);
    if (p < end && *p == '(') { /* the return parameters */
        while (p < end && *p != ')')
            p++;
        p = skip_space(p + (p < end), end);
    }
    const char *name = p;
    while (p < end && is_ident(*p))
        p++;
    PtxEntry scratch = {.text_start = text};
    const char *body = read_directives(p, end, &scratch);
    if (!body || p == name)
        return body ? body + 1 : p;
    *f = (Span){arena_strndup(arena, name, (size_t)(p - name)), scratch.body_at,
                body_end(text, (size_t)(end - text), scratch.body_at)};
    return text + f->end_at;
}

int ptx_scan_entries(const char *text, size_t len, Arena *arena, PtxEntry **out)
{
    const char *end = text + len;
    int n = 0, cap = 8, n_funcs = 0, funcs_cap = 0;
    PtxEntry *entries = ARENA_ARRAY(arena, PtxEntry, (size_t)cap);
    Span *funcs = NULL;
    NameList shared = {0};
    for (const char *p = skip_space(text, end); p < end; p = skip_space(p, end)) {
        if (word_at(p, end, ".extern")) {
            const char *q = skip_space(p + 7, end);
            const char *name = word_at(q, end, ".shared") ? extern_shared_name(q + 7, end, arena)
                                                          : NULL;
            if (name)
                push_name(&shared, name, arena);
        }
        if (word_at(p, end, ".func")) {
            if (n_funcs == funcs_cap) {
                int grown = funcs_cap ? funcs_cap * 2 : 8;
                funcs = arena_grow(arena, funcs, (size_t)funcs_cap, (size_t)grown, sizeof *funcs);
                funcs_cap = grown;
            }
            Span f = {0};
            p = scan_func(text, p + 5, end, &f, arena);
            if (f.name)
                funcs[n_funcs++] = f;
            continue;
        }
        if (!word_at(p, end, ".entry")) {
            while (p < end && !isspace((unsigned char)*p) && *p != '/')
                p++;
            if (p < end && *p == '/')
                p++;
            continue;
        }
        const char *entry = p;
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
                        .start_at = line_start(text, entry), .maxnreg_at = (size_t)-1,
                        .bound_at = {(size_t)-1, (size_t)-1, (size_t)-1}};
        const char *body = read_directives(p, end, e);
        if (body) {
            e->end_at = body_end(text, len, e->body_at);
            n++;
        }
        p = body ? text + e->end_at : p;
    }
    mark_extern_smem(text, entries, n, funcs, n_funcs, &shared, arena);
    *out = entries;
    return n;
}

/* Appends n bytes to the growing copy. */
static void put(char **buf, size_t *len, size_t *room, const char *p, size_t n, Arena *arena)
{
    if (*len + n + 1 > *room) {
        size_t grown = 2 * (*len + n + 1);
        *buf = arena_grow(arena, *buf, *room, grown, 1);
        *room = grown;
    }
    memcpy(*buf + *len, p, n);
    *len += n;
    (*buf)[*len] = '\0';
}

/* Entry `e` with `.maxnreg cap`: an old directive is blanked (its offsets
 * stay), the new one goes just before the body. */
static void put_capped(char **buf, size_t *len, size_t *room, const char *text, const PtxEntry *e,
                       int cap, Arena *arena)
{
    size_t mark = *len;
    put(buf, len, room, text + e->start_at, e->body_at - e->start_at, arena);
    if (e->maxnreg_at != (size_t)-1)
        for (size_t i = mark + e->maxnreg_at - e->start_at; i < *len && (*buf)[i] != '\n'; i++)
            (*buf)[i] = ' ';
    char directive[32];
    int n = snprintf(directive, sizeof directive, ".maxnreg %d\n", cap);
    put(buf, len, room, directive, (size_t)n, arena);
    put(buf, len, room, text + e->body_at, e->end_at - e->body_at, arena);
}

/* Entry `e` without its register-capping directives: each blanked where
 * it lies (a line may hold several), so the text keeps its offsets. */
static void put_unbounded(char **buf, size_t *len, size_t *room, const char *text,
                          const PtxEntry *e, Arena *arena)
{
    size_t mark = *len;
    put(buf, len, room, text + e->start_at, e->end_at - e->start_at, arena);
    for (int b = 0; b < PTX_N_BOUNDS; b++) {
        if (e->bound_at[b] == (size_t)-1)
            continue;
        /* The extent runs to the next token: its newlines stay lines. */
        char *at = *buf + mark + e->bound_at[b] - e->start_at;
        for (size_t i = 0; i < e->bound_end[b] - e->bound_at[b]; i++)
            if (at[i] != '\n')
                at[i] = ' ';
    }
}

char *ptx_with_register_caps(const char *text, size_t len, const PtxEntry *e, int n, const int *caps,
                           Arena *arena, size_t *out_len)
{
    size_t room = len + 64 * (size_t)n + 1, used = 0, at = 0;
    char *buf = arena_alloc(arena, room, 1);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        put(&buf, &used, &room, text + at, e[i].start_at - at, arena);
        if (caps[i] > 0)
            put_capped(&buf, &used, &room, text, &e[i], caps[i], arena);
        else if (caps[i] == PTX_CAP_UNBOUNDED)
            put_unbounded(&buf, &used, &room, text, &e[i], arena);
        else if (caps[i] == 0)
            put(&buf, &used, &room, text + e[i].start_at, e[i].end_at - e[i].start_at, arena);
        at = e[i].end_at;
    }
    put(&buf, &used, &room, text + at, len - at, arena);
    *out_len = used;
    return buf;
}
