/*
 * demangle.c: libiberty's demangler with the options c++filt uses, and the
 * shortening of long demangled names for text output.  Shortening works on
 * the printed name: it pairs the '<' and '>' of template argument lists,
 * telling them from the operators that contain them (operator<,
 * operator->, a comparison inside parentheses), and gives up on a name it
 * cannot pair, which is then simply cut.
 */
#include "demangle.h"

#include <libiberty/demangle.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* c++filt's defaults.  The style is given rather than left to libiberty's
 * global current_demangling_style, so Rust, D and Java symbols stay
 * undemangled; DMGL_TYPES is left out, or a kernel named "i" would come
 * back as "int". */
enum { DEMANGLE_OPTIONS = DMGL_ANSI | DMGL_VERBOSE | DMGL_GNU_V3 };

char *demangle_symbol(const char *symbol)
{
    return symbol ? cplus_demangle(symbol, DEMANGLE_OPTIONS | DMGL_PARAMS) : NULL;
}

/* Without DMGL_PARAMS libiberty drops the parameters, the cv-qualifiers of
 * a member function and a template function's return type, and keeps the
 * rest: exactly c++filt -p. */
char *demangle_base_name(const char *symbol)
{
    return symbol ? cplus_demangle(symbol, DEMANGLE_OPTIONS) : NULL;
}

/* ---- shortening ---------------------------------------------------------- */

static const char ELLIPSIS[] = "\xe2\x80\xa6"; /* U+2026, one column */
enum { ELLIPSIS_LEN = sizeof ELLIPSIS - 1 };

/* Display columns of n bytes of UTF-8: one per character. */
static size_t width_of(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A template argument list: the offsets of its '<' and '>', how many lists
 * enclose it plus one, and the parenthesis depth at its '<'. */
typedef struct Span {
    size_t open, close;
    int depth, parens;
} Span;

/* A comma between two arguments of the list opened at owner. */
typedef struct Comma {
    size_t at, owner;
} Comma;

/* Every list and top-level comma of a name; arrays sized for the worst. */
typedef struct Lists {
    Span *spans, *stack;
    Comma *commas;
    size_t n_spans, n_stack, n_commas;
} Lists;

/* The length of the operator symbol after "operator" at s, 0 if none of
 * those containing '<', '>', '(' or '['. */
static size_t operator_symbol(const char *s)
{
    static const char *const symbols[] = {"<<=", ">>=", "<=>", "->*", "<<", ">>", "<=",
                                          ">=",  "->",  "()",  "[]",  "<",  ">"};
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        size_t n = strlen(symbols[i]);
        if (strncmp(s, symbols[i], n) == 0)
            return n;
    }
    return 0;
}

/* When "operator" starts at s[i], skips it and its symbol, returning the
 * offset after them (and after the one space libiberty puts before a '<'
 * that would otherwise touch the symbol's own); i itself otherwise. */
static size_t skip_operator(const char *s, size_t i, bool *template_follows)
{
    if ((i > 0 && is_ident(s[i - 1])) || strncmp(s + i, "operator", 8) != 0 || is_ident(s[i + 8]))
        return i;
    size_t j = i + 8 + operator_symbol(s + i + 8);
    if (s[j] == ' ' && s[j + 1] == '<')
        j++;
    *template_follows = s[j] == '<';
    return j;
}

static void open_list(Lists *l, size_t at, int parens)
{
    l->stack[l->n_stack] = (Span){.open = at, .depth = (int)l->n_stack + 1, .parens = parens};
    l->n_stack++;
}

/* A '>' closes the innermost list when it is at that list's parenthesis
 * depth; deeper, it is a comparison, which libiberty parenthesizes. */
static bool close_list(Lists *l, size_t at, int parens)
{
    if (l->n_stack == 0)
        return parens > 0;
    Span top = l->stack[l->n_stack - 1];
    if (parens > top.parens)
        return true;
    top.close = at;
    l->spans[l->n_spans++] = top;
    l->n_stack--;
    return true;
}

static void note_comma(Lists *l, size_t at, int parens)
{
    if (l->n_stack > 0 && l->stack[l->n_stack - 1].parens == parens)
        l->commas[l->n_commas++] = (Comma){.at = at, .owner = l->stack[l->n_stack - 1].open};
}

/* A ')' must close a parenthesis opened inside the innermost list. */
static bool close_paren(const Lists *l, int *parens)
{
    if (*parens == 0 || (l->n_stack > 0 && l->stack[l->n_stack - 1].parens == *parens))
        return false;
    --*parens;
    return true;
}

/* Pairs the brackets of s; false when they do not pair up. */
static bool scan_lists(const char *s, Lists *l)
{
    l->n_spans = l->n_stack = l->n_commas = 0;
    int parens = 0;
    bool template_follows = false;
    for (size_t i = 0; s[i];) {
        size_t next = skip_operator(s, i, &template_follows);
        if (next != i) {
            i = next;
            continue;
        }
        char c = s[i];
        if (c == '<' && (template_follows || (i > 0 && is_ident(s[i - 1]))))
            open_list(l, i, parens);
        else if (c == '>' && !close_list(l, i, parens))
            return false;
        else if (c == '(')
            parens++;
        else if (c == ')' && !close_paren(l, &parens))
            return false;
        else if (c == ',')
            note_comma(l, i, parens);
        template_follows = false;
        i += c == '-' && s[i + 1] == '>' ? 2 : 1;
    }
    return l->n_stack == 0 && parens == 0;
}

/* s with bytes [from, to) replaced by keep bytes of s from from, then an
 * ellipsis after sep; NULL when out of memory. */
static char *splice(const char *s, size_t from, size_t to, size_t keep, const char *sep)
{
    size_t len = strlen(s), seplen = strlen(sep);
    char *out = malloc(len - (to - from) + keep + seplen + ELLIPSIS_LEN + 1);
    if (!out)
        return NULL;
    char *p = out;
    memcpy(p, s, from + keep);
    p += from + keep;
    memcpy(p, sep, seplen);
    p += seplen;
    memcpy(p, ELLIPSIS, ELLIPSIS_LEN);
    p += ELLIPSIS_LEN;
    memcpy(p, s + to, len - to + 1);
    return out;
}

static size_t content_width(const char *s, const Span *sp)
{
    return width_of(s + sp->open + 1, sp->close - sp->open - 1);
}

static bool ends_with_ellipsis(const char *s, const Span *sp)
{
    size_t n = sp->close - sp->open - 1;
    return n >= ELLIPSIS_LEN && memcmp(s + sp->close - ELLIPSIS_LEN, ELLIPSIS, ELLIPSIS_LEN) == 0;
}

/* Rule 1: the most deeply nested inner list, then the longest, then the
 * leftmost (spans are in closing order, so compare openings). */
static const Span *pick_inner(const char *s, const Lists *l)
{
    const Span *best = NULL;
    size_t best_w = 0;
    for (size_t i = 0; i < l->n_spans; i++) {
        const Span *sp = &l->spans[i];
        size_t w = content_width(s, sp);
        if (sp->depth < 2 || w <= 1)
            continue;
        if (!best || sp->depth > best->depth ||
            (sp->depth == best->depth && (w > best_w || (w == best_w && sp->open < best->open)))) {
            best = sp;
            best_w = w;
        }
    }
    return best;
}

/* Rule 2: the longest outermost list not shortened yet, then the leftmost. */
static const Span *pick_outer(const char *s, const Lists *l)
{
    const Span *best = NULL;
    size_t best_w = 0;
    for (size_t i = 0; i < l->n_spans; i++) {
        const Span *sp = &l->spans[i];
        size_t w = content_width(s, sp);
        if (sp->depth != 1 || w <= 1 || ends_with_ellipsis(s, sp))
            continue;
        if (!best || w > best_w || (w == best_w && sp->open < best->open)) {
            best = sp;
            best_w = w;
        }
    }
    return best;
}

/* How many bytes of sp's arguments to keep so that s fits max_width with
 * ", …" after them: up to its last top-level comma that fits, or 0. */
static size_t arguments_that_fit(const char *s, const Lists *l, const Span *sp, size_t max_width)
{
    size_t others = width_of(s, strlen(s)) - content_width(s, sp);
    size_t keep = 0;
    for (size_t i = 0; i < l->n_commas; i++) {
        const Comma *c = &l->commas[i];
        size_t kept = c->at - sp->open - 1;
        if (c->owner == sp->open && others + width_of(s + sp->open + 1, kept) + 3 <= max_width &&
            kept > keep)
            keep = kept;
    }
    return keep;
}

/* One step of rules 1 and 2 on *s; false when neither applies. */
static bool shorten_step(char **s, Lists *l, size_t max_width)
{
    if (!scan_lists(*s, l))
        return false;
    const Span *sp = pick_inner(*s, l);
    size_t keep = 0;
    if (!sp) {
        sp = pick_outer(*s, l);
        if (!sp)
            return false;
        keep = arguments_that_fit(*s, l, sp, max_width);
    }
    char *out = splice(*s, sp->open + 1, sp->close, keep, keep ? ", " : "");
    if (!out)
        return false;
    free(*s);
    *s = out;
    return true;
}

/* Bytes in the UTF-8 character starting at s. */
static size_t char_length(const char *s)
{
    size_t n = 1;
    while (((unsigned char)s[n] & 0xC0) == 0x80)
        n++;
    return n;
}

/* Copies s into buf whole, or (when it is wider than max_width) its first
 * max_width - 1 characters and an ellipsis; never splits a character, and
 * stops early when buf is too small. */
static void copy_cut(const char *s, size_t max_width, char *buf, size_t size)
{
    bool cut = width_of(s, strlen(s)) > max_width && max_width > 0;
    size_t room = size - 1;
    bool ellipsis = cut && room >= ELLIPSIS_LEN;
    if (ellipsis)
        room -= ELLIPSIS_LEN;
    size_t n = 0, w = 0;
    while (s[n] && w < (cut ? max_width - 1 : max_width) && n + char_length(s + n) <= room) {
        n += char_length(s + n);
        w++;
    }
    memcpy(buf, s, n);
    if (ellipsis) {
        memcpy(buf + n, ELLIPSIS, ELLIPSIS_LEN);
        n += ELLIPSIS_LEN;
    }
    buf[n] = '\0';
}

void demangle_shorten(const char *name, size_t max_width, char *buf, size_t size)
{
    if (size == 0)
        return;
    size_t len = strlen(name);
    char *s = width_of(name, len) > max_width ? strdup(name) : NULL;
    Lists l = {0};
    if (s) {
        l.spans = malloc((len + 1) * sizeof *l.spans);
        l.stack = malloc((len + 1) * sizeof *l.stack);
        l.commas = malloc((len + 1) * sizeof *l.commas);
    }
    if (s && l.spans && l.stack && l.commas)
        while (width_of(s, strlen(s)) > max_width && shorten_step(&s, &l, max_width))
            ;
    copy_cut(s ? s : name, max_width, buf, size);
    free(l.spans);
    free(l.stack);
    free(l.commas);
    free(s);
}
